/* test_iisph_run.c — whole runs with the SPH density block (solvers/blocks/sph_density.c) and the akinci
 * coupler (couplers/akinci.c): a hydrostatic tank stays at rest with the hydrostatic pressure, a
 * coarse floating box obeys Archimedes under Akinci's two-way coupling, the coupler refuses a fluid
 * block that cannot report boundary forces, and every fluid constraint x solver combination runs
 * a coarse dam break to the end; the coupler records the force on a held box (Archimedes), and
 * the cylinder_flow benchmark refuses couplers that record none. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* Water at rest in the tank of Miyamoto §5.2 under IISPH's rows and solver: the scene as written
 * (strong coupler, Wendland C2, XSPH 0.05, its relative-residual test 1e-3) with sph_density +
 * relaxed Jacobi, on the coarse tank (l = 0.04). Measured: smoothed pressure error 0.026 after
 * 0.1 s, mean density deviation 2e-7, 654 Jacobi iterations per step (the scene's residual test,
 * not IISPH's density test: at IISPH's 0.1 % from rest the pressure has not built up after 0.1 s,
 * smoothed error 0.40). At l = 0.02: 0.013 after 0.1 s. With the cubic spline the lattice buckles
 * after 0.4 s (tests/test_kernel.c). */
Test(iisph_run, hydrostatic_tank_keeps_the_hydrostatic_pressure, .timeout = 600,
     LONG_PHYSICS /* the sanitizers: every_fluid_combination_runs_a_coarse_dam_break */) {
  cJSON *s = run_scene("iisph_hydrostatic", source_path("experiments/scenes/hydrostatic.json"),
                       SETS("method.fluid.constraint=sph_density", "method.fluid.solver=jacobi",
                            "spacing=0.04", "time.end=0.1"),
                       4);
  double perr = json_number(s, "metrics.pressure_error_smoothed");
  double dev = json_number(s, "metrics.mean_density_deviation");
  double surf = json_number(s, "metrics.free_surface_height");
  cr_assert_lt(perr, 0.05, "smoothed pressure error %g", perr);
  cr_assert_lt(dev, 0.005, "mean density deviation %g", dev);
  cr_assert_lt(fabs(surf - 0.6), 0.005, "free surface at %g m", surf);
  cJSON_Delete(s);
}

/* Akinci's coupling: the pressure on the box's particles lifts it; l = 0.04, density ratio 0.5,
 * under the iisph preset (IISPH's own stopping test, mean density error 0.1 %, 8.5 iterations per
 * step). Measured: submerged error 0.016 after 3 s (0.018 under the scene's relative-residual
 * test 0.01, 458 iterations per step). */
Test(iisph_run, coarse_box_floats_at_its_density_ratio, .timeout = 600) {
  cJSON *s = run_scene_method("iisph_buoyancy", source_path("experiments/scenes/buoyancy.json"),
                              "iisph", SETS("spacing=0.04"), 1);
  double err = json_number(s, "metrics.submerged_error");
  cr_assert_lt(err, 0.08, "submerged error %g", err);
  cJSON_Delete(s);
}

Test(iisph_run, akinci_refuses_a_block_without_boundary_forces) {
  const char *scene = source_path("experiments/scenes/buoyancy.json");
  char *err = NULL;
  const char *dir = test_dir("akinci_mps");
  int code = run_vbc((const char *[]){"run", scene, "--quiet", "--out", dir, "--set",
                                      "method.coupler=akinci", NULL},
                     &err);
  cr_assert_eq(code, 2, "exit %d: %s", code, err ? err : "");
  cr_assert(err && strstr(err, "buoyancy.json") && strstr(err, "method.fluid.constraint") &&
                strstr(err, "\"mps\"") && strstr(err, "\"sph_density\" or \"dfsph\""),
            "message: %s", err ? err : "");
  free(err);
}

/* The four cross combinations of the issue: mps or sph_density rows, PGS or relaxed Jacobi. */
static void dam_break(const char *constraint, const char *solver) {
  char c[96], s[96], name[96];
  snprintf(c, sizeof c, "method.fluid.constraint=%s", constraint);
  snprintf(s, sizeof s, "method.fluid.solver=%s", solver);
  snprintf(name, sizeof name, "dam_%s_%s", constraint, solver);
  /* relaxed Jacobi on MPS rows: omega 0.4, below the bound the set-up measures on this scene's
   * rows (0.474; the default 0.5 is refused, scene/relaxation_check.c) */
  const int mps_jacobi = strcmp(constraint, "mps") == 0 && strcmp(solver, "jacobi") == 0;
  cJSON *sum = run_scene(name, source_path("experiments/scenes/dam_break.json"),
                         SETS(c, s, "spacing=0.02", "time.end=0.2", "time.dt=0.001",
                              mps_jacobi ? "method.fluid.omega=0.4" : "time.dt=0.001"), 6);
  cr_assert_gt(json_number(sum, "metrics.final_front_Z"), 1.2, "%s + %s: the surge moved",
               constraint, solver);
  cJSON_Delete(sum);
}

Test(iisph_run, every_fluid_combination_runs_a_coarse_dam_break, .timeout = 600) {
  dam_break("mps", "pgs");
  dam_break("mps", "jacobi");
  dam_break("sph_density", "pgs");
  dam_break("sph_density", "jacobi");
}

/* jacobi's error_estimate local tests error_tolerance on the error each row's own update
 * predicts, (1 - omega) r_k for an unclamped row, as IISPH and SPlisHSPlasH do; the residual pass
 * still reports the true error. Measured on the 2D peer dam break (0.2 s, 260 solves) at
 * error_tolerance 5e-4: residual 3.14 iterations per solve, true error at most 5.0e-4; local 2.08,
 * true error up to 9.97e-4 (docs/notes/bench-journal.md has the 3D peer scene: 6.02 against 3.90). */
static cJSON *peer_2d(const char *name, const char *estimate) {
  char set[64];
  snprintf(set, sizeof set, "method.fluid.error_estimate=%s", estimate);
  cJSON *s = run_scene(name, source_path("experiments/scenes/bench_pysph_dam_break_2d.json"),
                       SETS("time.end=0.2", "method.fluid.error_tolerance=5e-4", set), 3);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_eq(json_number(s, "solver.stop_reasons.error_tolerance"),
               json_number(s, "solver.solves"));
  return s;
}

Test(iisph_run, the_local_error_estimate_is_iisphs_test, .timeout = 300) {
  cJSON *res = peer_2d("iisph_estimate_residual", "residual");
  cJSON *loc = peer_2d("iisph_estimate_local", "local");
  const double it_res = json_number(res, "solver.iterations_mean");
  const double it_loc = json_number(loc, "solver.iterations_mean");
  const double e_res = json_number(res, "solver.final_mean_error_max");
  const double e_loc = json_number(loc, "solver.final_mean_error_max");
  cr_log_info("iterations %g / %g, true error at most %g / %g", it_res, it_loc, e_res, e_loc);
  cr_assert_lt(it_loc, it_res - 0.5);
  cr_assert_leq(e_res, 5e-4);
  cr_assert(e_loc > 5e-4 && e_loc < 2e-3, "%g", e_loc);
  cJSON_Delete(res);
  cJSON_Delete(loc);
}

Test(iisph_run, a_bad_error_estimate_is_refused) {
  char *scene = read_text(source_path("experiments/scenes/bench_pysph_dam_break_2d.json"));
  cr_assert_not_null(scene);
  expect_bad_input("iisph_bad_estimate", scene, SETS("method.fluid.error_estimate=global"),
                   FRAGMENTS("method.fluid.error_estimate", "residual", "local"));
  free(scene);
}

/* The akinci coupler records the fluid's impulse on fixed and scripted bodies too
 * (vbc_system.fluid_impulse, read by the cylinder_flow benchmark): a box held at rest with its
 * lower 0.12 m in water 0.4 m deep (l = 0.01, the staggered block's case in
 * test_staggered_body.c) takes Archimedes' rho g (0.24 m x 0.12 m) = 282.4 N/m upwards and no
 * sideways force. Measured: 280.85 N/m (0.9945) over 0.15-0.3 s, drag 2e-13 N/m. */
static const char held_in_water[] =
    "{\"dim\": 2, \"spacing\": 0.01, \"time\": {\"dt\": 0.0025, \"end\": 0.3},\n"
    " \"gravity\": [0.0, -9.80665],\n"
    " \"fluid\": {\"sph_kernel\": \"wendland_c2\", \"xsph\": 0.05},\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0.0, 0.0], \"max\": [0.6, 0.4]},\n"
    "                {\"type\": \"tank\", \"min\": [0.0, 0.0], \"max\": [0.6, 0.6]}],\n"
    " \"bodies\": [{\"shape\": {\"type\": \"box\", \"min\": [0.18, 0.28], \"max\": [0.42, 0.52]},\n"
    "              \"motion\": \"fixed\"}],\n"
    " \"method\": {\"coupler\": \"akinci\",\n"
    "            \"fluid\": {\"constraint\": \"sph_density\", \"solver\": \"jacobi\"}},\n"
    " \"benchmark\": {\"type\": \"cylinder_flow\", \"body\": 0, \"from\": 0.15},\n"
    " \"output\": {\"frames\": false}}\n";

/* The standard error of the mean lift by batch means over batches of 0.05 s: the three batches'
 * means of the step forces series.csv records (one row a step; the step ending at 0.15 s opens
 * the window), their standard deviation over sqrt(3). */
static double lift_batch_se(const char *name) {
  size_t n = 0, nt = 0;
  double *t = run_series(name, "time", &nt), *lift = run_series(name, "lift", &n);
  cr_assert_eq(n, nt);
  double sum[3] = {0}, count[3] = {0};
  for (size_t k = 0; k < n; ++k) {
    if (t[k] < 0.15 - 1e-9) continue;
    const int b = (int)fmax(0.0, ceil((t[k] - 0.15) / 0.05 - 1e-9) - 1.0);
    cr_assert(b >= 0 && b < 3, "t %g", t[k]);
    sum[b] += lift[k], count[b] += 1.0;
  }
  double mean = 0.0, m[3];
  for (int b = 0; b < 3; ++b) {
    cr_assert_geq(count[b], 20.0);
    mean += (m[b] = sum[b] / count[b]) / 3.0;
  }
  double var = 0.0;
  for (int b = 0; b < 3; ++b) var += (m[b] - mean) * (m[b] - mean) / 2.0;
  free(t), free(lift);
  return sqrt(var / 3.0);
}

Test(iisph_run, akinci_records_archimedes_on_a_held_box, .timeout = 300,
     LONG_PHYSICS /* the sanitizers: coarse_box_floats_at_its_density_ratio */) {
  const char *scene = write_text(test_dir("akinci_held"), "scene.json", held_in_water);
  cJSON *s = run_scene("akinci_held_run", scene,
                       SETS("benchmark.batch=0.05", "time.output_interval=0.0025"), 2);
  const double lift = json_number(s, "metrics.lift_mean");
  const double drag = json_number(s, "metrics.drag_mean");
  cr_assert(fabs(lift / 282.4 - 1.0) < 0.02, "lift %g N/m against 282.4", lift);
  cr_assert_lt(fabs(drag), 1e-6, "drag %g N/m", drag);
  cr_assert_eq(json_number(s, "metrics.force_batches"), 3.0);
  const double se = json_number(s, "metrics.lift_se"), expected = lift_batch_se("akinci_held_run");
  cr_assert(expected > 0.0 && fabs(se - expected) < 1e-6 * expected + 1e-9, "lift_se %.9g, "
            "from series.csv %.9g", se, expected);
  cr_assert_lt(se, json_number(s, "metrics.lift_std"));
  cJSON_Delete(s);
}

/* Couplers that record no force on the bodies (strong, pms, lemke_contacts) would report a drag
 * and lift of zero: the benchmark refuses them. */
Test(iisph_run, cylinder_flow_refuses_a_coupler_without_body_forces) {
  expect_bad_input("cylinder_flow_strong", held_in_water,
                   SETS("method.coupler=strong", "method.fluid.constraint=mps",
                        "method.fluid.solver=pgs"),
                   FRAGMENTS("method.coupler", "cylinder_flow", "\"strong\""));
}
