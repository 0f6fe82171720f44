/* test_atlas_cases_3d.c — the 3D cases of the comparison atlas (experiments/atlas/cases/
 * {hydrostatic_3d,spheric_test2,canelas_one_cube,dam_break_3d}.json) and the error definitions
 * of their new benchmarks: SPHERIC Test 2 (metrics/spheric_test2.c: Kleefsman et al. 2005's gauges
 * and the normalised mean absolute error) and the cube of Canelas et al. 2016
 * (metrics/canelas_cube.c), each scored on made-up histories with known errors; then every case
 * file parses, names an existing scene and reference files, and a two-step run of its coarsest
 * level writes its error keys into summary.json and its observable into series.csv. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/canelas_cube.h"
#include "metrics/spheric_test2.h"
#include "tests/support.h"

static const char *const cases_3d[] = {"hydrostatic_3d", "spheric_test2", "canelas_one_cube",
                                       "dam_break_3d"};
#define NCASES (sizeof cases_3d / sizeof cases_3d[0])

/* ---- SPHERIC Test 2: scoring functions ---- */

/* Reference rows {t, value} up to window 1.5: values 1, 2, 4, 3 (largest 4); the row at t = 2 lies
 * outside the window. The simulated v = 1 + 2 t misses the rows by 0, 0, 1, 1: mean 0.5, / 4. */
Test(spheric_test2, normalised_error_of_a_known_history) {
  const double ref[] = {0.0, 1.0, 0.5, 2.0, 1.0, 4.0, 1.5, 3.0, 2.0, 10.0};
  const double t[] = {0.0, 1.0, 2.0}, v[] = {1.0, 3.0, 5.0};
  size_t points;
  const double e = vbc_spheric_normalised_error(t, v, 3, ref, 2, 5, 1, 1.5, &points);
  cr_assert_float_eq(e, 0.5 / 4.0, 1e-15, "got %.17g", e);
  cr_assert_eq(points, 4u);
  /* a run that ended at t = 1 covers 3 of the 4 rows: no error, and it says how many */
  const double early = vbc_spheric_normalised_error(t, v, 2, ref, 2, 5, 1, 1.5, &points);
  cr_assert(isnan(early));
  cr_assert_eq(points, 3u);
}

/* The embedded record: 300 bins of 5 ms; a history equal to it plus 0.01 m scores 0.01 / max H
 * (H2's largest bin 0.24633 m, H4's 0.55093 m: the normalisers the case file quotes). */
Test(spheric_test2, embedded_record_shifted_by_one_centimetre) {
  const double *ref = &vbc_spheric_test2_reference[0][0];
  const size_t n = VBC_SPHERIC_TEST2_ROWS;
  cr_assert_float_eq(ref[0], 0.0025, 1e-12);
  cr_assert_float_eq(ref[(n - 1) * 4], 1.4975, 1e-12);
  double t[VBC_SPHERIC_TEST2_ROWS + 1], h2[VBC_SPHERIC_TEST2_ROWS + 1],
      h4[VBC_SPHERIC_TEST2_ROWS + 1];
  t[0] = 0.0, h2[0] = ref[2] + 0.01, h4[0] = ref[3] + 0.01;
  for (size_t k = 0; k < n; ++k)
    t[k + 1] = ref[k * 4], h2[k + 1] = ref[k * 4 + 2] + 0.01, h4[k + 1] = ref[k * 4 + 3] + 0.01;
  size_t points;
  const double e2 = vbc_spheric_normalised_error(t, h2, n + 1, ref, 4, n,
                                                 VBC_SPHERIC_TEST2_COL_H2, 1.5, &points);
  cr_assert_eq(points, n);
  cr_assert_float_eq(e2, 0.01 / 0.24633, 1e-4 * e2, "H2: %.17g", e2);
  const double e4 = vbc_spheric_normalised_error(t, h4, n + 1, ref, 4, n,
                                                 VBC_SPHERIC_TEST2_COL_H4, 1.5, &points);
  cr_assert_float_eq(e4, 0.01 / 0.55093, 1e-4 * e4, "H4: %.17g", e4);
}

/* Arrival: where the line between samples crosses the threshold; the peak within the window. */
Test(spheric_test2, arrival_and_peak) {
  const double t[] = {0.0, 1.0, 2.0, 3.0}, v[] = {0.0, 10.0, 30.0, 50.0};
  cr_assert_float_eq(vbc_spheric_arrival(t, v, 4, 20.0, 10.0), 1.5, 1e-15);
  cr_assert_float_eq(vbc_spheric_arrival(t, v, 4, 0.0, 10.0), 0.0, 1e-15);
  cr_assert(isnan(vbc_spheric_arrival(t, v, 4, 40.0, 2.5)), "never within the window");
  cr_assert_eq(vbc_spheric_peak(t, v, 4, 2.5), 30.0);
  cr_assert(isnan(vbc_spheric_peak(t, v, 0, 2.5)));
}

static void add_fluid(vbc_particles *p, double x, double y, double z, double pressure) {
  vbc_error err = {0};
  const long i = vbc_particles_add(p, vbc_vec_make(x, y, z), vbc_vec_make(0, 0, 0), VBC_FLUID,
                                   -1, &err);
  cr_assert_geq(i, 0);
  p->pressure[i] = pressure;
}

/* A column of three layers (l = 0.05) at the gauge reads 0.125 + l/2; a droplet above a gap of
 * two layers, and water outside the gauge's reach (2 l = 0.1 in x or z), do not count; a column
 * with one empty layer in it does. */
Test(spheric_test2, gauge_reads_the_water_column_standing_on_the_floor) {
  vbc_particles p = {0};
  const double l = 0.05, reach = 2.0 * l;
  double bins[40];
  cr_assert_eq(vbc_spheric_gauge_height(&p, 1.0, 0.5, reach, l, 0.0, bins, 40), 0.0, "dry");
  for (int k = 0; k < 3; ++k) add_fluid(&p, 1.02, 0.025 + k * l, 0.47, 0.0);
  add_fluid(&p, 1.0, 0.425, 0.5, 0.0);  /* spray: layers 3-7 empty */
  add_fluid(&p, 1.11, 0.575, 0.5, 0.0); /* beyond the reach in x */
  add_fluid(&p, 1.0, 0.575, 0.39, 0.0); /* beyond the reach in z */
  cr_assert_float_eq(vbc_spheric_gauge_height(&p, 1.0, 0.5, reach, l, 0.0, bins, 40), 0.15,
                     1e-12);
  add_fluid(&p, 0.95, 0.225, 0.55, 0.0); /* layer 4 above the empty layer 3: still the column */
  cr_assert_float_eq(vbc_spheric_gauge_height(&p, 1.0, 0.5, reach, l, 0.0, bins, 40), 0.25,
                     1e-12);
  /* water that does not reach the floor is no column: floor 0.2 below the particles' datum */
  cr_assert_eq(vbc_spheric_gauge_height(&p, 1.0, 0.5, reach, l, -0.2, bins, 40), 0.0);
  vbc_particles_free(&p);
}

/* The probe's Shepard average: equal weights average the pressures; a nearer particle weighs
 * more; nothing within the radius reads 0 (dry). */
Test(spheric_test2, probe_is_a_shepard_average_of_the_fluid_pressure) {
  vbc_particles p = {0};
  const vbc_vec x = vbc_vec_make(0.0, 0.0, 0.0);
  cr_assert_eq(vbc_spheric_probe_pressure(&p, x, 0.1), 0.0);
  add_fluid(&p, 0.03, 0.0, 0.0, 100.0);
  add_fluid(&p, 0.0, -0.03, 0.0, 300.0);
  add_fluid(&p, 0.2, 0.0, 0.0, 1e6); /* outside */
  cr_assert_float_eq(vbc_spheric_probe_pressure(&p, x, 0.1), 200.0, 1e-9);
  add_fluid(&p, 0.0, 0.0, 0.01, 1000.0);
  const double w = pow(1.0 - 0.1, 4) * (1.0 + 0.4), w3 = pow(1.0 - 0.3, 4) * (1.0 + 1.2);
  cr_assert_float_eq(vbc_spheric_probe_pressure(&p, x, 0.1),
                     (400.0 * w3 + 1000.0 * w) / (2.0 * w3 + w), 1e-9);
  vbc_particles_free(&p);
}

/* ---- Canelas et al. 2016: the cube's x(t) ---- */

/* x_sim = x_exp + 0.03 m at every experimental time: 0.03 / 0.15 = 0.2 */
Test(canelas_cube, shifted_trajectory_scores_the_shift_over_the_edge) {
  const size_t n = VBC_CANELAS_CUBE_POINTS;
  double t[VBC_CANELAS_CUBE_POINTS + 1], x[VBC_CANELAS_CUBE_POINTS + 1];
  t[0] = 0.0, x[0] = vbc_canelas_cube_x[0][1] + 0.03;
  for (size_t k = 0; k < n; ++k)
    t[k + 1] = vbc_canelas_cube_x[k][0], x[k + 1] = vbc_canelas_cube_x[k][1] + 0.03;
  size_t points;
  const double e =
      vbc_canelas_x_error(t, x, n + 1, vbc_canelas_cube_x, n, 1.55, 0.15, &points);
  cr_assert_float_eq(e, 0.2, 1e-12, "got %.17g", e);
  cr_assert_eq(points, 42u);
  cr_assert_float_eq(vbc_canelas_cube_x[n - 1][0], 1.548051, 1e-6, "the record ends at 1.55 s");
}

/* A made-up record {t, x}: a cube standing at 1.775 m scores |1.775 - x_k| / edge on average;
 * a window that ends before the run keeps only its points; a run that ends early has no error. */
Test(canelas_cube, standing_cube_and_windows) {
  const double ref[][2] = {{0.0, 1.775}, {0.5, 1.8}, {1.0, 2.0}, {1.5, 3.0}};
  const double t[] = {0.0, 2.0}, x[] = {1.775, 1.775};
  size_t points;
  double e = vbc_canelas_x_error(t, x, 2, ref, 4, 1.55, 0.15, &points);
  cr_assert_float_eq(e, (0.0 + 0.025 + 0.225 + 1.225) / 4.0 / 0.15, 1e-12);
  e = vbc_canelas_x_error(t, x, 2, ref, 4, 0.75, 0.15, &points);
  cr_assert_float_eq(e, 0.025 / 2.0 / 0.15, 1e-12);
  cr_assert_eq(points, 2u);
  const double t_early[] = {0.0, 1.2};
  e = vbc_canelas_x_error(t_early, x, 2, ref, 4, 1.55, 0.15, &points);
  cr_assert(isnan(e));
  cr_assert_eq(points, 3u);
}

/* ---- the case files ---- */

static cJSON *load_case(const char *name, char *dir, size_t dir_size) {
  char rel[256];
  snprintf(rel, sizeof rel, "experiments/atlas/cases/%s.json", name);
  cJSON *c = read_json(source_path(rel));
  cr_assert_not_null(c, "%s does not parse", rel);
  snprintf(dir, dir_size, "%s", source_path("experiments/atlas/cases"));
  return c;
}

static const char *string_at(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  cr_assert(cJSON_IsString(v), "expected a string at %s", key);
  return v->valuestring;
}

/* A number under a key that may hold dots ("time.dt": a --set path, not a nested object). */
static double number_at(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  cr_assert(cJSON_IsNumber(v), "expected a number at %s", key);
  return v->valuedouble;
}

/* Every case: its name is its file's, it is 3D, its scene exists, its levels are coarsest first
 * with ratio 2 in the spacing and the step, its error keys are named, each reference file exists
 * and its header names the reference's x and y columns. */
Test(atlas_cases_3d, case_files_are_complete) {
  for (size_t c = 0; c < NCASES; ++c) {
    char dir[1024], path[2048];
    cJSON *k = load_case(cases_3d[c], dir, sizeof dir);
    cr_assert_str_eq(string_at(k, "name"), cases_3d[c]);
    cr_assert_eq(cJSON_GetObjectItem(k, "dim")->valueint, 3);
    snprintf(path, sizeof path, "%s/%s", dir, string_at(k, "scene"));
    cr_assert(file_exists(path), "%s: scene %s missing", cases_3d[c], path);
    const cJSON *levels = cJSON_GetObjectItem(k, "levels");
    const int n = cJSON_GetArraySize(levels);
    cr_assert(n >= 2 && n <= 3, "%s: %d levels", cases_3d[c], n);
    for (int i = 1; i < n; ++i) {
      const cJSON *a = cJSON_GetArrayItem(levels, i - 1), *b = cJSON_GetArrayItem(levels, i);
      cr_assert_float_eq(number_at(a, "spacing"), 2.0 * number_at(b, "spacing"), 1e-12);
      cr_assert_float_eq(number_at(a, "time.dt"), 2.0 * number_at(b, "time.dt"), 1e-12);
    }
    string_at(cJSON_GetObjectItem(k, "error"), "metric");
    const cJSON *refs = cJSON_GetObjectItem(k, "references");
    for (int i = 0; i < cJSON_GetArraySize(refs); ++i) {
      const cJSON *r = cJSON_GetArrayItem(refs, i);
      snprintf(path, sizeof path, "%s/%s", dir, string_at(r, "file")); /* as the scene */
      char *text = read_text(path);
      cr_assert_not_null(text, "%s: reference %s missing", cases_3d[c], path);
      /* the first line names the columns as a comment (the case format), and the first line
       * that is not a comment names them again for readers that skip comments (the atlas's) */
      const char *line = text;
      while (*line == '#') line += strcspn(line, "\n") + 1;
      char first[256], header[256];
      snprintf(first, sizeof first, "%.*s ", (int)strcspn(text, "\n"), text);
      snprintf(header, sizeof header, "# %.*s ", (int)strcspn(line, "\n"), line);
      cr_assert_str_eq(first, header, "%s: %s", cases_3d[c], path);
      char want[64];
      snprintf(want, sizeof want, " %s ", string_at(r, "x"));
      cr_assert_not_null(strstr(header, want), "%s: no column %s in %s", cases_3d[c], want, header);
      snprintf(want, sizeof want, " %s ", string_at(r, "y"));
      cr_assert_not_null(strstr(header, want), "%s: no column %s in %s", cases_3d[c], want, header);
      free(text);
    }
    cJSON_Delete(k);
  }
}

/* The header line of series.csv holds the column. */
static int series_has_column(const char *series_path, const char *column) {
  char *text = read_text(series_path);
  cr_assert_not_null(text, "%s missing", series_path);
  text[strcspn(text, "\n")] = '\0';
  int found = 0;
  for (char *tok = strtok(text, ","); tok && !found; tok = strtok(NULL, ","))
    found = strcmp(tok, column) == 0;
  free(text);
  return found;
}

/* Two steps of every case's coarsest level (its fixed sets except the end time, under DFSPH,
 * which runs every case, fast): the error keys are in summary.json metrics (null: the run ended
 * before the scored window) and the observable's columns in series.csv. */
Test(atlas_cases_3d, two_steps_of_the_coarsest_level_write_the_error_and_the_observable,
     .timeout = 300) {
  for (size_t c = 0; c < NCASES; ++c) {
    char dir[1024], scene[2048];
    cJSON *k = load_case(cases_3d[c], dir, sizeof dir);
    snprintf(scene, sizeof scene, "%s/%s", dir, string_at(k, "scene"));
    const cJSON *level = cJSON_GetArrayItem(cJSON_GetObjectItem(k, "levels"), 0);
    char sets[8][128];
    const char *argv_sets[8];
    int n = 0;
    for (const cJSON *e = level->child; e && n < 6; e = e->next, ++n)
      snprintf(sets[n], sizeof sets[n], "%s=%.17g", e->string, e->valuedouble);
    snprintf(sets[n], sizeof sets[n], "time.end=%.17g", 2.0 * number_at(level, "time.dt"));
    ++n;
    for (int i = 0; i < n; ++i) argv_sets[i] = sets[i];
    char name[64];
    snprintf(name, sizeof name, "atlas3d_%s", cases_3d[c]);
    cJSON *s = run_scene_method(name, scene, "dfsph", argv_sets, n);
    const cJSON *metrics = cJSON_GetObjectItem(s, "metrics");
    const char *key = string_at(cJSON_GetObjectItem(k, "error"), "metric");
    cr_assert_not_null(cJSON_GetObjectItem(metrics, key), "%s: no metrics.%s", cases_3d[c], key);
    const cJSON *more = cJSON_GetObjectItem(k, "errors");
    for (int i = 0; i < cJSON_GetArraySize(more); ++i) {
      const char *m = string_at(cJSON_GetArrayItem(more, i), "metric");
      cr_assert_not_null(cJSON_GetObjectItem(metrics, m), "%s: no metrics.%s", cases_3d[c], m);
    }
    char series[1200];
    snprintf(series, sizeof series, "%s/%s.%ld/out/series.csv", VBC_TEST_TMP, name,
             (long)getpid()); /* run_scene_method's directory (support.c: test_dir) */
    const cJSON *obs = cJSON_GetObjectItem(k, "observable");
    cr_assert(series_has_column(series, string_at(obs, "x")), "%s: no x column", cases_3d[c]);
    cr_assert(series_has_column(series, string_at(obs, "y")), "%s: no y column", cases_3d[c]);
    cJSON_Delete(s);
    cJSON_Delete(k);
  }
}

/* Two steps of SPHERIC Test 2 and of the cube cover no scored window: the errors are null and
 * the point counts say why; a window ending within the run scores it. */
Test(atlas_cases_3d, errors_are_null_before_the_window_ends, .timeout = 120) {
  cJSON *s = run_scene_method("atlas3d_spheric_short", source_path("experiments/scenes/spheric_test2.json"),
                              "dfsph", SETS("time.end=0.008", "benchmark.window=0.0075"), 2);
  cr_assert_eq(json_number(s, "metrics.spheric_points"), 2.0, "bins at 2.5 and 7.5 ms");
  const double h4 = json_number(s, "metrics.spheric_h4_error");
  cr_assert(isfinite(h4) && h4 >= 0.0 && h4 < 0.01, "H4 at rest for 8 ms: %g", h4);
  /* the simulated H2 is dry (0); the record's two bins both read 0.53 mm (gauge noise) */
  cr_assert_float_eq(json_number(s, "metrics.spheric_h2_error"), 1.0, 1e-9);
  cr_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "metrics"),
                                             "spheric_p1_arrival_error")));
  cJSON_Delete(s);
  s = run_scene_method("atlas3d_cube_short", source_path("experiments/scenes/canelas_one_cube.json"),
                       "dfsph", SETS("time.end=0.008"), 1);
  cr_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "metrics"), "cube_x_error")));
  cr_assert_eq(json_number(s, "metrics.cube_x_points"), 1.0, "the record's first point, 1 ms");
  cr_assert_float_eq(json_number(s, "metrics.cube_x_final"), 1.775, 1e-9, "at rest, dry");
  cJSON_Delete(s);
}

Test(atlas_cases_3d, benchmarks_refuse_scenes_they_cannot_score) {
  expect_bad_input("atlas3d_spheric_2d", base_scene,
                   SETS("benchmark={\"type\":\"spheric_test2\"}"),
                   FRAGMENTS("dim", "expected 3", "spheric_test2"));
  expect_bad_input("atlas3d_cube_nobody", base_scene,
                   SETS("benchmark={\"type\":\"canelas_cube\"}"),
                   FRAGMENTS("benchmark.body", "free body"));
}
