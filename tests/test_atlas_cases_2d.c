/* test_atlas_cases_2d.c — the 2D cases of the comparison atlas (the files in
 * experiments/atlas/cases/): the error definitions they added or changed, each on a made-up
 * history with a known answer (the body_height benchmark, metrics/body_height.c; the dam_break
 * benchmark's wall height against Martin & Moyce 1952, metrics/dam_break.c), the empty series.csv
 * field for a missing value (buoyancy, hydrostatic), and every case file: it parses, names an
 * existing scene, error metric, observable column and reference file, and its coarsest level runs
 * two steps under the iisph preset. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/dam_break.h"
#include "metrics/metrics.h"
#include "sim/sim.h"
#include "experiments/runner/sweep_csv.h"
#include "tests/support.h"

#define CASES "experiments/atlas/cases/"

/* Qiu et al. 2017 §3.2, the falling block's points as compiled into metrics/body_height.c. */
static const double FALL[][2] = {
    {-0.000732642, 0.131546}, {0.0367131, 0.128164}, {0.0780763, 0.121401}, {0.119453, 0.112271},
    {0.158507, 0.100097},     {0.199139, 0.0845411}, {0.240555, 0.0683092}, {0.280423, 0.0500483},
    {0.321082, 0.0297585},    {0.361712, 0.0145411}, {0.402258, 0.0145411}};
#define NFALL (sizeof FALL / sizeof *FALL)
static const double FALL_TRAVEL = 0.131546 - 0.0145411;

static double num(const cJSON *m, const char *key) {
  const cJSON *v = cJSON_GetObjectItem(m, key);
  cr_assert_not_null(v, "no metric %s", key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Feed body_height (falling data) the history y(t) = y_exp(t) + offset, sampled at t = 0 and at
 * the experiment's times up to t_end (t > 0), so that the history is exact at every point. */
static cJSON *falling_metrics(double offset, double t_end) {
  const vbc_benchmark_type *bt = &vbc_benchmark_body_height;
  synthetic_bench B;
  synthetic_bench_start(&B, bt, 1.0, 9.81, "{\"data\": \"qiu_falling\"}");
  vbc_error err = {0};
  B.sim.time = 0.0, B.body.x.y = FALL[0][1] + offset;
  cr_assert_eq(bt->observe(B.state, &B.sim, &err), 0);
  for (size_t k = 1; k < NFALL && FALL[k][0] <= t_end; ++k) {
    B.sim.time = FALL[k][0], B.body.x.y = FALL[k][1] + offset;
    cr_assert_eq(bt->observe(B.state, &B.sim, &err), 0);
  }
  return synthetic_bench_stop(&B, bt);
}

/* The record itself scores 0; 2 mm above it scores 0.002 / L at every point, mean and max; a run
 * to 0.3 s scores the 7 points with 0 < t_k <= 0.3; a run that never leaves t = 0 has no point
 * and NAN errors, not 0. */
Test(atlas_cases_2d, body_height_scores_the_record_zero_and_an_offset_its_size) {
  cJSON *m = falling_metrics(0.0, 1.0);
  cr_assert_eq(num(m, "height_error_mean"), 0.0);
  cr_assert_eq(num(m, "height_points"), 10.0, "t = -0.0007 is before the release");
  cr_assert_float_eq(num(m, "height_scale"), FALL_TRAVEL, 1e-15);
  cJSON_Delete(m);
  m = falling_metrics(0.002, 1.0);
  cr_assert_float_eq(num(m, "height_error_mean"), 0.002 / FALL_TRAVEL, 1e-12);
  cr_assert_float_eq(num(m, "height_error_max"), 0.002 / FALL_TRAVEL, 1e-12);
  cr_assert_float_eq(num(m, "final_height"), 0.0145411 + 0.002, 1e-15);
  cJSON_Delete(m);
  m = falling_metrics(-0.01, 0.3);
  cr_assert_eq(num(m, "height_points"), 7.0);
  cr_assert_float_eq(num(m, "height_error_mean"), 0.01 / FALL_TRAVEL, 1e-12);
  cJSON_Delete(m);
  m = falling_metrics(0.0, 0.0);
  cr_assert_eq(num(m, "height_points"), 0.0);
  cr_assert(isnan(num(m, "height_error_mean")), "no point: null, got %g",
            num(m, "height_error_mean"));
  cJSON_Delete(m);
}

/* A history linear in t, y = 0.13 - 0.3 t (exact under linear interpolation from two samples):
 * the error is the mean of |0.13 - 0.3 t_k - y_k| / L over the points, computed here. */
Test(atlas_cases_2d, body_height_interpolates_between_steps) {
  const vbc_benchmark_type *bt = &vbc_benchmark_body_height;
  synthetic_bench B;
  synthetic_bench_start(&B, bt, 1.0, 9.81, "{\"data\": \"qiu_falling\"}");
  vbc_error err = {0};
  for (int k = 0; k <= 1; ++k) {
    B.sim.time = 0.5 * k, B.body.x.y = 0.13 - 0.3 * B.sim.time;
    cr_assert_eq(bt->observe(B.state, &B.sim, &err), 0);
  }
  cJSON *m = synthetic_bench_stop(&B, bt);
  double sum = 0.0;
  for (size_t k = 1; k < NFALL; ++k) sum += fabs(0.13 - 0.3 * FALL[k][0] - FALL[k][1]);
  cr_assert_float_eq(num(m, "height_error_mean"), sum / 10.0 / FALL_TRAVEL, 1e-12);
  cJSON_Delete(m);
}

/* Martin & Moyce's height table (metrics/dam_break.h) shifted by 0.01 in H, sampled at the
 * table's tau (as T = tau sqrt 2) and halfway between: every point is off by exactly 0.01; a cut
 * at tau = 2 keeps the 8 points before it, a run to tau = 1 the 3 points inside it; H = 0 scores
 * the mean of the table's H. */
Test(atlas_cases_2d, dam_break_height_error_against_martin_moyce) {
  const size_t np = vbc_mm1952_height_points;
  cr_assert_eq(np, 17u);
  double T[40], H[40], H0[40];
  size_t n = 0;
  T[n] = 0.0, H[n] = 1.01, H0[n++] = 0.0;
  for (size_t k = 0; k < np; ++k) {
    const double tau = vbc_mm1952_height[k][0], h = vbc_mm1952_height[k][1];
    if (k > 0) { /* a sample between two points, on the line through them */
      const double tau0 = vbc_mm1952_height[k - 1][0], h0 = vbc_mm1952_height[k - 1][1];
      T[n] = 0.5 * (tau0 + tau) * sqrt(2.0), H[n] = 0.5 * (h0 + h) + 0.01, H0[n++] = 0.0;
    }
    T[n] = tau * sqrt(2.0), H[n] = h + 0.01, H0[n++] = 0.0;
  }
  T[n] = 8.0 * sqrt(2.0), H[n] = 0.06 + 0.01, H0[n++] = 0.0; /* past the last point (7.40) */
  const double per_T = 1.0 / sqrt(2.0);
  vbc_height_errors e = vbc_dam_break_height_errors(T, H, n, per_T, INFINITY);
  cr_assert_eq(e.points, 17u);
  cr_assert_float_eq(e.mean, 0.01, 1e-12);
  cr_assert_float_eq(e.max, 0.01, 1e-12);
  e = vbc_dam_break_height_errors(T, H, n, per_T, 2.0);
  cr_assert_eq(e.points, 8u, "tau_k < 2: 0.56 ... 1.84");
  size_t n1 = 0;
  while (n1 < n && T[n1] * per_T <= 1.0) ++n1;
  e = vbc_dam_break_height_errors(T, H, n1, per_T, INFINITY);
  cr_assert_eq(e.points, 3u, "tau_k <= 1: 0.56, 0.77, 0.93");
  e = vbc_dam_break_height_errors(T, H0, n, per_T, INFINITY);
  double sum = 0.0;
  for (size_t k = 0; k < np; ++k) sum += vbc_mm1952_height[k][1];
  cr_assert_float_eq(e.mean, sum / 17.0, 1e-12);
  cr_assert_float_eq(e.max, 0.94, 1e-12);
  e = vbc_dam_break_height_errors(T, H, 1, per_T, INFINITY);
  cr_assert_eq(e.points, 0u);
  cr_assert(isnan(e.mean));
}

/* The header line of a CSV file and the text after it (malloc'd, NULL if unreadable). */
static char *csv_text(const char *dir, const char *file) {
  char path[1600];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  return read_text(path);
}

/* Is `column` one of the comma-separated names of text's first line? */
static int has_column(const char *text, const char *column) {
  const size_t len = strlen(column), header = strcspn(text, "\n");
  for (size_t start = 0; start < header;) {
    const size_t field = strcspn(text + start, ",\n");
    if (field == len && strncmp(text + start, column, len) == 0) return 1;
    start += field + 1;
  }
  return 0;
}

/* A missing value is an empty CSV field, never "nan" (docs/outputs.md): the buoyancy box without
 * a tank has no fluid_density, the hydrostatic errors with no particle deep enough are missing. */
Test(atlas_cases_2d, missing_series_values_are_empty_fields, .timeout = 120) {
  cJSON *s = run_scene("empty_buoy", source_path("experiments/scenes/buoyancy.json"),
                       SETS("spacing=0.04", "time.end=0.005",
                            "geometry=[{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [1.2, "
                            "0.6]}]",
                            "domain={\"min\": [-1, -1], \"max\": [2.2, 2.5]}"),
                       4);
  cJSON_Delete(s);
  char dir[1100];
  snprintf(dir, sizeof dir, "%s/empty_buoy.%ld/out", VBC_TEST_TMP, (long)getpid());
  char *text = csv_text(dir, "series.csv");
  cr_assert_not_null(text);
  cr_assert(has_column(text, "fluid_density"));
  cr_assert_null(strstr(text, "nan"), "%s", text);
  /* fluid_density is the last column: every data row ends with "," */
  for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
    const size_t len = strcspn(line + 1, "\n");
    cr_assert_eq(line[len], ',', "row without an empty last field: %.*s", (int)len, line + 1);
  }
  free(text);

  s = run_scene("empty_hydro", source_path("experiments/scenes/hydrostatic.json"),
                SETS("spacing=0.04", "time.end=0.002", "benchmark.pressure_min_depth=100"), 3);
  cr_assert(isnan(json_number(s, "metrics.pressure_error_smoothed")));
  cJSON_Delete(s);
  snprintf(dir, sizeof dir, "%s/empty_hydro.%ld/out", VBC_TEST_TMP, (long)getpid());
  text = csv_text(dir, "series.csv");
  cr_assert_not_null(text);
  cr_assert_null(strstr(text, "nan"), "%s", text);
  cr_assert_not_null(strstr(text, ",,\n"), "the two pressure errors, the last columns, are empty");
  free(text);
}

/* The cases this file checks (the 2D cases of the atlas). */
static const char *const CASE_NAMES[] = {
    "hydrostatic_2d",        "circular_patch", "dam_break_2d",      "floating_box_05_above",
    "floating_box_08_below", "qiu_falling_2d", "qiu_floating_2d",   "cylinder_entry_500",
    "cylinder_entry_1000",   "rigid_pile"};
#define NCASES (sizeof CASE_NAMES / sizeof *CASE_NAMES)

static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItem(o, key);
  cr_assert(cJSON_IsString(v) && v->valuestring[0], "expected a string %s", key);
  return v->valuestring;
}

/* `--set key=value` arguments for every member of obj (value as JSON), into args from *n. */
static void add_sets(const cJSON *obj, const char **args, int *n, char **owned, int *nowned) {
  const cJSON *v;
  cJSON_ArrayForEach(v, obj) {
    char *value = cJSON_PrintUnformatted(v);
    char *set = malloc(strlen(v->string) + strlen(value) + 2);
    cr_assert_not_null(set);
    sprintf(set, "%s=%s", v->string, value);
    free(value);
    owned[(*nowned)++] = set;
    args[(*n)++] = "--set", args[(*n)++] = set;
  }
}

/* A reference file (relative to the case file) has the columns x and y, as the atlas's plots
 * read it: `#` comments, then a header line of names (experiments/runner/sweep_csv.h). */
static void check_reference(const char *case_path, const cJSON *ref) {
  char path[1200];
  snprintf(path, sizeof path, "%s", case_path);
  *strrchr(path, '/') = '\0';
  char full[1400];
  snprintf(full, sizeof full, "%s/%s", path, str(ref, "file"));
  vbc_table t = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_table_read(&t, full, &err), 0, "reference %s: %s", full, err.message);
  for (int k = 0; k < 2; ++k)
    cr_expect_geq(vbc_table_column(&t, cJSON_GetObjectItem(ref, k ? "y" : "x")), 0,
                  "%s: no column %s", full, str(ref, k ? "y" : "x"));
  vbc_table_free(&t);
}

/* One case: its file, then its coarsest level for two steps under --method iisph: the error key
 * and the other errors are metrics of summary.json, the observable's columns are in series.csv. */
static void check_case(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, CASES "%s.json", name);
  const char *case_path = source_path(rel);
  char *text = read_text(case_path);
  cr_assert_not_null(text, "%s missing", case_path);
  cJSON *c = cJSON_Parse(text);
  free(text);
  cr_assert_not_null(c, "%s: not JSON", case_path);
  cr_assert_str_eq(str(c, "name"), name);
  cr_assert_eq(json_number(c, "dim"), 2.0);
  char scene[1400], dir[1200];
  snprintf(dir, sizeof dir, "%s", case_path);
  *strrchr(dir, '/') = '\0';
  snprintf(scene, sizeof scene, "%s/%s", dir, str(c, "scene"));
  cr_assert(file_exists(scene), "%s: scene %s missing", name, scene);
  const cJSON *levels = cJSON_GetObjectItem(c, "levels"), *set = cJSON_GetObjectItem(c, "set");
  cr_assert_eq(cJSON_GetArraySize(levels), 3, "%s: three levels", name);
  for (int k = 1; k < 3; ++k)
    cr_assert_float_eq(json_number(levels, k == 1 ? "0.spacing" : "1.spacing") /
                           json_number(levels, k == 1 ? "1.spacing" : "2.spacing"),
                       2.0, 1e-12, "%s: refinement ratio 2", name);
  const cJSON *v;
  cJSON_ArrayForEach(v, set) cr_assert_neq(strncmp(v->string, "method", 6), 0, "%s", v->string);
  const cJSON *refs = cJSON_GetObjectItem(c, "references");
  cr_assert(cJSON_IsArray(refs));
  cJSON_ArrayForEach(v, refs) check_reference(case_path, v);
  const cJSON *about = cJSON_GetObjectItem(c, "about");
  cr_assert_gt(strlen(str(about, "reference")), 40);
  cr_assert_gt(strlen(str(about, "error")), 40);
  cr_assert_gt(strlen(str(about, "reading")), 40);

  /* the coarsest level, two steps of its time.dt */
  char out[1300], end[64];
  snprintf(out, sizeof out, "%s/out", test_dir(name));
  const cJSON *dt = cJSON_GetObjectItem(cJSON_GetArrayItem(levels, 0), "time.dt");
  cr_assert(cJSON_IsNumber(dt), "%s: the coarsest level sets time.dt", name);
  snprintf(end, sizeof end, "time.end=%.17g", 2.0 * dt->valuedouble);
  const char *args[48] = {"run", scene, "--method", "iisph", "--out", out, "--quiet",
                          "--threads", "1"};
  int n = 9, nowned = 0;
  char *owned[20];
  add_sets(set, args, &n, owned, &nowned);
  add_sets(cJSON_GetArrayItem(levels, 0), args, &n, owned, &nowned);
  args[n++] = "--set", args[n++] = end, args[n] = NULL;
  char *err = NULL;
  const int rc = run_vbc(args, &err);
  cr_assert_eq(rc, 0, "%s: exit %d: %s", name, rc, err ? err : "");
  free(err);
  for (int k = 0; k < nowned; ++k) free(owned[k]);
  char path[1400];
  snprintf(path, sizeof path, "%s/summary.json", out);
  cJSON *s = read_json(path);
  cr_assert_not_null(s);
  cr_assert_eq(json_number(s, "steps"), 2.0, "%s", name);
  const cJSON *metrics = cJSON_GetObjectItem(s, "metrics");
  cr_assert_not_null(cJSON_GetObjectItem(metrics, str(cJSON_GetObjectItem(c, "error"), "metric")),
                     "%s: no error metric", name);
  cJSON_ArrayForEach(v, cJSON_GetObjectItem(c, "errors"))
      cr_assert_not_null(cJSON_GetObjectItem(metrics, str(v, "metric")), "%s: no metric %s",
                         name, str(v, "metric"));
  const cJSON *obs = cJSON_GetObjectItem(c, "observable");
  char *series = csv_text(out, str(obs, "file"));
  cr_assert_not_null(series, "%s: no %s", name, str(obs, "file"));
  cr_assert(has_column(series, str(obs, "x")), "%s: no column %s", name, str(obs, "x"));
  cr_assert(has_column(series, str(obs, "y")), "%s: no column %s", name, str(obs, "y"));
  free(series);
  cJSON_Delete(s);
  cJSON_Delete(c);
}

Test(atlas_cases_2d, every_case_file_names_what_exists_and_its_coarsest_level_runs,
     .timeout = 300) {
  for (size_t k = 0; k < NCASES; ++k) check_case(CASE_NAMES[k]);
}
