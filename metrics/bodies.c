/* bodies.c — rigid bodies, with or without fluid (Miyamoto & Koshizuka §5.1, §5.7).
 *
 * Metrics:
 *   max_penetration        the largest overlap l - r of a rigid particle with a particle of
 *                          another body or a wall over the run, divided by l (fluid excluded).
 *                          Depths are those of the neighbour list at the start of every step,
 *                          where contact rows are built, and once more at the final positions
 *                          (metrics/penetration.c, shared with the buoyancy benchmark). The
 *                          paper's pile shows "no penetration" (§5.1);
 *   max_fluid_penetration  the same for a fluid particle against a rigid or wall particle;
 *   snapshot_penetration   the deepest body overlap at the snapshot times only (t = 0 and every
 *                          snapshot_interval; the final state when there are none), at the
 *                          particles' positions then, divided by l: what a reader of the
 *                          paper's snapshots (Fig. 3, 16) can see, where max_penetration also
 *                          counts the overlap a contact meets in the middle of a step;
 *   max_body_drift         the largest distance of a free body's centre from its starting point
 *                          over the run, divided by l (a resting body's drift);
 *   max_pin_drift          the largest distance between a pinned body's material pin point and
 *                          its pin over the run (after every step), divided by l (0 without pins);
 *   final_kinetic_energy   sum over the bodies of 1/2 m v^2 + 1/2 w.I w at the end [J, J/m in 2D];
 *   max_compression        the largest (n_i - n0)/n0 of a fluid particle over the run (0 without
 *                          fluid): the MPS-LCP bound on compression (§2.4);
 *   mean_compression       the time average of the mean over fluid particles of
 *                          max(0, n_i - n0)/n0 — expansion at a free surface is allowed by the
 *                          LCP, so only compression counts as deviation.
 * n_i is that of the rows of each step (the start of the step).
 * With snapshot_interval > 0, snapshots.csv gets the particles of every body (time, x, y, z, body)
 * at t = 0 and every snapshot_interval after, for drawings like the paper's Fig. 3 and 16. */
#include <math.h>
#include <stdlib.h>

#include "metrics/metrics.h"
#include "io/files.h"
#include "sim/sim.h"

typedef struct bodies_state {
  vbc_penetration pen;
  double max_compression, compression_sum, max_pin_drift;
  double max_drift;
  double snap_depth; /* the deepest body overlap at a snapshot [m] */
  vbc_vec *x0; /* per body: its centre at t = 0 */
  long samples;
  long snap_every; /* steps between snapshots, 0: none */
  char *snap;      /* the snapshot rows so far */
  size_t snap_len, snap_cap;
} bodies_state;

static const vbc_param_spec bodies_params[] = {
    {"snapshot_interval", VBC_PARAM_NUMBER, 0.0, 0.0, 1e6, 0,
     "write the bodies' particles to snapshots.csv every this many seconds (0: never)"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *bodies_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  if (sim->scene->nbodies == 0) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: bodies: expected at least one body for the bodies "
                  "benchmark", sim->scene->file);
    return NULL;
  }
  bodies_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  if ((s->x0 = vbc_calloc(sim->sys.nbodies, sizeof *s->x0, err)) == NULL) {
    free(s);
    return NULL;
  }
  for (size_t k = 0; k < sim->sys.nbodies; ++k) s->x0[k] = sim->bodies[k].x;
  double every = vbc_param_number(params, bodies_params, "snapshot_interval");
  s->snap_every = every > 0.0 ? lround(fmax(1.0, every / sim->sys.dt)) : 0;
  return s;
}

static void bodies_free(void *state) {
  bodies_state *s = state;
  free(s->x0);
  free(s->snap);
  free(s);
}

static int snapshot(bodies_state *s, const vbc_sim *sim, vbc_error *err) {
  const vbc_particles *p = &sim->particles;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_RIGID) continue;
    if (vbc_grow(&s->snap_cap, s->snap_len + 128, (void *[]){&s->snap}, (size_t[]){1}, 1, err) !=
        VBC_OK)
      return err->code;
    s->snap_len += (size_t)snprintf(s->snap + s->snap_len, s->snap_cap - s->snap_len,
                                    "%.6g,%.6g,%.6g,%.6g,%d\n", sim->time, p->pos[i].x,
                                    p->pos[i].y, p->pos[i].z, p->body[i]);
  }
  return VBC_OK;
}

static double bodies_kinetic_energy(const vbc_sim *sim) {
  double e = 0.0;
  for (size_t k = 0; k < sim->sys.nbodies; ++k)
    e += vbc_body_kinetic_energy(&sim->bodies[k], sim->sys.dim);
  return e;
}

static int bodies_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  bodies_state *s = state;
  for (size_t k = 0; k < sim->sys.nbodies; ++k) {
    const vbc_body *b = &sim->bodies[k];
    if (b->motion == VBC_MOTION_FREE)
      s->max_drift = fmax(s->max_drift, vbc_vec_norm(vbc_vec_sub(b->x, s->x0[k])));
    if (b->motion != VBC_MOTION_PINNED) continue;
    s->max_pin_drift =
        fmax(s->max_pin_drift, vbc_vec_norm(vbc_vec_sub(vbc_body_pin_point(b), b->pin)));
  }
  if (s->snap_every && sim->step % s->snap_every == 0) {
    if (snapshot(s, sim, err) != VBC_OK) return err->code;
    s->snap_depth = fmax(s->snap_depth, vbc_penetration_now(sim));
  }
  vbc_penetration_observe(&s->pen, sim);
  if (sim->step == 0) return VBC_OK; /* no fluid rows have been prepared yet */
  const vbc_particles *p = &sim->particles;
  const double n0 = sim->mps.n0;
  double sum = 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    double dev = (p->number_density[i] - n0) / n0;
    s->max_compression = fmax(s->max_compression, dev);
    sum += fmax(0.0, dev);
  }
  if (sim->nfluid) s->compression_sum += sum / (double)sim->nfluid;
  s->samples++;
  return VBC_OK;
}

static void bodies_series(void *state, const vbc_sim *sim, FILE *out) {
  (void)state;
  fprintf(out, ",%.9g,%.6g,%.6g", bodies_kinetic_energy(sim),
          vbc_coupling_block_figure(&sim->coupling, "depth_body", 0.0) / sim->sys.spacing,
          vbc_coupling_block_figure(&sim->coupling, "depth_fluid", 0.0) / sim->sys.spacing);
}

static int bodies_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                          vbc_error *err) {
  bodies_state *s = state;
  if (vbc_penetration_final(&s->pen, sim, err) != VBC_OK) return err->code;
  vbc_penetration_metrics(&s->pen, sim, metrics);
  if (s->snap_every == 0) s->snap_depth = vbc_penetration_now(sim); /* the final state */
  cJSON_AddNumberToObject(metrics, "snapshot_penetration", s->snap_depth / sim->sys.spacing);
  cJSON_AddNumberToObject(metrics, "max_body_drift", s->max_drift / sim->sys.spacing);
  cJSON_AddNumberToObject(metrics, "max_pin_drift", s->max_pin_drift / sim->sys.spacing);
  cJSON_AddNumberToObject(metrics, "final_kinetic_energy", bodies_kinetic_energy(sim));
  cJSON_AddNumberToObject(metrics, "max_compression", s->max_compression);
  cJSON_AddNumberToObject(metrics, "mean_compression",
                          s->samples ? s->compression_sum / (double)s->samples : 0.0);
  if (s->snap_every == 0) return VBC_OK;
  char path[1024];
  snprintf(path, sizeof path, "%s/snapshots.csv", outdir);
  vbc_file f;
  if (vbc_file_open(&f, path, ".tmp", err) != VBC_OK) return err->code;
  fputs("time,x,y,z,body\n", f.f);
  if (s->snap_len) fwrite(s->snap, 1, s->snap_len, f.f);
  return vbc_file_commit(&f, err);
}

static const char *const bodies_metric_names[] = {
    "max_penetration", "max_fluid_penetration", "snapshot_penetration", "max_body_drift", "max_pin_drift",
    "final_kinetic_energy", "max_compression", "mean_compression", NULL};

/* Checkpoints: the maxima and sums so far and the snapshot rows written so far (x0 comes from
 * alloc, at the same initial state). */
static int bodies_save(const void *state, vbc_blob *out, vbc_error *err) {
  const bodies_state *s = state;
  const double sums[] = {s->max_compression, s->compression_sum, s->max_pin_drift, s->max_drift,
                         s->snap_depth};
  if (vbc_penetration_save(&s->pen, out, err) != VBC_OK ||
      vbc_blob_put(out, sums, sizeof sums, err) != VBC_OK ||
      vbc_blob_put(out, &s->samples, sizeof s->samples, err) != VBC_OK)
    return err->code;
  return vbc_blob_put_array(out, s->snap, s->snap_len, 1, err);
}

static int bodies_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  bodies_state *s = state;
  double sums[5];
  void *snap = NULL;
  size_t len = 0;
  if (vbc_penetration_load(&s->pen, in, err) != VBC_OK ||
      vbc_reader_get(in, sums, sizeof sums, err) != VBC_OK ||
      vbc_reader_get(in, &s->samples, sizeof s->samples, err) != VBC_OK ||
      vbc_reader_get_alloc(in, &snap, &len, 1, err) != VBC_OK) {
    free(snap);
    return err->code;
  }
  s->max_compression = sums[0], s->compression_sum = sums[1];
  s->max_pin_drift = sums[2], s->max_drift = sums[3], s->snap_depth = sums[4];
  free(s->snap);
  s->snap = snap;
  s->snap_len = s->snap_cap = len;
  return VBC_OK;
}

const vbc_benchmark_type vbc_benchmark_bodies = {
    .name = "bodies",
    .summary = "rigid bodies: penetration, kinetic energy, fluid compression (Miyamoto §5.1, §5.7)",
    .params = bodies_params,
    .metric_names = bodies_metric_names,
    .series_columns = "kinetic_energy_bodies,max_depth_over_l,max_fluid_depth_over_l",
    .alloc = bodies_alloc,
    .free = bodies_free,
    .observe = bodies_observe,
    .save = bodies_save,
    .load = bodies_load,
    .series = bodies_series,
    .metrics = bodies_metrics,
};
