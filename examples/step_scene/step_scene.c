/* step_scene.c — step a simulation from a program of one's own (sim/sim_api.h): load a scene,
 * open a simulation, step it, read the particles in place, write a frame and summary.json.
 * usage: step_scene SCENE.json OUT_DIR STEPS [KEY=VALUE]... (the assignments are vbc run's --set)
 * Prints, every STEPS/4 steps, the time, the deepest fluid particle's pressure and the primary
 * stage's iterations; then the mean pressure of the bottom fluid row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vbc/vbc.h>

static int fail(const vbc_error *err) {
  fprintf(stderr, "step_scene: %s\n", err->message);
  return err->code;
}

/* Row i, component c of a view of doubles. */
static double at(const vbc_array_view *v, size_t i, size_t c) {
  return *(const double *)((const char *)v->data + i * v->stride + c * v->element_size);
}

/* The pressure of the lowest fluid particle and the mean over the fluid within l/2 of it. */
static void bottom_pressure(const vbc_simulation *sim, double spacing, double *deepest,
                            double *row_mean) {
  vbc_array_view pos, pressure, kind;
  vbc_error err = {0};
  vbc_simulation_field(sim, VBC_FIELD_POSITION, &pos, &err);
  vbc_simulation_field(sim, VBC_FIELD_PRESSURE, &pressure, &err);
  vbc_simulation_field(sim, VBC_FIELD_KIND, &kind, &err);
  const unsigned char *k = kind.data;
  size_t low = pos.length;
  for (size_t i = 0; i < pos.length; ++i)
    if (k[i] == VBC_FLUID && (low == pos.length || at(&pos, i, 1) < at(&pos, low, 1))) low = i;
  double sum = 0.0;
  size_t n = 0;
  for (size_t i = 0; low < pos.length && i < pos.length; ++i)
    if (k[i] == VBC_FLUID && at(&pos, i, 1) < at(&pos, low, 1) + 0.5 * spacing)
      sum += at(&pressure, i, 0), ++n;
  *deepest = low < pos.length ? at(&pressure, low, 0) : 0.0;
  *row_mean = n ? sum / (double)n : 0.0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: step_scene SCENE.json OUT_DIR STEPS [KEY=VALUE]...\n");
    return 2;
  }
  const long steps = strtol(argv[3], NULL, 10);
  vbc_registry registry;
  vbc_error err = {0};
  vbc_scene scene;
  if (vbc_registry_builtin(&registry, &err) != VBC_OK ||
      vbc_scene_load(&scene, argv[1], (const char *const *)argv + 4, argc - 4, &registry, &err) !=
          VBC_OK)
    return fail(&err);
  vbc_simulation *sim;
  if (vbc_simulation_open(&sim, &scene, NULL, &err) != VBC_OK) {
    vbc_scene_free(&scene);
    return fail(&err);
  }
  printf("particles %zu fluid %zu bodies %zu\n", vbc_simulation_particles(sim),
         vbc_simulation_fluid_particles(sim), vbc_simulation_bodies(sim));
  const long chunk = steps >= 4 ? steps / 4 : 1;
  int rc = VBC_OK;
  for (long done = 0; done < steps && rc == VBC_OK; done += chunk) {
    rc = vbc_simulation_step(sim, done + chunk <= steps ? chunk : steps - done, &err);
    double deepest, row;
    bottom_pressure(sim, scene.spacing, &deepest, &row);
    const char *report = vbc_simulation_report_json(sim, &err);
    const char *it = report ? strstr(report, "\"iterations\":") : NULL;
    int iterations = -1;
    if (it) sscanf(it, "\"iterations\":%d", &iterations);
    printf("step %ld t %.6g deepest_pressure %.6g iterations %d\n",
           vbc_simulation_step_index(sim), vbc_simulation_time(sim), deepest, iterations);
  }
  if (rc == VBC_OK) rc = vbc_simulation_write_frame(sim, argv[2], &err);
  if (rc == VBC_OK) rc = vbc_simulation_write_summary(sim, argv[2], &err);
  double deepest, row;
  bottom_pressure(sim, scene.spacing, &deepest, &row);
  printf("bottom_row_pressure %.6g\n", row);
  vbc_simulation_close(sim);
  vbc_scene_free(&scene);
  return rc != VBC_OK ? fail(&err) : 0;
}
