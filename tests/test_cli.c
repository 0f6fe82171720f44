/* test_cli.c — the command line's contracts: bad input exits 2 with one message
 * naming the file, the JSON path and what was expected; `validate` checks without running;
 * `list`, `--help`, `--version` work; threads the user binds keep their CPUs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

/* Bad input with at most one --set (support.h: expect_bad_input). */
static void expect_bad(const char *scene_text, const char *set, const char *const *fragments) {
  const char *sets[] = {set, NULL};
  expect_bad_input("bad", scene_text, sets, fragments);
}

Test(bad_input, malformed_json_names_line_and_column) {
  expect_bad("{\n  \"dim\": 2,\n  \"spacing\": 0.05,,\n}\n", NULL,
             FRAGMENTS("line 3", "column", "malformed JSON"));
}

Test(bad_input, unknown_keys_are_named_with_their_path) {
  expect_bad(base_scene, "dimension=2", FRAGMENTS("dimension", "unknown key"));
  expect_bad(base_scene, "method.fluid.tolerence=0.1",
             FRAGMENTS("method.fluid.tolerence", "unknown key", "tolerance"));
  expect_bad(base_scene, "geometry.0.radius=0.1", FRAGMENTS("geometry.0.radius", "unknown key"));
}

Test(bad_input, wrong_types) {
  expect_bad(base_scene, "spacing=\"fine\"", FRAGMENTS("spacing", "expected a number"));
  expect_bad(base_scene, "geometry.0.max=[1,2,3]",
             FRAGMENTS("geometry.0.max", "expected an array of 2 numbers"));
  expect_bad(base_scene, "method.fluid.warm_start=1", FRAGMENTS("method.fluid.warm_start", "true or false"));
  expect_bad(base_scene, "time=3", FRAGMENTS("time", "expected an object"));
}

Test(bad_input, out_of_range_values) {
  expect_bad(base_scene, "spacing=0", FRAGMENTS("spacing", "> 0"));
  expect_bad(base_scene, "spacing=-0.01", FRAGMENTS("spacing", "> 0"));
  expect_bad(base_scene, "time.dt=0", FRAGMENTS("time.dt", "> 0"));
  expect_bad(base_scene, "time.dt=-1e-3", FRAGMENTS("time.dt"));
  expect_bad(base_scene, "fluid.re_over_l=0.9", FRAGMENTS("fluid.re_over_l", "[1, 10]"));
  expect_bad(base_scene, "dim=4", FRAGMENTS("dim", "[2, 3]"));
  expect_bad(base_scene, "dim=2.5", FRAGMENTS("dim", "integer"));
  expect_bad(base_scene, "method.fluid.tolerance=0", FRAGMENTS("method.fluid.tolerance"));
  expect_bad(base_scene, "method.fluid.max_iterations=0", FRAGMENTS("method.fluid.max_iterations"));
}

Test(bad_input, empty_fluid) {
  expect_bad(base_scene, "geometry.0={\"type\":\"tank\",\"min\":[0,0],\"max\":[1,1]}",
             FRAGMENTS("geometry", "fluid is empty"));
  expect_bad(base_scene, "geometry.0={\"type\":\"fluid_disk\",\"center\":[0,0],\"radius\":0.01}",
             FRAGMENTS("geometry", "fluid is empty"));
}

Test(bad_input, duplicate_keys_and_overlapping_shapes) {
  expect_bad("{\"dim\": 2, \"spacing\": 0.05, \"spacing\": 0.1, \"time\": {\"dt\": 0.01, "
             "\"end\": 0.1}, \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], "
             "\"max\": [1, 1]}]}",
             NULL, FRAGMENTS("spacing", "duplicate key"));
  expect_bad(base_scene,
             "geometry.2={\"type\":\"fluid_box\",\"min\":[0.1,0.1],\"max\":[0.2,0.2]}",
             FRAGMENTS("geometry", "do not overlap"));
}

Test(bad_input, benchmark_requirements_are_checked_before_running) {
  expect_bad(base_scene, "benchmark={\"type\":\"circular_patch\"}",
             FRAGMENTS("fluid_disk", "circular_patch"));
  expect_bad("{\"dim\": 2, \"spacing\": 0.05, \"time\": {\"dt\": 0.01, \"end\": 0.1}, "
             "\"gravity\": [1, -9.8], \"benchmark\": {\"type\": \"hydrostatic\"}, "
             "\"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [1, 1]}]}",
             NULL, FRAGMENTS("gravity", "hydrostatic"));
}

Test(bad_input, unknown_module_names_list_the_known_ones) {
  expect_bad(base_scene, "method.coupler=weak", FRAGMENTS("method.coupler", "\"strong\"", "weak"));
  expect_bad(base_scene, "method.fluid.constraint=sph",
             FRAGMENTS("method.fluid.constraint", "\"mps\""));
  expect_bad(base_scene, "method.fluid.solver=bicgstab", FRAGMENTS("method.fluid.solver", "\"pgs\"", "\"jacobi\""));
  expect_bad(base_scene, "benchmark={\"type\":\"dam\"}", FRAGMENTS("benchmark.type", "\"hydrostatic\""));
  expect_bad(base_scene, "geometry.1.type=box", FRAGMENTS("geometry.1.type", "fluid_box"));
}

Test(bad_input, set_paths_that_do_not_exist) {
  expect_bad(base_scene, "geometry.7.min=[0,0]", FRAGMENTS("geometry.7", "index"));
  expect_bad(base_scene, "spacing.x=1", FRAGMENTS("spacing"));
}

Test(bad_input, missing_scene_file_and_bad_options) {
  char *err = NULL;
  cr_assert_eq(run_vbc((const char *[]){"run", "/nonexistent/scene.json", NULL}, &err), 2);
  cr_assert_not_null(strstr(err, "/nonexistent/scene.json"));
  free(err);
  cr_assert_eq(run_vbc((const char *[]){"run", "x.json", "--threads", "0", NULL}, NULL), 2);
  cr_assert_eq(run_vbc((const char *[]){"run", "x.json", "--frobnicate", NULL}, NULL), 2);
  cr_assert_eq(run_vbc((const char *[]){"launch", NULL}, NULL), 2);
  cr_assert_eq(run_vbc((const char *[]){"validate", "x.json", "--out", "d", NULL}, NULL), 2);
}

Test(cli, validate_accepts_the_shipped_scenes) {
  const char *scenes[] = {"experiments/scenes/hydrostatic.json",
                          "experiments/scenes/circular_patch.json"};
  for (int i = 0; i < 2; ++i) {
    char *err = NULL;
    int rc = run_vbc((const char *[]){"validate", source_path(scenes[i]), NULL}, &err);
    cr_assert_eq(rc, 0, "%s: %s", scenes[i], err);
    free(err);
  }
}

Test(cli, help_version_and_list) {
  cr_assert_eq(run_vbc((const char *[]){"--help", NULL}, NULL), 0);
  cr_assert_eq(run_vbc((const char *[]){"--version", NULL}, NULL), 0);
  cr_assert_eq(run_vbc((const char *[]){"list", NULL}, NULL), 0);
}

/* libgomp binds the first thread to its first place before main when OMP_PROC_BIND is set, and
 * the re-exec that sets passive waiting (cli/main.c) kept that one-CPU mask: every thread ran on
 * one CPU. The threads of a 2-thread run must land on two CPUs. */
Test(cli, bound_threads_keep_the_cpus_of_every_place) {
  if (!bind_threads_like_a_user()) cr_skip_test("this process may use one CPU only");
  setenv("OMP_DISPLAY_AFFINITY", "true", 1);
  setenv("OMP_AFFINITY_FORMAT", "vbc-cpu %A", 1);
  char *err = NULL;
  const char *dir = test_dir("bound_threads");
  const char *scene = source_path("experiments/scenes/bench_pysph_dam_break_2d.json");
  int rc = run_vbc((const char *[]){"run", scene, "--threads", "2", "--set", "spacing=0.0135",
                                    "--set", "time.end=0.001", "--out", dir, NULL},
                   &err);
  cr_assert_eq(rc, 0, "%s", err);
  /* one line per thread as it is bound: "vbc-cpu <its CPUs>" */
  char first[64] = "";
  int threads = 0, apart = 0;
  for (const char *line = strstr(err, "vbc-cpu "); line; line = strstr(line + 1, "vbc-cpu ")) {
    char cpus[64];
    if (sscanf(line, "vbc-cpu %63s", cpus) != 1) continue;
    if (threads++ == 0) snprintf(first, sizeof first, "%s", cpus);
    else apart |= strcmp(cpus, first) != 0;
  }
  cr_assert_geq(threads, 2, "fewer than two affinity lines: %s", err);
  cr_assert(apart, "every thread on CPUs %s: %s", first, err);
  free(err);
}

/* `vbc COMMAND --help`: that command's usage on stdout (not the whole of vbc --help), exit 0. */
Test(cli, every_subcommand_prints_its_usage_with_help) {
  const char *commands[] = {"run", "validate", "list", "sweep", "lcp", "animate"};
  const char *dir = test_dir("subcommand_help");
  char out[1100], err[1100], first[64];
  snprintf(out, sizeof out, "%s/stdout.txt", dir);
  snprintf(err, sizeof err, "%s/stderr.txt", dir);
  for (int i = 0; i < 6; ++i) {
    int rc = run_vbc_to((const char *[]){commands[i], "--help", NULL}, out, err);
    char *text = read_text(out), *errors = read_text(err);
    cr_assert_eq(rc, 0, "vbc %s --help: exit %d: %s", commands[i], rc, errors);
    snprintf(first, sizeof first, "usage: vbc %s ", commands[i]);
    cr_assert(text && strncmp(text, first, strlen(first)) == 0, "vbc %s --help printed: %.300s",
              commands[i], text);
    cr_assert_str_eq(errors, "", "vbc %s --help", commands[i]);
    /* its own usage, not every command's synopsis (the text may name other commands) */
    for (int j = 0; j < 6; ++j) {
      char other[64];
      snprintf(other, sizeof other, "\n       vbc %s ", commands[j]);
      if (j != i) cr_assert(!strstr(text, other), "vbc %s --help shows%s", commands[i], other);
    }
    cr_assert(!strstr(text, "vbc --help | --version"), "vbc %s --help", commands[i]);
    free(text), free(errors);
  }
}
