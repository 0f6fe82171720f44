/* test_lemke_contacts.c — the Kurose–Takahashi contact coupler (couplers/lemke_contacts.c):
 * Lemke and converged PGS give the same velocities on the same contact LCP (the velocity of a
 * frictionless contact LCP is unique even where the impulses are not: a box resting on a floor
 * has redundant rows), the contact statistics reach summary.json, the contact LCP conserves the
 * total linear momentum of a fluid blob hitting a free box, and method.contact.solver is
 * validated (exit 2). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene.h"
#include "sim/sim.h"
#include "tests/support.h"

/* A box of density ratio 2 falling at 0.5 m/s onto the floor of a small tank, beside a column of
 * water; after a few steps it rests on the floor (rigid-wall rows), touches the water
 * (fluid-rigid rows), and the water touches the walls (fluid-wall rows). Kurose's scheme
 * (rigid_pressure false: the fluid meets the box through the contacts only), which gives a free
 * body no buoyancy, hence the opt-in uncoupled_bodies. */
static const char drop_scene[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.004, \"end\": 0.06},\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0.0, 0.0], \"max\": [0.1, 0.12]},\n"
    "                {\"type\": \"tank\", \"min\": [0.0, 0.0], \"max\": [0.3, 0.3]}],\n"
    " \"bodies\": [{\"shape\": {\"type\": \"box\", \"min\": [0.1, 0.01], \"max\": [0.2, 0.07]},\n"
    "              \"motion\": \"free\", \"density_ratio\": 2.0, \"velocity\": [-0.1, -0.5]}],\n"
    " \"method\": {\"coupler\": \"lemke_contacts\", \"uncoupled_bodies\": true,\n"
    "            \"fluid\": {\"rigid_pressure\": false, \"tolerance\": 1e-6},\n"
    "            \"contact\": {\"solver\": \"lemke\", \"restitution\": 0.1, \"alpha\": 0.0}}}\n";

typedef struct run {
  vbc_scene sc;
  vbc_sim sim;
  size_t max_rows;
} run;

static void start(run *r, const char *name, const char *text, const char *const *sets,
                  int nsets) {
  r->max_rows = 0;
  sim_start(&r->sc, &r->sim, name, text, sets, nsets);
}

static void steps(run *r, int n) {
  for (int k = 0; k < n; ++k) {
    vbc_step_report rep;
    sim_step(&r->sim, &rep);
    const vbc_stage_report *contact = &rep.stage[1]; /* the contact LCP */
    if (contact->solved) {
      cr_assert_str_eq(contact->figures.name[1], "lcp_error");
      const double error = contact->figures.value[1];
      cr_assert_lt(error, 1e-6, "step %d: LCP error %g", k, error);
      if (contact->rows > r->max_rows) r->max_rows = contact->rows;
    }
  }
}

static void stop(run *r) { sim_stop(&r->sc, &r->sim); }

Test(lemke_contacts, lemke_and_converged_pgs_give_the_same_body_velocity) {
  run a, b;
  start(&a, "lc_lemke", drop_scene, NULL, 0);
  start(&b, "lc_pgs", drop_scene,
        SETS("method.contact.solver=pgs", "method.contact.tolerance=1e-13",
             "method.contact.max_iterations=200000"),
        3);
  steps(&a, 12);
  steps(&b, 12);
  cr_assert_gt(a.max_rows, 5, "the box touches floor and water (%zu rows)", a.max_rows);
  const vbc_body *ba = &a.sim.bodies[0], *bb = &b.sim.bodies[0];
  double dv = vbc_vec_norm(vbc_vec_sub(ba->v, bb->v)), dw = fabs(ba->w.z - bb->w.z);
  cr_assert_lt(dv, 1e-6, "|v_lemke - v_pgs| = %g (v = %g, %g)", dv, ba->v.x, ba->v.y);
  cr_assert_lt(dw, 1e-5, "|w_lemke - w_pgs| = %g", dw);
  cr_assert_gt(ba->v.y, -0.3, "the floor stopped the fall (v_y = %g)", ba->v.y);
  stop(&a);
  stop(&b);
}

/* first_run = plain starts from the plain pivoting on the contact LCPs: the same exact solutions
 * (the body's velocity to 1e-9 after 12 steps). */
Test(lemke_contacts, plain_first_gives_the_regularized_first_solution) {
  run a, b;
  start(&a, "lc_reg_first", drop_scene, NULL, 0);
  start(&b, "lc_plain_first", drop_scene, SETS("method.contact.first_run=plain"), 1);
  steps(&a, 12);
  steps(&b, 12);
  cr_assert_gt(a.max_rows, 5);
  const vbc_body *ba = &a.sim.bodies[0], *bb = &b.sim.bodies[0];
  const double dv = vbc_vec_norm(vbc_vec_sub(ba->v, bb->v)), dw = fabs(ba->w.z - bb->w.z);
  cr_assert_lt(dv, 1e-9, "|v_regularized - v_plain| = %g", dv);
  cr_assert_lt(dw, 1e-8, "|w_regularized - w_plain| = %g", dw);
  stop(&a);
  stop(&b);
}

Test(lemke_contacts, summary_reports_the_contact_lcp) {
  const char *path = write_text(test_dir("lc_summary_scene"), "scene.json", drop_scene);
  cJSON *s = run_scene("lc_summary", path, NULL, 0);
  /* stage 0 is the fluid solve, stage 1 the contact LCP */
  cJSON *stage = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "solver"),
                                                        "stages"), 1);
  cr_assert_str_eq(cJSON_GetObjectItem(stage, "label")->valuestring, "contact");
  cr_assert_str_eq(cJSON_GetObjectItem(stage, "solver")->valuestring, "lemke");
  cr_assert_gt(json_number(s, "solver.stages.1.solves"), 0.0);
  cr_assert_gt(json_number(s, "solver.stages.1.rows_max"), 5.0);
  cr_assert_gt(json_number(s, "solver.stages.1.mean_pivots"), 0.0);
  cr_assert_geq(json_number(s, "solver.stages.1.max_pivots"),
                json_number(s, "solver.stages.1.mean_pivots"));
  cr_assert_lt(json_number(s, "solver.stages.1.max_lcp_error"), 1e-9);
  cr_assert_gt(json_number(s, "solver.stages.1.max_simultaneous_contacts"), 5.0);
  cr_assert_gt(json_number(s, "metrics.max_simultaneous_contacts"), 5.0);
  cr_assert_eq(json_number(s, "metrics.mean_pivots"), json_number(s, "solver.stages.1.mean_pivots"));
  cr_assert_eq(json_number(s, "metrics.max_lcp_error"),
               json_number(s, "solver.stages.1.max_lcp_error"));
  cJSON_Delete(s);
  /* an iterative contact solver reports no pivots */
  s = run_scene("lc_summary_pgs", path, SETS("method.contact.solver=pgs"), 1);
  cr_assert(isnan(json_number(s, "solver.stages.1.mean_pivots")));
  cr_assert(isnan(json_number(s, "metrics.mean_pivots")));
  cr_assert_gt(json_number(s, "solver.stages.1.solves"), 0.0);
  cJSON_Delete(s);
}

/* No gravity, no walls: a sheet of water two particles thick at 1.5 m/s hits a free box at rest.
 * Without wall_pressure the box's particles have no pressure rows, so the thin sheet (n_i < n0)
 * reaches the box and the contact LCP stops it; the fluid rows that do get a pressure act on the
 * body too (rigid_pressure true), so the fluid solve conserves momentum as well and the contact
 * LCP must add nothing of its own. */
static const char blob_scene[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.004, \"end\": 0.2},\n"
    " \"gravity\": [0.0, 0.0],\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0.0, -0.04], \"max\": [0.04, 0.04],\n"
    "                 \"velocity\": [1.5, 0.2]}],\n"
    " \"bodies\": [{\"shape\": {\"type\": \"box\", \"min\": [0.08, -0.06], \"max\": [0.14, 0.1]},\n"
    "              \"motion\": \"free\", \"density_ratio\": 0.8}],\n"
    " \"method\": {\"coupler\": \"lemke_contacts\",\n"
    "            \"fluid\": {\"rigid_pressure\": true, \"wall_pressure\": false},\n"
    "            \"contact\": {\"restitution\": 0.0, \"alpha\": 0.0}}}\n";

Test(lemke_contacts, a_blob_hitting_a_free_box_conserves_linear_momentum) {
  run r;
  start(&r, "lc_blob", blob_scene, NULL, 0);
  const vbc_vec P0 = sim_momentum(&r.sim);
  steps(&r, 25);
  const vbc_vec P1 = sim_momentum(&r.sim);
  double dP = vbc_vec_norm(vbc_vec_sub(P1, P0)) / vbc_vec_norm(P0);
  cr_assert_gt(r.max_rows, 1, "the blob reached the box (%zu contact rows)", r.max_rows);
  cr_assert_gt(r.sim.bodies[0].v.x, 0.05, "the box was pushed (v_x = %g)", r.sim.bodies[0].v.x);
  cr_assert_lt(dP, 1e-12, "relative momentum change %g", dP);
  stop(&r);
}

/* ---- bad input ---- */

static const char bad_scene[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.004, \"end\": 0.01},\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0.0, 0.0], \"max\": [0.1, 0.1]},\n"
    "                {\"type\": \"tank\", \"min\": [0.0, 0.0], \"max\": [0.2, 0.2]}],\n"
    " \"method\": {\"coupler\": \"lemke_contacts\", \"contact\": {\"solver\": \"lemke\"}}}\n";

Test(lemke_contacts_input, a_contact_solver_needs_the_lemke_contacts_coupler) {
  expect_bad_input("lc_bad_coupler", bad_scene, SETS("method.coupler=strong"),
                   FRAGMENTS("method.contact.solver", "expected no solver for coupler \"strong\"",
                             "lemke_contacts"));
  expect_bad_input("lc_bad_coupler_pms", bad_scene, SETS("method.coupler=pms"),
                   FRAGMENTS("method.contact.solver", "coupler \"pms\""));
}

Test(lemke_contacts_input, an_unknown_or_malformed_contact_solver_is_refused) {
  expect_bad_input("lc_bad_name", bad_scene, SETS("method.contact.solver=newton"),
                   FRAGMENTS("method.contact.solver", "expected one of", "\"lemke\"", "newton"));
  expect_bad_input("lc_bad_type", bad_scene, SETS("method.contact.solver=3"),
                   FRAGMENTS("method.contact.solver", "a string"));
}

Test(lemke_contacts_input, contact_solver_parameters_are_validated) {
  expect_bad_input("lc_bad_key", bad_scene, SETS("method.contact.omegaa=1"),
                   FRAGMENTS("method.contact", "omegaa", "max_pivots"));
  expect_bad_input("lc_bad_pivots", bad_scene, SETS("method.contact.max_pivots=-1"),
                   FRAGMENTS("method.contact.max_pivots"));
  expect_bad_input("lc_bad_first", bad_scene, SETS("method.contact.first_run=lucky"),
                   FRAGMENTS("method.contact.first_run", "\"plain\"", "lucky"));
  expect_bad_input("lc_bad_iters", bad_scene,
                   SETS("method.contact.solver=pgs", "method.contact.min_iterations=10",
                        "method.contact.max_iterations=5"),
                   FRAGMENTS("method.contact.min_iterations", "at most max_iterations"));
}

/* The parameters of an unselected solver that the scene holds are dropped (as in method.fluid),
 * so one scene runs under every contact solver with --set; the resolved scene keeps only what
 * was used. One that a --set assigns is refused: it would do nothing. */
Test(lemke_contacts_input, parameters_of_an_unselected_solver_are_dropped) {
  expect_bad_input("lc_unused", bad_scene,
                   SETS("method.contact.max_pivots=500", "method.contact.solver=pgs"),
                   FRAGMENTS("method.contact.max_pivots", "solver pgs", "solver lemke"));
  const char *path = write_text(test_dir("lc_drop"), "scene.json", bad_scene);
  const char *sets[] = {"method.contact={\"solver\": \"lemke\", \"max_pivots\": 500}",
                        "method.contact.solver=pgs"};
  vbc_scene sc;
  vbc_error err = {0};
  cr_assert_eq(vbc_scene_load(&sc, path, sets, 2, test_registry(), &err), 0, "%s", err.message);
  const vbc_method_group *g = vbc_method_group_find(sc.groups, sc.ngroups, "contact");
  cr_assert_str_eq(g->solver->name, "pgs");
  cr_assert_null(cJSON_GetObjectItem(g->params, "max_pivots"));
  cr_assert_not_null(cJSON_GetObjectItem(g->params, "omega"));
  vbc_scene_free(&sc);
  const char *strong[] = {"method.coupler=strong"};
  const char *plain = "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.004, \"end\": 0.01},"
                      " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": "
                      "[0.1, 0.1]}]}";
  path = write_text(test_dir("lc_drop"), "plain.json", plain);
  cr_assert_eq(vbc_scene_load(&sc, path, strong, 1, test_registry(), &err), 0, "%s", err.message);
  cr_assert_null(vbc_method_group_find(sc.groups, sc.ngroups, "contact")->solver,
                 "no contact solver outside lemke_contacts");
  vbc_scene_free(&sc);
}
