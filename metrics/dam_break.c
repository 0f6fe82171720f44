/* dam_break.c — the collapse of a water column (Koshizuka & Oka 1996, Fig. 6-7; experiment
 * of Martin & Moyce 1952).
 *
 * Set-up: a column of width a and height n^2 a stands against the left wall (the -x side) of a
 * tank and is released at t = 0; the water surges along the floor in +x. Martin & Moyce measured
 * the position of the surge front, x_front, against time, in the dimensionless variables
 *     Z = x_front / a,    T = t sqrt(2 g / a)   (= n t sqrt(g/a) for n^2 = 2).
 * The reference is their n^2 = 2 series (a = 2.25 in), compiled in below.
 *
 * Choices the experiment and the paper leave open, and ours:
 *   - The wall: its inner face is the fluid's smallest x at t = 0 minus l/2 (the column stands
 *     against the wall; a particle stands for a cell of edge l).
 *   - a (`column_width`): by default measured, the fluid's x extent at t = 0 plus l, i.e. the
 *     width the particles represent. A fluid_box of 0.146 m holds 0.145 m of particles at
 *     l = 0.005 and 0.14 m at l = 0.01 or 0.02 (the lattice rule, docs/scene-format.md); with the
 *     nominal 0.146 the curve would start at Z = 0.96 instead of 1. A positive value is used as
 *     given.
 *   - The front: the largest x of a fluid particle that is not a droplet, plus l/2, minus the
 *     wall face. A particle counts when it has at least `min_neighbours` fluid neighbours within
 *     min(2 l, neighbour radius) in the neighbour lists `sim->nbrs`. observe() runs after a step,
 *     when those lists are the ones the step was solved on (positions one step earlier): a
 *     particle's neighbour set is one step old, its x is current. At t = 0, Z = 1 exactly.
 *   - The time origin: t = 0 when the column is released (no gate). T = t sqrt(2g/a) +
 *     `time_shift`; a positive shift moves the simulated curve to later T, as users compensating
 *     for the gate's opening time in the experiment do (e.g. Lethe's example). Martin & Moyce's
 *     column was released by a diaphragm, whose opening delays the measured front by an amount
 *     they do not give; every simulation of an instantaneous release leads their points, by more
 *     the finer it is (docs/notes/benchmarks-journal.md). The headline errors are those at T_0 = time_shift
 *     (t = 0 at release unless shifted by hand). With `fit_time_shift` an origin is also fitted,
 *     and fitted on one part of the data only: T_0 in [time_shift, time_shift + FIT_RANGE] (a
 *     delay of the experiment, never an advance), on a grid of FIT_STEP, minimising the mean
 *     deviation of the reference points with T_exp < `fit_until` (the early surge, where a late
 *     release shows); the fitted curve is scored on the other points only (front_error_fitted,
 *     front_error_fitted_mean), never on those it was fitted to.
 *   - The far wall: the reference points count only before the surge reaches it, Z_exp < W/a -
 *     1/2, W the tank's inner width: by default the smallest x of the wall particles beside the
 *     column (same y and z range as the fluid at t = 0) that lie beyond the column, minus l/2,
 *     measured from the left face (`tank_width` > 0 overrides; no such wall: no cut-off).
 *   - The water height at the left wall, h: the largest y of the fluid particles whose x lies
 *     within 2 l of the wall face, plus l/2, minus the floor (the fluid's smallest y at t = 0
 *     minus l/2): the top of the water touching the closed wall, as Martin & Moyce read the
 *     residual column's height there. series.csv: height_H = h [m], and in Martin & Moyce's
 *     height variables height_over_column = h / (n^2 a) (n^2 a measured like a: the fluid's y
 *     extent at t = 0 plus l; 1 at release) against height_tau = t sqrt(g/a) (no factor n, unlike
 *     T: their height table is in these variables).
 *   - The height's time origin: t = 0 at release, never shifted (time_shift and the fitted origin
 *     move the front only). Its window: the table's points with tau_k inside the run and before
 *     the front first reaches the far wall (far_wall_time; no far wall: all): a wave reflected
 *     there cannot have reached the closed wall before, so the points scored are those of the
 *     open channel Martin & Moyce measured.
 *
 * Metrics: for every reference point (T_k, Z_k) with T_k inside the simulated range and Z_k below
 * the cut-off, e_k = |Z_sim(T_k) - Z_k| / Z_k, Z_sim linearly interpolated in T between steps.
 * At T_0 = time_shift: front_error = max e_k (front_error_T where it occurs), front_error_mean =
 * mean e_k, front_points = how many (no point: the errors are null). With the fit:
 * front_time_shift = the fitted T_0 (time_shift without it), front_error_fitted and
 * front_error_fitted_mean over the points with T_exp >= fit_until at that origin,
 * front_fit_points and front_score_points the two sets' sizes (null errors without the fit or
 * without points). far_wall_time: the first t [s] at which the front is within l of the far wall
 * (Koshizuka & Oka's §5.3-type claim "reaches the right wall at about 0.3 s"; null if never).
 * final_front_Z at the end. height_error_mean and height_error_max: mean and largest |H_sim(tau_k)
 * - H_k| over the height points in that window (absolute: H falls to 0.06 by the last point, where
 * a relative deviation says little), height_points how many (none: null errors). series.csv's front_T is t sqrt(2g/a) + time_shift, never the fitted
 * shift (the series are written before the fit). */
#include <math.h>
#include <limits.h>
#include <stdlib.h>

#include "metrics/dam_break.h"
#include "metrics/metrics.h"
#include "sim/sim.h"

/* Martin & Moyce (1952), Phil. Trans. R. Soc. A 244, 312-324, Tables 2 and 6: surge front of the
 * n^2 = 2 column, a = 2.25 in, as transcribed in TormodLandet/Ocellaris,
 * scripts/plot_dam_break.py (commit 44fd559, arrays mmTvec/mmZvec); the same numbers ship as
 * paper_figs/dam_break_front/martin_moyce_1952_n2eq2.dat. Columns: T = t sqrt(2 g / a), Z = x_front / a. */
static const double mm1952_front[][2] = {
    {0.41, 1.11}, {0.84, 1.22}, {1.19, 1.44}, {1.43, 1.67}, {1.63, 1.89},
    {1.83, 2.11}, {1.98, 2.33}, {2.20, 2.56}, {2.32, 2.78}, {2.51, 3.00},
    {2.65, 3.22}, {2.83, 3.44}, {2.98, 3.67}, {3.11, 3.89}, {3.33, 4.11}};
#define MM1952_POINTS (sizeof mm1952_front / sizeof mm1952_front[0])

/* The same tables, residual height at the closed wall of the same column (Ocellaris' arrays
 * mmYvec/mmHvec): tau = t sqrt(g / a), H = h / (n^2 a). */
const double vbc_mm1952_height[][2] = {
    {0.56, 0.94}, {0.77, 0.89}, {0.93, 0.83}, {1.08, 0.78}, {1.28, 0.72}, {1.46, 0.67},
    {1.66, 0.61}, {1.84, 0.56}, {2.00, 0.50}, {2.21, 0.44}, {2.45, 0.39}, {2.70, 0.33},
    {3.06, 0.28}, {3.44, 0.22}, {4.20, 0.17}, {5.25, 0.11}, {7.40, 0.06}};
const size_t vbc_mm1952_height_points = sizeof vbc_mm1952_height / sizeof vbc_mm1952_height[0];
#define FIT_RANGE 0.5  /* largest fitted delay in T: 42 ms at a = 0.14 m */
#define FIT_STEP 0.001

typedef struct dam_state {
  double a;           /* column width [m] */
  double column_height; /* n^2 a [m] */
  double wall_x;      /* inner face of the left wall [m] */
  double floor_y;     /* top of the floor [m] */
  double tank_width;  /* inner width W [m]; INFINITY: no far wall */
  double time_scale;  /* sqrt(2 g / a) [1/s] */
  double time_shift;  /* T_0 as given */
  int fit_time_shift;
  double fit_until;   /* T_exp below it: fit set; the rest: score set */
  long min_neighbours;
  double l;           /* spacing [m] */
  size_t n, cap;
  double *T, *Z;      /* one sample per step, t = 0 included; T without any shift */
  double *H;          /* the height at the closed wall over n^2 a, per sample */
  double front_x;     /* latest x_front - wall_x [m] */
} dam_state;

static const vbc_param_spec dam_params[] = {
    {"column_width", VBC_PARAM_NUMBER, 0.0, 0.0, 1e6, 0,
     "a [m]; 0: measured, the fluid's x extent at t = 0 plus l"},
    {"time_shift", VBC_PARAM_NUMBER, 0.0, -1e3, 1e3, 0,
     "T_0 added to the simulated T = t sqrt(2g/a) (t = 0 at release)"},
    {"fit_time_shift", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "also fit the origin (the experiment's release delay): the T_0 in [time_shift, time_shift + "
     "0.5] with the smallest mean deviation over the points with T_exp < fit_until, scored on "
     "the others (front_error_fitted)"},
    {"fit_until", VBC_PARAM_NUMBER, 1.5, 0.0, 1e3, 0,
     "reference points with T_exp below this are the fit set, the rest the score set (1.5: the "
     "first four of Martin & Moyce's n^2 = 2 points, the early surge)"},
    {"min_neighbours", VBC_PARAM_INTEGER, 3.0, 0.0, 1e4, 0,
     "fluid neighbours within 2 l a particle needs to count for the front (not a droplet)"},
    {"tank_width", VBC_PARAM_NUMBER, 0.0, 0.0, 1e6, 0,
     "inner width W [m] for the far-wall cut-off Z_exp < W/a - 1/2; 0: measured from the walls"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static int check_scene(const vbc_scene *sc, vbc_error *err) {
  if (sc->dim != 2 && sc->dim != 3)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: dim: expected 2 or 3 for the dam_break "
                         "benchmark, got %d", sc->file, sc->dim);
  return vbc_benchmark_gravity_down(sc, "dam_break", err); /* front along x, height along y */
}

/* The fluid's bounding box at t = 0. */
static void fluid_bounds(const vbc_particles *p, vbc_vec *lo, vbc_vec *hi) {
  *lo = vbc_vec_make(INFINITY, INFINITY, INFINITY);
  *hi = vbc_vec_make(-INFINITY, -INFINITY, -INFINITY);
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    const vbc_vec x = p->pos[i];
    *lo = vbc_vec_make(fmin(lo->x, x.x), fmin(lo->y, x.y), fmin(lo->z, x.z));
    *hi = vbc_vec_make(fmax(hi->x, x.x), fmax(hi->y, x.y), fmax(hi->z, x.z));
  }
}

/* Inner width of the tank: the nearest wall particle beside the column, beyond it in +x. */
static double measured_tank_width(const vbc_particles *p, vbc_vec lo, vbc_vec hi, double l,
                                  double wall_x) {
  const double eps = 1e-9 * l;
  double right = INFINITY;
  for (size_t i = 0; i < p->n; ++i) {
    const vbc_vec x = p->pos[i];
    if (p->kind[i] != VBC_WALL || x.x <= hi.x) continue;
    if (x.y < lo.y - eps || x.y > hi.y + eps || x.z < lo.z - eps || x.z > hi.z + eps) continue;
    right = fmin(right, x.x);
  }
  return right - 0.5 * l - wall_x;
}

static void *dam_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  if (check_scene(sc, err) != VBC_OK) return NULL;
  const double l = sim->sys.spacing;
  vbc_vec lo, hi;
  fluid_bounds(&sim->particles, &lo, &hi);
  dam_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->wall_x = lo.x - 0.5 * l;
  s->floor_y = lo.y - 0.5 * l;
  const double a = vbc_param_number(params, dam_params, "column_width");
  s->a = a > 0.0 ? a : hi.x - lo.x + l;
  s->column_height = hi.y - lo.y + l;
  const double w = vbc_param_number(params, dam_params, "tank_width");
  s->tank_width = w > 0.0 ? w : measured_tank_width(&sim->particles, lo, hi, l, s->wall_x);
  s->time_scale = sqrt(-2.0 * sc->gravity.y / s->a);
  s->time_shift = vbc_param_number(params, dam_params, "time_shift");
  s->fit_time_shift = vbc_param_bool(params, dam_params, "fit_time_shift");
  s->fit_until = vbc_param_number(params, dam_params, "fit_until");
  s->l = l;
  s->min_neighbours = (long)vbc_param_number(params, dam_params, "min_neighbours");
  /* adaptive steps (no step count): room for the steps of time.dt_max, grown when needed */
  s->cap = (size_t)(sim->nsteps == LONG_MAX ? ceil(sc->t_end / sc->dt_max)
                                           : (double)(sim->nsteps > 0 ? sim->nsteps : 0)) + 1;
  s->T = vbc_calloc(s->cap, sizeof *s->T, err);
  s->Z = s->T ? vbc_calloc(s->cap, sizeof *s->Z, err) : NULL;
  s->H = s->Z ? vbc_calloc(s->cap, sizeof *s->H, err) : NULL;
  if (s->H == NULL) {
    free(s->T);
    free(s->Z);
    free(s);
    return NULL;
  }
  return s;
}

static void dam_free(void *state) {
  dam_state *s = state;
  free(s->T);
  free(s->Z);
  free(s->H);
  free(s);
}

/* Not a droplet: at least min_neighbours fluid neighbours within min(2 l, list radius). With
 * lists that do not match the particles (none built yet) every particle counts. */
static int attached(const dam_state *s, const vbc_sim *sim, size_t i) {
  const vbc_neighbors *nb = &sim->nbrs;
  if (s->min_neighbours == 0 || nb->n != sim->particles.n || nb->start == NULL) return 1;
  const double r = fmin(2.0 * sim->sys.spacing, nb->radius);
  long count = 0;
  for (size_t k = nb->start[i]; k < nb->start[i + 1] && count < s->min_neighbours; ++k)
    if (nb->dist[k] < r && sim->particles.kind[nb->index[k]] == VBC_FLUID) ++count;
  return count >= s->min_neighbours;
}

/* x_front - wall_x: only particles beyond the best so far need the neighbour test. */
static double front_position(const dam_state *s, const vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  double best = -INFINITY;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID && p->pos[i].x > best && attached(s, sim, i)) best = p->pos[i].x;
  return best + 0.5 * sim->sys.spacing - s->wall_x;
}

static double wall_height(const dam_state *s, const vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing;
  double top = -INFINITY;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID && p->pos[i].x - s->wall_x < 2.0 * l) top = fmax(top, p->pos[i].y);
  return isfinite(top) ? top + 0.5 * l - s->floor_y : 0.0;
}


/* Room for cap samples (one per step and one at t = 0; alloc sizes it for fixed steps). */
static int grow(dam_state *s, size_t cap, vbc_error *err) {
  double *T = realloc(s->T, cap * sizeof *T);
  if (T) s->T = T;
  double *Z = T ? realloc(s->Z, cap * sizeof *Z) : NULL;
  if (Z) s->Z = Z;
  double *H = Z ? realloc(s->H, cap * sizeof *H) : NULL;
  if (H) s->H = H;
  if (T == NULL || Z == NULL || H == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (dam_break, %zu samples)", cap);
  s->cap = cap;
  return VBC_OK;
}

static int dam_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  dam_state *s = state;
  s->front_x = front_position(s, sim);
  if (s->n == s->cap && grow(s, 2 * s->cap, err) != VBC_OK) /* adaptive steps: more steps */
    return err->code;
  s->T[s->n] = sim->time * s->time_scale;
  s->Z[s->n] = s->front_x / s->a;
  s->H[s->n] = wall_height(s, sim) / s->column_height;
  s->n++;
  return VBC_OK;
}

static void dam_series(void *state, const vbc_sim *sim, FILE *out) {
  const dam_state *s = state;
  const double h = wall_height(s, sim);
  fprintf(out, ",%.17g,%.17g,%.17g,%.9g,%.9g,%.9g", s->front_x, s->front_x / s->a,
          sim->time * s->time_scale + s->time_shift, h, sim->time * s->time_scale / sqrt(2.0),
          h / s->column_height);
}

/* Z_sim at unshifted T by linear interpolation; T within [T_0, T_{n-1}] (T grows with the step). */
static double interpolate(const dam_state *s, double T) {
  size_t k = 1;
  while (k < s->n - 1 && s->T[k] < T) ++k;
  const double dT = s->T[k] - s->T[k - 1];
  const double w = dT > 0.0 ? (T - s->T[k - 1]) / dT : 1.0;
  return s->Z[k - 1] + w * (s->Z[k] - s->Z[k - 1]);
}

typedef struct front_errors {
  double max, mean, T_max;
  size_t points;
} front_errors;

/* The deviations from the reference points with T_exp in [from, to) with the simulated curve
 * shifted by T_0. */
static front_errors compare(const dam_state *s, double shift, double from, double to) {
  front_errors e = {0.0, 0.0, 0.0, 0};
  if (s->n < 2) return e;
  const double z_cut = s->tank_width / s->a - 0.5;
  for (size_t k = 0; k < MM1952_POINTS; ++k) {
    if (!(mm1952_front[k][0] >= from && mm1952_front[k][0] < to)) continue;
    const double T = mm1952_front[k][0] - shift, Z = mm1952_front[k][1];
    if (T < s->T[0] || T > s->T[s->n - 1] || !(Z < z_cut)) continue;
    const double dev = fabs(interpolate(s, T) - Z) / Z;
    if (dev > e.max || e.points == 0) e.max = dev, e.T_max = T + shift;
    e.mean += dev;
    e.points++;
  }
  if (e.points) e.mean /= (double)e.points;
  return e;
}

vbc_height_errors vbc_dam_break_height_errors(const double *T, const double *H, size_t n,
                                              double tau_per_T, double tau_cut) {
  vbc_height_errors e = {NAN, NAN, 0};
  if (n < 2) return e;
  double sum = 0.0, max = 0.0;
  for (size_t k = 0, j = 1; k < vbc_mm1952_height_points; ++k) {
    const double tau = vbc_mm1952_height[k][0];
    if (tau < T[0] * tau_per_T || tau > T[n - 1] * tau_per_T || !(tau < tau_cut)) continue;
    while (j < n - 1 && T[j] * tau_per_T < tau) ++j; /* the first sample at or after tau */
    const double t0 = T[j - 1] * tau_per_T, t1 = T[j] * tau_per_T;
    const double w = t1 > t0 ? (tau - t0) / (t1 - t0) : 1.0;
    const double dev = fabs(H[j - 1] + w * (H[j] - H[j - 1]) - vbc_mm1952_height[k][1]);
    sum += dev, max = fmax(max, dev), e.points++;
  }
  if (e.points) e.mean = sum / (double)e.points, e.max = max;
  return e;
}

/* The origin with the smallest mean deviation over the fit set (the first on ties), or
 * time_shift. */
static double fitted_shift(const dam_state *s) {
  double best = s->time_shift, best_mean = INFINITY;
  if (!s->fit_time_shift) return best;
  for (int k = 0; k * FIT_STEP <= FIT_RANGE + 1e-12; ++k) {
    const double shift = s->time_shift + k * FIT_STEP;
    const front_errors e = compare(s, shift, -INFINITY, s->fit_until);
    if (e.points > 0 && e.mean < best_mean) best = shift, best_mean = e.mean;
  }
  return best;
}

static int add_number_or_null(cJSON *obj, const char *key, int valid, double value) {
  return (valid ? cJSON_AddNumberToObject(obj, key, value) : cJSON_AddNullToObject(obj, key)) !=
         NULL;
}

static int dam_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                       vbc_error *err) {
  (void)sim, (void)outdir;
  const dam_state *s = state;
  const double shift = fitted_shift(s);
  const front_errors e = compare(s, s->time_shift, -INFINITY, INFINITY);
  const front_errors fit = compare(s, shift, -INFINITY, s->fit_until);
  const front_errors score = compare(s, shift, s->fit_until, INFINITY);
  const int fitted = s->fit_time_shift && score.points > 0;
  double wall_t = NAN; /* the first sample with the front within l of the far wall */
  for (size_t k = 0; k < s->n && isnan(wall_t); ++k)
    if (s->Z[k] * s->a >= s->tank_width - s->l) wall_t = s->T[k] / s->time_scale;
  const double tau_per_T = 1.0 / sqrt(2.0); /* sqrt(g/a) / sqrt(2g/a) */
  const vbc_height_errors h = vbc_dam_break_height_errors(
      s->T, s->H, s->n, tau_per_T, isnan(wall_t) ? INFINITY : wall_t * s->time_scale * tau_per_T);
  const int ok = add_number_or_null(metrics, "front_error", e.points > 0, e.max) &&
                 add_number_or_null(metrics, "front_error_mean", e.points > 0, e.mean) &&
                 add_number_or_null(metrics, "front_error_T", e.points > 0, e.T_max) &&
                 add_number_or_null(metrics, "front_points", 1, (double)e.points) &&
                 add_number_or_null(metrics, "front_time_shift", 1, shift) &&
                 add_number_or_null(metrics, "front_error_fitted", fitted, score.max) &&
                 add_number_or_null(metrics, "front_error_fitted_mean", fitted, score.mean) &&
                 add_number_or_null(metrics, "front_fit_points", s->fit_time_shift,
                                    (double)fit.points) &&
                 add_number_or_null(metrics, "front_score_points", s->fit_time_shift,
                                    (double)score.points) &&
                 add_number_or_null(metrics, "far_wall_time", !isnan(wall_t), wall_t) &&
                 add_number_or_null(metrics, "height_error_mean", h.points > 0, h.mean) &&
                 add_number_or_null(metrics, "height_error_max", h.points > 0, h.max) &&
                 add_number_or_null(metrics, "height_points", 1, (double)h.points) &&
                 add_number_or_null(metrics, "final_front_Z", s->n > 0, s->Z[s->n ? s->n - 1 : 0]) &&
                 add_number_or_null(metrics, "column_width", 1, s->a) &&
                 add_number_or_null(metrics, "tank_width", isfinite(s->tank_width), s->tank_width);
  return ok ? VBC_OK : vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (metrics)");
}

static const char *const dam_metric_names[] = {
    "front_error",        "front_error_mean",        "front_error_T",   "front_points",
    "front_time_shift",   "front_error_fitted",      "front_error_fitted_mean",
    "front_fit_points",   "front_score_points",      "far_wall_time",   "final_front_Z",
    "column_width",       "tank_width",              "height_error_mean", "height_error_max",
    "height_points",      NULL};

/* Checkpoints: the samples so far (the arrays were sized for the whole run at alloc) and the
 * latest front. */
static int dam_save(const void *state, vbc_blob *out, vbc_error *err) {
  const dam_state *s = state;
  if (vbc_blob_put(out, &s->front_x, sizeof s->front_x, err) != VBC_OK ||
      vbc_blob_put_array(out, s->T, s->n, sizeof *s->T, err) != VBC_OK ||
      vbc_blob_put_array(out, s->Z, s->n, sizeof *s->Z, err) != VBC_OK)
    return err->code;
  return vbc_blob_put_array(out, s->H, s->n, sizeof *s->H, err);
}

static int dam_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  dam_state *s = state;
  const size_t n = (size_t)sim->step + 1; /* t = 0 and every step so far */
  if (n > s->cap && grow(s, n, err) != VBC_OK) return err->code;
  if (vbc_reader_get(in, &s->front_x, sizeof s->front_x, err) != VBC_OK ||
      vbc_reader_get_array(in, s->T, n, sizeof *s->T, err) != VBC_OK ||
      vbc_reader_get_array(in, s->Z, n, sizeof *s->Z, err) != VBC_OK ||
      vbc_reader_get_array(in, s->H, n, sizeof *s->H, err) != VBC_OK)
    return err->code;
  s->n = n;
  return VBC_OK;
}

const vbc_benchmark_type vbc_benchmark_dam_break = {
    .name = "dam_break",
    .summary = "collapsing water column: surge front Z(T) and wall height H(tau) vs Martin & "
               "Moyce 1952 (Koshizuka & Oka 1996)",
    .params = dam_params,
    .metric_names = dam_metric_names,
    .series_columns = "front_x,front_Z,front_T,height_H,height_tau,height_over_column",
    .alloc = dam_alloc,
    .free = dam_free,
    .observe = dam_observe,
    .save = dam_save,
    .load = dam_load,
    .series = dam_series,
    .metrics = dam_metrics,
};
