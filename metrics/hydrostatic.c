/* hydrostatic.c — hydrostatic pressure (Miyamoto & Koshizuka §5.2, Fig. 5-6).
 *
 * Gravity must point along -y. The free surface is *measured*: the mean height of the top layer
 * of fluid particles (those within l/2 of the highest one) plus l/2, the top of the volume those
 * particles stand for. depth_i = y_surface - y_i; theory p_i = rho g depth_i.
 *
 * Metrics (fluid particles, at the end of the run, n_i recomputed at the final positions):
 *   max_density_deviation, mean_density_deviation: |n_i - n0| / n0 over particles deeper than
 *     density_min_depth r_e (default 2, like the pressure). Particles near the free surface are
 *     under-dense by construction, and the LCP lets them expand (p = 0, §2.4), so they are left
 *     out of this two-sided measure;
 *   max_compression: max (n_i - n0) / n0 over *all* fluid particles — the paper's statement that
 *     no particle is compressed by 1 %;
 *   pressure_error_raw, pressure_error_smoothed: relative L2 error of p and p~ against theory over
 *     particles deeper than pressure_min_depth r_e (default 2).
 * Also writes hydrostatic_profile.csv: one row per fluid particle for the depth plots. */
#include <math.h>
#include <stdlib.h>

#include "metrics/metrics.h"
#include "io/files.h"
#include "core/number_density.h"
#include "sim/sim.h"

typedef struct hydro_state {
  double pressure_min_depth, density_min_depth; /* in units of r_e */
  double g;
} hydro_state;

typedef struct hydro_eval {
  double surface;
  double max_dev, mean_dev, max_compression;
  double err_raw, err_smoothed;
  size_t n_density, n_pressure;
} hydro_eval;

static const vbc_param_spec hydro_params[] = {
    {"pressure_min_depth", VBC_PARAM_NUMBER, 2.0, 0.0, 100.0, 0,
     "pressure errors use fluid particles deeper than this many r_e below the free surface"},
    {"density_min_depth", VBC_PARAM_NUMBER, 2.0, 0.0, 100.0, 0,
     "density deviations use fluid particles deeper than this many r_e"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *hydro_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  vbc_vec g = sim->scene->gravity;
  if (vbc_benchmark_gravity_down(sim->scene, "hydrostatic", err) != VBC_OK) return NULL;
  hydro_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->pressure_min_depth = vbc_param_number(params, hydro_params, "pressure_min_depth");
  s->density_min_depth = vbc_param_number(params, hydro_params, "density_min_depth");
  s->g = -g.y;
  return s;
}

static void hydro_free(void *state) { free(state); }

static double surface_height(const vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing;
  double top = -INFINITY;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID) top = fmax(top, p->pos[i].y);
  double sum = 0.0;
  size_t n = 0;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID && p->pos[i].y > top - 0.5 * l) sum += p->pos[i].y, ++n;
  return sum / (double)n + 0.5 * l;
}

static void evaluate(const hydro_state *s, const vbc_sim *sim, hydro_eval *e) {
  const vbc_particles *p = &sim->particles;
  const double n0 = sim->mps.n0, re = sim->sys.re, rho = sim->sys.density;
  e->surface = surface_height(sim);
  e->max_dev = e->mean_dev = 0.0;
  e->max_compression = -INFINITY;
  e->n_density = e->n_pressure = 0;
  double sq_raw = 0.0, sq_smooth = 0.0, sq_theory = 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    double depth = e->surface - p->pos[i].y;
    double dev = (p->number_density[i] - n0) / n0;
    e->max_compression = fmax(e->max_compression, dev);
    if (depth > s->density_min_depth * re) {
      e->max_dev = fmax(e->max_dev, fabs(dev));
      e->mean_dev += fabs(dev);
      e->n_density++;
    }
    if (depth > s->pressure_min_depth * re) {
      double th = rho * s->g * depth;
      sq_raw += (p->pressure[i] - th) * (p->pressure[i] - th);
      sq_smooth += (p->pressure_smoothed[i] - th) * (p->pressure_smoothed[i] - th);
      sq_theory += th * th;
      e->n_pressure++;
    }
  }
  if (e->n_density) e->mean_dev /= (double)e->n_density;
  e->err_raw = sq_theory > 0.0 ? sqrt(sq_raw / sq_theory) : NAN;
  e->err_smoothed = sq_theory > 0.0 ? sqrt(sq_smooth / sq_theory) : NAN;
}

static void hydro_series(void *state, const vbc_sim *sim, FILE *out) {
  /* n_i from this step's lists: what the mps block computed in the step (the same values), and
   * for blocks that never compute it (sph_density) the only current one */
  vbc_number_density(&sim->sys);
  hydro_eval e;
  evaluate(state, sim, &e);
  vbc_series_value(out, "%.9g", e.surface);
  vbc_series_value(out, "%.6g", e.max_dev);
  vbc_series_value(out, "%.6g", e.mean_dev);
  vbc_series_value(out, "%.6g", e.max_compression);
  vbc_series_value(out, "%.6g", e.err_raw); /* NAN: no particle deep enough */
  vbc_series_value(out, "%.6g", e.err_smoothed);
}

static int write_profile(const hydro_state *s, const vbc_sim *sim, double surface,
                         const char *outdir, vbc_error *err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/hydrostatic_profile.csv", outdir);
  vbc_file f;
  if (vbc_file_open(&f, path, ".tmp", err) != VBC_OK) return err->code;
  const vbc_particles *p = &sim->particles;
  fprintf(f.f, "x,y,depth,pressure,pressure_smoothed,pressure_theory,density_deviation\n");
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    double depth = surface - p->pos[i].y;
    fprintf(f.f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p->pos[i].x, p->pos[i].y, depth,
            p->pressure[i], p->pressure_smoothed[i], sim->sys.density * s->g * depth,
            (p->number_density[i] - sim->mps.n0) / sim->mps.n0);
  }
  return vbc_file_commit(&f, err);
}

static int hydro_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                         vbc_error *err) {
  const hydro_state *s = state;
  /* n_i at the final positions (the solve saw the positions one step earlier) */
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  vbc_number_density(&sim->sys);
  hydro_eval e;
  evaluate(s, sim, &e);
  cJSON_AddNumberToObject(metrics, "max_density_deviation", e.max_dev);
  cJSON_AddNumberToObject(metrics, "mean_density_deviation", e.mean_dev);
  cJSON_AddNumberToObject(metrics, "max_compression", e.max_compression);
  cJSON_AddNumberToObject(metrics, "pressure_error_raw", e.err_raw);
  cJSON_AddNumberToObject(metrics, "pressure_error_smoothed", e.err_smoothed);
  cJSON_AddNumberToObject(metrics, "free_surface_height", e.surface);
  cJSON_AddNumberToObject(metrics, "density_particles", (double)e.n_density);
  cJSON_AddNumberToObject(metrics, "pressure_particles", (double)e.n_pressure);
  return write_profile(s, sim, e.surface, outdir, err);
}

static const char *const hydrostatic_metric_names[] = {
    "max_density_deviation", "mean_density_deviation", "max_compression", "pressure_error_raw",
    "pressure_error_smoothed", "free_surface_height", "density_particles", "pressure_particles",
    NULL};

const vbc_benchmark_type vbc_benchmark_hydrostatic = {
    .name = "hydrostatic",
    .summary = "water at rest in a tank: density deviation and pressure vs rho g depth "
               "(Miyamoto §5.2)",
    .params = hydro_params,
    .metric_names = hydrostatic_metric_names,
    .series_columns = "surface_height,max_density_deviation,mean_density_deviation,"
                      "max_compression,pressure_error_raw,pressure_error_smoothed",
    .alloc = hydro_alloc,
    .free = hydro_free,
    .observe = NULL,
    .series = hydro_series,
    .metrics = hydro_metrics,
};
