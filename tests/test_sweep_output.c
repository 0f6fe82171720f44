/* test_sweep_output.c — what a sweep writes and says (experiments/runner/sweep_table.c,
 * sweep_plot.c, sweep_gnuplot.c, sweep_exec.c, sweep_cli.c; docs/sweep-format.md): a run
 * column listed as a metric is one column; plot text is plain (no gnuplot enhanced mark-up),
 * axes carry units, the key sits below the plot; a missing value is empty in CSV, null in JSON
 * and NaN (declared missing) in plot data; --threads N reaches every case; a running case is
 * reported every --progress-seconds (not under --quiet); --list lists the cases when a metric
 * is wrong; the iteration columns are iterations_mean / iterations_max in series.csv,
 * summary.json and table.csv. The cases are a coarse hydrostatic tank (l = 0.04 m, 20 steps)
 * unless said otherwise. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "experiments/runner/sweep_csv.h"
#include "tests/support.h"

#define TINY "\"set\": {\"spacing\": 0.04, \"time.dt\": 0.002, \"time.end\": 0.04}"

/* Run vbc to the end; *out and *err get its stdout and stderr. */
static int sweep(const char *const *args, const char *dir, char **out, char **err) {
  char out_path[1100], err_path[1100];
  snprintf(out_path, sizeof out_path, "%s/stdout.txt", dir);
  snprintf(err_path, sizeof err_path, "%s/stderr.txt", dir);
  int rc = run_vbc_to(args, out_path, err_path);
  *out = read_text(out_path);
  *err = read_text(err_path);
  return rc;
}

static const char *spec_in(const char *dir, const char *scene, const char *body) {
  static char text[8192];
  snprintf(text, sizeof text, "{\"scene\": \"%s\", %s}", source_path(scene), body);
  return write_text(dir, "spec.json", text);
}

static const char *spec_file(const char *dir, const char *body) {
  return spec_in(dir, "experiments/scenes/hydrostatic.json", body);
}

/* Run the sweep of spec in dir/out with extra arguments; returns its exit code, *err its
 * stderr (freed by the caller). */
static int run_sweep(const char *dir, const char *spec, const char *const *extra, char **err) {
  const char *args[24] = {"sweep", spec, "--out", path_in(dir, "out")};
  int n = 4;
  for (; extra && *extra && n < 23; ++extra) args[n++] = *extra;
  args[n] = NULL;
  char *out;
  int rc = sweep(args, dir, &out, err);
  free(out);
  return rc;
}

static size_t count(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = text ? strstr(text, needle) : NULL; p; p = strstr(p + 1, needle)) ++n;
  return n;
}

static char *out_text(const char *dir, const char *file) {
  char path[1300];
  snprintf(path, sizeof path, "%s/out/%s", dir, file);
  char *text = read_text(path);
  cr_assert_not_null(text, "%s missing", path);
  return text;
}

static cJSON *out_json(const char *dir, const char *file) {
  char path[1300];
  snprintf(path, sizeof path, "%s/out/%s", dir, file);
  cJSON *j = read_json(path);
  cr_assert_not_null(j, "%s missing or not JSON", path);
  return j;
}

/* The id of the first row of table.csv. */
static void first_id(const char *dir, char id[16]) {
  char path[1300];
  snprintf(path, sizeof path, "%s/out/table.csv", dir);
  vbc_table t;
  vbc_error e = {0};
  cr_assert_eq(vbc_table_read(&t, path, &e), 0, "%s", e.message);
  cr_assert_geq(t.nrows, 1);
  snprintf(id, 16, "%s", vbc_table_cell(&t, 0, 0));
  vbc_table_free(&t);
}

Test(sweep_output, a_run_column_listed_as_a_metric_is_one_column) {
  const char *dir = test_dir("sweep_out_dup");
  const char *spec = spec_file(dir, TINY ", \"vary\": {\"spacing\": [0.04]}, "
                                     "\"metrics\": [\"iterations_mean\", \"steps\", "
                                     "\"wall_seconds\"]");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, NULL, &err), 0, "%s", err);
  free(err);
  char *csv = out_text(dir, "table.csv");
  const char *header_end = strchr(csv, '\n');
  cr_assert_not_null(header_end);
  char header[1024];
  snprintf(header, sizeof header, "%.*s", (int)(header_end - csv), csv);
  /* the spec's order first, then the run columns it did not list */
  cr_assert_str_eq(header, "id,state,spacing,iterations_mean,steps,wall_seconds,iterations_max,"
                           "particle_steps_per_second,warnings,message");
  free(csv);
  cJSON *rows = out_json(dir, "table.json");
  const cJSON *row = cJSON_GetArrayItem(rows, 0);
  int keys = 0, means = 0;
  for (const cJSON *v = row->child; v; v = v->next, ++keys)
    means += strcmp(v->string, "iterations_mean") == 0;
  cr_assert_eq(keys, 10);
  cr_assert_eq(means, 1);
  cr_assert_gt(cJSON_GetObjectItem(row, "iterations_mean")->valuedouble, 1.0);
  cJSON_Delete(rows);
  /* the same name twice in the spec is refused before any case runs */
  const char *dir2 = test_dir("sweep_out_dup2");
  spec = spec_file(dir2, TINY ", \"metrics\": [\"steps\", \"steps\"]");
  cr_assert_eq(run_sweep(dir2, spec, NULL, &err), 2, "%s", err);
  cr_assert(strstr(err, "metrics.1: expected each metric once, got 'steps' again"), "%s", err);
  free(err);
}

Test(sweep_output, plot_text_is_plain_with_units_and_the_key_below) {
  const char *dir = test_dir("sweep_out_plot");
  const char *spec = spec_file(
      dir, TINY ", \"vary\": {\"method.fluid.constraint\": [\"mps\", \"sph_density\"]},"
                "\"plots\": [{\"name\": \"steps\", \"kind\": \"metric\", "
                "\"x\": \"method.fluid.constraint\", \"y\": \"wall_seconds\"},"
                "{\"name\": \"ke\", \"kind\": \"series\", \"y\": \"kinetic_energy\"},"
                "{\"name\": \"placed\", \"kind\": \"series\", \"y\": \"max_speed\", "
                "\"key\": \"top left\"}]");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, NULL, &err), 0, "%s", err);
  free(err);
  /* enhanced text would draw the tic label sph_density as "sph" with subscript "density": in
   * the SVG the name would be split and its underscore gone */
  char *svg = out_text(dir, "plots/steps.svg");
  cr_assert(strstr(svg, ">sph_density<"), "the tic label is not plain text");
  free(svg);
  char *gp = out_text(dir, "plots/steps.gp");
  cr_assert(strstr(gp, "set xlabel 'method.fluid.constraint' noenhanced\n"), "%s", gp);
  cr_assert(strstr(gp, "set ylabel 'wall_seconds [s]' noenhanced\n"), "%s", gp);
  cr_assert(strstr(gp, "set key noenhanced below"), "%s", gp);
  cr_assert(!strstr(gp, "opaque"), "a key that hides what is behind it: %s", gp);
  cr_assert_eq(count(gp, "set terminal"), count(gp, "noenhanced size"), "%s", gp);
  free(gp);
  gp = out_text(dir, "plots/ke.gp");
  cr_assert(strstr(gp, "set xlabel 'time [s]' noenhanced\n"), "%s", gp);
  cr_assert(strstr(gp, "set ylabel 'kinetic_energy [J, 2D: J/m]' noenhanced\n"), "%s", gp);
  free(gp);
  gp = out_text(dir, "plots/placed.gp"); /* where the spec puts the key, it stays */
  cr_assert(strstr(gp, "set key noenhanced box top left\n"), "%s", gp);
  free(gp);
}

/* A dam break stopped long before the front reaches the far wall: summary.json holds
 * far_wall_time as null. */
Test(sweep_output, a_missing_value_is_empty_in_csv_null_in_json_and_nan_in_plot_data) {
  const char *dir = test_dir("sweep_out_missing");
  const char *spec = spec_in(
      dir, "experiments/scenes/dam_break.json",
      "\"set\": {\"spacing\": 0.04, \"time.dt\": 0.002, \"time.end\": 0.02, "
      "\"time.output_interval\": 0.01},"
      "\"vary\": {\"method.fluid.tolerance\": [0.01, 0.001]},"
      "\"metrics\": [\"far_wall_time\", \"steps\"],"
      "\"plots\": [{\"name\": \"far\", \"kind\": \"metric\", \"x\": \"method.fluid.tolerance\", "
      "\"y\": [\"far_wall_time\", \"steps\"]}]");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, NULL, &err), 0, "%s", err);
  cr_assert(strstr(err, "far_wall_time=  steps=10"), "%s", err); /* the line per case */
  cr_assert(!strstr(err, "nan"), "%s", err);
  free(err);
  char id[16], path[1300];
  first_id(dir, id);
  snprintf(path, sizeof path, "%s/out/cases/%s/summary.json", dir, id);
  cJSON *summary = read_json(path);
  cr_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(summary, "metrics"),
                                             "far_wall_time")));
  cJSON_Delete(summary);
  char *csv = out_text(dir, "table.csv");
  vbc_table t;
  vbc_error e = {0};
  snprintf(path, sizeof path, "%s/out/table.csv", dir);
  cr_assert_eq(vbc_table_read(&t, path, &e), 0, "%s", e.message);
  int col = vbc_table_column_named(&t, "far_wall_time");
  cr_assert_geq(col, 0);
  for (size_t r = 0; r < t.nrows; ++r)
    cr_assert_str_eq(vbc_table_cell(&t, r, col), "", "row %zu: %s", r, csv);
  vbc_table_free(&t);
  free(csv);
  cJSON *rows = out_json(dir, "table.json");
  const cJSON *row;
  cJSON_ArrayForEach(row, rows) {
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(row, "far_wall_time")));
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(row, "message")));
  }
  cJSON_Delete(rows);
  snprintf(path, sizeof path, "%s/out/cases/%s/result.json", dir, id);
  cJSON *result = read_json(path); /* a finished case has no message: null, not "" */
  cr_assert(cJSON_IsNull(cJSON_GetObjectItem(result, "message")));
  cJSON_Delete(result);
  char *dat = out_text(dir, "plots/far.dat"); /* x, label, far_wall_time, steps */
  cr_assert(strstr(dat, "0.001 \"0.001\" NaN 10\n"), "%s", dat);
  cr_assert(!strstr(dat, "nan"), "%s", dat);
  free(dat);
  char *gp = out_text(dir, "plots/far.gp");
  cr_assert(strstr(gp, "set datafile missing NaN\n"), "%s", gp);
  free(gp);
}

Test(sweep_output, threads_n_sets_every_cases_threads) {
  const char *dir = test_dir("sweep_out_threads");
  const char *spec = spec_file(dir, TINY ", \"vary\": {\"method.fluid.tolerance\": [0.01, 0.001]}");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, (const char *[]){"-j", "2", "--threads", "2", NULL}, &err), 0,
               "%s", err);
  cr_assert(strstr(err, "2 to run (2 threads each)"), "%s", err);
  free(err);
  cJSON *rows = out_json(dir, "table.json");
  const cJSON *row;
  int n = 0;
  cJSON_ArrayForEach(row, rows) {
    char path[1300];
    snprintf(path, sizeof path, "%s/out/cases/%s/summary.json", dir,
             cJSON_GetObjectItem(row, "id")->valuestring);
    cJSON *summary = read_json(path);
    cr_assert_eq(json_number(summary, "threads"), 2.0);
    cJSON_Delete(summary);
    ++n;
  }
  cr_assert_eq(n, 2);
  cJSON_Delete(rows);
  /* without it, cases side by side keep one thread each */
  const char *dir2 = test_dir("sweep_out_threads1");
  spec = spec_file(dir2, TINY ", \"vary\": {\"method.fluid.tolerance\": [0.01, 0.001]}");
  cr_assert_eq(run_sweep(dir2, spec, (const char *[]){"-j", "2", NULL}, &err), 0, "%s", err);
  free(err);
  char id[16], path[1300];
  first_id(dir2, id);
  snprintf(path, sizeof path, "%s/out/cases/%s/summary.json", dir2, id);
  cJSON *summary = read_json(path);
  cr_assert_eq(json_number(summary, "threads"), 1.0);
  cJSON_Delete(summary);
  cr_assert_eq(run_sweep(dir2, spec, (const char *[]){"--threads", "0", NULL}, &err), 2, "%s", err);
  free(err);
}

/* A case of 200 steps whose own output says nothing between t = 0 and its end (one output
 * interval): the runner still reports it every 0.1 s. */
Test(sweep_output, a_running_case_is_reported_while_it_runs_unless_quiet) {
  const char *dir = test_dir("sweep_out_progress");
  const char *spec = spec_file(dir, "\"set\": {\"spacing\": 0.04, \"time.dt\": 0.002, "
                                    "\"time.end\": 0.4, \"time.output_interval\": 0.4}, "
                                    "\"vary\": {\"spacing\": [0.04]}");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, (const char *[]){"--progress-seconds", "0.1", NULL}, &err), 0,
               "%s", err);
  char id[16], line[64];
  first_id(dir, id);
  snprintf(line, sizeof line, "[running] %s  t = ", id);
  cr_assert_geq(count(err, line), 1, "%s", err);
  cr_assert(strstr(err, " of 0.4 s") && strstr(err, " elapsed\n"), "%s", err);
  free(err);
  cr_assert_eq(run_sweep(dir, spec, (const char *[]){"--force", "--quiet", "--progress-seconds",
                                                     "0.1", NULL}, &err), 0, "%s", err);
  cr_assert_eq(count(err, "[running]"), 0, "%s", err);
  cr_assert(strstr(err, "  ok  "), "the line of the finished case stays: %s", err);
  free(err);
}

Test(sweep_output, list_shows_the_cases_when_a_metric_is_wrong) {
  const char *dir = test_dir("sweep_out_list");
  const char *spec = spec_file(dir, TINY ", \"vary\": {\"method.fluid.tolerance\": [0.01, 0.001]},"
                                     "\"metrics\": [\"max_density_deviation\", \"speed\"]");
  const char *args[] = {"sweep", spec, "--out", path_in(dir, "out"), "--list", NULL};
  char *out, *err;
  cr_assert_eq(sweep(args, dir, &out, &err), 2, "%s", err);
  cr_assert_eq(count(out, " pending "), 2, "%s", out);
  cr_assert(strstr(out, "metrics available:") && strstr(out, " max_density_deviation"), "%s", out);
  cr_assert(strstr(err, "metrics.1: expected a metric this scene reports, got 'speed'"), "%s", err);
  free(out), free(err);
  /* running it is still refused before any case */
  cr_assert_eq(run_sweep(dir, spec, NULL, &err), 2, "%s", err);
  cr_assert(!file_exists(path_in(dir, "out")));
  free(err);
}

/* series.csv, summary.json and table.csv name the iteration figures alike, and a series plot
 * can draw series.csv's. */
Test(sweep_output, iteration_columns_are_iterations_mean_and_iterations_max_everywhere) {
  const char *dir = test_dir("sweep_out_iterations");
  const char *spec = spec_file(dir, TINY ", \"vary\": {\"spacing\": [0.04]}, "
                                     "\"plots\": [{\"name\": \"its\", \"kind\": \"series\", "
                                     "\"y\": [\"iterations_mean\", \"iterations_max\"]}]");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, NULL, &err), 0, "%s", err);
  free(err);
  char id[16], path[1300];
  first_id(dir, id);
  snprintf(path, sizeof path, "%s/out/cases/%s/series.csv", dir, id);
  char *series = read_text(path);
  cr_assert(!strncmp(series, "time,step,iterations_mean,iterations_max,relative_residual,", 59),
            "%.200s", series);
  free(series);
  snprintf(path, sizeof path, "%s/out/cases/%s/summary.json", dir, id);
  cJSON *summary = read_json(path);
  const double mean = json_number(summary, "solver.iterations_mean");
  cr_assert_gt(mean, 1.0);
  cJSON_Delete(summary);
  cJSON *rows = out_json(dir, "table.json");
  cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "iterations_mean")->valuedouble,
                     mean, 1e-9 * mean);
  cJSON_Delete(rows);
  char *dat = out_text(dir, "plots/its.dat");
  cr_assert_gt(count(dat, "\n"), 3, "%s", dat);
  free(dat);
}

/* The warnings column: the codes of the monitors that fired in the case, empty when none did
 * (Koshizuka & Oka's source, mps_poisson alpha 1, with its negative pressures kept lifts the
 * still tank, energy_rise, by pulling on its water, tension; the codes in summary.json's order). */
Test(sweep_output, the_warnings_column_names_what_fired) {
  const char *dir = test_dir("sweep_out_warnings");
  const char *spec = spec_file(dir, "\"set\": {\"spacing\": 0.04, \"time.end\": 0.01, "
                                     "\"method.fluid.constraint\": \"mps_poisson\", "
                                     "\"method.fluid.clamp_negative\": \"none\"}, "
                                     "\"vary\": {\"method.fluid.alpha\": [0, 1]}");
  char *err;
  cr_assert_eq(run_sweep(dir, spec, NULL, &err), 0, "%s", err);
  free(err);
  cJSON *rows = out_json(dir, "table.json");
  cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "warnings")->valuestring, "");
  cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "warnings")->valuestring,
                   "energy_rise;tension");
  cJSON_Delete(rows);
  char path[1300];
  snprintf(path, sizeof path, "%s/out/table.csv", dir);
  vbc_table t;
  vbc_error e = {0};
  cr_assert_eq(vbc_table_read(&t, path, &e), 0, "%s", e.message);
  size_t col = 0;
  while (col < t.ncols && strcmp(t.names[col], "warnings") != 0) ++col;
  cr_assert_lt(col, t.ncols);
  cr_assert_str_eq(vbc_table_cell(&t, 0, col), "");
  cr_assert_str_eq(vbc_table_cell(&t, 1, col), "energy_rise;tension");
  vbc_table_free(&t);
}
