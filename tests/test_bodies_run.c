/* test_bodies_run.c — rigid bodies and strong coupling in whole runs of `vbc run` (Miyamoto &
 * Koshizuka §5.1, §5.5-5.6): a box resting on a floor stays put, the pile does not penetrate, a
 * pinned body keeps its pin, the seesaw couples both fluid blocks within one step, a coarse
 * floating box obeys Archimedes, and the buoyancy benchmark measures the water's own density. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

/* A 0.3 m x 0.15 m box resting on the floor of a tank, 2 s under gravity. Particle surfaces are
 * bumpy: a box whose particles sit on top of the floor's (the same lattice) is in an unstable
 * equilibrium and slides l/2 sideways into the hollows within a second, as frictionless spheres
 * would. So the tank's lattice is shifted by (l/2, (1 - sqrt(3)/2) l): every bottom particle of
 * the box starts nested between two floor particles, touching both, as it would come to rest. */
Test(bodies_run, a_box_resting_on_a_floor_stays_at_rest) {
  const char *dir = test_dir("resting_box_scene");
  const char *scene = write_text(dir, "resting.json",
      "{\"dim\": 2, \"spacing\": 0.03, \"time\": {\"dt\": 0.005, \"end\": 2.0},"
      " \"gravity\": [0, -9.8],"
      " \"geometry\": [{\"type\": \"tank\", \"min\": [0.015, 0.004019237886466843],"
      "                  \"max\": [0.915, 0.6]}],"
      " \"bodies\": [{\"name\": \"box\", \"shape\": {\"type\": \"box\", \"min\": [0.3, 0.0],"
      "   \"max\": [0.6, 0.15]}, \"density\": 500}],"
      " \"method\": {\"contact\": {\"restitution\": 0.2}},"
      " \"benchmark\": {\"type\": \"bodies\"}}");
  cJSON *s = run_scene("resting_box", scene, NULL, 0);
  double drift = json_number(s, "metrics.max_body_drift");
  cr_assert_lt(drift, 0.05, "the box drifted %g l", drift);
  cr_assert_lt(json_number(s, "metrics.max_penetration"), 0.05);
  cJSON_Delete(s);
}

Test(bodies_run, the_rigid_pile_collapses_without_penetration) {
  cJSON *s = run_scene("rigid_pile", source_path("experiments/scenes/rigid_pile.json"), NULL, 0);
  double pen = json_number(s, "metrics.max_penetration");
  cr_assert_lt(pen, 0.25, "max_penetration %g", pen);
  /* at the snapshots (every 0.25 s) the overlaps are what a contact meets within a step at most */
  double snap = json_number(s, "metrics.snapshot_penetration");
  cr_assert(snap >= 0.0 && snap <= pen, "snapshot_penetration %g, max_penetration %g", snap, pen);
  cr_assert_lt(json_number(s, "metrics.final_kinetic_energy"), 1.0); /* it comes to rest */
  cJSON_Delete(s);
}

/* Strong coupling within one step (Fig. 14): the top block turns the bar, the bar pushes the
 * bottom block, which gets pressure and moves; the pin holds. */
Test(bodies_run, the_seesaw_pressurises_the_bottom_block_in_the_first_step) {
  const char *sets[] = {"time.end=0.005"};
  cJSON *s = run_scene("seesaw", source_path("experiments/scenes/seesaw.json"), sets, 1);
  cr_assert_gt(json_number(s, "metrics.bottom_pressure_mean"), 100.0);
  cr_assert_gt(json_number(s, "metrics.bottom_velocity_mean"), 0.01);
  cr_assert_gt(json_number(s, "metrics.body_angular_velocity"), 0.1);
  cJSON_Delete(s);
}

/* Two crosses pinned under water, hit by the flow of a sinking box: the pins hold. */
Test(bodies_run, pinned_bodies_keep_their_pins_in_a_flow) {
  const char *sets[] = {"spacing=0.04", "time.dt=0.002", "time.end=0.4",
                        "bodies.0.shape.width=0.08", "bodies.1.shape.width=0.08"};
  cJSON *s = run_scene("complex_pins", source_path("experiments/scenes/complex.json"), sets, 5);
  double drift = json_number(s, "metrics.max_pin_drift");
  cr_assert_lt(drift, 0.01, "pin drift %g l", drift);
  cJSON_Delete(s);
}

/* §5.5 on a coarse lattice: a box of half the water's density floats half submerged, and the
 * water 3 l below its bottom face (the layer of pressure_under_body and pressure_beside_body) has
 * about the hydrostatic pressure of its depth below the surface, under the box and beside it. */
Test(bodies_run, a_coarse_floating_box_obeys_archimedes,
     LONG_PHYSICS /* the sanitizers: the_buoyancy_benchmark_measures_the_fluid_density,
                     test_compatibility_walk's strong cells */) {
  const char *sets[] = {"spacing=0.04", "time.end=2.5", "bodies.0.density_ratio=0.5"};
  cJSON *s = run_scene("buoyancy_coarse", source_path("experiments/scenes/buoyancy.json"), sets, 3);
  double e = json_number(s, "metrics.submerged_error");
  double ratio = json_number(s, "metrics.submerged_ratio");
  cr_assert_lt(e, 0.08, "submerged_error %g (ratio %g)", e, ratio);
  const double hydrostatic = 1000.0 * 9.80665 * (ratio * 0.6 + 3 * 0.04); /* box 0.6 m high */
  double under = json_number(s, "metrics.pressure_under_body");
  double beside = json_number(s, "metrics.pressure_beside_body");
  cr_assert(fabs(under / hydrostatic - 1.0) < 0.05, "under %g Pa, hydrostatic %g", under,
            hydrostatic);
  cr_assert(fabs(beside / hydrostatic - 1.0) < 0.05, "beside %g Pa, hydrostatic %g", beside,
            hydrostatic);
  cr_assert_float_eq(json_number(s, "metrics.head_difference"),
                     (under - beside) / (1000.0 * 9.80665), 1e-9);
  cJSON_Delete(s);
}

/* The buoyancy benchmark's fluid density on a constructed state: water 1.0 m wide and 0.9 m deep
 * in a tank 1.2 m wide (0.2 m of it empty), a 0.6 m box submerged to 0.3 m, one step of 1e-6 s
 * (nothing moves). Mass over volume below the surface, over rho: N_f l^2 = 1.0 x 0.9 - 0.18 =
 * 0.72 over 1.2 x 0.9 - 0.18 = 0.9, i.e. 0.8; a box of density ratio 0.4 floats half submerged
 * in water of 0.8 rho, and this one is half submerged. */
Test(bodies_run, the_buoyancy_benchmark_measures_the_fluid_density) {
  const char *sets[] = {"spacing=0.05", "time.dt=1e-6", "time.end=1e-6",
                        "geometry.0.max=[1.0,0.9]", "bodies.0.shape.min=[0.3,0.6]",
                        "bodies.0.shape.max=[0.9,1.2]", "bodies.0.density_ratio=0.4"};
  cJSON *s = run_scene("buoyancy_fluid_density", source_path("experiments/scenes/buoyancy.json"),
                       sets, 7);
  cr_assert_float_eq(json_number(s, "metrics.submerged_ratio"), 0.5, 1e-6);
  cr_assert_float_eq(json_number(s, "metrics.fluid_density_ratio"), 0.8, 1e-6);
  cr_assert_float_eq(json_number(s, "metrics.archimedes_ratio"), 0.5, 1e-6);
  cr_assert_float_eq(json_number(s, "metrics.submerged_error_fluid"), 0.0, 1e-6);
  cr_assert_float_eq(json_number(s, "metrics.submerged_error"), 0.1, 1e-6);
  cJSON_Delete(s);
}
