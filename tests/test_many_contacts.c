/* test_many_contacts.c — the shipped lemke_contacts scenes, shortened with --set:
 * kurose_bodies (Kurose & Takahashi Fig. 1 in 2D) reports max_penetration and
 * max_fluid_penetration (metrics/penetration.c) and keeps them small, and many_contacts
 * (160 boxes sinking in water) reaches a contact LCP of hundreds of rows within a few steps,
 * which Lemke solves to the LCP error bound of the issue (1e-9) in every step. */
#include <criterion/criterion.h>
#include <math.h>

#include "tests/support.h"

/* Kurose's two boxes at l = 0.04 for 0.6 s: the light box falls 0.02 m onto the water and the
 * heavy one sinks through it, so fluid-rigid contacts carry both. */
Test(many_contacts, kurose_bodies_reports_a_small_penetration) {
  cJSON *s = run_scene("kurose_coarse", source_path("experiments/scenes/kurose_bodies.json"),
                       SETS("spacing=0.04", "time.end=0.6"), 2);
  const double pen = json_number(s, "metrics.max_penetration");
  const double fpen = json_number(s, "metrics.max_fluid_penetration");
  cr_assert(isfinite(pen) && pen >= 0.0, "max_penetration reported (%g)", pen);
  cr_assert_lt(pen, 0.1, "body-body and body-wall overlap %g l", pen);
  cr_assert(isfinite(fpen) && fpen >= 0.0, "max_fluid_penetration reported (%g)", fpen);
  cr_assert_lt(fpen, 0.3, "fluid-body overlap %g l", fpen);
  cr_assert_leq(json_number(s, "metrics.max_lcp_error"), 1e-9);
  cr_assert_gt(json_number(s, "metrics.max_simultaneous_contacts"), 10.0);
  cJSON_Delete(s);
}

/* The first 0.12 s (30 steps) of many_contacts: the boxes start l apart with water between them;
 * the water under and between them makes hundreds of fluid-rigid and fluid-wall rows from the
 * first step, and the lowest boxes reach the floor's and their neighbours' rows. */
Test(many_contacts, a_short_many_contacts_run_solves_hundreds_of_contacts_exactly,
     LONG_PHYSICS /* the sanitizers: kurose_bodies_reports_a_small_penetration */) {
  cJSON *s = run_scene("many_contacts_short",
                       source_path("experiments/scenes/many_contacts.json"),
                       SETS("time.end=0.12"), 1);
  const double contacts = json_number(s, "metrics.max_simultaneous_contacts");
  cr_assert_geq(contacts, 300.0, "max_simultaneous_contacts %g", contacts);
  cr_assert_leq(json_number(s, "metrics.max_lcp_error"), 1e-9, "max_lcp_error %g",
                json_number(s, "metrics.max_lcp_error"));
  cr_assert_eq(json_number(s, "solver.stages.1.solves"), 30.0, "an LCP in every step");
  cr_assert_gt(json_number(s, "metrics.mean_pivots"), 100.0);
  cr_assert_lt(json_number(s, "metrics.max_penetration"), 0.1);
  cJSON_Delete(s);
}
