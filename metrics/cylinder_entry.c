/* cylinder_entry.c — a circular cylinder dropped into still water, penetration against time: the
 * experiment of Greenhow & Lin (1983), a check of the body coupling beyond He et al. 2012 (whose
 * wedge, metrics/wedge_entry.c, is the paper's own).
 *
 * The body starts with its lowest point at the still surface moving down at V0 (t = 0 is entry).
 * Its centre's drop since t = 0 is the penetration p(t) of the lowest point below the still
 * surface. Against the experiment's points (tau_k, P_k), tau = t sqrt(g / D), P = p / D, with
 * tau_k > 0 inside the run, p is interpolated linearly between steps and
 *     penetration_error_mean = mean_k |p(t_k)/D - P_k|,  penetration_error_max = max_k (same),
 * absolute in diameters rather than relative: the first points are near 0 (the 500 kg/m^3 set
 * starts at P = 0.002), where a relative error says nothing. final_penetration is p/D at the end,
 * final_velocity_ratio the downward velocity at the end over V0.
 *
 * The experiment is a cylinder of finite length in a tank: its end effects and the closure of the
 * air cavity are not in a 2D run. The 2D reference is the boundary-element (potential-flow)
 * solution Sun et al. (2018) plot beside the experiment, scored the same way at its points:
 *     penetration_bem_error_mean, penetration_bem_error_max.
 *
 * The experimental points (facts read off a figure, cited): Greenhow, M. and Lin, W.-M. (1983),
 * "Nonlinear free surface effects: experiments and theory", MIT Dept. of Ocean Engineering report
 * 83-19: a cylinder of D = 0.11 m entering at V0 = 2.955 m/s, body densities 500 and 1000 kg/m^3,
 * as re-plotted by Sun et al. (2018) and digitised in dineshadepu/02_particles_dispersion
 * (code/ @6baaa54, sun_2018_falling_{500,1000}_rho_experimental_data.csv; the boundary-element
 * curves from sun_2018_falling_{500,1000}_rho_BEM_data.csv there, sorted by tau). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/body_history.h"
#include "metrics/metrics.h"

typedef struct entry_data {
  const char *name;
  double density; /* kg/m^3 */
  size_t n;
  double tau[6], pen[6]; /* the experiment */
  size_t nbem;
  double bem_tau[18], bem_pen[18]; /* the 2D boundary-element solution */
} entry_data;

static const entry_data data_sets[] = {
    {"rho500", 500.0, 6,
     {0.0, 0.10043668122270746, 0.277292576419214, 0.37772925764192156, 0.7969432314410482,
      1.1310043668122272},
     {0.0023640661938533203, 0.16832357768899642, 0.4954009105268049, 0.6093509657571724,
      1.067597840337783, 1.220477562018025},
     18,
     {0.004366812227074246, 0.0458515283842795, 0.08733624454148473, 0.15065502183406113,
      0.2358078602620088, 0.32096069868995647, 0.4039301310043669, 0.5043668122270742,
      0.5873362445414849, 0.6681222707423582, 0.7314410480349346, 0.8384279475982533,
      0.9126637554585154, 0.9847161572052402, 1.0786026200873362, 1.1593886462882097,
      1.220524017467249, 1.2794759825327513},
     {0.004748779254028834, 0.08768724126895644, 0.158805372314617, 0.2631236644058348,
      0.4053702499303171, 0.526340239710118, 0.6449358398629048, 0.768342159868686,
      0.8680252304706455, 0.9558776466701768, 1.0270990120474468, 1.1292597066080299,
      1.193440490569544, 1.2670672158733112, 1.3360690431209805, 1.3884604664127105,
      1.4383949126121385, 1.478862770602992}},
    {"rho1000", 1000.0, 6,
     {0.13782051282051286, 0.28205128205128205, 0.3685897435897436, 0.8429487179487178,
      1.032051282051282, 1.8814102564102564},
     {0.40104166666666696, 0.9427083333333335, 1.4375, 1.6822916666666665, 2.010416666666667,
      2.723958333333333},
     15,
     {0.0032051282051282215, 0.1121794871794872, 0.24999999999999997, 0.3685897435897436,
      0.4487179487179487, 0.5865384615384615, 0.7083333333333333, 0.862179487179487,
      0.9679487179487178, 1.0769230769230769, 1.2692307692307692, 1.3814102564102562,
      1.5576923076923075, 1.6923076923076923, 1.8108974358974357},
     {-0.005208333333333037, 0.24479166666666652, 0.546875, 0.7500000000000004, 0.8906250000000004,
      1.125, 1.3177083333333335, 1.5416666666666665, 1.6979166666666667, 1.8645833333333335,
      2.0885416666666665, 2.223958333333333, 2.411458333333333, 2.5572916666666665, 2.671875}},
};
#define NSETS (sizeof data_sets / sizeof *data_sets)

typedef struct cylinder_state {
  vbc_body_history h;
  double diameter;
  const entry_data *data;
} cylinder_state;

static const char *const data_choices[] = {"auto", "rho500", "rho1000", NULL};

static const vbc_param_spec cylinder_params[] = {
    {"body", VBC_PARAM_INTEGER, 0.0, 0.0, 1e6, 0, "index of the cylinder in `bodies`"},
    {"diameter", VBC_PARAM_NUMBER, 0.11, 0.0, 1e6, 1,
     "D: lengths in diameters, tau = t sqrt(g/D) [m]"},
    {"data", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the experiment's points: rho500, rho1000 (body density 500 or 1000 kg/m^3), or auto: the "
     "set whose density is nearest the body's (its mass over its particles' volume)",
     data_choices},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL}};

static void *cylinder_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const long b = vbc_benchmark_body(sim, (long)vbc_param_number(params, cylinder_params, "body"),
                                    VBC_MOTION_FREE, err);
  if (b < 0 || vbc_benchmark_gravity_down(sim->scene, "cylinder_entry", err) != VBC_OK)
    return NULL;
  cylinder_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->h.body = b;
  s->diameter = vbc_param_number(params, cylinder_params, "diameter");
  const int choice = vbc_param_choice(params, cylinder_params, "data");
  if (choice > 0) {
    s->data = &data_sets[choice - 1];
  } else { /* the body's density: its particles hold l^dim each */
    const vbc_body *B = &sim->bodies[b];
    const double rho = B->mass / ((double)B->count * pow(sim->sys.spacing, sim->sys.dim));
    s->data = &data_sets[0];
    for (size_t k = 1; k < NSETS; ++k)
      if (fabs(data_sets[k].density - rho) < fabs(s->data->density - rho))
        s->data = &data_sets[k];
  }
  return s;
}

static void cylinder_free(void *state) {
  cylinder_state *s = state;
  vbc_body_history_free(&s->h);
  free(s);
}

static int cylinder_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  return vbc_body_history_observe(&((cylinder_state *)state)->h, sim, err);
}

static void cylinder_series(void *state, const vbc_sim *sim, FILE *out) {
  const cylinder_state *s = state;
  const vbc_body *b = &sim->bodies[s->h.body];
  const double tscale = sqrt(s->diameter / fabs(sim->scene->gravity.y));
  fprintf(out, ",%.9g,%.9g,%.9g", sim->time / tscale,
          s->h.n ? (s->h.y[0] - b->x.y) / s->diameter : 0.0, -b->v.y);
}

/* Mean and largest |p(t_k)/D - P_k| over the points (tau_k, P_k) with tau_k > 0 inside the run
 * (t = 0 is the imposed start); returns how many there were. */
static size_t deviation(const vbc_body_history *h, double D, double tscale, const double *tau,
                        const double *pen, size_t npoints, double *mean, double *max) {
  double sum = 0.0;
  size_t n = 0;
  *max = 0.0;
  for (size_t k = 0; k < npoints; ++k) {
    if (tau[k] <= 0.0) continue;
    const double y = vbc_body_history_y(h, tau[k] * tscale);
    if (!isfinite(y)) continue;
    const double e = fabs((h->y[0] - y) / D - pen[k]);
    sum += e, *max = fmax(*max, e), ++n;
  }
  *mean = n ? sum / (double)n : NAN;
  if (n == 0) *max = NAN;
  return n;
}

static int cylinder_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                            vbc_error *err) {
  (void)outdir, (void)err;
  const cylinder_state *s = state;
  const vbc_body_history *h = &s->h;
  const entry_data *d = s->data;
  const double D = s->diameter, tscale = sqrt(D / fabs(sim->scene->gravity.y));
  double mean, max, bem_mean, bem_max;
  const size_t n = deviation(h, D, tscale, d->tau, d->pen, d->n, &mean, &max);
  deviation(h, D, tscale, d->bem_tau, d->bem_pen, d->nbem, &bem_mean, &bem_max);
  cJSON_AddNumberToObject(metrics, "data_density", d->density);
  cJSON_AddNumberToObject(metrics, "penetration_error_mean", mean);
  cJSON_AddNumberToObject(metrics, "penetration_error_max", max);
  cJSON_AddNumberToObject(metrics, "penetration_points", (double)n);
  cJSON_AddNumberToObject(metrics, "penetration_bem_error_mean", bem_mean);
  cJSON_AddNumberToObject(metrics, "penetration_bem_error_max", bem_max);
  cJSON_AddNumberToObject(metrics, "final_penetration",
                          h->n ? (h->y[0] - h->y[h->n - 1]) / D : NAN);
  cJSON_AddNumberToObject(metrics, "final_velocity_ratio",
                          h->n && h->vy[0] != 0.0 ? h->vy[h->n - 1] / h->vy[0] : NAN);
  cJSON_AddNumberToObject(metrics, "fluid_energy_ratio", vbc_body_history_energy_ratio(h, sim));
  return VBC_OK;
}

static const char *const cylinder_metric_names[] = {
    "data_density",       "penetration_error_mean",     "penetration_error_max",
    "penetration_points", "penetration_bem_error_mean", "penetration_bem_error_max",
    "final_penetration",  "final_velocity_ratio",       "fluid_energy_ratio",
    NULL};

static int cylinder_save(const void *state, vbc_blob *out, vbc_error *err) {
  return vbc_body_history_save(&((const cylinder_state *)state)->h, out, err);
}

static int cylinder_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  return vbc_body_history_load(&((cylinder_state *)state)->h, in, err);
}

const vbc_benchmark_type vbc_benchmark_cylinder_entry = {
    .name = "cylinder_entry",
    .summary = "a cylinder dropped into water: penetration / D against t sqrt(g/D) vs Greenhow & "
               "Lin 1983 (densities 500, 1000 kg/m^3)",
    .params = cylinder_params,
    .metric_names = cylinder_metric_names,
    .series_columns = "tau,penetration_over_diameter,body_velocity_down",
    .alloc = cylinder_alloc,
    .free = cylinder_free,
    .observe = cylinder_observe,
    .save = cylinder_save,
    .load = cylinder_load,
    .series = cylinder_series,
    .metrics = cylinder_metrics,
};
