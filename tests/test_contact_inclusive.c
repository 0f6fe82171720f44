/* test_contact_inclusive.c — Kurose & Takahashi's coupling as written (couplers/lemke_contacts.c):
 * method.contact.inclusive detects pairs exactly l apart (their eq. 2, r <= r_f + r_r), the
 * contact stage reports touching and speculative rows apart, and method.fluid.bodies = "ignored"
 * takes the rigid particles out of the mps and sph_density rows.
 *
 * The scene is one step on the lattice: water [0, 0.15] x [0, 0.3] (3 x 6 particles, l = 0.05) in
 * a tank, beside a free 2 x 2 box [0.15, 0.25] x [0, 0.1] on the floor. Pairs exactly l apart:
 * water-floor 3, water-left wall 6, water-box 2, box-floor 2; box-floor pairs at sqrt 2 l are
 * speculative (4, below (1 + margin) l = 1.5 l). Vbc's r < l sees only the box-floor rows (the
 * speculative margin catches those at l with depth 0). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "tests/support.h"

/* uncoupled_bodies: with bodies = "ignored" or the sph_density block the fluid gives the box no
 * buoyancy (Kurose's coupling as written), which the set-up refuses without the opt-in. */
static const char scene[] =
    "{\"dim\": 2, \"spacing\": 0.05, \"time\": {\"dt\": 0.002, \"end\": 0.002},\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.15, 0.3]},\n"
    "                {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.3, 0.4]}],\n"
    " \"bodies\": [{\"shape\": {\"type\": \"box\", \"min\": [0.15, 0.0], \"max\": [0.25, 0.1]},\n"
    "              \"motion\": \"free\", \"density_ratio\": 2.0}],\n"
    " \"method\": {\"coupler\": \"lemke_contacts\", \"uncoupled_bodies\": true,\n"
    "            \"contact\": {\"alpha\": 0.0}}}\n";

static cJSON *one_step(const char *name, const char *const *sets, int nsets) {
  char dir[64];
  snprintf(dir, sizeof dir, "%s_scene", name);
  const char *path = write_text(test_dir(dir), "scene.json", scene);
  return run_scene(name, path, sets, nsets);
}

Test(contact_inclusive, counts_the_pairs_exactly_l_apart_as_touching) {
  cJSON *strict = one_step("incl_strict", SETS("method.contact.inclusive=false"), 1);
  cJSON *incl = one_step("incl_on", SETS("method.contact.inclusive=true"), 1);
  cr_assert_float_eq(json_number(strict, "metrics.max_touching_contacts"), 2.0, 0.0);
  cr_assert_float_eq(json_number(strict, "metrics.max_speculative_contacts"), 4.0, 0.0);
  cr_assert_float_eq(json_number(strict, "metrics.max_simultaneous_contacts"), 6.0, 0.0);
  cr_assert_float_eq(json_number(incl, "metrics.max_touching_contacts"), 13.0, 0.0);
  cr_assert_float_eq(json_number(incl, "metrics.max_speculative_contacts"), 4.0, 0.0);
  cr_assert_float_eq(json_number(incl, "metrics.max_simultaneous_contacts"), 17.0, 0.0);
  cJSON_Delete(strict);
  cJSON_Delete(incl);
}

/* The box's four particles are all within r_e = 2.1 l of the water: with wall_pressure they get
 * rows as walls do; with bodies = "ignored" they are not in the block. */
Test(contact_inclusive, ignored_bodies_have_no_fluid_rows) {
  cJSON *walls = one_step("bodies_walls", SETS("method.fluid.bodies=walls"), 1);
  cJSON *ignored = one_step("bodies_ignored", SETS("method.fluid.bodies=ignored"), 1);
  const double rows_walls = json_number(walls, "solver.stages.0.rows_max");
  const double rows_ignored = json_number(ignored, "solver.stages.0.rows_max");
  cr_assert_float_eq(rows_walls - rows_ignored, 4.0, 0.0, "rows %g vs %g", rows_walls,
                     rows_ignored);
  cJSON_Delete(walls);
  cJSON_Delete(ignored);
}

/* The same on sph_density (Kurose's own fluid is SPH): the box's column next to the water (the
 * two particles within 1.5 l of it) loses its rows, and the water's solve is that of the tank
 * without the box (measured: final relative residual 0.2778 both, 0.4058 with the box as a
 * wall; no contact rows touch the water here). */
Test(contact_inclusive, ignored_bodies_leave_the_sph_rows) {
  /* IISPH's own stopping test, which a changed solver does not bring by itself */
  const char *sph[] = {"method.fluid.constraint=sph_density", "method.fluid.solver=jacobi",
                       "method.fluid.error_tolerance=0.001", "method.fluid.min_iterations=2",
                       "method.fluid.bodies=walls"};
  cJSON *walls = one_step("sph_bodies_walls", sph, 5);
  sph[4] = "method.fluid.bodies=ignored";
  cJSON *ignored = one_step("sph_bodies_ignored", sph, 5);
  const char *none[] = {"method.fluid.constraint=sph_density", "method.fluid.solver=jacobi",
                        "method.fluid.error_tolerance=0.001", "method.fluid.min_iterations=2",
                        "bodies=[]"};
  cJSON *no_box = one_step("sph_no_box", none, 5);
  const double rows_walls = json_number(walls, "solver.stages.0.rows_max");
  const double rows_ignored = json_number(ignored, "solver.stages.0.rows_max");
  cr_assert_float_eq(rows_walls - rows_ignored, 2.0, 0.0, "rows %g vs %g", rows_walls,
                     rows_ignored);
  cr_assert_float_eq(rows_ignored, json_number(no_box, "solver.stages.0.rows_max"), 0.0);
  const char *res = "solver.stages.0.final_relative_residual_max";
  const double r_walls = json_number(walls, res), r_ignored = json_number(ignored, res);
  const double r_none = json_number(no_box, res);
  cr_assert_float_eq(r_ignored, r_none, 1e-12 * r_none, "%.17g vs %.17g", r_ignored, r_none);
  cr_assert_gt(fabs(r_walls - r_none), 0.1 * r_none, "the box as a wall changes the solve");
  cJSON_Delete(walls);
  cJSON_Delete(ignored);
  cJSON_Delete(no_box);
}

Test(scene, bad_contact_inclusive_and_fluid_bodies_name_their_path) {
  static const char lc[] =
      "{\"dim\": 2, \"spacing\": 0.05, \"time\": {\"dt\": 0.002, \"end\": 0.002},\n"
      " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.15, 0.3]},\n"
      "                {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.3, 0.4]}],\n"
      " \"method\": {\"coupler\": \"lemke_contacts\"}}\n";
  expect_bad_input("bad_inclusive", lc, SETS("method.contact.inclusive=2"),
                   FRAGMENTS("method.contact.inclusive"));
  expect_bad_input("bad_bodies", lc, SETS("method.fluid.bodies=float"),
                   FRAGMENTS("method.fluid.bodies", "float"));
}
