/* test_atlas.c — `vbc atlas`: the table of a small atlas (statuses, errors, the observed order
 * between spacings and its fit), the page's images, a rerun that computes nothing, --levels,
 * --emit-jobs, the cost budget, and bad case files refused before anything runs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "experiments/runner/atlas.h"
#include "tests/atlas_small.h"
#include "tests/support.h"

static const cJSON *cell(const cJSON *atlas, const char *name, const char *method, int level) {
  const cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(atlas, "cells")) {
    if (strcmp(cJSON_GetObjectItem(c, "case")->valuestring, name) == 0 &&
        strcmp(cJSON_GetObjectItem(c, "method")->valuestring, method) == 0 &&
        cJSON_GetObjectItem(c, "level")->valueint == level)
      return c;
  }
  return NULL;
}

static const char *status(const cJSON *atlas, const char *name, const char *method, int level) {
  const cJSON *c = cell(atlas, name, method, level);
  return c ? cJSON_GetObjectItem(c, "status")->valuestring : "(missing)";
}

/* Every src="…" of the page names a file that exists; returns how many. */
static int check_images(const char *out) {
  char path[1200];
  snprintf(path, sizeof path, "%s/index.html", out);
  char *html = read_text(path);
  cr_assert_not_null(html);
  int n = 0;
  for (const char *p = strstr(html, "src=\""); p; p = strstr(p + 5, "src=\"")) {
    const char *end = strchr(p + 5, '"');
    snprintf(path, sizeof path, "%s/%.*s", out, (int)(end - p - 5), p + 5);
    cr_expect(file_exists(path), "the page shows %s, which does not exist", path);
    ++n;
  }
  free(html);
  return n;
}

/* How many job lines --emit-jobs wrote to path. */
static int job_lines(const char *path) {
  char *jobs = read_text(path);
  cr_assert_not_null(jobs);
  int lines = 0;
  for (const char *p = jobs; *p; ++p) lines += *p == '\n';
  free(jobs);
  return lines;
}

/* `vbc atlas SPEC --out OUT` with extra arguments, which must exit 0, and its atlas.json. */
static cJSON *run_and_read(const char *spec, const char *out, const char *const *extra) {
  char *err = NULL, path[1200];
  cr_assert_eq(atlas_small_run(spec, out, extra, &err), 0, "%s", err);
  free(err);
  snprintf(path, sizeof path, "%s/atlas.json", out);
  cJSON *atlas = read_json(path);
  cr_assert_not_null(atlas);
  return atlas;
}

static long mtime_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_mtim.tv_sec * 1000000000L + st.st_mtim.tv_nsec : -1;
}

Test(atlas, small_atlas_table_orders_and_page) {
  const char *spec = atlas_small_spec("atlas_small");
  char out[1100], path[1200];
  snprintf(out, sizeof out, "%s/out", test_dir("atlas_small_out"));
  cJSON *atlas = run_and_read(spec, out, NULL);
  cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(atlas, "cells")), 8);
  /* the tank has no body: pms is refused at both spacings, with the reason */
  for (int level = 1; level <= 2; ++level) {
    cr_expect_str_eq(status(atlas, "tank", "pms", level), "refused");
    const char *msg = cJSON_GetObjectItem(cell(atlas, "tank", "pms", level), "message")->valuestring;
    cr_expect(strstr(msg, "bodies") != NULL, "refusal without its reason: %s", msg);
    cr_expect_str_eq(status(atlas, "tank", "mps_lcp", level), "ok");
    cr_expect_str_eq(status(atlas, "box", "mps_lcp", level), "ok");
    cr_expect_str_eq(status(atlas, "box", "pms", level), "ok");
  }
  /* the observed order is log(e1/e2)/log(l1/l2) of the two errors, and the fit through two
   * points is the same number */
  const char *pairs[][2] = {{"tank", "mps_lcp"}, {"box", "mps_lcp"}, {"box", "pms"}};
  for (size_t i = 0; i < 3; ++i) {
    const cJSON *c1 = cell(atlas, pairs[i][0], pairs[i][1], 1);
    const cJSON *c2 = cell(atlas, pairs[i][0], pairs[i][1], 2);
    double e1 = cJSON_GetObjectItem(c1, "error")->valuedouble;
    double e2 = cJSON_GetObjectItem(c2, "error")->valuedouble;
    cr_assert(e1 > 0.0 && e2 > 0.0 && isfinite(e1) && isfinite(e2));
    double expected = log(e1 / e2) / log(2.0);
    cr_expect_float_eq(cJSON_GetObjectItem(c2, "order")->valuedouble, expected, 1e-9);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(c1, "order")));
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItem(atlas, "orders")) {
      if (strcmp(cJSON_GetObjectItem(o, "case")->valuestring, pairs[i][0]) == 0 &&
          strcmp(cJSON_GetObjectItem(o, "method")->valuestring, pairs[i][1]) == 0)
        cr_expect_float_eq(cJSON_GetObjectItem(o, "fitted_order")->valuedouble, expected, 1e-9);
    }
    cr_expect(cJSON_GetObjectItem(c2, "wall_seconds")->valuedouble > 0.0);
    cr_expect(cJSON_GetObjectItem(c2, "iterations_mean")->valuedouble >= 1.0);
  }
  /* the tank's second error is a column of its own, empty for the box */
  snprintf(path, sizeof path, "%s/atlas.csv", out);
  char *csv = read_text(path);
  cr_assert_not_null(csv);
  const char head[] = "case,method,level,spacing,status,error_metric,error,order,"
                      "pressure_error_smoothed,max_density_deviation,submerged_error,";
  cr_expect(strncmp(csv, head, strlen(head)) == 0, "%.200s", csv);
  free(csv);
  cr_expect_eq(check_images(out), 6); /* three figures a case */
  cJSON_Delete(atlas);

  /* a rerun computes nothing: no run's summary is rewritten */
  const char *done[] = {"tank", "box"};
  long before[2][2];
  for (int c = 0; c < 2; ++c)
    for (int l = 0; l < 2; ++l) {
      snprintf(path, sizeof path, "%s/cases/%s/table.json", out, done[c]);
      cJSON *t = read_json(path);
      cr_assert_not_null(t);
      const cJSON *row = cJSON_GetArrayItem(t, l);
      cr_assert_not_null(row);
      snprintf(path, sizeof path, "%s/runs/%s/summary.json", out,
               cJSON_GetObjectItem(row, "id")->valuestring);
      before[c][l] = mtime_of(path);
      cr_expect(before[c][l] > 0, "no run at %s", path);
      cJSON_Delete(t);
    }
  cJSON_Delete(run_and_read(spec, out, NULL)); /* the rerun */
  for (int c = 0; c < 2; ++c)
    for (int l = 0; l < 2; ++l) {
      snprintf(path, sizeof path, "%s/cases/%s/table.json", out, done[c]);
      cJSON *t = read_json(path);
      snprintf(path, sizeof path, "%s/runs/%s/summary.json", out,
               cJSON_GetObjectItem(cJSON_GetArrayItem(t, l), "id")->valuestring);
      cr_expect_eq(mtime_of(path), before[c][l], "a rerun ran %s again", path);
      cJSON_Delete(t);
    }
}

Test(atlas, levels_and_job_lines) {
  const char *spec = atlas_small_spec("atlas_levels");
  char out[1100], path[1200];
  snprintf(out, sizeof out, "%s/out", test_dir("atlas_levels_out"));
  /* --emit-jobs: one line per cell to run; the refused cells have none */
  snprintf(path, sizeof path, "%s/jobs.txt", test_dir("atlas_levels_jobs"));
  const char *emit[] = {"--emit-jobs", path, NULL};
  char *err = NULL;
  cr_assert_eq(atlas_small_run(spec, out, emit, &err), 0, "%s", err);
  free(err);
  cr_expect_eq(job_lines(path), 6);
  /* --levels 1: the coarsest spacing only */
  const char *one[] = {"--levels", "1", NULL};
  cJSON *atlas = run_and_read(spec, out, one);
  cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(atlas, "cells")), 4);
  cr_expect_str_eq(status(atlas, "box", "pms", 1), "ok");
  cr_expect_null(cell(atlas, "box", "pms", 2));
  cJSON_Delete(atlas);
}

/* A case whose first preset is refused (pms needs a body; the still tank has none) still knows
 * its benchmark's metrics: they come from the first cell that loads, or from the case's scene. */
Test(atlas, a_refused_first_preset_keeps_the_cases_metrics) {
  const char *dir = test_dir("atlas_refused_first");
  atlas_small_spec("atlas_refused_first");
  const char *spec = write_text(dir, "refused_first.json",
                                "{\"name\": \"refused_first\", \"description\": \"pms first\",\n"
                                " \"methods\": [\"pms\", \"mps_lcp\"],\n"
                                " \"cases\": [\"cases/tank.json\"]}\n");
  char out[1100];
  snprintf(out, sizeof out, "%s/out", dir);
  const char *one[] = {"--levels", "1", NULL};
  cJSON *atlas = run_and_read(spec, out, one);
  cr_expect_str_eq(status(atlas, "tank", "pms", 1), "refused");
  cr_expect_str_eq(status(atlas, "tank", "mps_lcp", 1), "ok");
  cJSON_Delete(atlas);
  /* only pms: every cell refused, the case is still a table row, not a stopped atlas */
  spec = write_text(dir, "all_refused.json",
                    "{\"name\": \"all_refused\", \"description\": \"pms only\",\n"
                    " \"methods\": [\"pms\"], \"cases\": [\"cases/tank.json\"]}\n");
  snprintf(out, sizeof out, "%s/out_all", dir);
  atlas = run_and_read(spec, out, one);
  cr_expect_str_eq(status(atlas, "tank", "pms", 1), "refused");
  cJSON_Delete(atlas);
}

/* --budget: levels run coarsest first; a finer cell predicted (from its method's coarser cell:
 * CPU seconds x particles x steps) over the budget is not run and says why, which is no failure;
 * a first-level cell is predicted from its probe (its start: VBC_ATLAS_PROBE_FRACTION of its
 * time, at least VBC_ATLAS_PROBE_STEPS steps); job lines stop at the probes, then at the first
 * level not yet done. */
Test(atlas, budget_holds_back_cells_predicted_over_it) {
  const char *spec = atlas_small_spec("atlas_budget");
  char out[1100], path[1200];
  snprintf(out, sizeof out, "%s/out", test_dir("atlas_budget_out"));
  snprintf(path, sizeof path, "%s/jobs.txt", test_dir("atlas_budget_jobs"));
  const char *emit[] = {"--emit-jobs", path, "--budget", "1e-6", NULL};
  char *err = NULL;
  cr_assert_eq(atlas_small_run(spec, out, emit, &err), 0, "%s", err);
  free(err);
  cr_expect_eq(job_lines(path), 3, "only the coarsest level's probes (3 cells to run)");
  char *jobs = read_text(path);
  cr_expect(jobs && strstr(jobs, "/probe/sweep.json"), "the probes run first: %s", jobs);
  free(jobs);
  /* a tiny budget: every first-level cell predicted over it from its probe, none run */
  const char *tiny[] = {"--budget", "1e-6", NULL}; /* over budget is no failure: exit 0 */
  cJSON *atlas = run_and_read(spec, out, tiny);
  cr_expect_str_eq(status(atlas, "box", "pms", 1), "not run");
  cr_expect_str_eq(status(atlas, "box", "pms", 2), "not run");
  cr_expect_str_eq(status(atlas, "tank", "pms", 1), "refused");
  const char *first = cJSON_GetObjectItem(cell(atlas, "box", "pms", 1), "message")->valuestring;
  double guess, probe_end, end, probe_cpu;
  cr_assert_eq(sscanf(first, "not run: predicted %lg CPU s from its first %lg s of %lg s (%lg",
                      &guess, &probe_end, &end, &probe_cpu),
               4, "%s", first);
  cr_expect(probe_end >= 0.995 * end * VBC_ATLAS_PROBE_FRACTION && probe_end < end, "%s", first);
  cr_expect_float_eq(guess, probe_cpu * end / probe_end, 0.02 * guess, "%s", first);
  cr_expect(strstr(cJSON_GetObjectItem(cell(atlas, "box", "pms", 2), "message")->valuestring,
                   "its coarser level is over"));
  cJSON_Delete(atlas);
  /* the first level run without a budget; then the same budget keeps it and judges the next
   * level from it */
  const char *first_level[] = {"--levels", "1", "--budget", "0", NULL};
  cJSON_Delete(run_and_read(spec, out, first_level));
  atlas = run_and_read(spec, out, tiny);
  cr_expect_str_eq(status(atlas, "box", "pms", 1), "ok");
  cr_expect_str_eq(status(atlas, "box", "pms", 2), "not run");
  const cJSON *coarse = cell(atlas, "box", "pms", 1), *fine = cell(atlas, "box", "pms", 2);
  double cpu = cJSON_GetObjectItem(coarse, "cpu_seconds")->valuedouble;
  cr_expect(cpu > 0.0, "cpu_seconds %g", cpu);
  const char *why = cJSON_GetObjectItem(fine, "message")->valuestring;
  double predicted, from, factor;
  cr_assert_eq(sscanf(why, "not run: predicted %lg CPU s (level 1: %lg s, x %lg", &predicted,
                      &from, &factor),
               3, "%s", why);
  /* 2D, spacing halved, the scene's dt kept: 4 x the particles, the same steps */
  cr_expect_float_eq(factor, 4.0, 1e-9, "%s", why);
  /* the message gives three significant digits */
  cr_expect_float_eq(from, cpu, 0.005 * cpu, "%s", why);
  cr_expect_float_eq(predicted, 4.0 * cpu, 0.02 * cpu, "%s", why);
  cr_expect(strstr(why, "over the budget of 1e-06 CPU s") != NULL, "%s", why);
  cJSON_Delete(atlas);
  /* a budget that is not a number of seconds is bad input */
  const char *bad[] = {"--budget", "-1", NULL};
  cr_expect_eq(atlas_small_run(spec, out, bad, &err), 2);
  cr_expect(strstr(err, "--budget") != NULL, "%s", err);
  free(err);
}

/* The cap: with a budget, every cell's run is stopped at VBC_ATLAS_CAP_FACTOR times it of CPU
 * time (the case sweep's cpu_limit_seconds, so job lines carry it too). A cell stopped there is
 * `not run` with the run's message and is not started again under that budget; a larger budget
 * continues it from its checkpoint. The stop is made here by hand: the first job line (the
 * tank's mps_lcp at level 2) run with a limit of 1e-6 s, which a budget of 1e-7 s (a cap of
 * 2e-7 s) counts as reached at the cap. A job line runs its one cell whatever the other cells
 * of its case sweep are (the tank refuses pms). */
Test(atlas, a_cell_stopped_at_the_cap_is_not_run_until_a_larger_budget) {
  const char *spec = atlas_small_spec("atlas_cap");
  char out[1100], path[1200], sweep[1300], tank[1200];
  snprintf(out, sizeof out, "%s/out", test_dir("atlas_cap_out"));
  snprintf(tank, sizeof tank, "%s/cases/tank", out);
  snprintf(path, sizeof path, "%s/jobs.txt", test_dir("atlas_cap_jobs"));
  snprintf(sweep, sizeof sweep, "%s/cases/tank/sweep.json", out);
  const char *first_level[] = {"--levels", "1", "--budget", "0", NULL};
  cJSON_Delete(run_and_read(spec, out, first_level));
  const char *emit[] = {"--emit-jobs", path, "--budget", "0", NULL};
  char *err = NULL;
  cr_assert_eq(atlas_small_run(spec, out, emit, &err), 0, "%s", err);
  free(err);
  cJSON *s = read_json(sweep);
  cr_assert_not_null(s);
  cr_expect_null(cJSON_GetObjectItem(s, "cpu_limit_seconds"), "no budget, no cap");
  cJSON_AddNumberToObject(s, "cpu_limit_seconds", 1e-6);
  char *text = cJSON_Print(s), *jobs = read_text(path);
  cJSON_Delete(s);
  write_text(tank, "sweep.json", text);
  free(text);
  cr_assert(jobs && strstr(jobs, "cases/tank/sweep.json"), "%s", jobs);
  char line[4096], id[16] = "";
  snprintf(line, sizeof line, "%.*s > /dev/null 2>&1", (int)strcspn(jobs, "\n"), jobs);
  free(jobs);
  const char *case_id = strstr(line, "--case ");
  cr_assert(case_id && sscanf(case_id, "--case %15[0-9a-f]", id) == 1, "%s", line);
  /* the tank's sweep has a refused cell (pms: no body), which is not this job's concern */
  const int st = system(line);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 152, "stopped at its limit: exit 152, as vbc run");
  const char *tiny[] = {"--budget", "1e-7", NULL};
  cJSON *atlas = run_and_read(spec, out, tiny);
  cr_expect_str_eq(status(atlas, "tank", "mps_lcp", 2), "not run");
  const char *why = cJSON_GetObjectItem(cell(atlas, "tank", "mps_lcp", 2), "message")->valuestring;
  cr_expect(strstr(why, "not run to its end, over 2 times the budget: stopped at its CPU-time "
                        "limit of 1e-06 s after step 1 of ") == why, "%s", why);
  cr_expect(strstr(why, "--resume") == NULL, "%s", why);
  cr_expect(strstr(cJSON_GetObjectItem(cell(atlas, "box", "pms", 2), "message")->valuestring,
                   "not run: predicted"), "the other cells are judged as before");
  cJSON_Delete(atlas);
  s = read_json(sweep);
  cr_expect_float_eq(json_number(s, "cpu_limit_seconds"), 2e-7, 1e-20, "the cap is in the spec");
  cJSON_Delete(s);
  /* a larger budget: the stopped cell continues from its checkpoint, under the new cap */
  const char *larger[] = {"--budget", "1000", NULL};
  atlas = run_and_read(spec, out, larger);
  cr_expect_str_eq(status(atlas, "tank", "mps_lcp", 2), "ok");
  cr_expect_str_eq(status(atlas, "box", "pms", 2), "ok");
  cJSON_Delete(atlas);
  snprintf(path, sizeof path, "%s/runs/%s/case.json", out, id);
  char *json = read_text(path);
  cr_expect(json && strstr(json, "--resume") && strstr(json, "2000"),
            "continued from its checkpoint with the cap of the new budget: %s", json);
  free(json);
}

/* A bad case file stops the atlas before anything runs, naming the file and the JSON path. */
Test(atlas, bad_case_file_is_exit_2) {
  const char *dir = test_dir("atlas_bad");
  mkdir(dir, 0755);
  write_text(dir, "case.json",
             "{\"name\": \"c\", \"title\": \"t\", \"dim\": 2, \"scene\": \"" VBC_SOURCE_DIR
             "/experiments/scenes/hydrostatic.json\", \"levels\": [{\"spacing\": 0.1}, "
             "{\"spacing\": 0.2}], \"error\": {\"metric\": \"pressure_error_smoothed\", "
             "\"label\": \"e\"}, \"observable\": {\"file\": \"series.csv\", \"x\": \"time\", "
             "\"y\": \"surface_height\"}, \"about\": {\"reference\": \"r\", \"error\": \"e\", "
             "\"reading\": \"r\"}}");
  const char *spec = write_text(dir, "atlas.json",
                                "{\"name\": \"bad\", \"description\": \"d\", \"methods\": "
                                "[\"mps_lcp\"], \"cases\": [\"case.json\"]}");
  char out[1100], *err = NULL;
  snprintf(out, sizeof out, "%s/out", dir);
  cr_expect_eq(atlas_small_run(spec, out, NULL, &err), 2);
  cr_expect(err && strstr(err, "case.json: levels.1.spacing: expected a spacing finer"), "%s", err);
  cr_expect(!file_exists(out), "a refused atlas wrote %s", out);
  free(err);
  /* a method key in a case would tune a method per case */
  write_text(dir, "case.json",
             "{\"name\": \"c\", \"title\": \"t\", \"dim\": 2, \"scene\": \"x.json\", "
             "\"set\": {\"method.fluid.omega\": 0.3}}");
  cr_expect_eq(atlas_small_run(spec, out, NULL, &err), 2);
  cr_expect(err && strstr(err, "case.json: set.method.fluid.omega: expected neither a method key"),
            "%s", err);
  free(err);
  /* an unknown preset */
  spec = write_text(dir, "atlas.json",
                    "{\"name\": \"bad\", \"description\": \"d\", \"methods\": [\"sph_magic\"], "
                    "\"cases\": [\"case.json\"]}");
  cr_expect_eq(atlas_small_run(spec, out, NULL, &err), 2);
  cr_expect(err && strstr(err, "atlas.json: methods.0: ") && strstr(err, "sph_magic"), "%s", err);
  free(err);
}

/* An atlas in memory of one case (k, with nlevels levels) and nmethods methods, no cells yet. */
static void one_case_atlas(vbc_atlas *a, vbc_atlas_case *k, size_t nlevels, const char **methods,
                           size_t nmethods) {
  memset(a, 0, sizeof *a);
  memset(k, 0, sizeof *k);
  k->nlevels = nlevels;
  a->spec.cases = k, a->spec.ncases = 1, a->spec.methods = methods, a->spec.nmethods = nmethods;
}

/* The fitted order on known errors: e = 4 l^2 over three levels gives exactly 2. */
Test(atlas, fitted_order_of_known_errors) {
  vbc_atlas a;
  vbc_atlas_case k;
  const char *methods[] = {"m"};
  one_case_atlas(&a, &k, 3, methods, 1);
  vbc_atlas_cell cells[3];
  memset(cells, 0, sizeof cells);
  for (size_t l = 0; l < 3; ++l) {
    cells[l].level = l;
    cells[l].spacing = 0.04 / (double)(1 << l);
    cells[l].status = "ok";
    cells[l].errors[0] = 4.0 * cells[l].spacing * cells[l].spacing;
  }
  a.cells = cells, a.ncells = 3;
  size_t n;
  cr_expect_float_eq(vbc_atlas_fitted_order(&a, 0, 0, &n), 2.0, 1e-12);
  cr_expect_eq(n, 3);
  cells[2].status = "failed"; /* a failed run's error does not count */
  cr_expect_float_eq(vbc_atlas_fitted_order(&a, 0, 0, &n), 2.0, 1e-12);
  cr_expect_eq(n, 2);
  a.levels = 1; /* --levels 1: one point, no order */
  cr_expect(isnan(vbc_atlas_fitted_order(&a, 0, 0, &n)));
}

/* The best of a case: the lowest error at its finest level among the runs without warnings; a
 * flagged run with a lower error is not it (the Qiu floating block's IISPH cell, which the weak
 * coupling's energy lifts: docs/atlas.md), unless every run was flagged. */
Test(atlas, best_is_the_lowest_error_among_runs_without_warnings) {
  vbc_atlas a;
  vbc_atlas_case k;
  const char *methods[] = {"flagged", "clean", "refused"};
  one_case_atlas(&a, &k, 2, methods, 3);
  vbc_atlas_cell cells[4];
  memset(cells, 0, sizeof cells);
  const double error[] = {0.17, 0.61, NAN};
  for (size_t m = 0; m < 3; ++m) {
    cells[m] = (vbc_atlas_cell){.m = m, .level = 1, .status = m == 2 ? "refused" : "ok"};
    cells[m].errors[0] = error[m];
  }
  cells[3] = (vbc_atlas_cell){.m = 1, .level = 0, .status = "ok"}; /* a coarser level: ignored */
  cells[3].errors[0] = 0.01;
  snprintf(cells[0].warnings, sizeof cells[0].warnings, "energy_rise;body_jitter");
  a.cells = cells, a.ncells = 4;
  cr_expect_eq(vbc_atlas_best(&a, 0), 1);
  snprintf(cells[1].warnings, sizeof cells[1].warnings, "row_error"); /* every run flagged */
  cr_expect_eq(vbc_atlas_best(&a, 0), 0);
  cells[0].status = cells[1].status = "failed";
  cr_expect_eq(vbc_atlas_best(&a, 0), SIZE_MAX);
}

/* The shipped atlas: at least 10 cases (3 in 3D, 5 with bodies) under at least 6 presets, every
 * case file of experiments/atlas/cases/ in it, and every case and reference loadable. */
Test(atlas, shipped_spec_holds_the_cases) {
  vbc_atlas_spec s;
  vbc_error err = {0};
  cr_assert_eq(vbc_atlas_spec_load(&s, VBC_SOURCE_DIR "/experiments/atlas/atlas.json", &err), 0,
               "%s", err.message);
  cr_expect_geq(s.ncases, 10);
  cr_expect_geq(s.nmethods, 6);
  size_t dim3 = 0, with_bodies = 0;
  for (size_t c = 0; c < s.ncases; ++c) {
    dim3 += s.cases[c].dim == 3;
    cJSON *scene = read_json(s.cases[c].scene);
    cr_assert_not_null(scene, "%s: cannot read %s", s.cases[c].file, s.cases[c].scene);
    const cJSON *dim = cJSON_GetObjectItem(scene, "dim");
    cr_expect_eq(dim ? dim->valueint : 0, s.cases[c].dim, "%s: dim is not the scene's",
                 s.cases[c].file);
    with_bodies += cJSON_GetArraySize(cJSON_GetObjectItem(scene, "bodies")) > 0;
    cJSON_Delete(scene);
  }
  cr_expect_geq(dim3, 3);
  cr_expect_geq(with_bodies, 5);
  /* every case file is in the spec */
  FILE *ls = popen("ls " VBC_SOURCE_DIR "/experiments/atlas/cases", "r");
  cr_assert_not_null(ls);
  char name[256];
  while (fgets(name, sizeof name, ls)) {
    name[strcspn(name, "\n")] = '\0';
    int listed = 0;
    for (size_t c = 0; c < s.ncases && !listed; ++c) {
      const char *base = strrchr(s.cases[c].file, '/');
      listed = strcmp(base ? base + 1 : s.cases[c].file, name) == 0;
    }
    cr_expect(listed, "experiments/atlas/cases/%s is not in experiments/atlas/atlas.json", name);
  }
  pclose(ls);
  vbc_atlas_spec_free(&s);
}
