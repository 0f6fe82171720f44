/* cylinder_flow.c — the fluid force on a body held in a flow, per metre in 2D: He et al. 2012
 * Fig. 12 (a cylinder at 0 and +-10 rad/s in a flow with free-slip outer walls and a no-slip
 * cylinder; the paper draws the flow and gives no forces, so drag and lift are ours).
 *
 * The force is the impulse the coupler records on the body over a step (vbc_system.fluid_impulse:
 * the staggered coupler's reaction to the pre-pass and p^v, eq. 21 and 28; the akinci coupler's
 * Akinci boundary forces; on fixed and scripted bodies too) over the step's h. Other couplers
 * record none, and the benchmark refuses them (exit 2) rather than report a force of zero.
 * drag = F_x (along the flow, +x), lift = F_y. Averaged over the steps that end in [from, to]:
 * drag_mean, lift_mean, their standard deviations, and the coefficients C = F / (1/2 rho U^2 D)
 * with the scene's density and the parameters U and D.
 *
 * The step's force scatters by several times its mean (particles passing the body), and
 * neighbouring steps' forces are correlated, so the standard deviation over sqrt(n) understates
 * the uncertainty of the mean. drag_se and lift_se are the standard errors by batch means: the
 * window cut into consecutive batches of `batch` seconds, SE = the standard deviation of the
 * complete batches' means over sqrt(their number); null with fewer than two complete batches.
 * A batch longer than the forces' correlation time gives an honest SE; two runs of the same flow
 * that differ only in noise then agree within about two SE. */
#include <math.h>
#include <stdlib.h>

#include "metrics/metrics.h"
#include "sim/sim.h"

typedef struct flow_state {
  long body;
  double from, to, velocity, diameter;
  double sum[5]; /* over the window: n, sum F_x, sum F_y, sum F_x^2, sum F_y^2 */
  vbc_vec last;  /* the last step's force */
  double batch;  /* batch length [s] */
  /* the open batch: its index in the window, covered time, sum F_x, sum F_y, samples; the
   * complete batches: their number, sum of means x, y, sum of squared means x, y */
  double open[5];
  double done[5];
} flow_state;

static const vbc_param_spec flow_params[] = {
    {"body", VBC_PARAM_INTEGER, 0.0, 0.0, 1e6, 0, "index of the body in `bodies`"},
    {"from", VBC_PARAM_NUMBER, 0.0, 0.0, 1e9, 0, "averages over steps ending at t >= from [s]"},
    {"to", VBC_PARAM_NUMBER, 1e9, 0.0, 1e9, 0, "... and t <= to [s]"},
    {"velocity", VBC_PARAM_NUMBER, 1.0, 0.0, 1e6, 1, "U of the coefficients [m/s]"},
    {"diameter", VBC_PARAM_NUMBER, 0.1, 0.0, 1e6, 1, "D of the coefficients [m]"},
    {"batch", VBC_PARAM_NUMBER, 0.1, 0.0, 1e9, 1,
     "length of the batches whose means give drag_se and lift_se [s]"},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL}};

static void *flow_alloc(const vbc_sim *sim, const cJSON *params, vbc_error *err) {
  const long b = vbc_benchmark_body(sim, (long)vbc_param_number(params, flow_params, "body"), -1,
                                    err);
  if (b < 0) return NULL;
  const vbc_coupler_type *c = sim->coupling.type;
  if (!c->records_fluid_impulse) {
    vbc_error_set(err, VBC_EXIT_INPUT,
                  "%s: method.coupler: expected a coupler that records the fluid's force on "
                  "bodies for benchmark.type \"cylinder_flow\" (`vbc list` marks them), got "
                  "\"%s\"", sim->scene->file, c->name);
    return NULL;
  }
  flow_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->body = b;
  s->from = vbc_param_number(params, flow_params, "from");
  s->to = vbc_param_number(params, flow_params, "to");
  s->velocity = vbc_param_number(params, flow_params, "velocity");
  s->diameter = vbc_param_number(params, flow_params, "diameter");
  s->batch = vbc_param_number(params, flow_params, "batch");
  s->open[0] = -1.0; /* no batch open yet */
  return s;
}

static void flow_free(void *state) { free(state); }

/* The open batch into the complete ones: always when the next one begins; at the end of the run
 * only if it covers 99 % of its length (a last, shorter one is left out of the standard error,
 * not of the mean). */
static void close_batch(flow_state *s, int last) {
  if (s->open[4] > 0.0 && (!last || s->open[1] >= 0.99 * s->batch)) {
    const double mx = s->open[2] / s->open[4], my = s->open[3] / s->open[4];
    s->done[0] += 1.0, s->done[1] += mx, s->done[2] += my;
    s->done[3] += mx * mx, s->done[4] += my * my;
  }
  for (int k = 1; k < 5; ++k) s->open[k] = 0.0;
}

/* Batch means' standard error: from the number of batches, the sum of means and of their
 * squares; NAN (null) below two batches. */
static double batch_se(double nb, double sum, double sum2) {
  if (nb < 2.0) return NAN;
  const double mean = sum / nb;
  return sqrt(fmax(0.0, (sum2 - nb * mean * mean) / (nb - 1.0)) / nb);
}

static int flow_observe(void *state, const vbc_sim *sim, vbc_error *err) {
  (void)err;
  flow_state *s = state;
  if (sim->step == 0 || sim->sys.fluid_impulse == NULL) return VBC_OK; /* t = 0: no step yet */
  const vbc_vec F = vbc_vec_scale(sim->sys.fluid_impulse[s->body], 1.0 / sim->sys.dt);
  s->last = F;
  if (sim->time < s->from - 1e-12 || sim->time > s->to + 1e-12) return VBC_OK;
  s->sum[0] += 1.0, s->sum[1] += F.x, s->sum[2] += F.y;
  s->sum[3] += F.x * F.x, s->sum[4] += F.y * F.y;
  /* the batch of the step's end time; a step ending on a boundary belongs to the earlier one */
  const double index = fmax(0.0, ceil((sim->time - s->from) / s->batch - 1e-9) - 1.0);
  if (index != s->open[0]) close_batch(s, 0), s->open[0] = index;
  s->open[1] += sim->sys.dt, s->open[2] += F.x, s->open[3] += F.y, s->open[4] += 1.0;
  return VBC_OK;
}

static void flow_series(void *state, const vbc_sim *sim, FILE *out) {
  (void)sim;
  const flow_state *s = state;
  fprintf(out, ",%.9g,%.9g", s->last.x, s->last.y);
}

static int flow_metrics(void *state, vbc_sim *sim, cJSON *metrics, const char *outdir,
                        vbc_error *err) {
  (void)outdir, (void)err;
  const flow_state *s = state;
  flow_state closed = *s; /* the open batch counted, the state left as it is */
  close_batch(&closed, 1);
  const double n = s->sum[0];
  const double mx = n > 0 ? s->sum[1] / n : NAN, my = n > 0 ? s->sum[2] / n : NAN;
  const double vx = n > 0 ? fmax(0.0, s->sum[3] / n - mx * mx) : NAN;
  const double vy = n > 0 ? fmax(0.0, s->sum[4] / n - my * my) : NAN;
  const double q = 0.5 * sim->scene->density * s->velocity * s->velocity * s->diameter;
  cJSON_AddNumberToObject(metrics, "drag_mean", mx);
  cJSON_AddNumberToObject(metrics, "lift_mean", my);
  cJSON_AddNumberToObject(metrics, "drag_std", sqrt(vx));
  cJSON_AddNumberToObject(metrics, "lift_std", sqrt(vy));
  cJSON_AddNumberToObject(metrics, "drag_coefficient", mx / q);
  cJSON_AddNumberToObject(metrics, "lift_coefficient", my / q);
  cJSON_AddNumberToObject(metrics, "force_samples", n);
  const double nb = closed.done[0];
  cJSON_AddNumberToObject(metrics, "drag_se", batch_se(nb, closed.done[1], closed.done[3]));
  cJSON_AddNumberToObject(metrics, "lift_se", batch_se(nb, closed.done[2], closed.done[4]));
  cJSON_AddNumberToObject(metrics, "force_batches", nb);
  return VBC_OK;
}

static const char *const flow_metric_names[] = {
    "drag_mean", "lift_mean", "drag_std", "lift_std", "drag_coefficient", "lift_coefficient",
    "force_samples", "drag_se", "lift_se", "force_batches", NULL};

static int flow_save(const void *state, vbc_blob *out, vbc_error *err) {
  const flow_state *s = state;
  if (vbc_blob_put_array(out, s->sum, 5, sizeof *s->sum, err) != VBC_OK ||
      vbc_blob_put_array(out, s->open, 5, sizeof *s->open, err) != VBC_OK ||
      vbc_blob_put_array(out, s->done, 5, sizeof *s->done, err) != VBC_OK)
    return err->code;
  return vbc_blob_put(out, &s->last, sizeof s->last, err);
}

static int flow_load(void *state, const vbc_sim *sim, vbc_reader *in, vbc_error *err) {
  (void)sim;
  flow_state *s = state;
  if (vbc_reader_get_array(in, s->sum, 5, sizeof *s->sum, err) != VBC_OK ||
      vbc_reader_get_array(in, s->open, 5, sizeof *s->open, err) != VBC_OK ||
      vbc_reader_get_array(in, s->done, 5, sizeof *s->done, err) != VBC_OK)
    return err->code;
  return vbc_reader_get(in, &s->last, sizeof s->last, err);
}

const vbc_benchmark_type vbc_benchmark_cylinder_flow = {
    .name = "cylinder_flow",
    .summary = "the fluid force on a body held in a flow: drag and lift per metre and their "
               "coefficients (He et al. 2012 Fig. 12's cylinder)",
    .params = flow_params,
    .metric_names = flow_metric_names,
    .series_columns = "drag,lift",
    .alloc = flow_alloc,
    .free = flow_free,
    .observe = flow_observe,
    .save = flow_save,
    .load = flow_load,
    .series = flow_series,
    .metrics = flow_metrics,
};
