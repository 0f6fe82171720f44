/* sph_passes.c — sph_density's residual and apply passes against the dfsph block's
 * (solvers/blocks/dfsph_passes.c: Bender & Koschier 2017 eq. 9 and the pressure update of
 * Algorithms 2-3, each row's sums per component in two halves; plain loops and their AVX-512VL
 * form), timed on the same rows of a scene's state in one process, the forms alternating pass by
 * pass so that all see the same load on a shared machine.
 *
 *   build/sph_passes SCENE.json [--steps N] [--reps N] [--set KEY=VALUE]...
 *
 * The scene (without bodies) runs N steps (default 50) with its own method, then an sph_density
 * block (its default parameters) prepares rows on that state, and each pass runs --reps times
 * (default 200) per form. Prints microseconds per pass (medians over the repetitions), the
 * largest difference of each form's results from sph_density's relative to the largest value,
 * and whether the two dfsph forms give the same bits. Not a test. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/builtin.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/dfsph_passes.h"

enum { MAX_SETS = 32 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void die(const char *what, const vbc_error *err) {
  fprintf(stderr, "sph_passes: %s: %s\n", what, err ? err->message : "out of memory");
  exit(err && err->code ? err->code : 1);
}

static double worst_relative(const double *a, const double *b, size_t n) {
  double worst = 0.0, size = 0.0;
  for (size_t k = 0; k < n; ++k) {
    worst = fmax(worst, fabs(a[k] - b[k]));
    size = fmax(size, fabs(a[k]));
  }
  return size > 0.0 ? worst / size : worst;
}

int main(int argc, char **argv) {
  const char *sets[MAX_SETS];
  int nsets = 0, steps = 50, reps = 200;
  const char *path = NULL;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--steps") && a + 1 < argc) steps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--set") && a + 1 < argc && nsets < MAX_SETS) sets[nsets++] = argv[++a];
    else if (argv[a][0] != '-' && !path) path = argv[a];
    else {
      fprintf(stderr, "usage: sph_passes SCENE.json [--steps N] [--reps N] [--set KEY=VALUE]...\n");
      return 2;
    }
  }
  if (!path || reps < 1) {
    fprintf(stderr, "usage: sph_passes SCENE.json [--steps N] [--reps N] [--set KEY=VALUE]...\n");
    return 2;
  }
  vbc_error err = {0};
  vbc_registry reg;
  if (vbc_registry_builtin(&reg, &err) != VBC_OK) die("registry", &err);
  vbc_scene scene;
  if (vbc_scene_load(&scene, path, sets, nsets, &reg, &err) != VBC_OK) die(path, &err);
  vbc_sim sim;
  if (vbc_sim_init(&sim, &scene, &err) != VBC_OK) die("init", &err);
  for (int s = 0; s < steps; ++s) {
    vbc_step_report rep = {0}; /* no trace: vbc_solve reads rep.trace */
    if (vbc_sim_step(&sim, &rep, &err) != VBC_OK) die("step", &err);
  }
  if (vbc_sim_neighbours(&sim, &err) != VBC_OK) die("neighbours", &err);
  vbc_system *sys = &sim.sys;
  if (sys->nbodies) {
    fprintf(stderr, "sph_passes: the scene has bodies; dfsph's own passes run without them\n");
    return 2;
  }
  cJSON *params = cJSON_CreateObject();
  double support = 0.0;
  void *sph = params ? vbc_block_sph_density.alloc(params, sys, &support, &err) : NULL;
  if (sph == NULL) die("sph_density", params ? &err : NULL);
  vbc_rows rows = {0};
  if (vbc_block_sph_density.prepare(sph, sys, &rows, &err) != VBC_OK) die("prepare", &err);
  vbc_sph_rows_view view;
  vbc_sph_density_view(sph, &view);
  const size_t n = rows.n, np = sys->particles->n;
  const int uniform = vbc_dfsph_uniform_volume(&view, np);
  const int wide = vbc_dfsph_wide_available();
  double *res[3], *t[6], *d = malloc(n * sizeof *d);
  vbc_vec *v0 = malloc(np * sizeof *v0), *vel[3];
  int ok = d && v0;
  for (int k = 0; k < 3; ++k) {
    res[k] = malloc(n * sizeof *res[k]), vel[k] = malloc(np * sizeof *vel[k]);
    ok = ok && res[k] && vel[k];
  }
  for (int k = 0; k < 6; ++k) ok = ok && (t[k] = malloc((size_t)reps * sizeof *t[k]));
  if (!ok) die("buffers", NULL);
  memcpy(v0, sys->particles->vel, np * sizeof *v0);
  for (size_t k = 0; k < n; ++k) d[k] = 1e-9 * (double)(k % 7);
  /* form 0: sph_density's passes; 1: dfsph's plain loops; 2: dfsph's AVX-512VL loops */
  const int forms = wide ? 3 : 2;
  for (int k = 0; k < reps; ++k) {
    for (int form = 0; form < forms; ++form) {
      double t0 = omp_get_wtime();
      if (form == 0) vbc_block_sph_density.residual(sph, sys, &rows, res[0]);
      else vbc_dfsph_residual_pass(&view, sys, &rows, uniform, form == 2, res[form]);
      t[2 * form][k] = omp_get_wtime() - t0;
      memcpy(sys->particles->vel, v0, np * sizeof *v0);
      t0 = omp_get_wtime();
      if (form == 0) vbc_block_sph_density.apply(sph, sys, &rows, d);
      else vbc_dfsph_apply_pass(&view, sys, form == 2, d);
      t[2 * form + 1][k] = omp_get_wtime() - t0;
      memcpy(vel[form], sys->particles->vel, np * sizeof *v0);
      memcpy(sys->particles->vel, v0, np * sizeof *v0);
    }
  }
  size_t pairs = 0;
  for (size_t r = 0; r < n; ++r) {
    const size_t i = view.particle_of[r];
    pairs += sys->nbrs->start[i + 1] - sys->nbrs->start[i];
  }
  printf("rows %zu, pairs of rows %zu, threads %d, uniform volumes %d, reps %d\n", n, pairs,
         omp_get_max_threads(), uniform, reps);
  static const char *const names[] = {"sph_density", "dfsph plain", "dfsph AVX-512VL"};
  for (int form = 0; form < forms; ++form)
    printf("%-16s residual %7.1f us, apply %7.1f us; against sph_density: %.2e, %.2e relative\n",
           names[form], 1e6 * median(t[2 * form], reps), 1e6 * median(t[2 * form + 1], reps),
           worst_relative(res[0], res[form], n),
           worst_relative((const double *)vel[0], (const double *)vel[form], 3 * np));
  if (wide)
    printf("plain and AVX-512VL forms bitwise equal: residual %s, apply %s\n",
           memcmp(res[1], res[2], n * sizeof *res[1]) ? "NO" : "yes",
           memcmp(vel[1], vel[2], np * sizeof *vel[1]) ? "NO" : "yes");
  for (int k = 0; k < 6; ++k) free(t[k]);
  for (int k = 0; k < 3; ++k) free(res[k]), free(vel[k]);
  free(d), free(v0);
  vbc_rows_free(&rows);
  vbc_block_sph_density.free(sph);
  cJSON_Delete(params);
  vbc_sim_free(&sim);
  vbc_scene_free(&scene);
  return 0;
}
