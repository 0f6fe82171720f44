/* test_staggered_pd.c — the body's load through p^d under the staggered coupler
 * (couplers/staggered.c; He et al., ACM Trans. Graph. 31(6) 149, 2012, Alg. 1 line 5 and eq. 23,
 * substituted by the sph_density rows): the per-stage figures body_force_y and body_force_x
 * split the load the cylinder_flow benchmark records into the pre-pass's and the p^v solve's,
 * on a box held half in water the load reaches Archimedes only through p^d held over steps (warm
 * start), p^d's start (pd_initial) and what persists (pd_kept) move it, and a free box floats on
 * He's own load path when the p^v solve is stopped by He's E (eq. 29) and sinks when it is driven
 * to a residual; while p^v iterates, p^d takes a small share of the free box's weight. */
#include <criterion/criterion.h>
#include <math.h>

#include "tests/support.h"

/* A box held at rest with its lower 0.12 m in water 0.4 m deep, l = 0.02, h = 2.5 ms: Archimedes
 * rho g (0.24 m x 0.12 m) = 282.4 N/m. */
static const char held_in_water[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.0025, \"end\": 1.0},\n"
    " \"gravity\": [0.0, -9.80665],\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0.0, 0.0], \"max\": [0.6, 0.4]},\n"
    "                {\"type\": \"tank\", \"min\": [0.0, 0.0], \"max\": [0.6, 0.6]}],\n"
    " \"bodies\": [{\"shape\": {\"type\": \"box\", \"min\": [0.18, 0.28], \"max\": [0.42, 0.52]},\n"
    "              \"motion\": \"fixed\"}],\n"
    " \"method\": {\"coupler\": \"staggered\", \"fluid\": {\"constraint\": \"staggered\",\n"
    "            \"solver\": \"cg\"}, \"contact\": {\"pairs\": \"bodies\"}},\n"
    " \"benchmark\": {\"type\": \"cylinder_flow\", \"body\": 0, \"from\": 0.0},\n"
    " \"output\": {\"frames\": false}}\n";

static cJSON *held(const char *name, const char *const *sets, int nsets) {
  const char *scene = write_text(test_dir("spd_held"), "scene.json", held_in_water);
  cJSON *s = run_scene(name, scene, sets, nsets);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  return s;
}

/* The two stages' body_force_y and body_force_x add up to the lift and drag the benchmark
 * records (averaged from t = 0: every step's solve is one sample of both). */
Test(staggered_pd, the_stage_loads_add_up_to_the_recorded_load, .timeout = 60) {
  cJSON *s = held("spd_sum", SETS("time.end=0.25"), 1);
  const double pd = json_number(s, "solver.stages.0.mean_body_force_y");
  const double pv = json_number(s, "solver.stages.1.mean_body_force_y");
  const double lift = json_number(s, "metrics.lift_mean");
  cr_assert_float_eq(pd + pv, lift, 1e-3 * fabs(lift), "p^d %g + p^v %g against %g", pd, pv, lift);
  const double pdx = json_number(s, "solver.stages.0.mean_body_force_x");
  const double pvx = json_number(s, "solver.stages.1.mean_body_force_x");
  const double drag = json_number(s, "metrics.drag_mean");
  cr_assert_float_eq(pdx + pvx, drag, 1e-9 + 1e-3 * fabs(drag), "p^d %g + p^v %g against %g",
                     pdx, pvx, drag);
  cJSON_Delete(s);
}

/* Over 0.5-1 s (l = 0.02): p^d restarted from zero each step (He's three iterations, the
 * default) gives the box 0.75 of Archimedes, p^d kept over steps (warm start, factor 0.8, from
 * p^d + p^v: pd_kept total) 1.01
 * (measured; docs/notes/staggered-journal.md, "The body's weight"). */
Test(staggered_pd, p_d_held_over_steps_carries_archimedes, .timeout = 60,
     LONG_PHYSICS /* the sanitizers: p_d_kept_alone_trades_the_load_with_p_v */) {
  const double archimedes = 1000.0 * 9.80665 * 0.24 * 0.12;
  cJSON *s = held("spd_restart", SETS("benchmark.from=0.5", "time.end=1.0"), 2);
  const double restart = json_number(s, "metrics.lift_mean") / archimedes;
  cJSON_Delete(s);
  s = held("spd_warm", SETS("benchmark.from=0.5", "time.end=1.0", "method.prepass.warm_start=true",
                            "method.prepass.warm_start_factor=0.8"), 4);
  const double warm = json_number(s, "metrics.lift_mean") / archimedes;
  cJSON_Delete(s);
  cr_assert(restart > 0.6 && restart < 0.85, "restarted p^d: %g of Archimedes", restart);
  cr_assert(fabs(warm - 1.0) < 0.05, "p^d held over steps: %g of Archimedes", warm);
}

/* He's eq. 23 from the fluid's p^d (method.pd_body_load eq23, couplers/staggered_pd_load.c) over
 * 0.5-1 s: with p^d mirrored onto the solid particles and the full symmetric sum the held box
 * takes the fluid's p^d, 0.94 of Archimedes with p^d restarted each step (the block's impulses:
 * 0.75, above); with p^d = 0 on the solid particles it takes half of what mirrored gives
 * (measured 0.586 against 1.142 at warm start 0.8: the one-sided pair term of notes on eq. 23). */
Test(staggered_pd, eq23_from_mirrored_p_d_carries_the_fluid_pressure, .timeout = 90,
     LONG_PHYSICS /* the sanitizers: p_d_kept_alone_trades_the_load_with_p_v */) {
  const double archimedes = 1000.0 * 9.80665 * 0.24 * 0.12;
  cJSON *s = held("spd_eq23", SETS("benchmark.from=0.5", "method.pd_body_load=eq23"), 2);
  const double mirrored = json_number(s, "metrics.lift_mean") / archimedes;
  cJSON_Delete(s);
  s = held("spd_eq23_warm", SETS("benchmark.from=0.5", "method.pd_body_load=eq23",
                                 "method.prepass.warm_start=true",
                                 "method.prepass.warm_start_factor=0.8"), 4);
  const double warm = json_number(s, "metrics.lift_mean") / archimedes;
  cJSON_Delete(s);
  s = held("spd_eq23_zero", SETS("benchmark.from=0.5", "method.pd_body_load=eq23",
                                 "method.pd_solid_pressure=zero", "method.prepass.warm_start=true",
                                 "method.prepass.warm_start_factor=0.8"), 5);
  const double zero = json_number(s, "metrics.lift_mean") / archimedes;
  cJSON_Delete(s);
  cr_assert(mirrored > 0.85 && mirrored < 1.05, "eq. 23, p^d mirrored: %g of Archimedes", mirrored);
  cr_assert(zero / warm > 0.4 && zero / warm < 0.6, "p^d = 0 on the solid: %g of mirrored's %g",
            zero, warm);
}

/* pd_initial hydrostatic: the first step's pre-pass begins from rho0 g depth, so eq. 23 gives
 * the held box Archimedes from the first step (measured 1.076; the p^d of the level l/2 above the
 * top particles, mirrored onto the solid), where p^d from zero gives it nothing yet. */
Test(staggered_pd, a_hydrostatic_initial_p_d_carries_the_box_from_the_first_step, .timeout = 30) {
  const double archimedes = 1000.0 * 9.80665 * 0.24 * 0.12;
  const char *const common[] = {"time.end=0.0025", "method.pd_body_load=eq23",
                                "method.prepass.warm_start=true",
                                "method.prepass.warm_start_factor=1.0"};
  cJSON *s = held("spd_first_zero", SETS(common[0], common[1], common[2], common[3]), 4);
  const double zero = json_number(s, "solver.stages.0.mean_body_force_y") / archimedes;
  cJSON_Delete(s);
  s = held("spd_first_hydro", SETS(common[0], common[1], common[2], common[3],
                                    "method.pd_initial=hydrostatic"), 5);
  const double hydro = json_number(s, "solver.stages.0.mean_body_force_y") / archimedes;
  cJSON_Delete(s);
  cr_assert(fabs(zero) < 0.05, "p^d from zero, first step: %g of Archimedes", zero);
  cr_assert(hydro > 0.95 && hydro < 1.15, "hydrostatic p^d, first step: %g of Archimedes", hydro);
}

/* pd_kept: a warm-started pre-pass begins from the previous step's p^d alone (pd) or from the
 * pressure the step wrote, p^d + p^v (total, the default). From a hydrostatic start at factor 1
 * the two part within 100 steps: held alone, p^d and p^v trade the column's weight along an
 * unstable split (the docs' "The body's weight through p^d"), and eq. 23 hands the box p^d's
 * share, 2.04 of Archimedes over 0-0.25 s, against 1.31 with p^v carried into p^d (measured). */
Test(staggered_pd, p_d_kept_alone_trades_the_load_with_p_v, .timeout = 30) {
  const double archimedes = 1000.0 * 9.80665 * 0.24 * 0.12;
  const char *const common[] = {"time.end=0.25", "method.pd_body_load=eq23",
                                "method.prepass.warm_start=true",
                                "method.prepass.warm_start_factor=1.0",
                                "method.pd_initial=hydrostatic"};
  cJSON *s = held("spd_kept_total", SETS(common[0], common[1], common[2], common[3], common[4]), 5);
  const double total = json_number(s, "solver.stages.0.mean_body_force_y") / archimedes;
  cJSON_Delete(s);
  s = held("spd_kept_pd", SETS(common[0], common[1], common[2], common[3], common[4],
                               "method.pd_kept=pd"), 6);
  const double alone = json_number(s, "solver.stages.0.mean_body_force_y") / archimedes;
  cJSON_Delete(s);
  cr_assert(total > 1.15 && total < 1.45, "p^v carried into p^d: %g of Archimedes", total);
  cr_assert(alone > 1.7, "p^d kept alone: %g of Archimedes", alone);
}

/* The free box of ratio 0.5 (buoyancy.json at l = 0.04) under He's own load path: the pre-pass's
 * p^d load (the block's impulses) and eq. 28's (`momentum`). With the p^v solve stopped by He's
 * E = 1 % in He's unit it does not start, the pre-pass carries the statics and the box floats
 * (measured 0.471 over 1-2 s; 0.487 over 2-3 s at l = 0.02); driven to a relative residual of
 * 10^-2 (the scene's MPS tolerance), p^v carries them, eq. 28 passes the box none of it and it
 * sinks (1.0 submerged from 0.6 s). */
Test(staggered_pd, a_free_box_floats_on_hes_load_path_at_hes_error, .timeout = 60,
     LONG_PHYSICS /* the sanitizers:
                     a_hydrostatic_initial_p_d_carries_the_box_from_the_first_step */) {
  const char *scene = source_path("experiments/scenes/buoyancy.json");
  const char *const common[] = {"spacing=0.04", "method.coupler=staggered",
                                "method.fluid.constraint=staggered", "method.fluid.solver=cg",
                                "method.fluid.body_load=momentum"};
  cJSON *s = run_scene("spd_free_he_e", scene,
                       SETS(common[0], common[1], common[2], common[3], common[4], "time.end=2.0",
                            "method.fluid.error_measure=density",
                            "method.fluid.error_tolerance=0.01"),
                       8);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double he_e = json_number(s, "metrics.submerged_ratio");
  const double iterations = json_number(s, "solver.stages.1.iterations_mean");
  cJSON_Delete(s);
  s = run_scene("spd_free_residual", scene,
                SETS(common[0], common[1], common[2], common[3], common[4], "time.end=1.0",
                     "method.uncoupled_bodies=true"),
                7);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double residual = json_number(s, "metrics.submerged_ratio");
  cJSON_Delete(s);
  cr_assert(fabs(he_e - 0.5) < 0.05, "He's E: submerged %g (Archimedes 0.5)", he_e);
  cr_assert(iterations < 0.1, "He's E: p^v iterations a step %g", iterations);
  cr_assert(residual > 0.8, "p^v to a relative residual: submerged %g", residual);
}

/* Where the free box's weight goes in its first 0.2 s (buoyancy.json at l = 0.04, ratio 0.5,
 * He's load path): with p^v driven to the scene's relative residual the p^v solve moves the water
 * out of the box's way, the water is not compressed and the pre-pass's p^d gives the box 0.15 of
 * its weight; stopped by He's E = 1 % in He's unit the p^v solve does not start, the box
 * compresses the water and p^d gives it 0.73 (measured; docs/notes/staggered-journal.md, "The
 * free box with p^v iterating: where its weight goes"). */
Test(staggered_pd, p_v_iterating_denies_p_d_the_free_box_weight, .timeout = 60) {
  const char *scene = source_path("experiments/scenes/buoyancy.json");
  const double weight = 500.0 * 9.80665 * 0.6 * 0.6;
  const char *const common[] = {"spacing=0.04", "method.coupler=staggered",
                                "method.fluid.constraint=staggered", "method.fluid.solver=cg",
                                "method.fluid.body_load=momentum", "time.end=0.2"};
  cJSON *s = run_scene("spd_split_residual", scene,
                       SETS(common[0], common[1], common[2], common[3], common[4], common[5],
                            "method.uncoupled_bodies=true"),
                       7);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double iterating = json_number(s, "solver.stages.0.mean_body_force_y") / weight;
  const double iterations = json_number(s, "solver.stages.1.iterations_mean");
  cJSON_Delete(s);
  s = run_scene("spd_split_he_e", scene,
                SETS(common[0], common[1], common[2], common[3], common[4], common[5],
                     "method.fluid.error_measure=density", "method.fluid.error_tolerance=0.01"),
                8);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double idle = json_number(s, "solver.stages.0.mean_body_force_y") / weight;
  cJSON_Delete(s);
  cr_assert(iterations > 5.0, "p^v to a residual: %g iterations a step", iterations);
  cr_assert(iterating > 0.05 && iterating < 0.25, "p^v iterating: p^d gives %g of the weight",
            iterating);
  cr_assert(idle > 0.6 && idle < 0.9, "p^v idle (He's E): p^d gives %g of the weight", idle);
}
