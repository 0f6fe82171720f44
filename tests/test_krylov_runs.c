/* test_krylov_runs.c — the Krylov solvers in whole runs through the vbc binary: mprgp as a drop-in
 * for pgs (hydrostatic tank, coarse dam break), cg on the equality form of the SPH density rows,
 * and the set-up refusals (exit 2 naming the block, the solver and what is missing). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "core/constraint.h"
#include "solvers/blocks/lcp_matrix.h"
#include "tests/support.h"

#define HYDRO "experiments/scenes/hydrostatic.json"
#define DAM "experiments/scenes/dam_break.json"

/* The coarse tank of tests/test_run.c (l = 0.04, 1 s, 1000 steps) under mprgp with its default
 * IC(0) preconditioning in face: the pgs run's accuracy (measured there: pressure error 0.021
 * smoothed; here 0.021 with 14.5 iterations per step against pgs's 83). */
Test(mprgp_run, hydrostatic_tank_as_accurate_as_pgs, .timeout = 300,
     LONG_PHYSICS /* the sanitizers: coarse_dam_break_front_as_under_pgs */) {
  cJSON *s = run_scene("mprgp_hydro", source_path(HYDRO),
                       SETS("spacing=0.04", "method.fluid.solver=mprgp"), 2);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_lt(json_number(s, "metrics.max_density_deviation"), 0.01);
  cr_assert_lt(json_number(s, "metrics.pressure_error_smoothed"), 0.03);
  cr_assert_lt(fabs(json_number(s, "metrics.free_surface_height") - 0.6), 0.01);
  cr_assert_eq(json_number(s, "solver.stop_reasons.max_iterations"), 0.0);
  cr_assert_eq(json_number(s, "solver.stop_reasons.breakdown"), 0.0);
  cr_assert_lt(json_number(s, "solver.iterations_mean"), 40.0, "IC(0) in face: ~15 per step");
  cr_assert_gt(json_number(s, "solver.stages.0.max_factorisations"), 0.0);
  cr_assert_gt(json_number(s, "solver.stages.0.mean_norm_estimate"), 0.0);
  cJSON_Delete(s);
}

/* The coarse dam break of tests/test_dam_break.c (l = 0.02, 0.3 s) under mprgp, plain and IC(0):
 * the surge front as under pgs (front error 0.0475 there, 0.0475 both here). */
Test(mprgp_run, coarse_dam_break_front_as_under_pgs, .timeout = 300) {
  const char *pcs[] = {"method.fluid.preconditioner=ic0", "method.fluid.preconditioner=jacobi"};
  for (int k = 0; k < 2; ++k) {
    cJSON *s = run_scene(k ? "mprgp_dam_jacobi" : "mprgp_dam_ic0", source_path(DAM),
                         SETS("spacing=0.02", "time.end=0.3", "method.fluid.solver=mprgp", pcs[k]),
                         4);
    cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
    cr_assert_eq(json_number(s, "metrics.front_points"), 12.0);
    cr_assert_lt(fabs(json_number(s, "metrics.front_error") - 0.0475), 0.01, "%s: %g", pcs[k],
                 json_number(s, "metrics.front_error"));
    cr_assert_gt(json_number(s, "metrics.final_front_Z"), 3.5, "the surge reached the far wall");
    cr_assert_eq(json_number(s, "solver.stop_reasons.max_iterations"), 0.0);
    cJSON_Delete(s);
  }
}

/* The equality form of the SPH density rows (free surface at rho < 0.97 rho0 held at p = 0, the
 * rest two-sided) under cg with IC(0), the fluid solved alone (lemke_contacts): the first 0.1 s
 * of the coarse dam break, every solve to tolerance. Later the form's near-null modes take over
 * (residual non-finite at t = 0.1985 s; docs/krylov.md): it is an ablation, not a method. */
Test(cg_run, equality_sph_dam_break_starts_under_ic0_pcg, .timeout = 300) {
  cJSON *s = run_scene("cg_sph_dam", source_path(DAM),
                       SETS("spacing=0.02", "time.end=0.1", "method.coupler=lemke_contacts",
                            "method.fluid.constraint=sph_density", "method.fluid.equality=true",
                            "method.fluid.solver=cg", "method.fluid.preconditioner=ic0"),
                       7);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_eq(json_number(s, "solver.stop_reasons.tolerance"), json_number(s, "solver.solves"));
  cr_assert_lt(json_number(s, "solver.iterations_mean"), 30.0);
  cr_assert_geq(json_number(s, "solver.stages.0.max_setup_seconds"), 0.0);
  cJSON_Delete(s);
}

Test(cg_run, refuses_the_pressure_lcp_naming_block_and_solver) {
  expect_bad_input("cg_lcp", base_scene, SETS("method.fluid.solver=cg"),
                   FRAGMENTS("method.fluid.solver", "\"cg\"", "block mps", "one-sided",
                             "equality: true"));
}

Test(cg_run, refuses_the_contact_rows_of_the_strong_coupler) {
  expect_bad_input("cg_contacts", base_scene,
                   SETS("method.fluid.solver=cg", "method.fluid.equality=true"),
                   FRAGMENTS("\"cg\"", "block contact", "one-sided", "lemke_contacts"));
}

/* Two explicit-matrix blocks in one problem: neither has Jacobian rows and the own operator of a
 * block serves only a problem of that one block, so A cannot be assembled; cg's ssor and ic0 and
 * mprgp's ic0 refuse at set-up, the matrix-free variants accept. */
Test(krylov_check, an_unassemblable_problem_is_refused_by_what_needs_the_matrix) {
  vbc_error err = {0};
  const double M[] = {2, 1, 1, 2}, q[] = {-1, -1};
  vbc_block a, b;
  cr_assert_eq(vbc_lcp_matrix_block_init(&a, 2, M, q, &err), VBC_OK);
  cr_assert_eq(vbc_lcp_matrix_block_init(&b, 2, M, q, &err), VBC_OK);
  vbc_lcp_matrix_bilateral(&a), vbc_lcp_matrix_bilateral(&b);
  a.label = "first", b.label = "second";
  vbc_system sys = {0};
  vbc_block *blocks[2] = {&a, &b};
  vbc_problem pb = {&sys, blocks, 2};
  const struct {
    const char *solver, *pc;
    int refused;
  } cases[] = {{"cg", "ssor", 1},   {"cg", "ic0", 1},       {"cg", "jacobi", 0},
               {"cg", "none", 0},   {"mprgp", "ic0", 1},    {"mprgp", "jacobi", 0}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "preconditioner", cases[c].pc);
    vbc_solver s;
    cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), cases[c].solver), p,
                                 &err), VBC_OK, "%s", err.message);
    vbc_error_clear(&err);
    const int rc = s.type->check(s.state, &pb, &err);
    if (cases[c].refused) {
      cr_assert_eq(rc, VBC_EXIT_INPUT, "%s/%s", cases[c].solver, cases[c].pc);
      cr_assert_not_null(strstr(err.message, "lcp_matrix (first)"), "%s", err.message);
      cr_assert_not_null(strstr(err.message, cases[c].pc), "%s", err.message);
      cr_assert_not_null(strstr(err.message, "assembled operator"), "%s", err.message);
    } else {
      cr_assert_eq(rc, VBC_OK, "%s/%s: %s", cases[c].solver, cases[c].pc, err.message);
    }
    vbc_solver_free(&s);
    cJSON_Delete(p);
  }
  vbc_block_free(&a), vbc_block_free(&b);
}

Test(krylov_list, vbc_list_shows_cg_and_mprgp_with_their_preconditioners) {
  const char *args[] = {"list", NULL};
  const char *out = test_dir("krylov_list");
  char path[1100];
  snprintf(path, sizeof path, "%s/list.txt", out);
  cr_assert_eq(run_vbc_to(args, path, NULL), 0);
  char *text = read_text(path);
  cr_assert_not_null(text);
  const char *cg = strstr(text, "\n  cg ");
  const char *mprgp = strstr(text, "\n  mprgp ");
  cr_assert(cg && mprgp, "%s", text);
  cr_assert_not_null(strstr(cg, "none, jacobi (the diagonal), ssor"));
  cr_assert_not_null(strstr(mprgp, "(default \"ic0\")"), "%.600s", mprgp);
  free(text);
}

/* The classic MPS Poisson equation (mps_poisson: Koshizuka & Oka's Laplacian, p = 0 on the
 * surface, the gradient-model correction) runs the coarse dam break with Koshizuka & Oka's own
 * source (alpha = 1) under cg with every preconditioner. Measured: 1.5 (ic0) to 4.7 (none)
 * iterations per step; the front is far ahead of Martin & Moyce's (mean error 0.65 at release
 * against 0.022 of the LCP; docs/krylov.md). Gauss–Seidel at the scene's tolerance is not accurate enough here
 * (a particle leaves the tank at 0.24 s; docs/krylov.md), so it is not in the list. */
Test(mps_poisson, runs_the_dam_break_under_cg_and_pgs, .timeout = 300) {
  const char *solvers[][2] = {{"method.fluid.solver=cg", "method.fluid.preconditioner=none"},
                              {"method.fluid.solver=cg", "method.fluid.preconditioner=jacobi"},
                              {"method.fluid.solver=cg", "method.fluid.preconditioner=ssor"},
                              {"method.fluid.solver=cg", "method.fluid.preconditioner=ic0"}};
  for (int k = 0; k < 4; ++k) {
    char name[32];
    snprintf(name, sizeof name, "ko_dam_%d", k);
    cJSON *s = run_scene(name, source_path(DAM),
                         SETS("spacing=0.02", "time.end=0.3", "method.coupler=lemke_contacts",
                              "method.fluid.constraint=mps_poisson", "method.fluid.alpha=1",
                              solvers[k][0], solvers[k][1]),
                         7);
    cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok", "%s", solvers[k][1]);
    cr_assert_eq(json_number(s, "solver.stop_reasons.tolerance"), json_number(s, "solver.solves"),
                 "%s", solvers[k][1]);
    cr_assert_gt(json_number(s, "metrics.final_front_Z"), 3.5, "%s", solvers[k][1]);
    cJSON_Delete(s);
  }
}

/* With the velocity divergence as the only source (alpha = 0) the coarse tank (l = 0.04, 1 s)
 * stays near rest with the hydrostatic pressure: measured pressure error 0.051, surface 0.591. */
Test(mps_poisson, divergence_source_keeps_the_coarse_tank, .timeout = 300) {
  cJSON *s = run_scene("ko_hydro", source_path(HYDRO),
                       SETS("spacing=0.04", "method.coupler=lemke_contacts",
                            "method.fluid.constraint=mps_poisson", "method.fluid.alpha=0",
                            "method.fluid.solver=cg", "method.fluid.preconditioner=ic0"),
                       6);
  cr_assert_lt(json_number(s, "metrics.pressure_error_smoothed"), 0.08);
  cr_assert_lt(fabs(json_number(s, "metrics.free_surface_height") - 0.6), 0.02);
  cr_assert_eq(json_number(s, "solver.stop_reasons.tolerance"), json_number(s, "solver.solves"));
  cJSON_Delete(s);
}

/* The largest particle speed at the last output of run `name`. */
static double final_max_speed(const char *name) {
  size_t n = 0;
  double *v = run_series(name, "max_speed", &n);
  cr_assert_gt(n, 0);
  const double last = v[n - 1];
  free(v);
  return last;
}

/* Negative pressures are set to 0 before the gradient model (clamp_negative all, Koshizuka &
 * Oka). Unclamped, the outer wall layer's short number density gives the wall rows just below
 * the surface negative pressures that push the corner particles up: the coarse still tank
 * (l = 0.04, 0.1 s, pgs) moves at 0.39 m/s under strong and 0.88 m/s under the staggered
 * coupler, clamped at 0.084 and 0.020 m/s (docs/notes/mix-matrix.md). */
Test(mps_poisson, clamped_negative_pressures_keep_the_still_tank, .timeout = 120,
     LONG_PHYSICS /* the sanitizers: divergence_source_keeps_the_coarse_tank */) {
  static const char *const couplers[] = {"method.coupler=strong", "method.coupler=staggered"};
  static const double clamped[] = {0.1, 0.05}, unclamped[] = {0.3, 0.6};
  for (int k = 0; k < 2; ++k)
    for (int clamp = 0; clamp < 2; ++clamp) {
      char name[32];
      snprintf(name, sizeof name, "ko_clamp_%d_%d", k, clamp);
      cJSON *s = run_scene(name, source_path(HYDRO),
                           SETS("spacing=0.04", "time.end=0.1", couplers[k],
                                "method.fluid.constraint=mps_poisson", "method.fluid.solver=pgs",
                                clamp ? "method.fluid.clamp_negative=all"
                                      : "method.fluid.clamp_negative=none"),
                           6);
      cJSON_Delete(s);
      const double v = final_max_speed(name);
      if (clamp)
        cr_assert_lt(v, clamped[k], "%s clamped: %g m/s", couplers[k], v);
      else
        cr_assert_gt(v, unclamped[k], "%s unclamped: %g m/s", couplers[k], v);
    }
  char *err = NULL;
  const char *args[] = {"validate", source_path(HYDRO), "--set",
                        "method.fluid.constraint=mps_poisson", "--set",
                        "method.fluid.clamp_negative=fluid", NULL};
  cr_assert_eq(run_vbc(args, &err), 2);
  cr_assert(err && strstr(err, "clamp_negative") && strstr(err, "\"all\""), "%s", err);
  free(err);
}

/* The block's assembled operator (ic0 multiplies by it) is the one its apply and residual passes
 * iterate on (cg none is matrix-free): to tolerance 1e-13 both give the same pressures. */
Test(mps_poisson, assembled_and_matrix_free_operators_agree, .timeout = 120) {
  double err[2];
  for (int k = 0; k < 2; ++k) {
    cJSON *s = run_scene(k ? "ko_ic0" : "ko_free", source_path(HYDRO),
                         SETS("spacing=0.04", "time.end=0.003", "method.coupler=lemke_contacts",
                              "method.fluid.constraint=mps_poisson", "method.fluid.solver=cg",
                              "method.fluid.tolerance=1e-13",
                              k ? "method.fluid.preconditioner=ic0"
                                : "method.fluid.preconditioner=none"),
                         7);
    err[k] = json_number(s, "metrics.pressure_error_raw");
    cJSON_Delete(s);
  }
  cr_assert_float_eq(err[0], err[1], 1e-9 * err[0], "%.17g vs %.17g", err[0], err[1]);
}

/* With 7860 particles the products, dot products and Jacobi applications run in parallel; the
 * fixed-order sums keep mprgp and cg bit-identical for one and two threads. */
Test(krylov_determinism, one_and_two_threads_give_identical_files, .timeout = 300,
     LONG_PHYSICS /* the sanitizers: coarse_dam_break_front_as_under_pgs and
                     runs_the_dam_break_under_cg_and_pgs, the same solvers at one thread */) {
  const char *variants[][4] = {
      {"method.fluid.solver=mprgp", "method.fluid.preconditioner=ic0", "method.coupler=strong",
       "method.fluid.constraint=mps"},
      {"method.fluid.solver=cg", "method.fluid.preconditioner=jacobi",
       "method.coupler=lemke_contacts", "method.fluid.constraint=mps_poisson"}};
  for (int v = 0; v < 2; ++v) {
    char *text[2][2];
    for (int t = 0; t < 2; ++t) {
      char name[32];
      snprintf(name, sizeof name, "krylov_thr%d_%d", v, t + 1);
      const char *dir = test_dir(name);
      char out[1100];
      snprintf(out, sizeof out, "%s/out", dir);
      const char *args[] = {"run", source_path("experiments/scenes/circular_patch.json"),
                            "--set", "spacing=0.01", "--set", "time.end=0.01",
                            "--set", variants[v][0], "--set", variants[v][1],
                            "--set", variants[v][2], "--set", variants[v][3],
                            "--threads", t ? "2" : "1", "--quiet", "--out", out, NULL};
      char *err = NULL;
      cr_assert_eq(run_vbc(args, &err), 0, "%s", err ? err : "");
      free(err);
      char path[1200];
      snprintf(path, sizeof path, "%s/series.csv", out);
      text[t][0] = read_text(path);
      snprintf(path, sizeof path, "%s/convergence.csv", out);
      text[t][1] = read_text(path);
      cr_assert(text[t][0] && text[t][1]);
      strip_last_field(text[t][1]);
    }
    cr_assert_str_eq(text[0][0], text[1][0], "%s: series.csv differs", variants[v][0]);
    cr_assert_str_eq(text[0][1], text[1][1], "%s: convergence.csv differs", variants[v][0]);
    for (int t = 0; t < 2; ++t) free(text[t][0]), free(text[t][1]);
  }
}
