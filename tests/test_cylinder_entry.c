/* test_cylinder_entry.c — the cylinder_entry benchmark (metrics/cylinder_entry.c) on synthetic
 * penetration histories, the choice of the data set, bad input, and the shipped scene
 * (experiments/scenes/cylinder_entry.json) for a few steps. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "metrics/metrics.h"
#include "tests/support.h"

/* Greenhow & Lin's points for 1000 kg/m^3 (metrics/cylinder_entry.c): tau = t sqrt(g/D), p/D */
static const double TAU[] = {0.0, 0.13782051282051286, 0.28205128205128205, 0.3685897435897436,
                             0.8429487179487178, 1.032051282051282, 1.8814102564102564};
static const double PEN[] = {0.0, 0.40104166666666696, 0.9427083333333335, 1.4375,
                             1.6822916666666665, 2.010416666666667, 2.723958333333333};
/* The 2D boundary-element curve for 1000 kg/m^3 (metrics/cylinder_entry.c), from (0, 0) */
static const double BEM_TAU[] = {
    0.0,                0.0032051282051282215, 0.1121794871794872, 0.24999999999999997,
    0.3685897435897436, 0.4487179487179487,    0.5865384615384615, 0.7083333333333333,
    0.862179487179487,  0.9679487179487178,    1.0769230769230769, 1.2692307692307692,
    1.3814102564102562, 1.5576923076923075,    1.6923076923076923, 1.8108974358974357};
static const double BEM_PEN[] = {
    0.0,                0.0,                   0.24479166666666652, 0.546875,
    0.7500000000000004, 0.8906250000000004,    1.125,               1.3177083333333335,
    1.5416666666666665, 1.6979166666666667,    1.8645833333333335,  2.0885416666666665,
    2.223958333333333,  2.411458333333333,     2.5572916666666665,  2.671875};
static const double D = 0.11, G = 9.81;

/* p/D at tau, linear between the n points (0 at 0), times factor. */
static double pen_at(const double *tau_k, const double *pen_k, size_t n, double tau,
                     double factor) {
  size_t k = 1;
  while (k < n - 1 && tau_k[k] < tau) ++k;
  return factor * (pen_k[k - 1] + (pen_k[k] - pen_k[k - 1]) * (tau - tau_k[k - 1]) /
                                      (tau_k[k] - tau_k[k - 1]));
}

static double pen_exp(double tau, double factor) { return pen_at(TAU, PEN, 7, tau, factor); }

/* Feed the benchmark a body whose centre drops by D pen(tau) every 1e-4 s to t_end, pen
 * following the experiment (bem 0) or the boundary-element curve (bem 1). */
static cJSON *metrics_along(int bem, double factor, double t_end, const char *params_json) {
  const vbc_benchmark_type *bt = &vbc_benchmark_cylinder_entry;
  synthetic_bench B;
  synthetic_bench_start(&B, bt, 9.5, G, params_json);
  vbc_error err = {0};
  const double h = 1e-4, y0 = 0.715, ts = sqrt(D / G);
  for (long k = 0; k * h <= t_end + 1e-12; ++k) {
    B.sim.time = (double)k * h;
    const double tau = B.sim.time / ts;
    B.body.x.y = y0 - D * (bem ? pen_at(BEM_TAU, BEM_PEN, 16, tau, factor) : pen_exp(tau, factor));
    B.body.v.y = k == 0 ? -2.955 : -1.0;
    cr_assert_eq(bt->observe(B.state, &B.sim, &err), 0);
  }
  return synthetic_bench_stop(&B, bt);
}

static cJSON *metrics_of(double factor, double t_end, const char *params_json) {
  return metrics_along(0, factor, t_end, params_json);
}

static double num(const cJSON *m, const char *key) {
  return cJSON_GetObjectItem(m, key)->valuedouble;
}

/* A history that is linear between the points, sampled every 1e-4 s (9.4e-4 in tau), is
 * reproduced at the points up to the kink inside the sample interval that holds each point
 * (at most a quarter interval times the slope change, < 2e-3 D): the experiment scores about
 * zero, a copy 10 % deeper 0.1 times the mean (max) of the points, and a run to tau = 1 scores
 * the first four points only. */
Test(cylinder_entry, the_experiment_scores_zero_and_a_scaled_copy_its_scale) {
  const double t_end = 1.9 * sqrt(D / G);
  cJSON *m = metrics_of(1.0, t_end, "{\"data\": \"rho1000\"}");
  cr_assert_lt(num(m, "penetration_error_mean"), 2e-3);
  cr_assert_lt(num(m, "penetration_error_max"), 2e-3);
  cr_assert_eq(num(m, "penetration_points"), 6.0);
  cr_assert_eq(num(m, "data_density"), 1000.0);
  cr_assert_float_eq(num(m, "final_velocity_ratio"), 1.0 / 2.955, 1e-12);
  cJSON_Delete(m);
  m = metrics_of(1.1, t_end, "{\"data\": \"rho1000\"}");
  double sum = 0.0;
  for (int k = 1; k < 7; ++k) sum += PEN[k];
  cr_assert_float_eq(num(m, "penetration_error_mean"), 0.1 * sum / 6.0, 2e-3);
  cr_assert_float_eq(num(m, "penetration_error_max"), 0.1 * PEN[6], 2e-3);
  cJSON_Delete(m);
  m = metrics_of(1.0, 1.0 * sqrt(D / G), "{\"data\": \"rho1000\"}");
  cr_assert_eq(num(m, "penetration_points"), 4.0);
  cJSON_Delete(m);
}

/* The 2D reference: a history along the boundary-element curve scores about zero against it
 * (but not against the experiment), a copy 10 % deeper 0.1 times the mean of its points after
 * entry. The BEM's second point (tau = 0.0032, p/D = -0.005) is read as 0 here, 0.005 off. */
Test(cylinder_entry, the_bem_curve_is_the_2d_reference) {
  const double t_end = 1.85 * sqrt(D / G);
  cJSON *m = metrics_along(1, 1.0, t_end, "{\"data\": \"rho1000\"}");
  cr_assert_lt(num(m, "penetration_bem_error_mean"), 2e-3);
  cr_assert_lt(num(m, "penetration_bem_error_max"), 6e-3);
  cr_assert_gt(num(m, "penetration_error_mean"), 0.05, "the experiment differs from the BEM");
  cJSON_Delete(m);
  m = metrics_along(1, 1.1, t_end, "{\"data\": \"rho1000\"}");
  double sum = 0.0;
  for (int k = 1; k < 16; ++k) sum += BEM_PEN[k];
  cr_assert_float_eq(num(m, "penetration_bem_error_mean"), 0.1 * sum / 15.0, 3e-3);
  cJSON_Delete(m);
}

/* The 500 kg/m^3 set's first point is the start (tau = 0): it is not scored. */
Test(cylinder_entry, the_500_set_scores_its_five_points_after_entry) {
  cJSON *m = metrics_of(1.0, 1.2 * sqrt(D / G), "{\"data\": \"rho500\"}");
  cr_assert_eq(num(m, "penetration_points"), 5.0);
  cr_assert_eq(num(m, "data_density"), 500.0);
  cJSON_Delete(m);
}

/* The shipped scene for three steps (D = 0.11 m at 2.955 m/s); `auto` picks the data set of the
 * body's density. */
Test(cylinder_entry, the_scene_runs_a_few_steps_and_picks_its_data) {
  const char *path = source_path("experiments/scenes/cylinder_entry.json");
  cJSON *s = run_scene("cyl_scene", path, SETS("time.end=0.0015"), 1);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const cJSON *m = cJSON_GetObjectItem(s, "metrics");
  cr_assert_eq(num(m, "data_density"), 1000.0);
  const double p = num(m, "final_penetration"); /* about 3 steps at 2.955 m/s: 0.04 D */
  cr_assert(p > 0.03 && p < 0.05, "final penetration %g D", p);
  cJSON_Delete(s);
  s = run_scene("cyl_scene500", path, SETS("time.end=0.0015", "bodies.0.density=500"), 2);
  cr_assert_eq(num(cJSON_GetObjectItem(s, "metrics"), "data_density"), 500.0);
  cJSON_Delete(s);
}

Test(cylinder_entry_input, bad_data_and_body) {
  char *text = read_text(source_path("experiments/scenes/cylinder_entry.json"));
  expect_bad_input("cyl_bad_data", text, SETS("benchmark.data=rho700"),
                   FRAGMENTS("benchmark.data", "rho500", "rho700"));
  expect_bad_input("cyl_bad_body", text, SETS("benchmark.body=2"),
                   FRAGMENTS("benchmark.body", "free body"));
  free(text);
}
