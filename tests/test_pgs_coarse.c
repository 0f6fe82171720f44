/* test_pgs_coarse.c — the pgs_coarse solver (solvers/schemes/pgs_coarse.c): the same LCP solution
 * as pgs on the shared block scene (a free-surface tank with a moving, turning box whose rows
 * couple through the body: tests/block_fixture.h), the aggregation it builds, fewer sweeps than
 * pgs on the floating box, and its refusals (exit 2 with the reason) in whole runs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/blocks/blocks.h"
#include "solvers/schemes/schemes.h"
#include "tests/block_fixture.h"
#include "tests/support.h"

#define HYDRO "experiments/scenes/hydrostatic.json"
#define BUOYANCY "experiments/scenes/buoyancy.json"

/* The solver's own figure `name` in a solve's result (NAN if absent). */
static double figure(const vbc_solve_result *r, const char *name) {
  for (size_t k = 0; k < r->stats.n; ++k)
    if (strcmp(r->stats.name[k], name) == 0) return r->stats.value[k];
  return NAN;
}

/* Both solvers to a relative residual of 1e-10 from the same start: the impulses agree to 1e-6 of
 * the largest (the LCP's solution is unique where A is definite; measured when written: 2.1e-9 in
 * 2D, 9.6e-10 in 3D), both stop on the tolerance, every impulse is admissible, and the coarse
 * corrections did run. On this jittered, stirred scene pgs_coarse does not take fewer sweeps
 * (2D: 286 against 285, 3D: 286 against 273; the large 2D scene 1153 against 1134): docs/pgs_coarse.md. */
static void same_solution(block_scene_size size) {
  const vbc_solve_result b = block_fixture_same_solution_as_pgs(size, &vbc_solver_pgs_coarse, 1);
  cr_assert_gt(figure(&b, "coarse_rows"), 1.0);
  cr_assert_gt(figure(&b, "coarse_corrections"), 0.0);
}

Test(pgs_coarse, same_lcp_solution_as_pgs_2d) { same_solution(block_scene_2d); }
Test(pgs_coarse, same_lcp_solution_as_pgs_3d) { same_solution(block_scene_3d); }

/* A whole run: the coarse tank of tests/test_run.c (l = 0.04, 0.2 s) under pgs_coarse stops on
 * the tolerance every step with a coarse space of a few aggregates, and stays at rest. */
Test(pgs_coarse, hydrostatic_tank_runs_with_its_coarse_space, .timeout = 120) {
  cJSON *s = run_scene("pgs_coarse_hydro", source_path(HYDRO),
                       SETS("spacing=0.04", "time.end=0.2", "method.fluid.solver=pgs_coarse"), 3);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_eq(json_number(s, "solver.stop_reasons.tolerance"), json_number(s, "solver.solves"));
  cr_assert_gt(json_number(s, "solver.stages.0.max_coarse_rows"), 1.0);
  cr_assert_gt(json_number(s, "solver.stages.0.max_coarse_corrections"), 0.0);
  cr_assert_lt(json_number(s, "metrics.max_density_deviation"), 0.01);
  cJSON_Delete(s);
}

/* The Fig. 12 box at l = 0.04 (0.1 s, 40 steps) under strong coupling, where the fluid-rigid
 * contact rows share the solve with the fluid rows: pgs_coarse stops on the same tolerance in
 * under half of pgs's sweeps (measured when written: 29.2 against 132.8 a step), and the box
 * sits where pgs puts it (submerged ratio 0.3333 against 0.3320). */
Test(pgs_coarse, fewer_sweeps_than_pgs_on_the_floating_box, .timeout = 120) {
  const char *solvers[] = {"method.fluid.solver=pgs", "method.fluid.solver=pgs_coarse"};
  double sweeps[2], ratio[2];
  for (int k = 0; k < 2; ++k) {
    cJSON *s = run_scene(k ? "pgs_coarse_box" : "pgs_box", source_path(BUOYANCY),
                         SETS("spacing=0.04", "time.end=0.1", solvers[k]), 3);
    cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
    cr_assert_eq(json_number(s, "solver.stop_reasons.tolerance"), json_number(s, "solver.solves"));
    sweeps[k] = json_number(s, "solver.iterations_mean");
    ratio[k] = json_number(s, "metrics.submerged_ratio");
    cJSON_Delete(s);
  }
  cr_log_info("sweeps a step: pgs %g, pgs_coarse %g; submerged ratio %g, %g", sweeps[0],
              sweeps[1], ratio[0], ratio[1]);
  cr_assert_lt(sweeps[1], 0.5 * sweeps[0]);
  cr_assert_lt(fabs(ratio[1] - ratio[0]), 0.005);
}

Test(pgs_coarse, refuses_a_fluid_block_without_jacobian_rows) {
  expect_bad_input("pgs_coarse_poisson", base_scene,
                   SETS("method.coupler=lemke_contacts", "method.fluid.constraint=mps_poisson",
                        "method.fluid.solver=pgs_coarse"),
                   FRAGMENTS("\"pgs_coarse\"", "block mps_poisson", "no Jacobian", "use pgs"));
}

/* The aggregates are known only once the first step's rows exist: the run stops there, exit 2,
 * with the count, the limit and the step. */
Test(pgs_coarse, refuses_more_aggregates_than_max_coarse) {
  const char *dir = test_dir("pgs_coarse_max");
  const char *scene = write_text(dir, "scene.json", base_scene);
  const char *args[] = {"run", scene, "--set", "method.fluid.solver=pgs_coarse", "--set",
                        "method.fluid.max_coarse=1", "--out", dir, "--quiet", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 2, "stderr: %s", err);
  cr_assert_not_null(err);
  const char *fragments[] = {"pgs_coarse", "aggregates", "max_coarse (1)", "step 1"};
  for (size_t k = 0; k < sizeof fragments / sizeof *fragments; ++k)
    cr_assert_not_null(strstr(err, fragments[k]), "'%s' not in: %s", fragments[k], err);
  free(err);
}
