/* test_stopping.c — the stopping test belongs to the scene's solve (docs/scene-format.md,
 * method.fluid): changing the solver by an assignment keeps the tolerance, error_tolerance and
 * min_iterations the scene's own solver would have had, unless the assignments write others;
 * max_iterations stays the new solver's; a whole method assigned (a preset) is the stated one; a
 * stated pivoting solver (lemke) passes nothing on. */
#include <criterion/criterion.h>
#include <math.h>

#include "scene/scene.h"
#include "tests/support.h"

#define HYDROSTATIC VBC_SOURCE_DIR "/experiments/scenes/hydrostatic.json"
#define KUROSE VBC_SOURCE_DIR "/experiments/scenes/kurose_bodies.json"

/* Load a scene with assignments; the number group `group`'s resolved key holds. */
static double resolved(const char *scene, const char *const *sets, int nsets, const char *group,
                       const char *key) {
  vbc_scene sc;
  vbc_error err = {0};
  cr_assert_eq(vbc_scene_load(&sc, scene, sets, nsets, test_registry(), &err), 0, "%s",
               err.message);
  const vbc_method_group *g = vbc_method_group_find(sc.groups, sc.ngroups, group);
  cr_assert_not_null(g);
  const cJSON *v = cJSON_GetObjectItem(g->params, key);
  cr_assert(cJSON_IsNumber(v), "%s.%s", group, key);
  const double x = v->valuedouble;
  vbc_scene_free(&sc);
  return x;
}

/* hydrostatic.json: pgs, tolerance 1e-3 and max_iterations 5000 written, error_tolerance and
 * min_iterations pgs's defaults (0, 0); jacobi's own defaults are 1e-3, 2 and 1000. */
/* (omega 0.4: the tank's MPS rows refuse relaxed Jacobi's default 0.5, scene/relaxation_check.c) */
Test(stopping, a_changed_solver_keeps_the_scene_s_test) {
  const char *const jac[] = {"method.fluid.solver=jacobi", "method.fluid.omega=0.4"};
  cr_assert_float_eq(resolved(HYDROSTATIC, jac, 2, "fluid", "error_tolerance"), 0.0, 0.0);
  cr_assert_float_eq(resolved(HYDROSTATIC, jac, 2, "fluid", "min_iterations"), 0.0, 0.0);
  cr_assert_float_eq(resolved(HYDROSTATIC, jac, 2, "fluid", "tolerance"), 1e-3, 1e-15);
  cr_assert_float_eq(resolved(HYDROSTATIC, jac, 2, "fluid", "max_iterations"), 5000.0, 0.0);
  const char *const mine[] = {"method.fluid.solver=jacobi", "method.fluid.error_tolerance=0.002",
                              "method.fluid.omega=0.4"};
  cr_assert_float_eq(resolved(HYDROSTATIC, mine, 3, "fluid", "error_tolerance"), 0.002, 1e-15);
  cr_assert_float_eq(resolved(HYDROSTATIC, mine, 3, "fluid", "min_iterations"), 0.0, 0.0);
}

/* Without a written max_iterations the new solver's budget applies, and a scene that does not
 * change the solver keeps the solver's own defaults. */
Test(stopping, the_budget_and_an_unchanged_solver_are_the_solver_s) {
  const char *const jac[] = {"method.fluid.max_iterations=null", "method.fluid.solver=jacobi",
                             "method.fluid.omega=0.4"};
  cr_assert_float_eq(resolved(HYDROSTATIC, jac, 3, "fluid", "max_iterations"), 1000.0, 0.0);
  const char *const same[] = {"method={\"coupler\": \"akinci\", \"fluid\": {\"constraint\": "
                              "\"sph_density\", \"solver\": \"jacobi\"}}"};
  cr_assert_float_eq(resolved(HYDROSTATIC, same, 1, "fluid", "error_tolerance"), 1e-3, 1e-15);
  cr_assert_float_eq(resolved(HYDROSTATIC, same, 1, "fluid", "min_iterations"), 2.0, 0.0);
}

/* A whole method assigned states its own test: the akinci/jacobi method above switched to pgs
 * keeps IISPH's error test. */
Test(stopping, a_whole_method_assigned_is_the_stated_one) {
  const char *const sets[] = {"method={\"coupler\": \"akinci\", \"fluid\": {\"constraint\": "
                              "\"sph_density\", \"solver\": \"jacobi\"}}",
                              "method.fluid.solver=pgs"};
  cr_assert_float_eq(resolved(HYDROSTATIC, sets, 2, "fluid", "error_tolerance"), 1e-3, 1e-15);
  cr_assert_float_eq(resolved(HYDROSTATIC, sets, 2, "fluid", "min_iterations"), 2.0, 0.0);
}

/* kurose_bodies.json solves its contacts with lemke (tolerance 1e-9, one iteration): pgs in its
 * place takes its own test, not a pivoting method's acceptance bound. */
Test(stopping, a_pivoting_solver_passes_nothing_on) {
  const char *const sets[] = {"method.contact.solver=pgs"};
  cr_assert_float_eq(resolved(KUROSE, sets, 1, "contact", "tolerance"), 1e-3, 1e-15);
  cr_assert_float_eq(resolved(KUROSE, sets, 1, "contact", "max_iterations"), 1000.0, 0.0);
}
