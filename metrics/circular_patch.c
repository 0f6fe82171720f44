/* circular_patch.c — the stretching circular patch (Miyamoto & Koshizuka §5.4, Fig. 10).
 *
 * The scene's first fluid_disk gives the centre, the radius R and the strain rate A0 of the
 * initial field u = A0 (x - xc, -(y - yc)); the theory (metrics/ellipse_theory.h) starts from those.
 *
 * Measuring the simulated semi-axes: the patch stays a uniformly filled ellipse aligned with x
 * and y, whose second moments about its centroid are <dx^2> = b^2/4 and <dy^2> = a^2/4. Each
 * particle stands for a cell of edge l, which adds l^2/12 to either moment, so
 *     b = 2 sqrt(<dx^2> + l^2/12),   a = 2 sqrt(<dy^2> + l^2/12)
 * over all fluid particles. This uses every particle, so a single stray particle barely moves it;
 * series.csv also records the extents (max |dx| + l/2, max |dy| + l/2) for comparison.
 * Errors are relative to the theory and maximised over every step of the run. */
#include <math.h>
#include <stdlib.h>

#include "metrics/metrics.h"
#include "metrics/ellipse_theory.h"
#include "sim/sim.h"

typedef struct patch_state {
  vbc_ellipse_theory theory;
  double radius;
  double a, b, a_extent, b_extent; /* last measurement */
  double err_a, err_b;             /* max relative errors so far */
} patch_state;

static void *patch_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  (void)params;
  const vbc_scene *sc = sim->scene;
  const vbc_shape *disk = NULL;
  for (size_t i = 0; i < sc->nshapes && disk == NULL; ++i)
    if (sc->shapes[i].type == VBC_SHAPE_FLUID_DISK) disk = &sc->shapes[i];
  if (disk == NULL || sc->dim != 2) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: geometry: expected a fluid_disk in a 2D scene for the "
                  "circular_patch benchmark", sc->file);
    return NULL;
  }
  patch_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->radius = disk->radius;
  if (vbc_ellipse_theory_init(&s->theory, disk->radius, disk->strain_rate, 0, err) != VBC_OK) {
    free(s);
    return NULL;
  }
  return s;
}

static void patch_free(void *state) {
  patch_state *s = state;
  vbc_ellipse_theory_free(&s->theory);
  free(s);
}

static void measure(patch_state *s, const vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  double cx = 0.0, cy = 0.0;
  size_t n = 0;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID) cx += p->pos[i].x, cy += p->pos[i].y, ++n;
  cx /= (double)n, cy /= (double)n;
  double mxx = 0.0, myy = 0.0, ex = 0.0, ey = 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    double dx = p->pos[i].x - cx, dy = p->pos[i].y - cy;
    mxx += dx * dx, myy += dy * dy;
    ex = fmax(ex, fabs(dx)), ey = fmax(ey, fabs(dy));
  }
  const double l = sim->sys.spacing, cell = l * l / 12.0;
  s->b = 2.0 * sqrt(mxx / (double)n + cell);
  s->a = 2.0 * sqrt(myy / (double)n + cell);
  s->b_extent = ex + 0.5 * l;
  s->a_extent = ey + 0.5 * l;
}

static int patch_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  patch_state *s = state;
  measure(s, sim);
  if (vbc_ellipse_theory_advance(&s->theory, sim->time, err) != VBC_OK) return err->code;
  s->err_a = fmax(s->err_a, fabs(s->a - s->theory.y[0]) / s->theory.y[0]);
  s->err_b = fmax(s->err_b, fabs(s->b - s->theory.y[1]) / s->theory.y[1]);
  return VBC_OK;
}

static void patch_series(void *state, const vbc_sim *sim, FILE *out) {
  (void)sim;
  const patch_state *s = state;
  fprintf(out, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", s->a, s->b, s->theory.y[0], s->theory.y[1],
          s->a_extent, s->b_extent);
}

static int patch_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                         vbc_error *err) {
  (void)sim, (void)outdir, (void)err;
  const patch_state *s = state;
  cJSON_AddNumberToObject(metrics, "semi_major_error", s->err_b);
  cJSON_AddNumberToObject(metrics, "semi_minor_error", s->err_a);
  cJSON_AddNumberToObject(metrics, "semi_major_final", s->b);
  cJSON_AddNumberToObject(metrics, "semi_minor_final", s->a);
  cJSON_AddNumberToObject(metrics, "semi_major_theory_final", s->theory.y[1]);
  cJSON_AddNumberToObject(metrics, "semi_minor_theory_final", s->theory.y[0]);
  cJSON_AddNumberToObject(metrics, "area_ratio_final", s->a * s->b / (s->radius * s->radius));
  return VBC_OK;
}

static const char *const patch_metric_names[] = {
    "semi_major_error", "semi_minor_error", "semi_major_final", "semi_minor_final",
    "semi_major_theory_final", "semi_minor_theory_final", "area_ratio_final", NULL};

/* Checkpoints: the last measurement and the largest errors. The theory's adaptive ODE driver
 * cannot be saved, so load replays it: one advance to every step's time, the calls observe made,
 * which leaves the driver exactly as the uninterrupted run has it. */
static int patch_save(const void *state, vbc_blob *out, vbc_error *err) {
  const patch_state *s = state;
  const double v[] = {s->a, s->b, s->a_extent, s->b_extent, s->err_a, s->err_b};
  return vbc_blob_put(out, v, sizeof v, err);
}

static int patch_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  patch_state *s = state;
  double v[6];
  if (vbc_reader_get(in, v, sizeof v, err) != VBC_OK) return err->code;
  for (long k = 1; k <= sim->step; ++k)
    if (vbc_ellipse_theory_advance(&s->theory, (double)k * sim->scene->dt, err) != VBC_OK)
      return err->code;
  s->a = v[0], s->b = v[1], s->a_extent = v[2], s->b_extent = v[3];
  s->err_a = v[4], s->err_b = v[5];
  return VBC_OK;
}

const vbc_benchmark_type vbc_benchmark_circular_patch = {
    .name = "circular_patch",
    .summary = "a disk stretched by u = A0 (x, -y): semi-axes vs theory eq. 74-77 "
               "(Miyamoto §5.4)",
    .params = NULL,
    .metric_names = patch_metric_names,
    .series_columns = "semi_minor,semi_major,semi_minor_theory,semi_major_theory,"
                      "semi_minor_extent,semi_major_extent",
    .alloc = patch_alloc,
    .free = patch_free,
    .observe = patch_observe,
    .save = patch_save,
    .load = patch_load,
    .series = patch_series,
    .metrics = patch_metrics,
};
