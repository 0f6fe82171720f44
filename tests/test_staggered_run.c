/* test_staggered_run.c — the staggered block (He et al., ACM Trans. Graph. 31(6) 149, 2012) in
 * whole runs of the hydrostatic tank through the vbc binary, the fluid solved alone
 * (lemke_contacts) by cg: eq. 19's remap checked by one step from rest, and the tank at rest for
 * a second with its hydrostatic pressure, and the surface pressure at the interface. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/state_file.h"
#include "support.h"

#define HYDRO "experiments/scenes/hydrostatic.json"

/* Run the tank (l = 0.02 m, h = 0.001 s, g = 10) for two steps with the given remap and slip
 * condition and dump the state at the start of the second, i.e. after one step from rest; return
 * the fluid's mean velocity (y component) and its largest speed. */
static void one_step_from_rest(const char *name, const char *remap, const char *slip,
                               double *mean_vy, double *max_speed) {
  const char *dir = test_dir(name);
  char out[1024], state[1100], set_remap[128], set_slip[128];
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(state, sizeof state, "%s/after_one_step.bin", dir);
  snprintf(set_remap, sizeof set_remap, "method.fluid.remap=%s", remap);
  snprintf(set_slip, sizeof set_slip, "method.fluid.slip=%s", slip);
  const char *args[] = {"run", source_path(HYDRO), "--out", out, "--quiet", "--threads", "1",
                        "--set", "time.end=0.002", "--set", "method.coupler=lemke_contacts",
                        "--set", "method.fluid.constraint=staggered", "--set",
                        "method.fluid.solver=cg", "--set", "method.fluid.preconditioner=ic0",
                        "--set", set_remap, "--set", set_slip, "--dump-state", "2", state,
                        NULL};
  char *err = NULL;
  const int rc = run_vbc(args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err ? err : "");
  free(err);
  vbc_state st;
  vbc_error e = {0};
  cr_assert_eq(vbc_state_read(state, &st, &e), 0, "%s", e.message);
  cr_assert_eq(st.h.step, 1, "the state after one step");
  double sum = 0.0;
  size_t n = 0;
  *max_speed = 0.0;
  for (size_t i = 0; i < st.particles.n; ++i) {
    if (st.particles.kind[i] != VBC_FLUID) continue;
    sum += st.particles.vel[i].y, ++n;
    *max_speed = fmax(*max_speed, vbc_vec_norm(st.particles.vel[i]));
  }
  cr_assert_eq(n, 900);
  *mean_vy = sum / (double)n;
  vbc_state_free(&st);
}

/* Eq. 19 first. Gravity gives every particle u* = -g h = -0.01 m/s before the solve.
 * Measured after one step (mean v_y of the 900 fluid particles, largest speed):
 *   remap literal (eq. 19 as printed), free slip:   -5.006e-3 m/s = -0.50 g h, 7.6e-3 m/s;
 *   remap normalised (the default), free slip:       +1.41e-4 m/s = 0.014 g h, 8.9e-4 m/s;
 *   remap normalised, no slip:                       +1.7e-8 m/s = 2e-6 g h, 2.7e-4 m/s.
 * The literal form gives the particles half of the pressure acceleration that holds them:
 * (1/N) sum n n^T = I/2 in 2D. The normalised form is exact for a linear pressure
 * (test_staggered.c); what is left under free slip is the side walls' staggered particles, which
 * keep the vertical part of v~_{i-j}, eq. 8's mix of the falling fluid and the wall (eq. 27 frees
 * the tangential part): the one uncancelled diagonal pair of each bottom corner particle adds a
 * source, and the pressure comes out 1.4 % steeper than rho g (203 Pa per layer instead of 200).
 * Under no slip (eq. 26) that staggered velocity is the wall's and the slope is rho g. */
Test(staggered_run, eq19_one_step_from_rest, .timeout = 120) {
  const double gh = 10.0 * 0.001;
  double literal, literal_max, normalised, normalised_max, no_slip, no_slip_max;
  one_step_from_rest("stag_eq19_literal", "literal", "free_slip", &literal, &literal_max);
  one_step_from_rest("stag_eq19_normalised", "normalised", "free_slip", &normalised,
                     &normalised_max);
  one_step_from_rest("stag_eq19_no_slip", "normalised", "no_slip", &no_slip, &no_slip_max);
  cr_log_info("mean v_y after one step: literal %.6g, normalised %.6g, no slip %.6g (g h = %g); "
              "largest speed %.3g, %.3g, %.3g", literal, normalised, no_slip, gh, literal_max,
              normalised_max, no_slip_max);
  cr_assert_lt(fabs(literal / gh + 0.5), 0.02, "literal eq. 19: half of g h: %g", literal);
  cr_assert_lt(fabs(normalised), 0.02 * gh, "normalised: << g h: %g", normalised);
  cr_assert_lt(normalised_max, 0.1 * gh, "%g", normalised_max);
  cr_assert_lt(fabs(no_slip), 1e-4 * gh, "no slip: %g", no_slip);
}

/* The tank at l = 0.04 m for 1 s (1000 steps) under cg with IC(0): it stays at rest with the
 * hydrostatic pressure. Measured (free slip, the default): pressure_error_raw 0.058 (smoothed
 * 0.060), surface 0.6005 m, max density deviation 1.6 %, 9.1 iterations per step; at l = 0.02 m
 * (not run here, 7 s) 0.030 raw and 0.031 smoothed (the bound asserted: 0.05 at l = 0.02); the
 * MPS-LCP as shipped measures 0.079 raw and 0.013 smoothed there. The error is mostly the surface
 * layer held at p = 0 at depth l/2 (0.5 rho g l over the column, which is why it halves with l
 * and smoothing does not remove it). Without the density pre-pass p^d nothing corrects the
 * positions' drift: at l = 0.02 the max density deviation reaches 3.4 % by 1 s (0.55 % under no
 * slip) and the largest speed 0.022 m/s. */
Test(staggered_run, hydrostatic_tank_stays_at_rest, .timeout = 300) {
  cJSON *s = run_scene("stag_hydro", source_path(HYDRO),
                       SETS("spacing=0.04", "method.coupler=lemke_contacts",
                            "method.fluid.constraint=staggered", "method.fluid.solver=cg",
                            "method.fluid.preconditioner=ic0"),
                       5);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double raw = json_number(s, "metrics.pressure_error_raw");
  const double smooth = json_number(s, "metrics.pressure_error_smoothed");
  cr_log_info("pressure error raw %g smoothed %g", raw, smooth);
  cr_assert_lt(raw, 0.065, "%g", raw);
  cr_assert_lt(smooth, 0.065, "%g", smooth);
  cr_assert_lt(fabs(json_number(s, "metrics.free_surface_height") - 0.6), 0.005);
  cr_assert_lt(json_number(s, "metrics.max_density_deviation"), 0.03);
  cr_assert_eq(json_number(s, "solver.stop_reasons.tolerance"), json_number(s, "solver.solves"));
  cr_assert_lt(json_number(s, "solver.iterations_mean"), 20.0);
  cJSON_Delete(s);
}

/* Eq. 29's E in the block's default unit (error_measure divergence): h |div v_i| over the rows,
 * eq. 10's divergence (the printed "/Delta t" is a typo: a divergence in 1/s times a step; the
 * density unit, He's, is this over eq. 10's lattice factor: test_staggered_error.c). Under the
 * coupler the predicted field of vbc's coarse dam break is already at E ~ 3e-4 in this unit;
 * error_tolerance 1e-5 stops every solve on E, after 2.6 SSOR-PCG iterations on average
 * (measured, 0.1 s). */
Test(staggered_run, error_tolerance_is_hes_E, .timeout = 120) {
  cJSON *s = run_scene("stag_error", source_path("experiments/scenes/dam_break.json"),
                       SETS("spacing=0.02", "time.end=0.1", "method.coupler=staggered",
                            "method.fluid.constraint=staggered", "method.fluid.solver=cg",
                            "method.fluid.error_tolerance=1e-5", "method.fluid.tolerance=1e-12"),
                       7);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_eq(json_number(s, "solver.stages.1.stop_reasons.error_tolerance"),
               json_number(s, "solver.stages.1.solves"));
  cr_assert_leq(json_number(s, "solver.stages.1.final_mean_error_max"), 1e-5);
  cr_assert_gt(json_number(s, "solver.stages.1.iterations_mean"), 1.0);
  cJSON_Delete(s);
}

/* surface_pressure interface (not He's): p = 0 l/2 beyond the surface particles, which hold
 * their row neighbours' pressure extrapolated linearly to them (staggered_surface.c). He's p = 0
 * on the surface particles puts the whole column rho g l/2 low. Measured on the tank at
 * l = 0.04 m under Algorithm 1 (coupler staggered, cg with SSOR), 0.2 s: pressure_error_raw /
 * smoothed 0.0563 / 0.0578 on the particles, 0.0120 / 0.0140 at the interface (0.0119 / 0.0139
 * with the asymmetry normal); at l = 0.02 and 1 s 0.031 / 0.031 and 0.0070 / 0.0075
 * (docs/notes/staggered-journal.md). Under prepass_move kept, where the option was measured: under alg1 (the
 * default) the pre-pass carries most of the column and He's form has 0.036 at l = 0.04. */
static double hydro_error(const char *name, const char *surface_pressure, double *smoothed) {
  char set[128];
  snprintf(set, sizeof set, "method.fluid.surface_pressure=%s", surface_pressure);
  cJSON *s = run_scene(name, source_path(HYDRO),
                       SETS("spacing=0.04", "time.end=0.2", "method.coupler=staggered",
                            "method.fluid.constraint=staggered", "method.fluid.solver=cg", set,
                            "method.prepass_move=kept"),
                       7);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_lt(fabs(json_number(s, "metrics.free_surface_height") - 0.6), 0.001);
  const double raw = json_number(s, "metrics.pressure_error_raw");
  *smoothed = json_number(s, "metrics.pressure_error_smoothed");
  cJSON_Delete(s);
  return raw;
}

Test(staggered_run, surface_pressure_at_the_interface_removes_the_half_layer, .timeout = 120) {
  double he_smoothed, smoothed;
  const double he = hydro_error("stag_surface_particles", "particles", &he_smoothed);
  const double raw = hydro_error("stag_surface_interface", "interface", &smoothed);
  cr_log_info("pressure error raw / smoothed: particles %g / %g, interface %g / %g", he,
              he_smoothed, raw, smoothed);
  cr_assert_gt(he, 0.045, "He's p = 0 on the particles: %g", he);
  cr_assert_lt(raw, 0.02, "%g", raw);
  cr_assert_lt(smoothed, 0.02, "%g", smoothed);
}

/* The largest max_speed of the series.csv of run_scene(name, ...). */
static double series_max_speed(const char *name) {
  size_t n = 0;
  double *v = run_series(name, "max_speed", &n), top = 0.0;
  for (size_t k = 0; k < n; ++k) top = fmax(top, v[k]);
  free(v);
  return top;
}

/* The interface's normal (surface_fit_radius, staggered_surface.c). With eq. 25's asymmetry
 * direction the extrapolations follow every sideways step of the surface layer and a surface mode
 * grows; the normal of the line fitted through the surface particles does not tilt with them.
 * Measured on the tank at l = 0.04 m (coupler staggered, cg with SSOR, the scene's XSPH 0.05),
 * 0-5 s, largest speed of series.csv / highest free_surface_height: fitted normal (the default)
 * 0.0083 m/s / 0.6007 m; asymmetry direction 0.038 m/s / 0.6016 m (the water 2.8 mm high by 6 s);
 * He's p = 0 on the particles 0.011 m/s / 0.6004 m. Under prepass_move kept, as measured; under
 * alg1 (the default) the fitted normal gives 0.039 m/s (not analysed yet: docs/notes/staggered-journal.md). */
static double interface_run(const char *name, const char *fit_radius, double *height) {
  char set[128];
  snprintf(set, sizeof set, "method.fluid.surface_fit_radius=%s", fit_radius);
  cJSON *s = run_scene(name, source_path(HYDRO),
                       SETS("spacing=0.04", "time.end=5", "method.coupler=staggered",
                            "method.fluid.constraint=staggered", "method.fluid.solver=cg",
                            "method.fluid.surface_pressure=interface", set,
                            "method.prepass_move=kept"),
                       8);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  *height = json_number(s, "metrics.free_surface_height");
  cJSON_Delete(s);
  return series_max_speed(name);
}

Test(staggered_run, fitted_interface_normal_keeps_the_tank_at_rest, .timeout = 300,
     LONG_PHYSICS /* the sanitizers: surface_pressure_at_the_interface_removes_the_half_layer */) {
  double fit_height, asy_height;
  const double fit = interface_run("stag_interface_fit", "2.5", &fit_height);
  const double asy = interface_run("stag_interface_asymmetry", "0", &asy_height);
  cr_log_info("largest speed over 5 s: fitted normal %g m/s (surface %g m), asymmetry %g m/s "
              "(surface %g m)", fit, fit_height, asy, asy_height);
  cr_assert_lt(fit, 0.015, "fitted normal: %g m/s", fit);
  cr_assert_lt(fabs(fit_height - 0.6), 0.0015, "fitted normal: surface at %g m", fit_height);
  cr_assert_gt(asy, 0.025, "asymmetry direction: %g m/s (the mode this option removes)", asy);
}

/* Eq. 25 in 3D: on the cubic lattice the top layer has Asy = 0.262 h (Wendland C2, h = H/2), so
 * He's 0.3 h finds no surface on still water, §5.2 makes the whole region surface and p^v has no
 * rows; the 3D default, 0.2, finds the top layer (staggered_surface.c). A tank 0.48 m deep at
 * l = 0.08 m, five steps: p^v iterations per step 0 at 0.3, > 0 at the default. */
static double tank3d_iterations(const char *name, const char *asymmetry) {
  char scene_dir[256];
  snprintf(scene_dir, sizeof scene_dir, "%s_scene", name);
  const char *dir = test_dir(scene_dir); /* run_scene empties test_dir(name) */
  const char *scene = write_text(
      dir, "tank3d.json",
      "{\"dim\": 3, \"spacing\": 0.08, \"time\": {\"dt\": 0.002, \"end\": 0.01},"
      " \"gravity\": [0, -10, 0],"
      " \"fluid\": {\"density\": 1000, \"re_over_l\": 2.5, \"sph_kernel\": \"wendland_c2\"},"
      " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0, 0], \"max\": [0.48, 0.48, 0.48]},"
      " {\"type\": \"tank\", \"min\": [0, 0, 0], \"max\": [0.48, 0.64, 0.48]}],"
      " \"method\": {\"coupler\": \"staggered\","
      " \"fluid\": {\"constraint\": \"staggered\", \"solver\": \"cg\"}}}");
  char set[128];
  snprintf(set, sizeof set, "method.fluid.surface_asymmetry=%s", asymmetry);
  cJSON *s = run_scene(name, scene, SETS(set), 1);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double it = json_number(s, "solver.stages.1.iterations_mean");
  cJSON_Delete(s);
  return it;
}

Test(staggered_run, the_3d_default_threshold_finds_a_flat_surface, .timeout = 120) {
  const double he = tank3d_iterations("stag_tank3d_he", "0.3");
  const double def = tank3d_iterations("stag_tank3d_default", "-1");
  cr_log_info("p^v iterations per step: 0.3 h %g, default %g", he, def);
  cr_assert_eq(he, 0.0, "He's 0.3 h on a still 3D lattice: %g iterations", he);
  cr_assert_gt(def, 1.0, "the 3D default: %g iterations", def);
}
