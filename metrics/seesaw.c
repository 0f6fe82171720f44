/* seesaw.c — the seesaw (Miyamoto & Koshizuka §5.6, Fig. 14-15): whether one step couples
 * the fluid on both sides of a pinned body.
 *
 * The "bottom block" is the fluid that starts below the pin (y < pin y); the top block, above it,
 * starts moving. After the first step (the paper's figures are "just after all constraints are
 * solved and before updating positions"; the benchmark reads the state after the step and moves
 * the fluid back by h u, which undoes the position update exactly):
 *   bottom_pressure_mean       mean smoothed pressure of the bottom block [Pa] — positive under
 *                              strong coupling, 0 under PMS (the paper's point);
 *   bottom_pressure_max, top_pressure_mean, top_pressure_max;
 *   bottom_velocity_mean       mean speed of the bottom block [m/s];
 *   body_angular_velocity      w_z of the body [rad/s].
 * Also writes first_step.csv (x, y, kind, body, pressure_smoothed, u, v of every particle after
 * the first step) for the Fig. 14 snapshot. */
#include <math.h>
#include <stdlib.h>

#include "metrics/metrics.h"
#include "io/files.h"
#include "sim/sim.h"

typedef struct seesaw_state {
  long body;
  double pin_y;
  unsigned char *bottom; /* per particle: fluid below the pin at t = 0 */
  int done;
  double bottom_p, bottom_pmax, top_p, top_pmax, bottom_u, omega;
  size_t n;
  double *snap; /* n x 7 */
} seesaw_state;

static const vbc_param_spec seesaw_params[] = {
    {"body", VBC_PARAM_INTEGER, 0.0, 0.0, 1e6, 0, "index of the pinned body in `bodies`"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *seesaw_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  const long b = vbc_benchmark_body(sim, (long)vbc_param_number(params, seesaw_params, "body"),
                                    VBC_MOTION_PINNED, err);
  if (b < 0) return NULL;
  if (sc->dim != 2) { /* w_z, first_step.csv in x, y */
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: dim: expected 2 for the seesaw benchmark, got %d",
                  sc->file, sc->dim);
    return NULL;
  }
  seesaw_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  const vbc_particles *p = &sim->particles;
  s->body = b;
  s->pin_y = sim->bodies[b].pin.y;
  s->n = p->n;
  s->bottom = vbc_calloc(p->n, 1, err);
  s->snap = vbc_calloc(7 * p->n, sizeof *s->snap, err);
  if (s->bottom == NULL || s->snap == NULL) {
    free(s->bottom);
    free(s->snap);
    free(s);
    return NULL;
  }
  for (size_t i = 0; i < p->n; ++i) s->bottom[i] = p->kind[i] == VBC_FLUID && p->pos[i].y < s->pin_y;
  return s;
}

static void seesaw_free(void *state) {
  seesaw_state *s = state;
  free(s->bottom);
  free(s->snap);
  free(s);
}

static int seesaw_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  (void)err;
  seesaw_state *s = state;
  if (sim->step != 1 || s->done) return VBC_OK;
  s->done = 1;
  const vbc_particles *p = &sim->particles;
  const double h = sim->sys.dt;
  size_t nb = 0, nt = 0;
  s->bottom_pmax = s->top_pmax = 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    vbc_vec x = p->kind[i] == VBC_FLUID ? vbc_vec_axpy(p->pos[i], -h, p->vel[i]) : p->pos[i];
    double *row = s->snap + 7 * i;
    row[0] = x.x, row[1] = x.y, row[2] = p->kind[i], row[3] = p->body[i];
    row[4] = p->pressure_smoothed[i], row[5] = p->vel[i].x, row[6] = p->vel[i].y;
    if (p->kind[i] != VBC_FLUID) continue;
    if (s->bottom[i]) {
      s->bottom_p += p->pressure_smoothed[i];
      s->bottom_pmax = fmax(s->bottom_pmax, p->pressure_smoothed[i]);
      s->bottom_u += vbc_vec_norm(p->vel[i]);
      ++nb;
    } else {
      s->top_p += p->pressure_smoothed[i];
      s->top_pmax = fmax(s->top_pmax, p->pressure_smoothed[i]);
      ++nt;
    }
  }
  if (nb) s->bottom_p /= (double)nb, s->bottom_u /= (double)nb;
  if (nt) s->top_p /= (double)nt;
  s->omega = sim->bodies[s->body].w.z;
  return VBC_OK;
}

static int write_snapshot(const seesaw_state *s, const char *outdir, vbc_error *err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/first_step.csv", outdir);
  vbc_file f;
  if (vbc_file_open(&f, path, ".tmp", err) != VBC_OK) return err->code;
  fprintf(f.f, "x,y,kind,body,pressure_smoothed,u,v\n");
  for (size_t i = 0; i < s->n; ++i) {
    const double *r = s->snap + 7 * i;
    fprintf(f.f, "%.9g,%.9g,%d,%d,%.9g,%.9g,%.9g\n", r[0], r[1], (int)r[2], (int)r[3], r[4],
            r[5], r[6]);
  }
  return vbc_file_commit(&f, err);
}

static int seesaw_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                          vbc_error *err) {
  (void)sim;
  const seesaw_state *s = state;
  cJSON_AddNumberToObject(metrics, "bottom_pressure_mean", s->bottom_p);
  cJSON_AddNumberToObject(metrics, "bottom_pressure_max", s->bottom_pmax);
  cJSON_AddNumberToObject(metrics, "top_pressure_mean", s->top_p);
  cJSON_AddNumberToObject(metrics, "top_pressure_max", s->top_pmax);
  cJSON_AddNumberToObject(metrics, "bottom_velocity_mean", s->bottom_u);
  cJSON_AddNumberToObject(metrics, "body_angular_velocity", s->omega);
  return write_snapshot(s, outdir, err);
}

static const char *const seesaw_metric_names[] = {
    "bottom_pressure_mean", "bottom_pressure_max", "top_pressure_mean", "top_pressure_max",
    "bottom_velocity_mean", "body_angular_velocity", NULL};

/* Checkpoints: whether the first step was measured, its figures and its snapshot. */
static int seesaw_save(const void *state, vbc_blob *out, vbc_error *err) {
  const seesaw_state *s = state;
  const double v[] = {s->bottom_p, s->bottom_pmax, s->top_p, s->top_pmax, s->bottom_u, s->omega};
  if (vbc_blob_put(out, &s->done, sizeof s->done, err) != VBC_OK ||
      vbc_blob_put(out, v, sizeof v, err) != VBC_OK)
    return err->code;
  return vbc_blob_put_array(out, s->snap, 7 * s->n, sizeof *s->snap, err);
}

static int seesaw_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  seesaw_state *s = state;
  double v[6];
  if (vbc_reader_get(in, &s->done, sizeof s->done, err) != VBC_OK ||
      vbc_reader_get(in, v, sizeof v, err) != VBC_OK ||
      vbc_reader_get_array(in, s->snap, 7 * s->n, sizeof *s->snap, err) != VBC_OK)
    return err->code;
  s->bottom_p = v[0], s->bottom_pmax = v[1], s->top_p = v[2], s->top_pmax = v[3];
  s->bottom_u = v[4], s->omega = v[5];
  return VBC_OK;
}

const vbc_benchmark_type vbc_benchmark_seesaw = {
    .name = "seesaw",
    .summary = "a pinned body between two fluid blocks: the first step's pressures "
               "(Miyamoto §5.6)",
    .params = seesaw_params,
    .metric_names = seesaw_metric_names,
    .series_columns = NULL,
    .alloc = seesaw_alloc,
    .free = seesaw_free,
    .observe = seesaw_observe,
    .save = seesaw_save,
    .load = seesaw_load,
    .series = NULL,
    .metrics = seesaw_metrics,
};
