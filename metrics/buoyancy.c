/* buoyancy.c — a floating body (Miyamoto & Koshizuka §5.5, Fig. 12).
 *
 * The submerged ratio of body B is the fraction of its volume below the free surface:
 *     ratio = (1/N) sum_k clamp((y_s - y_k)/l + 1/2, 0, 1)
 * over its N particles, each standing for a cell of height l centred on y_k (exact for an upright
 * box whose faces lie on cell faces, within l/side otherwise). The free surface y_s is measured
 * away from the body: the fluid is binned in columns of width l, columns that reach within r_e of
 * the body's horizontal extent are skipped, and y_s is the mean over the others of the column's
 * highest fluid particle plus l/2. Archimedes: at rest, ratio = rho_B / rho (density_ratio).
 *
 * The rest test: the height of the body's centre is recorded every step and its
 * speed is taken over a window, |y(t) - y(t - rest_window)| / rest_window, so that it measures
 * sinking and bobbing but not the jitter of a particle-resolved contact from one step to the next
 * (at l = 0.04 the instantaneous |v| of a box whose height stays within 2 mm jumps between 0.01
 * and 0.04 m/s). Horizontal motion and rotation are left out: they do not change what is
 * submerged, and a floating box drifts sideways slowly (0.02 m/s at l = 0.04 under strong
 * coupling, docs/benchmarks.md) and rocks by a few mrad on the particle-resolved surface. The body is at rest from the start of the final interval over which that
 * speed stays below rest_speed. If that interval lasts at least min_rest_time, submerged_ratio is
 * the time average of the ratio over it and at_rest = 1; otherwise the average is over the last
 * min_rest_time of the run and at_rest = 0, and the figure should not be trusted.
 *
 * Metrics: submerged_ratio, submerged_error = |submerged_ratio - density_ratio|, density_ratio,
 * at_rest, rest_time (start of the averaging window), final_speed (the windowed speed at the
 * end); and, as for the rigid pile (metrics/bodies.c, metrics/penetration.c), max_penetration
 * (the deepest overlap l - r of a rigid particle with another body's or a wall's particle over
 * the run, in units of l: a sinking body on the floor, two bodies touching) and
 * max_fluid_penetration (the same for fluid against rigid or wall particles: what Kurose's
 * non-penetration constraints, eq. 4-6, bound under lemke_contacts).
 *
 * The water's own density. Archimedes holds for the density the fluid actually has, and a
 * particle fluid need not keep its nominal rho: MPS-LCP holds the number density n_i at n0
 * (eq. 6), and at r_e/l = 2.1 a packing denser than the square lattice has that n0 too
 * (docs/notes/benchmarks-journal.md, "Why the MPS boxes float high"). fluid_density_ratio is mass over volume,
 * divided by rho: the fluid's mass N_f rho l^d over the volume inside the first tank of the
 * scene below the measured free surface y_s, minus the body's submerged volume (the ratio above
 * times N_B l^d):
 *     fluid_density_ratio = N_f l^d / (A (y_s - y_floor) - ratio N_B l^d)
 * with A the tank's inner width (2D) or floor area (3D) and y_floor its floor (the tank's
 * `min`; its wall particles lie outside). On the initial lattice it is 1 (each particle fills its
 * cell l^d, and the body displaced the fluid cells it covers); it needs the fluid to fill the tank
 * to one surface, and is NAN without a tank. archimedes_ratio = density_ratio /
 * fluid_density_ratio is the submerged ratio Archimedes predicts for that density, and
 * submerged_error_fluid = |submerged_ratio - archimedes_ratio| what is left of the error once the
 * fluid's density is accounted for. All three are averaged over the same window as the ratio.
 *
 * Pressure under and beside the body. A fluid at rest carries no shear stress, so at one depth
 * its pressure is the same under the body and beside it; a particle packing at rest can hold a
 * little (docs/notes/benchmarks-journal.md, "Why the MPS boxes float high"), and then a body rests at depths
 * that differ from Archimedes'. pressure_under_body is the mean smoothed pressure of the fluid
 * particles between 2.5 l and 4.5 l below the body's lowest particle and more than 3 l inside its
 * horizontal extent (its particles' x, and z in 3D); pressure_beside_body the same over the
 * fluid in that layer more than 3 l outside the extent; head_difference = (under - beside) /
 * (rho |g|) [m], the head the fluid under the body carries beyond hydrostatics. NAN where a layer
 * holds no fluid. Averaged over the same window as the ratio. */
#include <math.h>
#include <stdlib.h>

#include "metrics/metrics.h"
#include "sim/sim.h"

typedef struct buoy_state {
  long body;
  vbc_penetration pen;
  double rest_speed, min_rest_time;
  double rest_window;
  double density_ratio;
  size_t n, cap;
  double *t, *ratio;
  double *y;   /* the height of the body's centre */
  double *fluid; /* fluid_density_ratio per sample */
  double *under, *beside; /* pressure_under_body, pressure_beside_body per sample */
  double rho_g;  /* rho |g| */
  const vbc_shape *tank; /* the container of fluid_density_ratio (NULL: none) */
  double *top; /* scratch of surface_height: per fluid column, its highest particle */
  size_t top_cap;
} buoy_state;

static const vbc_param_spec buoy_params[] = {
    {"body", VBC_PARAM_INTEGER, 0.0, 0.0, 1e6, 0, "index of the floating body in `bodies`"},
    {"rest_speed", VBC_PARAM_NUMBER, 0.02, 0.0, 1e3, 1,
     "the body is at rest while its centre rises or sinks slower than this [m/s]"},
    {"rest_window", VBC_PARAM_NUMBER, 0.25, 0.0, 1e3, 1,
     "the rest test's speed is the centre's displacement over this time, divided by it [s]"},
    {"min_rest_time", VBC_PARAM_NUMBER, 1.0, 0.0, 1e6, 0,
     "shortest rest interval that counts; also the averaging window without rest [s]"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *buoy_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  const long b = vbc_benchmark_body(sim, (long)vbc_param_number(params, buoy_params, "body"),
                                    VBC_MOTION_FREE, err);
  if (b < 0) return NULL;
  /* the surface and the ratio measure along y */
  if (vbc_benchmark_gravity_down(sc, "buoyancy", err) != VBC_OK) return NULL;
  buoy_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->body = b;
  s->rest_speed = vbc_param_number(params, buoy_params, "rest_speed");
  s->min_rest_time = vbc_param_number(params, buoy_params, "min_rest_time");
  s->rest_window = vbc_param_number(params, buoy_params, "rest_window");
  const vbc_body *B = &sim->bodies[b];
  double cell = pow(sim->sys.spacing, sim->sys.dim);
  s->density_ratio = B->mass / ((double)B->count * cell) / sim->sys.density;
  s->rho_g = sim->sys.density * vbc_vec_norm(sc->gravity);
  for (size_t i = 0; i < sc->nshapes && s->tank == NULL; ++i)
    if (sc->shapes[i].type == VBC_SHAPE_TANK) s->tank = &sc->shapes[i];
  return s;
}

static void buoy_free(void *state) {
  buoy_state *s = state;
  free(s->t);
  free(s->ratio);
  free(s->y);
  free(s->fluid);
  free(s->under);
  free(s->beside);
  free(s->top);
  free(s);
}

/* Mean height of the free surface over the fluid columns clear of the body (NAN if none). */
/* The box around the body's particle centres. */
static void body_box(const buoy_state *s, const vbc_sim *sim, vbc_vec *lo, vbc_vec *hi) {
  const vbc_body *B = &sim->bodies[s->body];
  const vbc_vec *pos = sim->particles.pos;
  *lo = *hi = pos[B->first];
  for (size_t k = B->first; k < B->first + B->count; ++k) {
    const vbc_vec x = pos[k];
    *lo = (vbc_vec){fmin(lo->x, x.x), fmin(lo->y, x.y), fmin(lo->z, x.z)};
    *hi = (vbc_vec){fmax(hi->x, x.x), fmax(hi->y, x.y), fmax(hi->z, x.z)};
  }
}

/* bx0, bx1: the body's extent along x (body_box). */
static int surface_height(buoy_state *s, const vbc_sim *sim, double bx0, double bx1,
                          double *height, vbc_error *err) {
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing, re = sim->sys.re;
  double fx0 = INFINITY, fx1 = -INFINITY;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID) fx0 = fmin(fx0, p->pos[i].x), fx1 = fmax(fx1, p->pos[i].x);
  size_t ncol = (size_t)((fx1 - fx0) / l) + 1;
  if (vbc_grow(&s->top_cap, ncol, (void *[]){&s->top}, (size_t[]){sizeof *s->top}, 1, err) !=
      VBC_OK)
    return err->code;
  double *top = s->top;
  for (size_t c = 0; c < ncol; ++c) top[c] = -INFINITY;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    size_t c = (size_t)((p->pos[i].x - fx0) / l);
    if (c < ncol) top[c] = fmax(top[c], p->pos[i].y);
  }
  /* whole columns only: a column cut by the window would keep just the particles on one side of
   * the cut, e.g. only its deepest one when the column leans into the window */
  double sum = 0.0;
  size_t n = 0;
  for (size_t c = 0; c < ncol; ++c) {
    double x0 = fx0 + (double)c * l, x1 = x0 + l;
    if (x1 > bx0 - re && x0 < bx1 + re) continue;
    if (isfinite(top[c])) sum += top[c], ++n;
  }
  *height = n ? sum / (double)n + 0.5 * l : NAN;
  return VBC_OK;
}

/* The submerged ratio, and the fluid's mass over the volume it fills divided by rho (header);
 * lo, hi: body_box. */
static int submerged_ratio(buoy_state *s, const vbc_sim *sim, vbc_vec lo, vbc_vec hi,
                           double *ratio, double *fluid, vbc_error *err) {
  const vbc_body *B = &sim->bodies[s->body];
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing, cell = pow(l, sim->sys.dim);
  double ys = NAN;
  if (surface_height(s, sim, lo.x, hi.x, &ys, err) != VBC_OK) return err->code;
  double sum = 0.0;
  for (size_t k = B->first; k < B->first + B->count; ++k)
    sum += vbc_clamp((ys - p->pos[k].y) / l + 0.5, 0.0, 1.0);
  *ratio = sum / (double)B->count;
  *fluid = NAN;
  if (s->tank == NULL) return VBC_OK;
  double area = s->tank->max.x - s->tank->min.x;
  if (sim->sys.dim == 3) area *= s->tank->max.z - s->tank->min.z;
  double volume = area * (ys - s->tank->min.y) - sum * cell;
  *fluid = (double)sim->nfluid * cell / volume;
  return VBC_OK;
}

/* Mean smoothed pressure of the fluid in the layer 2.5-4.5 l below the body (box lo, hi:
 * body_box), more than 3 l inside (*under) and outside (*beside) its horizontal extent (header);
 * NAN for an empty part. */
static void pressure_layer(const vbc_sim *sim, vbc_vec lo, vbc_vec hi, double *under,
                           double *beside) {
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing;
  double sum[2] = {0.0, 0.0};
  size_t n[2] = {0, 0};
  for (size_t i = 0; i < p->n; ++i) {
    const vbc_vec x = p->pos[i];
    if (p->kind[i] != VBC_FLUID || x.y > lo.y - 2.5 * l || x.y < lo.y - 4.5 * l) continue;
    int inside = x.x > lo.x + 3 * l && x.x < hi.x - 3 * l;
    int outside = x.x < lo.x - 3 * l || x.x > hi.x + 3 * l;
    if (sim->sys.dim == 3) {
      inside = inside && x.z > lo.z + 3 * l && x.z < hi.z - 3 * l;
      outside = outside || x.z < lo.z - 3 * l || x.z > hi.z + 3 * l;
    }
    if (inside || outside) sum[outside] += p->pressure_smoothed[i], ++n[outside];
  }
  *under = n[0] ? sum[0] / (double)n[0] : NAN;
  *beside = n[1] ? sum[1] / (double)n[1] : NAN;
}

static double body_speed(const buoy_state *s, const vbc_sim *sim) {
  return vbc_vec_norm(sim->bodies[s->body].v);
}

/* The samples kept per observation: t, ratio, y, fluid, under, beside. */
enum { NSAMPLES = 6 };
static const size_t sample_sizes[NSAMPLES] = {sizeof(double), sizeof(double), sizeof(double),
                                              sizeof(double), sizeof(double), sizeof(double)};

static int buoy_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  buoy_state *s = state;
  vbc_penetration_observe(&s->pen, sim);
  void *const arrays[] = {&s->t, &s->ratio, &s->y, &s->fluid, &s->under, &s->beside};
  if (vbc_grow(&s->cap, s->n + 1, arrays, sample_sizes, NSAMPLES, err) != VBC_OK)
    return err->code;
  s->t[s->n] = sim->time;
  vbc_vec lo, hi;
  body_box(s, sim, &lo, &hi);
  if (submerged_ratio(s, sim, lo, hi, &s->ratio[s->n], &s->fluid[s->n], err) != VBC_OK)
    return err->code;
  pressure_layer(sim, lo, hi, &s->under[s->n], &s->beside[s->n]);
  s->y[s->n] = sim->bodies[s->body].x.y;
  s->n++;
  return VBC_OK;
}

/* Series rows come right after observe at the same step: its last sample is this state's. */
static void buoy_series(void *state, const vbc_sim *sim, FILE *out) {
  const buoy_state *s = state;
  vbc_series_value(out, "%.6g", s->n ? s->ratio[s->n - 1] : NAN);
  vbc_series_value(out, "%.9g", sim->bodies[s->body].x.y);
  vbc_series_value(out, "%.6g", body_speed(s, sim));
  vbc_series_value(out, "%.6g", s->n ? s->fluid[s->n - 1] : NAN); /* NAN without a tank */
}

/* |y(t_k) - y(t_j)| / (t_k - t_j) for the latest sample j at least rest_window before k; infinite
 * while the run is shorter than the window. */
static double windowed_speed(const buoy_state *s, size_t k) {
  size_t j = k;
  while (j > 0 && s->t[k] - s->t[j] < s->rest_window) --j;
  double dt = s->t[k] - s->t[j];
  if (dt < s->rest_window || dt <= 0.0) return INFINITY;
  return fabs(s->y[k] - s->y[j]) / dt;
}

static int buoy_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                        vbc_error *err) {
  (void)outdir;
  buoy_state *s = state;
  if (vbc_penetration_final(&s->pen, sim, err) != VBC_OK) return err->code;
  vbc_penetration_metrics(&s->pen, sim, metrics);
  if (s->n == 0) return VBC_OK;
  size_t first = s->n; /* start of the final interval below rest_speed */
  while (first > 0 && windowed_speed(s, first - 1) < s->rest_speed) --first;
  const double t_end = s->t[s->n - 1];
  int at_rest = first < s->n && t_end - s->t[first] >= s->min_rest_time;
  if (!at_rest)
    for (first = s->n - 1; first > 0 && t_end - s->t[first - 1] <= s->min_rest_time;) --first;
  double sum = 0.0, fsum = 0.0, usum = 0.0, bsum = 0.0;
  for (size_t k = first; k < s->n; ++k)
    sum += s->ratio[k], fsum += s->fluid[k], usum += s->under[k], bsum += s->beside[k];
  const double nw = (double)(s->n - first);
  double ratio = sum / nw, fluid = fsum / nw;
  double archimedes = s->density_ratio / fluid;
  cJSON_AddNumberToObject(metrics, "submerged_ratio", ratio);
  cJSON_AddNumberToObject(metrics, "submerged_error", fabs(ratio - s->density_ratio));
  cJSON_AddNumberToObject(metrics, "density_ratio", s->density_ratio);
  cJSON_AddNumberToObject(metrics, "fluid_density_ratio", fluid);
  cJSON_AddNumberToObject(metrics, "archimedes_ratio", archimedes);
  cJSON_AddNumberToObject(metrics, "submerged_error_fluid", fabs(ratio - archimedes));
  cJSON_AddNumberToObject(metrics, "pressure_under_body", usum / nw);
  cJSON_AddNumberToObject(metrics, "pressure_beside_body", bsum / nw);
  cJSON_AddNumberToObject(metrics, "head_difference", (usum - bsum) / nw / s->rho_g);
  cJSON_AddNumberToObject(metrics, "at_rest", at_rest);
  cJSON_AddNumberToObject(metrics, "rest_time", s->t[first]);
  cJSON_AddNumberToObject(metrics, "final_speed", windowed_speed(s, s->n - 1));
  return VBC_OK;
}

static const char *const buoy_metric_names[] = {
    "submerged_ratio", "submerged_error", "density_ratio",         "at_rest", "rest_time",
    "final_speed",     "max_penetration", "max_fluid_penetration", "fluid_density_ratio",
    "archimedes_ratio", "submerged_error_fluid", "pressure_under_body", "pressure_beside_body",
    "head_difference", NULL};

/* Checkpoints: the penetration maxima and the samples so far. */
static int buoy_save(const void *state, vbc_blob *out, vbc_error *err) {
  const buoy_state *s = state;
  const double *const arrays[NSAMPLES] = {s->t, s->ratio, s->y, s->fluid, s->under, s->beside};
  if (vbc_penetration_save(&s->pen, out, err) != VBC_OK) return err->code;
  for (int a = 0; a < NSAMPLES; ++a)
    if (vbc_blob_put_array(out, arrays[a], s->n, sample_sizes[a], err) != VBC_OK)
      return err->code;
  return VBC_OK;
}

static int buoy_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  buoy_state *s = state;
  void *const arrays[] = {&s->t, &s->ratio, &s->y, &s->fluid, &s->under, &s->beside};
  if (vbc_penetration_load(&s->pen, in, err) != VBC_OK) return err->code;
  return vbc_reader_get_arrays(in, "buoyancy samples", &s->cap, &s->n, arrays, sample_sizes,
                               NSAMPLES, err);
}

const vbc_benchmark_type vbc_benchmark_buoyancy = {
    .name = "buoyancy",
    .summary = "a floating body: submerged ratio at rest vs the density ratio (Miyamoto §5.5)",
    .params = buoy_params,
    .metric_names = buoy_metric_names,
    .series_columns = "submerged_ratio,body_y,body_speed,fluid_density",
    .alloc = buoy_alloc,
    .free = buoy_free,
    .observe = buoy_observe,
    .save = buoy_save,
    .load = buoy_load,
    .series = buoy_series,
    .metrics = buoy_metrics,
};
