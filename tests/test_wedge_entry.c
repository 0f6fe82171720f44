/* test_wedge_entry.c — the wedge_entry benchmark (metrics/wedge_entry.c) on synthetic velocity
 * histories, the von Karman / Wagner momentum estimate (metrics/wedge_wagner.c) against its closed
 * form, and the shipped scene (experiments/scenes/wedge_entry.json) for a few steps. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "metrics/metrics.h"
#include "metrics/wedge_wagner.h"
#include "tests/support.h"

/* The experiment's points (metrics/wedge_entry.c), t > 0 */
static const double T[] = {0.0, 0.0025, 0.005, 0.0075, 0.010, 0.0125,
                           0.015, 0.0175, 0.020, 0.0225, 0.025};
static const double V[] = {6.15, 6.14, 6.08, 5.97, 5.80, 5.58, 5.35, 5.15, 5.02, 4.94, 4.90};

/* The experimental V(t), linear between its points, times `factor`. */
static double v_exp(double t, double factor) {
  size_t k = 1;
  while (k < 10 && T[k] < t) ++k;
  return factor * (V[k - 1] + (V[k] - V[k - 1]) * (t - T[k - 1]) / (T[k] - T[k - 1]));
}

/* Feed the benchmark a body whose downward speed is v(t) every 1e-4 s over [0, t_end]. */
static cJSON *metrics_of(double (*v)(double, double), double factor, double t_end,
                         const char *params_json) {
  const vbc_benchmark_type *bt = &vbc_benchmark_wedge_entry;
  synthetic_bench B;
  synthetic_bench_start(&B, bt, 241.0, 9.81, params_json);
  vbc_error err = {0};
  const double h = 1e-4;
  for (long k = 0; k * h <= t_end + 1e-12; ++k) {
    B.sim.time = (double)k * h;
    B.body.v.y = -v(B.sim.time, factor);
    if (k > 0) B.body.x.y -= h * 0.5 * (v(B.sim.time - h, factor) + v(B.sim.time, factor));
    cr_assert_eq(bt->observe(B.state, &B.sim, &err), 0);
  }
  return synthetic_bench_stop(&B, bt);
}

static double num(const cJSON *m, const char *key) {
  return cJSON_GetObjectItem(m, key)->valuedouble;
}

Test(wedge_entry, the_experiment_itself_scores_zero_and_a_scaled_copy_its_scale) {
  cJSON *m = metrics_of(v_exp, 1.0, 0.025, "{}");
  cr_assert_lt(num(m, "velocity_error_mean"), 1e-12);
  cr_assert_eq(num(m, "velocity_points"), 10.0, "the points after t = 0");
  cr_assert_float_eq(num(m, "final_velocity"), 4.90, 1e-9);
  /* the trapezoid rule on a piecewise-linear v is exact: the area under the points */
  double area = 0.0;
  for (int k = 1; k < 11; ++k) area += 0.5 * (V[k - 1] + V[k]) * (T[k] - T[k - 1]);
  cr_assert_float_eq(num(m, "penetration"), area, 1e-9);
  cJSON_Delete(m);
  /* the steepest segment, 5.58 -> 5.35 m/s over [0.0125, 0.015]: a window of 0.002 s inside it
   * sees a = 92 m/s^2 upward, F = M (a + g), centred at t in [0.0135, 0.014] */
  m = metrics_of(v_exp, 1.0, 0.025, "{\"force_window\": 0.002}");
  cr_assert_float_eq(num(m, "peak_force"), 241.0 * (0.23 / 0.0025 + 9.81), 1e-6);
  const double tp = num(m, "peak_force_time");
  cr_assert(tp > 0.0135 - 1e-9 && tp < 0.014 + 1e-9, "peak at %g", tp);
  cJSON_Delete(m);
  m = metrics_of(v_exp, 0.97, 0.025, "{}");
  cr_assert_float_eq(num(m, "velocity_error_mean"), 0.03, 1e-9);
  cr_assert_float_eq(num(m, "velocity_error_max"), 0.03, 1e-9);
  cJSON_Delete(m);
}

static double v_const(double t, double v0) { (void)t; return v0; }

/* A body that keeps 6.15 m/s: the error grows to (6.15 - 4.90)/4.90 at the end; a run of half
 * the range scores the points it covers only; score_from/score_to select points. */
Test(wedge_entry, errors_follow_the_points_the_run_covers) {
  cJSON *m = metrics_of(v_const, 6.15, 0.025, "{}");
  double sum = 0.0;
  for (int k = 1; k < 11; ++k) sum += fabs(6.15 - V[k]) / V[k];
  cr_assert_float_eq(num(m, "velocity_error_mean"), sum / 10.0, 1e-12);
  cr_assert_float_eq(num(m, "velocity_error_max"), 1.25 / 4.90, 1e-12);
  cr_assert_float_eq(num(m, "peak_force"), 241.0 * 9.81, 1e-6, "gravity only: M g");
  cJSON_Delete(m);
  m = metrics_of(v_const, 6.15, 0.0126, "{}");
  cr_assert_eq(num(m, "velocity_points"), 5.0);
  cJSON_Delete(m);
  m = metrics_of(v_const, 6.15, 0.025, "{\"score_from\": 0.0125}");
  cr_assert_eq(num(m, "velocity_points"), 5.0);
  cr_assert_float_eq(num(m, "velocity_error_max"), 1.25 / 4.90, 1e-12);
  cJSON_Delete(m);
}

/* Zhao et al.'s 2D theory force on the 0.2 m section (metrics/wedge_entry.c), and the downward
 * velocity it gives 241 kg/m from 6.15 m/s under g = 9.81, by midpoint steps of 1e-6 s. */
static const double TF[] = {0.0,   0.0025, 0.005,  0.0075, 0.010, 0.0125,
                            0.0145, 0.0155, 0.0175, 0.020,  0.0225, 0.025};
static const double FF[] = {0.0,    1400.0, 2850.0, 4200.0, 5500.0, 6200.0,
                            6550.0, 6650.0, 5000.0, 3500.0, 3100.0, 2800.0};

static double force_2d(double t) {
  size_t k = 1;
  while (k < 11 && TF[k] < t) ++k;
  return FF[k - 1] + (FF[k] - FF[k - 1]) * (t - TF[k - 1]) / (TF[k] - TF[k - 1]);
}

static double v_theory(double t, double mass) {
  const double dt = 1e-6;
  const long n = lround(t / dt);
  double v = 6.15;
  for (long k = 0; k < n; ++k) v += dt * (9.81 - force_2d(((double)k + 0.5) * dt) / (0.2 * mass));
  return v;
}

/* The velocity the 2D theory's force gives (what a 2D run that followed it would do) scores 0
 * against the theory and 0.0495 against the experiment at 241 kg/m (0.049489 from a separate
 * computation); the experiment is as far off the theory, measured the other way round. */
Test(wedge_entry, the_2d_theory_is_the_reference_of_a_2d_run) {
  cJSON *m = metrics_of(v_theory, 241.0, 0.025, "{}");
  cr_assert_lt(num(m, "theory_velocity_error_mean"), 1e-6);
  cr_assert_lt(num(m, "theory_velocity_error_max"), 1e-6);
  cr_assert_float_eq(num(m, "theory_experiment_error_mean"), 0.049489, 2e-5);
  cr_assert_float_eq(num(m, "velocity_error_mean"), num(m, "theory_experiment_error_mean"), 1e-6);
  cJSON_Delete(m);
  m = metrics_of(v_exp, 1.0, 0.025, "{}");
  cr_assert_float_eq(num(m, "theory_experiment_error_mean"), 0.049489, 2e-5);
  cr_assert_gt(num(m, "theory_velocity_error_mean"), 0.04);
  cr_assert_float_eq(num(m, "theory_velocity_error_max"), 4.90 / 4.323 - 1.0, 2e-3);
  cJSON_Delete(m);
}

/* The energy check on two fluid particles of 2 kg/m, at rest at t = 0; at the end one moves at
 * 3 m/s and the other was lifted by 0.5 m. The body kept 6.15 m/s, so it gave up only gravity's
 * work, M g penetration: the ratio is (9 + 9.81) / (241 g 6.15 * 0.025). */
Test(wedge_entry, the_energy_ratio_counts_the_waters_kinetic_and_potential_energy) {
  const vbc_benchmark_type *bt = &vbc_benchmark_wedge_entry;
  synthetic_bench B;
  synthetic_bench_start(&B, bt, 241.0, 9.81, "{}");
  vbc_vec pos[2] = {{0.0, 0.5, 0.0}, {1.0, 0.2, 0.0}}, vel[2] = {{0}, {0}};
  unsigned char kind[2] = {VBC_FLUID, VBC_FLUID};
  B.sim.particles.n = 2, B.sim.particles.pos = pos, B.sim.particles.vel = vel;
  B.sim.particles.kind = kind;
  B.sim.sys.fluid_mass = 2.0;
  vbc_error err = {0};
  const double h = 1e-4;
  for (long k = 0; k * h <= 0.025 + 1e-12; ++k) {
    B.sim.time = (double)k * h;
    B.body.v.y = -6.15;
    B.body.x.y = -6.15 * B.sim.time;
    if (k > 0) vel[0] = vbc_vec_make(0.0, 3.0, 0.0), pos[1].y = 0.7;
    cr_assert_eq(bt->observe(B.state, &B.sim, &err), 0);
  }
  cJSON *m = synthetic_bench_stop(&B, bt);
  const double given = 241.0 * 9.81 * 6.15 * 0.025;
  cr_assert_float_eq(num(m, "fluid_energy_ratio"), (0.5 * 2.0 * 9.0 + 2.0 * 9.81 * 0.5) / given,
                     1e-12);
  cJSON_Delete(m);
}

/* The shipped scene for three steps (the wedge at 6.15 m/s, locked to vertical motion). */
Test(wedge_entry, the_scene_runs_a_few_steps) {
  cJSON *s = run_scene("wedge_scene", source_path("experiments/scenes/wedge_entry.json"),
                       SETS("time.end=0.0018"), 1);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double v = num(cJSON_GetObjectItem(s, "metrics"), "final_velocity");
  cr_assert(v > 6.0 && v < 6.2, "final velocity %g", v);
  cr_assert_float_eq(num(cJSON_GetObjectItem(s, "metrics"), "penetration"), 0.011, 0.001);
  const double ratio = num(cJSON_GetObjectItem(s, "metrics"), "fluid_energy_ratio");
  cr_assert(ratio > 0.0 && ratio < 10.0, "fluid_energy_ratio %g", ratio);
  cJSON_Delete(s);
}

/* The energy check on the shipped wedge at l = 0.02 m over the whole 0.025 s: with the p^v solve
 * converged (relative residual 1e-2, E test off) and the whole pressure on the body, the water
 * ends with less energy than the wedge gave up (measured 0.509 under prepass_move alg1, the
 * default; 0.595 under kept; docs/notes/staggered-journal.md, "Energy"). */
Test(wedge_entry, a_converged_solve_with_the_whole_pressure_creates_no_energy) {
  cJSON *s = run_scene("wedge_energy", source_path("experiments/scenes/wedge_entry.json"),
                       SETS("spacing=0.02", "method.fluid.error_tolerance=0",
                            "method.fluid.tolerance=0.01", "method.fluid.body_load=implicit"),
                       4);
  const double ratio = num(cJSON_GetObjectItem(s, "metrics"), "fluid_energy_ratio");
  cr_assert(ratio > 0.4 && ratio < 0.8, "fluid_energy_ratio %g", ratio);
  cJSON_Delete(s);
}

/* The 3D scene (the whole 1 m model) at l = 0.05 for three steps: the benchmark takes force and
 * mass per metre of the wedge's length, so halving `length` doubles the force per metre and
 * leaves the velocities alone. */
Test(wedge_entry, the_3d_model_reports_per_metre_of_its_length,
     LONG_PHYSICS /* the sanitizers: the_scene_runs_a_few_steps (the coupler in 2D), and
                     test_staggered_body's 3D wedge shape and 3D lock */) {
  const char *scene = source_path("experiments/scenes/wedge_entry_3d.json");
  cJSON *s = run_scene("wedge_3d", scene, SETS("spacing=0.05", "time.end=0.0018"), 2);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const cJSON *m = cJSON_GetObjectItem(s, "metrics");
  const double v = num(m, "final_velocity"), f = num(m, "peak_force");
  cr_assert(v > 5.5 && v < 6.15, "final velocity %g (coarse: it slows at once)", v);
  cr_assert_float_eq(num(m, "penetration"), 0.0105, 0.001);
  cJSON *half = run_scene("wedge_3d_half", scene,
                          SETS("spacing=0.05", "time.end=0.0018", "benchmark.length=0.5"), 3);
  const cJSON *mh = cJSON_GetObjectItem(half, "metrics");
  cr_assert_float_eq(num(mh, "peak_force"), 2.0 * f, 1e-9 * fabs(f));
  cr_assert_eq(num(mh, "final_velocity"), v);
  cJSON_Delete(half);
  cJSON_Delete(s);
}

/* The scene's contact stage has body pairs only (method.contact.pairs = bodies, as He et al.):
 * the wedge touches no wall, so the stage has no rows; with every pair it has the fluid-rigid
 * ones. */
static double contact_rows(const char *name, const char *const *sets, int nsets) {
  cJSON *s = run_scene(name, source_path("experiments/scenes/wedge_entry.json"), sets, nsets);
  const cJSON *st;
  double rows = -1.0;
  cJSON_ArrayForEach(st, cJSON_GetObjectItem(cJSON_GetObjectItem(s, "solver"), "stages"))
    if (strcmp(cJSON_GetObjectItem(st, "label")->valuestring, "body_contact") == 0)
      rows = num(st, "rows_max");
  cJSON_Delete(s);
  return rows;
}

Test(wedge_entry, the_contact_stage_takes_body_pairs_only) {
  cr_assert_eq(contact_rows("wedge_pairs", SETS("time.end=0.0018"), 1), 0.0);
  cr_assert_gt(contact_rows("wedge_pairs_all",
                            SETS("time.end=0.0018", "method.contact.pairs=all"), 2), 10.0);
}

Test(wedge_entry_input, the_benchmark_needs_a_free_body) {
  const char *path = source_path("experiments/scenes/wedge_entry.json");
  char *text = read_text(path);
  expect_bad_input("wedge_bad_body", text, SETS("benchmark.body=3"),
                   FRAGMENTS("benchmark.body", "free body"));
  expect_bad_input("wedge_bad_pairs", text, SETS("method.contact.pairs=fluid"),
                   FRAGMENTS("method.contact.pairs", "\"all\"", "fluid"));
  free(text);
}

/* The von Karman / Wagner momentum estimate (metrics/wedge_wagner.h) against its closed form
 * without gravity: M zeta + a zeta^3 / 3 = M V0 t, V = M V0 / (M + a zeta^2), a = (pi/2) rho k^2,
 * k = 1 / tan(beta) (von Karman) or pi / (2 tan(beta)) (Wagner); the chines wet at zeta =
 * B / (2 k). A 20 deg wedge 0.4 m wide, 80 kg/m, at 4 m/s. */
Test(wedge_entry, the_momentum_estimate_matches_its_closed_form) {
  const double beta = 20.0 * M_PI / 180.0, B = 0.4, M = 80.0, rho = 1000.0, V0 = 4.0;
  for (int w = 0; w < 2; ++w) {
    const vbc_wedge_entry_model m = {beta, B, M, rho, V0, 0.0,
                                     w ? VBC_WETTING_WAGNER : VBC_WETTING_VON_KARMAN};
    const double k = (w ? 0.5 * M_PI : 1.0) / tan(beta), a = 0.5 * M_PI * rho * k * k;
    const double zc = 0.5 * B / k, tc = (M * zc + a * zc * zc * zc / 3.0) / (M * V0);
    cr_assert_float_eq(vbc_wedge_chine_time(&m), tc, 2e-6, "%d: chine at %.7g, want %.7g", w,
                       vbc_wedge_chine_time(&m), tc);
    for (int s = 1; s <= 4; ++s) {
      const double zeta = 0.25 * s * zc * 0.999, t = (M * zeta + a * zeta * zeta * zeta / 3.0) /
                                                      (M * V0);
      double depth;
      const double v = vbc_wedge_velocity(&m, t, &depth);
      cr_assert_float_eq(depth, zeta, 1e-9, "%d: depth %.10g want %.10g", w, depth, zeta);
      cr_assert_float_eq(v, M * V0 / (M + a * zeta * zeta), 1e-7);
    }
    cr_assert(isnan(vbc_wedge_velocity(&m, 1.01 * tc, NULL)));
  }
  /* Gravity adds M g t to the momentum: a massive wedge barely slows and speeds up by g t. */
  const vbc_wedge_entry_model heavy = {beta, B, 1e9, rho, V0, 9.81, VBC_WETTING_WAGNER};
  cr_assert_float_eq(vbc_wedge_velocity(&heavy, 0.01, NULL), V0 + 0.0981, 1e-6);
}

/* The benchmark reads deadrise and breadth off the shipped wedge (30 deg, 0.5 m) and reports the
 * estimate beside the run: Wagner's chines wet at 0.0167 s for the rig's 241 kg at 6.15 m/s,
 * and the estimate itself is within 7 % of the experiment before that (it over-predicts the
 * slamming load, as Wagner's theory is known to). */
Test(wedge_entry, the_benchmark_reports_the_momentum_estimate, .timeout = 60) {
  cJSON *s = run_scene("wedge_wagner", source_path("experiments/scenes/wedge_entry.json"),
                       SETS("spacing=0.04", "time.end=0.006"), 2);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const vbc_wedge_entry_model m = {30.0 * M_PI / 180.0, 0.5, 241.0, 1000.0, 6.15, 9.81,
                                   VBC_WETTING_WAGNER};
  cr_assert_float_eq(json_number(s, "metrics.wagner_chine_time"), vbc_wedge_chine_time(&m), 1e-9);
  cr_assert_float_eq(json_number(s, "metrics.wagner_chine_time"), 0.01675, 1e-4);
  cr_assert_lt(json_number(s, "metrics.wagner_experiment_error_mean"), 0.07);
  cr_assert(isfinite(json_number(s, "metrics.wagner_velocity_error_mean")));
  cr_assert(isfinite(json_number(s, "metrics.karman_velocity_error_mean")));
  cJSON_Delete(s);
}
