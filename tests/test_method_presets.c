/* test_method_presets.c — methods as named presets (scene/method_preset.h): every shipped preset
 * sets a scene up, `--method` replaces the scene's whole method (a stale stopping test of the
 * scene's own solver cannot leak in), `--set` applies on top, and a preset the scene cannot run
 * is refused before anything runs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/method_preset.h"
#include "tests/support.h"

#define SCENES VBC_SOURCE_DIR "/experiments/scenes/"

/* `vbc run SCENE --method NAME` with the sets (NULL-terminated), into a fresh directory. */
static cJSON *run_preset(const char *name, const char *scene, const char *preset,
                         const char *const *sets) {
  int n = 0;
  while (sets && sets[n]) ++n;
  return run_scene_method(name, scene, preset, sets, n);
}

/* The wedge scene ships with the staggered method and its error_tolerance 0.01: under the
 * MPS-LCP preset that test must be gone (the mean density error of the MPS rows stays below
 * 0.01 at once, and PGS stopped at iteration 0 while the wedge fell at g). */
Test(method_presets, a_preset_replaces_the_scene_method_and_pgs_iterates) {
  cJSON *s = run_preset("mp_wedge", SCENES "wedge_entry.json", "mps_lcp",
                        SETS("spacing=0.04", "time.end=0.0024"));
  cr_assert_str_eq(cJSON_GetObjectItem(s, "method_preset")->valuestring, "mps_lcp");
  cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
                       cJSON_GetObjectItem(s, "scene"), "method"), "fluid"), "solver")
                       ->valuestring, "pgs");
  cr_assert_float_eq(json_number(s, "scene.method.fluid.error_tolerance"), 0.0, 0.0);
  cr_assert_float_eq(json_number(s, "steps"), 4.0, 0.0);
  /* every solve iterated (stopped by the relative residual, never at iteration 0) */
  cr_assert_geq(json_number(s, "solver.stages.0.iterations_max"), 1.0);
  cr_assert_float_eq(json_number(s, "solver.stages.0.stop_reasons.tolerance"), 4.0, 0.0);
  cJSON_Delete(s);
}

Test(method_presets, set_applies_on_top_of_the_preset) {
  cJSON *s = run_preset("mp_set", SCENES "hydrostatic.json", "iisph",
                        SETS("time.end=0.003", "method.fluid.omega=0.4"));
  cr_assert_float_eq(json_number(s, "scene.method.fluid.omega"), 0.4, 0.0);
  cr_assert_float_eq(json_number(s, "scene.method.fluid.warm_start_factor"), 0.5, 0.0);
  cJSON_Delete(s);
}

Test(method_presets, every_shipped_preset_sets_up_a_scene_it_can_run) {
  vbc_error err = {0};
  cJSON *list = vbc_method_presets_json(&err);
  cr_assert_not_null(list, "%s", err.message);
  cr_assert_geq(cJSON_GetArraySize(list), 7);
  const cJSON *p;
  cJSON_ArrayForEach(p, list) {
    const char *name = cJSON_GetObjectItem(p, "name")->valuestring;
    cr_assert_gt(strlen(cJSON_GetObjectItem(p, "description")->valuestring), 20, "%s", name);
    cr_assert_gt(strlen(cJSON_GetObjectItem(p, "citation")->valuestring), 20, "%s", name);
    const int bodies = cJSON_IsTrue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(p, "requires"), "bodies"));
    const char *args[] = {"validate", bodies ? SCENES "buoyancy.json" : SCENES "hydrostatic.json",
                          "--method", name, "--set", "spacing=0.04", NULL};
    char *msg = NULL;
    const int rc = run_vbc(args, &msg);
    cr_assert_eq(rc, 0, "preset %s: exit %d: %s", name, rc, msg ? msg : "");
    free(msg);
  }
  cJSON_Delete(list);
}

Test(method_presets, a_scene_without_what_the_preset_needs_is_refused) {
  char *msg = NULL;
  const char *args[] = {"run", SCENES "hydrostatic.json", "--method", "kurose_lemke",
                        "--out", test_dir("mp_refused"), NULL};
  cr_assert_eq(run_vbc(args, &msg), 2);
  cr_assert(msg && strstr(msg, "hydrostatic.json") && strstr(msg, "kurose_lemke") &&
                strstr(msg, "bodies"), "%s", msg);
  free(msg);
  const char *unknown[] = {"validate", SCENES "hydrostatic.json", "--method", "no_such", NULL};
  cr_assert_eq(run_vbc(unknown, &msg), 2);
  cr_assert(msg && strstr(msg, "no_such") && strstr(msg, "mps_lcp"), "%s", msg);
  free(msg);
}

/* A sweep axis `method` of preset names: one case per preset, each with that preset's method;
 * a preset the scene cannot run stops the sweep before any case runs. */
Test(method_presets, a_sweep_axis_of_presets_runs_each_and_refuses_up_front) {
  const char *dir = test_dir("mp_sweep");
  const char *spec = write_text(dir, "spec.json",
      "{\"name\": \"presets\", \"scene\": \"" SCENES "hydrostatic.json\",\n"
      " \"vary\": {\"method\": [\"mps_lcp\", \"iisph\"]}, \"metrics\": [\"iterations_mean\"]}\n");
  char out[1100];
  snprintf(out, sizeof out, "%s/out", dir);
  const char *args[] = {"sweep", spec, "--out", out, "--set", "time.end=0.003", NULL};
  char *msg = NULL;
  cr_assert_eq(run_vbc(args, &msg), 0, "%s", msg ? msg : "");
  free(msg);
  char path[1200];
  snprintf(path, sizeof path, "%s/table.csv", out);
  char *table = read_text(path);
  cr_assert_not_null(table);
  cr_assert(strstr(table, ",done,mps_lcp,") && strstr(table, ",done,iisph,"), "%s", table);
  free(table);
  const char *refused = write_text(dir, "refused.json",
      "{\"name\": \"refused\", \"scene\": \"" SCENES "hydrostatic.json\",\n"
      " \"vary\": {\"method\": [\"mps_lcp\", \"pms\"]}}\n");
  snprintf(out, sizeof out, "%s/out_refused", dir);
  const char *again[] = {"sweep", refused, "--out", out, NULL};
  cr_assert_eq(run_vbc(again, &msg), 2);
  cr_assert(msg && strstr(msg, "method=pms") && strstr(msg, "bodies"), "%s", msg);
  free(msg);
  snprintf(path, sizeof path, "%s/table.csv", out);
  cr_assert(!file_exists(path), "a refused sweep wrote %s", path);
}

/* requires.bodies false: mps_poisson couples no moving body, so a scene with a free one is
 * refused before anything runs, naming the body and presets that run it; without one it runs. */
Test(method_presets, a_preset_without_body_coupling_refuses_free_bodies) {
  const char *bad[] = {"validate", SCENES "buoyancy.json", "--method", "mps_poisson", NULL};
  char *err = NULL;
  cr_expect_eq(run_vbc(bad, &err), 2);
  cr_expect(err && strstr(err, "does not couple fluid to moving bodies and bodies.0 moves") &&
                strstr(err, "mps_lcp"),
            "%s", err ? err : "");
  free(err);
  const char *good[] = {"validate", SCENES "dam_break.json", "--method", "mps_poisson", NULL};
  cr_expect_eq(run_vbc(good, &err), 0, "%s", err ? err : "");
  free(err);
}
