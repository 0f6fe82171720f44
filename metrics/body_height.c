/* body_height.c — a body's centre height against a digitised experiment: the falling and the
 * floating block of Qiu, Liu & Han (2017), Math. Probl. Eng. 2017:3174904, §3.2 and §3.3 (the
 * floating block after the experiment of Wu et al. 2014, Comput. Fluids).
 *
 * The observable is y_c(t), the height of the body's centre of mass above the floor of the
 * scene's first tank (its `min` along y; without a tank, above y = 0), the quantity the paper
 * plots. The experiment's points (t_k, y_k) with t_k > 0 (t = 0 is the release, which the scene
 * sets up) and t_k inside the run are scored, y_c linear between steps:
 *     height_error_mean = mean_k |y_c(t_k) - y_k| / L,   height_error_max = max_k (same),
 * L the record's travel, max_k y_k - min_k y_k (0.117 m falling, 0.0391 m floating): the error is
 * a fraction of the motion the experiment shows. The mean is over the points as digitised (the
 * floating record is denser during the rise). No point in the run: NAN errors, height_points 0.
 * Choices the paper leaves open: no time shift (t = 0 at release in both); no datum correction —
 * the falling record settles at 0.0145 m where a 20 mm block's centre rests at 0.010 m, an offset
 * of the digitised record that every method carries alike (3.8 % of L on the final points).
 *
 * Points (facts read off the paper's figures, cited): digitised in dineshadepu/rfc_old (code/
 * @c446a5c, qiu_2017_{falling,floating}_solid_in_water_vertical_displacement_experimental.csv),
 * rounded to 6 digits: t [s], y_c [m]. */
#include <math.h>
#include <stdlib.h>

#include "metrics/body_history.h"
#include "metrics/metrics.h"

static const double qiu_falling[][2] = {
    {-0.000732642, 0.131546}, {0.0367131, 0.128164}, {0.0780763, 0.121401}, {0.119453, 0.112271},
    {0.158507, 0.100097}, {0.199139, 0.0845411}, {0.240555, 0.0683092}, {0.280423, 0.0500483},
    {0.321082, 0.0297585}, {0.361712, 0.0145411}, {0.402258, 0.0145411}};
static const double qiu_floating[][2] = {
    {0.00727273, 0.0120106}, {0.0581818, 0.0126112}, {0.0854545, 0.0131102},
    {0.101818, 0.0138066}, {0.110909, 0.0143038}, {0.138182, 0.0164901}, {0.150909, 0.0179802},
    {0.169091, 0.0201657}, {0.181818, 0.0220528}, {0.192727, 0.0239397}, {0.203636, 0.0258267},
    {0.214545, 0.0280114}, {0.221818, 0.0300965}, {0.229091, 0.031586}, {0.24, 0.0333737},
    {0.250909, 0.0350621}, {0.256364, 0.0361545}, {0.26, 0.0374452}, {0.267273, 0.0392325},
    {0.274545, 0.0408213}, {0.283636, 0.0421125}, {0.294545, 0.0443965}, {0.303636, 0.045787},
    {0.312727, 0.047376}, {0.318182, 0.047972}, {0.329091, 0.0489657}, {0.334545, 0.0498595},
    {0.349091, 0.050655}, {0.36, 0.0511524}, {0.376364, 0.051154}, {0.396364, 0.0507589},
    {0.407273, 0.0497675}, {0.416364, 0.0489743}, {0.425455, 0.0481812}, {0.436364, 0.0470905},
    {0.443636, 0.0457016}, {0.452727, 0.0446107}, {0.458182, 0.0434202}, {0.467273, 0.0423293},
    {0.481818, 0.0400478}, {0.5, 0.038263}, {0.514545, 0.0369741}, {0.541818, 0.0357858},
    {0.558182, 0.0351919}, {0.585455, 0.0363857}, {0.658182, 0.043043}, {0.7, 0.0472159},
    {0.716364, 0.0488056}, {0.732727, 0.0493035}, {0.758182, 0.0492068}, {0.78, 0.0481171},
    {0.807273, 0.0457377}, {0.829091, 0.0439533}, {0.852727, 0.041375}, {0.870909, 0.0399872},
    {0.892727, 0.038302}, {0.909091, 0.0378074}, {0.930909, 0.0373132}, {0.974545, 0.0392034},
    {1, 0.0412903}, {1.01091, 0.042284}, {1.02182, 0.0440716}, {1.04364, 0.0461582},
    {1.05455, 0.0472511}, {1.08182, 0.0481471}, {1.11091, 0.0483485}, {1.12727, 0.0481516},
    {1.14909, 0.0473597}, {1.17091, 0.0461708}, {1.19636, 0.0442875}, {1.22, 0.0425032},
    {1.22909, 0.0417101}, {1.24545, 0.0399251}, {1.25636, 0.0388344}, {1.28364, 0.0379438},
    {1.32182, 0.0386424}, {1.34364, 0.0406296}, {1.36727, 0.0424186}, {1.39273, 0.044704},
    {1.40909, 0.0459959}, {1.43455, 0.047388}, {1.45091, 0.0480845}, {1.49818, 0.0480891}};

typedef struct height_data {
  const double (*points)[2];
  size_t n;
} height_data;

static const height_data data_sets[] = {
    {qiu_falling, sizeof qiu_falling / sizeof *qiu_falling},
    {qiu_floating, sizeof qiu_floating / sizeof *qiu_floating}};

typedef struct height_state {
  vbc_body_history h;
  double floor_y;
  const height_data *data;
} height_state;

static const char *const data_choices[] = {"qiu_falling", "qiu_floating", NULL};

static const vbc_param_spec height_params[] = {
    {"body", VBC_PARAM_INTEGER, 0.0, 0.0, 1e6, 0, "index of the tracked body in `bodies`"},
    {"data", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the experiment's points: qiu_falling (Qiu et al. 2017 §3.2, 20 mm block, 2120 kg/m^3) or "
     "qiu_floating (§3.3, 49 x 24 mm block, 800.52 kg/m^3)",
     data_choices},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL}};

static void *height_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const long b = vbc_benchmark_body(sim, (long)vbc_param_number(params, height_params, "body"),
                                    VBC_MOTION_FREE, err);
  if (b < 0 || vbc_benchmark_gravity_down(sim->scene, "body_height", err) != VBC_OK) return NULL;
  height_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->h.body = b;
  s->data = &data_sets[vbc_param_choice(params, height_params, "data")];
  const vbc_scene *sc = sim->scene;
  for (size_t i = 0; i < sc->nshapes; ++i) /* the first tank's floor */
    if (sc->shapes[i].type == VBC_SHAPE_TANK) {
      s->floor_y = sc->shapes[i].min.y;
      break;
    }
  return s;
}

static void height_free(void *state) {
  height_state *s = state;
  vbc_body_history_free(&s->h);
  free(s);
}

static int height_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  return vbc_body_history_observe(&((height_state *)state)->h, sim, err);
}

static void height_series(void *state, const vbc_sim *sim, FILE *out) {
  const height_state *s = state;
  const vbc_body *b = &sim->bodies[s->h.body];
  fprintf(out, ",%.9g,%.9g", b->x.y - s->floor_y, b->v.y);
}

/* The record's travel L: max_k y_k - min_k y_k. */
static double travel(const height_data *d) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = 0; k < d->n; ++k)
    lo = fmin(lo, d->points[k][1]), hi = fmax(hi, d->points[k][1]);
  return hi - lo;
}

static int height_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                          vbc_error *err) {
  (void)sim, (void)outdir, (void)err;
  const height_state *s = state;
  const double L = travel(s->data);
  double sum = 0.0, max = 0.0;
  size_t n = 0;
  for (size_t k = 0; k < s->data->n; ++k) {
    const double t = s->data->points[k][0];
    if (t <= 0.0) continue; /* the release: set up by the scene */
    const double y = vbc_body_history_y(&s->h, t);
    if (!isfinite(y)) continue; /* beyond the run */
    const double e = fabs(y - s->floor_y - s->data->points[k][1]) / L;
    sum += e, max = fmax(max, e), ++n;
  }
  cJSON_AddNumberToObject(metrics, "height_error_mean", n ? sum / (double)n : NAN);
  cJSON_AddNumberToObject(metrics, "height_error_max", n ? max : NAN);
  cJSON_AddNumberToObject(metrics, "height_points", (double)n);
  cJSON_AddNumberToObject(metrics, "height_scale", L);
  cJSON_AddNumberToObject(metrics, "final_height",
                          s->h.n ? s->h.y[s->h.n - 1] - s->floor_y : NAN);
  return VBC_OK;
}

static const char *const height_metric_names[] = {"height_error_mean", "height_error_max",
                                                  "height_points", "height_scale",
                                                  "final_height", NULL};

static int height_save(const void *state, vbc_blob *out, vbc_error *err) {
  return vbc_body_history_save(&((const height_state *)state)->h, out, err);
}

static int height_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  return vbc_body_history_load(&((height_state *)state)->h, in, err);
}

const vbc_benchmark_type vbc_benchmark_body_height = {
    .name = "body_height",
    .summary = "a body's centre height above the floor against t vs a digitised experiment "
               "(Qiu et al. 2017: falling and floating block)",
    .params = height_params,
    .metric_names = height_metric_names,
    .series_columns = "body_height,body_velocity_y",
    .alloc = height_alloc,
    .free = height_free,
    .observe = height_observe,
    .save = height_save,
    .load = height_load,
    .series = height_series,
    .metrics = height_metrics,
};
