/* wedge_entry.c — a wedge dropped into still water (He et al. 2012 §7.2, Fig. 11, Table 2; the
 * experiment of Zhao, Faltinsen & Aarsnes 1996).
 *
 * The body's downward velocity V(t) = -v_y is recorded every step from t = 0, the moment the apex
 * reaches the still surface (the scene starts the body there with V0). Against the experiment's
 * points (t_k, V_k) after entry (t_k > 0: t = 0 is the imposed initial velocity) that the run
 * covers, V is interpolated linearly between steps and
 *     velocity_error_mean = mean_k |V(t_k) - V_k| / V_k,  velocity_error_max = max_k (same);
 * He et al. report a "deviation" of 0.63 % (E = 1 %) and 0.46 % (E = 0.1 %) without defining it.
 * The vertical fluid force per metre is the body's momentum change over a centred window w
 * (force_window) with gravity taken out, F(t) = M (v_y(t + w/2) - v_y(t - w/2)) / w - M g_y,
 * i.e. everything but gravity that acted on it (pressure, and contacts if any); peak_force and
 * peak_force_time are its largest value and when. penetration: how far the body went down since
 * t = 0, the apex's depth below the still surface at the end. In 3D the force and the mass are
 * taken per metre of the wedge's length (`length`, default the `wedge` shape's), so that a model
 * as long as Zhao et al.'s (1 m) reports what the 2D scene does.
 * fluid_energy_ratio: the energy check of metrics/body_history.h (a ratio: the same per metre).
 *
 * The experimental points (facts read off a figure, cited): Zhao, Faltinsen & Aarsnes (1996),
 * "Water entry of arbitrary two-dimensional sections with and without flow separation", 21st
 * Symposium on Naval Hydrodynamics, Fig. 15b (the MARINTEK drop test of a 30 deg wedge, breadth
 * 0.5 m, drop-rig mass 241 kg), as digitised by eye (+-0.05 m/s) in Ryu0523/rowbot_sim,
 * studies/exp_slam_wedge.py (commit c55e5bd0dfd68bfdd65876f20d654c73d4546465), arrays T_V and
 * V_MEAS. The same source's force on the 0.2 m measuring section (Fig. 15a) peaks at 5150 N at
 * t = 0.0145 s, 25.75 kN per metre (docs/notes/benchmarks-journal.md compares).
 *
 * The 2D reference. The same figure gives Zhao et al.'s fully nonlinear 2D theory for the force on
 * the section (6650 N peak, 33.3 kN/m; the measured force is lower, the section being part of a
 * 1 m model with ends). The benchmark integrates it, M dV/dt = M g - F_2D(t) / 0.2 m with F_2D
 * linear between its points (exactly), from the body's own V(0), mass and gravity:
 *     theory_velocity_error_mean/max = mean/max_k |V(t_k) - V_2D(t_k)| / V_2D(t_k)
 * over the points velocity_error_mean uses, and theory_experiment_error_mean is what V_2D itself
 * scores against the experiment there. The theory's force was computed along the measured motion,
 * so V_2D is a reference for the rig's 241 kg only (and to first order: a wedge that slows more
 * meets less force); other masses get the numbers but no meaning.
 *
 * Scoring: a 2D scene is a 2D simulation, so its primary figure is theory_velocity_error_mean
 * (against Zhao et al.'s 2D theory), velocity_error_mean (the 1 m model, which has end effects)
 * second; a 3D scene of the model is scored against the experiment (docs/notes/benchmarks-journal.md).
 *
 * Any wedge: the momentum estimate of von Kármán (1929) and Wagner (1932) up to chine wetting
 * (wedge_wagner.h), from the wedge's deadrise and breadth (read off the `wedge` shape's polygon:
 * the lowest vertex is the apex, the lowest vertex at the largest x a chine; or given as
 * deadrise_deg and breadth), its mass per metre, V(0), gravity and the water's density:
 * wagner_chine_time, and over the run's own samples 0 < t <= chine time,
 * wagner_velocity_error_mean/max = mean/max |V(t) - V_W(t)| / V_W(t) and the same for von
 * Kármán (karman_velocity_error_mean); wagner_experiment_error_mean is what the Wagner estimate
 * itself scores against the experiment's points before chine wetting (for the rig's wedge). */
#include <math.h>
#include <stdlib.h>

#include "metrics/body_history.h"
#include "metrics/metrics.h"
#include "metrics/wedge_wagner.h"

static const double exp_t[] = {0.0,   0.0025, 0.005,  0.0075, 0.010, 0.0125,
                               0.015, 0.0175, 0.020,  0.0225, 0.025};
static const double exp_v[] = {6.15, 6.14, 6.08, 5.97, 5.80, 5.58, 5.35, 5.15, 5.02, 4.94, 4.90};
#define NEXP (sizeof exp_t / sizeof *exp_t)

/* Zhao et al.'s fully nonlinear 2D theory, force on the 0.2 m measuring section [N] (same source,
 * array F_NONLIN). */
static const double theory_t[] = {0.0,   0.0025, 0.005,  0.0075, 0.010, 0.0125,
                                  0.0145, 0.0155, 0.0175, 0.020,  0.0225, 0.025};
static const double theory_f[] = {0.0,    1400.0, 2850.0, 4200.0, 5500.0, 6200.0,
                                  6550.0, 6650.0, 5000.0, 3500.0, 3100.0, 2800.0};
#define NTHEORY (sizeof theory_t / sizeof *theory_t)
#define SECTION_LENGTH 0.2 /* m, the measuring section the force was taken on */

/* The downward velocity the 2D theory's force gives a body of mass M (per metre) starting at v0:
 * v0 + g t - (1/M) * integral of F_2D / SECTION_LENGTH (trapezoids are exact for the linear
 * interpolant). NAN after the theory's last point. */
static double theory_velocity(double t, double v0, double mass, double g) {
  if (t > theory_t[NTHEORY - 1]) return NAN;
  double impulse = 0.0;
  for (size_t k = 1; k < NTHEORY && theory_t[k - 1] < t; ++k) {
    const double a = theory_t[k - 1], dt_seg = theory_t[k] - a;
    const double b = fmin(t, theory_t[k]);
    const double fb = theory_f[k - 1] + (theory_f[k] - theory_f[k - 1]) * (b - a) / dt_seg;
    impulse += 0.5 * (theory_f[k - 1] + fb) * (b - a);
  }
  return v0 + g * t - impulse / (SECTION_LENGTH * mass);
}

typedef struct wedge_state {
  vbc_body_history h;
  double window, t_from, t_to;
  double length; /* force and mass are divided by it: 1 in 2D (already per metre) */
  double deadrise, breadth; /* [rad], [m]: the momentum estimate's wedge (0: not a wedge) */
} wedge_state;

static const vbc_param_spec wedge_params[] = {
    {"body", VBC_PARAM_INTEGER, 0.0, 0.0, 1e6, 0, "index of the wedge in `bodies`"},
    {"force_window", VBC_PARAM_NUMBER, 0.003, 0.0, 1e3, 1,
     "the force is the momentum change over this centred window, gravity removed [s]"},
    {"score_from", VBC_PARAM_NUMBER, 0.0, 0.0, 1e3, 0,
     "the velocity errors use the experimental points with t > score_from only [s] (to score a "
     "part of the range that a setting was not fitted on)"},
    {"score_to", VBC_PARAM_NUMBER, 1.0, 0.0, 1e3, 0,
     "the velocity errors use the experimental points with t <= score_to only [s]"},
    {"length", VBC_PARAM_NUMBER, 0.0, 0.0, 1e6, 0,
     "3D: the wedge's length along z that force and mass are divided by (per metre) [m]; 0: "
     "the `wedge` shape's length (1 for another shape)"},
    {"deadrise_deg", VBC_PARAM_NUMBER, 0.0, 0.0, 89.0, 0,
     "the wedge's deadrise for the von Karman / Wagner estimate [deg]; 0: read off the body's "
     "polygon (the `wedge` shape)"},
    {"breadth", VBC_PARAM_NUMBER, 0.0, 0.0, 1e3, 0,
     "the wedge's breadth (chine to chine) for the same estimate [m]; 0: read off the polygon"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

/* Deadrise and breadth of a wedge polygon: the lowest vertex is the apex, the lowest of the
 * vertices at the largest x a chine. 0, 0 for another shape. */
static void wedge_geometry(const vbc_body_shape *shape, double *deadrise, double *breadth) {
  *deadrise = *breadth = 0.0;
  if (shape->type != VBC_BODY_POLYGON || shape->nvertices < 3) return;
  const vbc_vec *v = shape->vertices;
  size_t apex = 0, chine = 0;
  double xmin = v[0].x;
  for (size_t k = 1; k < shape->nvertices; ++k) {
    if (v[k].y < v[apex].y) apex = k;
    if (v[k].x > v[chine].x || (v[k].x == v[chine].x && v[k].y < v[chine].y)) chine = k;
    xmin = fmin(xmin, v[k].x);
  }
  const double run = v[chine].x - v[apex].x, rise = v[chine].y - v[apex].y;
  if (run <= 0.0 || rise <= 0.0) return;
  *deadrise = atan2(rise, run);
  *breadth = v[chine].x - xmin;
}

static void *wedge_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const long b = vbc_benchmark_body(sim, (long)vbc_param_number(params, wedge_params, "body"),
                                    VBC_MOTION_FREE, err);
  if (b < 0 || vbc_benchmark_gravity_down(sim->scene, "wedge_entry", err) != VBC_OK) return NULL;
  wedge_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->h.body = b;
  s->window = vbc_param_number(params, wedge_params, "force_window");
  s->t_from = vbc_param_number(params, wedge_params, "score_from");
  s->t_to = vbc_param_number(params, wedge_params, "score_to");
  s->length = 1.0;
  if (sim->scene->dim == 3) {
    const double length = vbc_param_number(params, wedge_params, "length");
    const vbc_body_shape *shape = &sim->scene->bodies[b].shape;
    s->length = length > 0.0                        ? length
                : shape->type == VBC_BODY_POLYGON ? shape->max.z - shape->min.z
                                                    : 1.0;
  }
  if (sim->scene->bodies) /* (a synthetic test scene has none) */
    wedge_geometry(&sim->scene->bodies[b].shape, &s->deadrise, &s->breadth);
  const double deadrise = vbc_param_number(params, wedge_params, "deadrise_deg");
  const double breadth = vbc_param_number(params, wedge_params, "breadth");
  if (deadrise > 0.0) s->deadrise = deadrise * M_PI / 180.0;
  if (breadth > 0.0) s->breadth = breadth;
  return s;
}

static void wedge_free(void *state) {
  wedge_state *s = state;
  vbc_body_history_free(&s->h);
  free(s);
}

static int wedge_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  return vbc_body_history_observe(&((wedge_state *)state)->h, sim, err);
}

/* The fluid force per metre at sample k (NAN where the window leaves the run). */
static double force_at(const wedge_state *s, const vbc_sim *sim, size_t k) {
  const double t = s->h.t[k], w = s->window;
  const double a = vbc_body_history_vy(&s->h, t - 0.5 * w);
  const double b = vbc_body_history_vy(&s->h, t + 0.5 * w);
  const vbc_body *B = &sim->bodies[s->h.body];
  return B->mass / s->length * ((b - a) / w - sim->scene->gravity.y);
}

static void wedge_series(void *state, const vbc_sim *sim, FILE *out) {
  const wedge_state *s = state;
  const vbc_body *b = &sim->bodies[s->h.body];
  fprintf(out, ",%.9g,%.9g", -b->v.y, s->h.n ? s->h.y[0] - b->x.y : 0.0);
}

/* Relative deviations |v - ref| / ref, summed. */
typedef struct deviation {
  double sum, max;
  size_t n;
} deviation;

static void deviation_add(deviation *d, double v, double ref) {
  const double e = fabs(v - ref) / ref;
  d->sum += e, d->max = fmax(d->max, e), ++d->n;
}

static double deviation_mean(const deviation *d) { return d->n ? d->sum / (double)d->n : NAN; }

/* The von Karman / Wagner estimates beside the run (wedge_wagner.h). */
static void momentum_estimate(const wedge_state *s, const vbc_sim *sim, double mass, double g,
                              cJSON *metrics) {
  const vbc_body_history *h = &s->h;
  if (s->deadrise <= 0.0 || s->breadth <= 0.0 || sim->scene->density <= 0.0 || h->n == 0)
    return;
  vbc_wedge_entry_model m = {s->deadrise, s->breadth, mass, sim->scene->density, -h->vy[0], g,
                             VBC_WETTING_WAGNER};
  const double chine = vbc_wedge_chine_time(&m);
  deviation wagner = {0}, karman = {0}, wagner_exp = {0};
  for (size_t k = 1; k < h->n; ++k) {
    const double t = h->t[k] - h->t[0];
    if (t <= 0.0 || t > chine) continue;
    m.wetting = VBC_WETTING_WAGNER;
    deviation_add(&wagner, -h->vy[k], vbc_wedge_velocity(&m, t, NULL));
    m.wetting = VBC_WETTING_VON_KARMAN;
    deviation_add(&karman, -h->vy[k], vbc_wedge_velocity(&m, t, NULL));
  }
  m.wetting = VBC_WETTING_WAGNER;
  for (size_t k = 0; k < NEXP; ++k)
    if (exp_t[k] > 0.0 && exp_t[k] <= chine)
      deviation_add(&wagner_exp, vbc_wedge_velocity(&m, exp_t[k], NULL), exp_v[k]);
  cJSON_AddNumberToObject(metrics, "wagner_chine_time", isfinite(chine) ? chine : NAN);
  cJSON_AddNumberToObject(metrics, "wagner_velocity_error_mean", deviation_mean(&wagner));
  cJSON_AddNumberToObject(metrics, "wagner_velocity_error_max", wagner.n ? wagner.max : NAN);
  cJSON_AddNumberToObject(metrics, "karman_velocity_error_mean", deviation_mean(&karman));
  cJSON_AddNumberToObject(metrics, "wagner_experiment_error_mean", deviation_mean(&wagner_exp));
}

static int wedge_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                         vbc_error *err) {
  (void)outdir, (void)err;
  wedge_state *s = state;
  const vbc_body_history *h = &s->h;
  const double mass = sim->bodies[h->body].mass / s->length, g = -sim->scene->gravity.y;
  const double v0 = h->n ? -h->vy[0] : NAN;
  deviation run = {0}, run_theory = {0}, theory_exp = {0};
  for (size_t k = 0; k < NEXP; ++k) {
    if (exp_t[k] <= s->t_from || exp_t[k] > s->t_to) continue;
    const double v = -vbc_body_history_vy(h, exp_t[k]);
    if (!isfinite(v)) continue;
    deviation_add(&run, v, exp_v[k]);
    const double v2d = theory_velocity(exp_t[k], v0, mass, g);
    if (!isfinite(v2d)) continue;
    deviation_add(&run_theory, v, v2d);
    deviation_add(&theory_exp, v2d, exp_v[k]);
  }
  double peak = -INFINITY, peak_t = NAN;
  for (size_t k = 0; k < h->n; ++k) {
    const double f = force_at(s, sim, k);
    if (isfinite(f) && f > peak) peak = f, peak_t = h->t[k];
  }
  cJSON_AddNumberToObject(metrics, "velocity_error_mean", deviation_mean(&run));
  cJSON_AddNumberToObject(metrics, "velocity_error_max", run.n ? run.max : NAN);
  cJSON_AddNumberToObject(metrics, "velocity_points", (double)run.n);
  cJSON_AddNumberToObject(metrics, "theory_velocity_error_mean", deviation_mean(&run_theory));
  cJSON_AddNumberToObject(metrics, "theory_velocity_error_max",
                          run_theory.n ? run_theory.max : NAN);
  cJSON_AddNumberToObject(metrics, "theory_experiment_error_mean", deviation_mean(&theory_exp));
  cJSON_AddNumberToObject(metrics, "peak_force", isfinite(peak) ? peak : NAN);
  cJSON_AddNumberToObject(metrics, "peak_force_time", peak_t);
  cJSON_AddNumberToObject(metrics, "penetration", h->n ? h->y[0] - h->y[h->n - 1] : NAN);
  cJSON_AddNumberToObject(metrics, "final_velocity", h->n ? -h->vy[h->n - 1] : NAN);
  cJSON_AddNumberToObject(metrics, "fluid_energy_ratio", vbc_body_history_energy_ratio(h, sim));
  momentum_estimate(s, sim, mass, g, metrics);
  return VBC_OK;
}

static const char *const wedge_metric_names[] = {
    "velocity_error_mean",          "velocity_error_max", "velocity_points",
    "theory_velocity_error_mean",   "theory_velocity_error_max",
    "theory_experiment_error_mean", "peak_force",         "peak_force_time",
    "penetration",                  "final_velocity",     "fluid_energy_ratio",
    "wagner_chine_time",            "wagner_velocity_error_mean",
    "wagner_velocity_error_max",    "karman_velocity_error_mean",
    "wagner_experiment_error_mean", NULL};

static int wedge_save(const void *state, vbc_blob *out, vbc_error *err) {
  return vbc_body_history_save(&((const wedge_state *)state)->h, out, err);
}

static int wedge_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  return vbc_body_history_load(&((wedge_state *)state)->h, in, err);
}

const vbc_benchmark_type vbc_benchmark_wedge_entry = {
    .name = "wedge_entry",
    .summary = "a wedge dropped into water: its velocity vs Zhao, Faltinsen & Aarsnes 1996, peak "
               "force, penetration (He et al. 2012 §7.2, Fig. 11)",
    .params = wedge_params,
    .metric_names = wedge_metric_names,
    .series_columns = "body_velocity_down,penetration",
    .alloc = wedge_alloc,
    .free = wedge_free,
    .observe = wedge_observe,
    .save = wedge_save,
    .load = wedge_load,
    .series = wedge_series,
    .metrics = wedge_metrics,
};
