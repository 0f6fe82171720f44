/* test_time_step.c — adaptive time steps (sim/time_step.h, sim/schedule.h): the CFL and viscous
 * limits, steps that land on output times and end at time.end, the step statistics in
 * summary.json, a limit below time.dt_min failing with exit 3, and bad time keys exiting 2.
 * Resuming an adaptive run bit for bit is in test_checkpoint.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/schedule.h"
#include "sim/sim.h"
#include "tests/support.h"

static void load(vbc_scene *sc, vbc_sim *sim, const char *const *sets, int nsets) {
  const char *path = write_text(test_dir("ts_limit"), "scene.json", base_scene);
  vbc_error err = {0};
  cr_assert_eq(vbc_scene_load(sc, path, sets, nsets, test_registry(), &err), 0, "%s", err.message);
  cr_assert_eq(vbc_sim_init(sim, sc, &err), 0, "%s", err.message);
}

/* dt = min(dt_max, cfl l / v_max, l^2 / (2 d nu)); walls do not count, bodies' and fluid's do. */
Test(time_step, the_limit_is_cfl_spacing_over_the_largest_speed) {
  vbc_scene sc;
  vbc_sim sim;
  load(&sc, &sim, SETS("time.cfl=0.4", "time.dt=0.01"), 2);
  double vmax = -1.0;
  cr_assert_eq(vbc_time_step_limit(&sim, &vmax), 0.01, "at rest: dt_max");
  cr_assert_eq(vmax, 0.0);
  size_t fluid = 0, wall = 0;
  for (size_t i = 0; i < sim.particles.n; ++i) {
    if (sim.particles.kind[i] == VBC_FLUID) fluid = i;
    if (sim.particles.kind[i] == VBC_WALL) wall = i;
  }
  sim.particles.vel[wall] = (vbc_vec){100.0, 0.0, 0.0};
  cr_assert_eq(vbc_time_step_limit(&sim, &vmax), 0.01, "a wall's velocity does not count");
  sim.particles.vel[fluid] = (vbc_vec){3.0, -4.0, 0.0}; /* |v| = 5 m/s */
  const double dt = vbc_time_step_limit(&sim, &vmax);
  cr_assert_float_eq(vmax, 5.0, 1e-15);
  cr_assert_float_eq(dt, 0.4 * 0.05 / 5.0, 1e-15, "cfl l / v_max = 0.004, got %g", dt);
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
  /* nu = 0.1 m^2/s: l^2 / (2 d nu) = 0.0025 / 0.4 = 0.00625 < dt_max */
  load(&sc, &sim, SETS("time.cfl=0.4", "time.dt=0.01", "fluid.viscosity=0.1"), 3);
  cr_assert_float_eq(vbc_time_step_limit(&sim, &vmax), 0.00625, 1e-15);
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
}

/* A step that reaches the next output time ends on it exactly; one that would leave less than a
 * step before it takes half the gap; frames and time.end are targets too. */
Test(time_step, steps_land_exactly_on_output_times) {
  vbc_schedule s = {.adaptive = 1, .output_interval = 0.1, .frame_interval = 0.25, .t_end = 1.0};
  double t = 0.0, after = 0.0;
  cr_assert_eq(vbc_schedule_step_size(&s, 0.0, 0.03, &after), 0.03);
  cr_assert_eq(after, 0.03);
  t = 0.09;
  cr_assert_float_eq(vbc_schedule_step_size(&s, t, 0.03, &after), 0.1 - 0.09, 1e-15);
  cr_assert_eq(after, 0.1, "lands on 0.1 exactly: %.17g", after);
  t = 0.05; /* gap 0.05 < 2 x 0.03: half of it */
  cr_assert_float_eq(vbc_schedule_step_size(&s, t, 0.03, &after), 0.025, 1e-15);
  s.frames = 1;
  t = 0.24; /* the frame at 0.25 comes before the row at 0.3 */
  vbc_schedule_step_size(&s, t, 0.1, &after);
  cr_assert_eq(after, 0.25);
  t = 0.99;
  vbc_schedule_step_size(&s, t, 0.5, &after);
  cr_assert_eq(after, 1.0);
}

/* A dam break with adaptive steps: rows at every multiple of output_interval, the run ends at
 * time.end exactly, summary.json has the statistics, the steps are not all dt_max. */
Test(time_step, an_adaptive_run_writes_rows_on_time_and_reports_its_steps) {
  const char *dir = test_dir("ts_run");
  const char *args[] = {"run", source_path("experiments/scenes/dam_break.json"), "--quiet",
                        "--threads", "1", "--out", dir, "--set", "spacing=0.02", "--set",
                        "time.end=0.1", "--set", "time.dt=0.004", "--set", "time.cfl=0.4",
                        "--set", "time.output_interval=0.02", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 0, "%s", err ? err : "");
  free(err);
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  cJSON *s = read_json(path);
  cr_assert_eq(json_number(s, "time"), 0.1);
  const double steps = json_number(s, "time_steps.steps");
  cr_assert_eq(steps, json_number(s, "steps"));
  cr_assert_eq(json_number(s, "time_steps.dt_max"), 0.004);
  cr_assert_lt(json_number(s, "time_steps.dt_min"), 0.004);
  cr_assert_float_eq(json_number(s, "time_steps.dt_mean") * steps, 0.1, 1e-12);
  cJSON_Delete(s);
  snprintf(path, sizeof path, "%s/series.csv", dir);
  char *csv = read_text(path);
  cr_assert_not_null(csv);
  const char *want[] = {"\n0,", "\n0.02,", "\n0.04,", "\n0.06,", "\n0.08,", "\n0.1,"};
  const char *at = csv;
  for (size_t k = 0; k < sizeof want / sizeof *want; ++k) {
    const char *next = strstr(at, want[k]);
    cr_assert_not_null(next, "no row at t = %s in\n%s", want[k] + 1, csv);
    at = next + 1;
  }
  cr_assert_null(strstr(at + 1, "\n0."), "no rows between or after them:\n%s", csv);
  free(csv);
}

/* A limit below time.dt_min fails the run with exit 3, naming the step and the time. */
Test(time_step, a_step_below_dt_min_fails_with_exit_3) {
  const char *dir = test_dir("ts_min");
  const char *args[] = {"run", source_path("experiments/scenes/dam_break.json"), "--quiet",
                        "--threads", "1", "--out", dir, "--set", "spacing=0.02", "--set",
                        "time.end=0.2", "--set", "time.dt=0.004", "--set", "time.cfl=0.4",
                        "--set", "time.dt_min=0.0035", "--set", "time.output_interval=0.02",
                        NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 3, "%s", err ? err : "");
  cr_assert(strstr(err, "step ") && strstr(err, "(t = ") && strstr(err, "below time.dt_min"),
            "%s", err);
  free(err);
}

Test(time_step, bad_time_keys_are_bad_input) {
  expect_bad_input("ts_bad1", base_scene, SETS("time.cfl=1.5"), FRAGMENTS("time.cfl", "[0, 1]"));
  expect_bad_input("ts_bad2", base_scene, SETS("time.cfl=-0.1"), FRAGMENTS("time.cfl"));
  expect_bad_input("ts_bad3", base_scene, SETS("time.dt_max=0.001"),
                   FRAGMENTS("time.dt_max", "time.cfl > 0"));
  expect_bad_input("ts_bad4", base_scene, SETS("time.cfl=0.4", "time.dt_min=0.01"),
                   FRAGMENTS("time.dt_min", "<= time.dt_max"));
  expect_bad_input("ts_bad5", base_scene, SETS("time.cfl=0.4", "time.dt_max=0"),
                   FRAGMENTS("time.dt_max"));
}
