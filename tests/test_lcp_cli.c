/* test_lcp_cli.c — `vbc lcp FILE` (cli/cli_lcp.c): the JSON it prints and its exit codes for
 * every status (solved, ray, max_pivots under lemke; solved, max_iterations under pgs and jacobi),
 * and malformed files and options, which exit 2 with one message naming the file and the
 * reason; --reference (distance of the result to a given z*) and --trace (one CSV row per
 * iteration of PGS or Jacobi, measured against the reference). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

typedef struct lcp_run {
  int code;
  cJSON *json; /* NULL if stdout was not one JSON object */
  char *err;
} lcp_run;

/* Write text to a fresh directory as p.lcp and run `vbc lcp p.lcp` with the options. */
static lcp_run run_lcp(const char *name, const char *text, const char *const *opts) {
  const char *dir = test_dir(name);
  cr_assert_not_null(dir);
  char file[1024], outp[1100], errp[1100];
  snprintf(file, sizeof file, "%s", text ? write_text(dir, "p.lcp", text) : "/nonexistent/p.lcp");
  snprintf(outp, sizeof outp, "%s/stdout.txt", dir);
  snprintf(errp, sizeof errp, "%s/stderr.txt", dir);
  const char *args[16] = {"lcp", file};
  int k = 2;
  for (; opts && *opts && k < 15; ++opts) args[k++] = *opts;
  args[k] = NULL;
  int rc = run_vbc_to(args, outp, errp);
  cr_assert_geq(rc, 0, "vbc lcp did not run or died");
  lcp_run r = {rc, NULL, read_text(errp)};
  char *out = read_text(outp);
  if (out && out[0]) r.json = cJSON_Parse(out);
  free(out);
  return r;
}

static void run_free(lcp_run *r) {
  cJSON_Delete(r->json);
  free(r->err);
}

static const char *status_of(const lcp_run *r) {
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(r->json, "status");
  return cJSON_IsString(s) ? s->valuestring : "(none)";
}

static double entry(const lcp_run *r, const char *key, int i) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(r->json, key);
  const cJSON *x = cJSON_GetArrayItem(a, i);
  return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static const char spd[] = "# a 2 x 2 SPD problem\n# (with comments)\n2\n2 1\n1 2\n  -5 -6\n";

Test(lcp_cli, lemke_solves_and_prints_the_solution) {
  lcp_run r = run_lcp("lcp_solved", spd, NULL);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_assert_not_null(r.json);
  cr_assert_str_eq(status_of(&r), "solved");
  cr_assert_eq(json_number(r.json, "n"), 2);
  cr_assert_eq(json_number(r.json, "pivots"), 2);
  cr_assert_leq(json_number(r.json, "error"), 1e-12);
  cr_assert_geq(json_number(r.json, "seconds"), 0.0);
  cr_assert_float_eq(entry(&r, "z", 0), 4.0 / 3.0, 1e-12);
  cr_assert_float_eq(entry(&r, "z", 1), 7.0 / 3.0, 1e-12);
  cr_assert_float_eq(entry(&r, "w", 0), 0.0, 1e-12);
  run_free(&r);
}

Test(lcp_cli, infeasible_problem_ends_in_a_ray_with_exit_3) {
  lcp_run r = run_lcp("lcp_ray", "2\n1 -1 -1 1\n-1 -1\n", NULL);
  cr_assert_eq(r.code, 3);
  cr_assert_str_eq(status_of(&r), "ray");
  run_free(&r);
  r = run_lcp("lcp_ray1", "1 -1 -1\n", NULL);
  cr_assert_eq(r.code, 3);
  cr_assert_str_eq(status_of(&r), "ray");
  run_free(&r);
}

/* Murty's example for n = 6 needs 63 pivots. */
static const char murty6[] =
    "6\n"
    "1 2 2 2 2 2\n0 1 2 2 2 2\n0 0 1 2 2 2\n0 0 0 1 2 2\n0 0 0 0 1 2\n0 0 0 0 0 1\n"
    "-126 -124 -120 -112 -96 -64\n";

Test(lcp_cli, pivot_limit_is_reported_with_exit_3) {
  lcp_run r = run_lcp("lcp_maxpiv", murty6, (const char *[]){"--max-pivots", "10", NULL});
  cr_assert_eq(r.code, 3);
  cr_assert_str_eq(status_of(&r), "max_pivots");
  cr_assert_eq(json_number(r.json, "pivots"), 10);
  run_free(&r);
  r = run_lcp("lcp_murty", murty6, NULL);
  cr_assert_eq(r.code, 0);
  cr_assert_eq(json_number(r.json, "pivots"), 63);
  cr_assert_eq(entry(&r, "z", 5), 64.0);
  run_free(&r);
}

Test(lcp_cli, tolerance_is_the_bar_for_solved) {
  lcp_run r = run_lcp("lcp_tol", spd, (const char *[]){"--tol", "1e-300", NULL});
  cr_assert_eq(r.code, 3);
  cr_assert_str_eq(status_of(&r), "inaccurate");
  run_free(&r);
}

static const char mixed3[] = "3\n4 1 0\n1 4 1\n0 1 4\n-1 2 -3\n";

Test(lcp_cli, pgs_and_jacobi_iterate_to_the_tolerance) {
  const char *solvers[] = {"pgs", "jacobi"};
  for (int s = 0; s < 2; ++s) {
    lcp_run r = run_lcp("lcp_iter", mixed3, (const char *[]){"--solver", solvers[s], NULL});
    cr_assert_eq(r.code, 0, "%s: %s", solvers[s], r.err);
    cr_assert_str_eq(status_of(&r), "solved");
    cr_assert_leq(json_number(r.json, "error"), 1e-9);
    cr_assert_gt(json_number(r.json, "iterations"), 0);
    cr_assert(isnan(json_number(r.json, "pivots")));
    cr_assert_float_eq(entry(&r, "z", 0), 0.25, 1e-8);
    cr_assert_float_eq(entry(&r, "z", 2), 0.75, 1e-8);
    cr_assert_float_eq(entry(&r, "w", 1), 3.0, 1e-8);
    run_free(&r);
  }
}

Test(lcp_cli, iteration_limit_is_reported_with_exit_3) {
  lcp_run r = run_lcp("lcp_maxit", mixed3,
                      (const char *[]){"--solver", "jacobi", "--max-iterations", "3", NULL});
  cr_assert_eq(r.code, 3);
  cr_assert_str_eq(status_of(&r), "max_iterations");
  cr_assert_eq(json_number(r.json, "iterations"), 3);
  cr_assert_gt(json_number(r.json, "error"), 1e-9);
  run_free(&r);
}

/* Malformed file: exit 2, nothing on stdout, one line of stderr naming the file and reason. */
static void expect_malformed(const char *text, const char *reason) {
  lcp_run r = run_lcp("lcp_bad", text, NULL);
  cr_assert_eq(r.code, 2, "%s: exit %d", reason, r.code);
  cr_assert_null(r.json);
  cr_assert_not_null(r.err);
  cr_assert_not_null(strstr(r.err, "p.lcp"), "%s", r.err);
  cr_assert_not_null(strstr(r.err, reason), "'%s' not in: %s", reason, r.err);
  cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
  run_free(&r);
}

Test(lcp_cli, malformed_files_exit_2_naming_file_and_reason) {
  expect_malformed("2\n2 1\n1 2\n-5\n", "wrong count");
  expect_malformed("2\n2 1\n1 2\n-5 -6 7\n", "wrong count");
  expect_malformed("2\n2 1\n1 two\n-5 -6\n", "'two' is not a finite number");
  expect_malformed("2\n2 1\n1 2\n-5 nan\n", "not a finite number");
  expect_malformed("0\n", "positive integer");
  expect_malformed("-3\n1 2 3\n", "positive integer");
  expect_malformed("1.5\n1 2 3\n", "positive integer");
  expect_malformed("# nothing but a comment\n", "no numbers");
  expect_malformed(NULL, "cannot read");
}

Test(lcp_cli, bad_options_exit_2) {
  const char *const *bad[] = {
      (const char *[]){"--solver", "simplex", NULL}, (const char *[]){"--max-pivots", "0", NULL},
      (const char *[]){"--tol", "-1", NULL},         (const char *[]){"--frobnicate", NULL},
      (const char *[]){"--solver", "pgs", "--max-pivots", "5", NULL},
      (const char *[]){"--max-iterations", "5", NULL},
      (const char *[]){"--trace", "t.csv", NULL}, /* lemke has no iterates to trace */
      (const char *[]){"--solver", "pgs", "--trace", NULL},
      (const char *[]){"--omega", "0.5", NULL}, /* lemke has no relaxation */
      (const char *[]){"--solver", "jacobi", "--omega", "1.5", NULL}, /* jacobi: (0, 1] */
      (const char *[]){"--solver", "pgs", "--omega", "x", NULL}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    lcp_run r = run_lcp("lcp_opts", spd, bad[i]);
    cr_assert_eq(r.code, 2, "case %zu: exit %d", i, r.code);
    cr_assert_null(r.json);
    run_free(&r);
  }
}

/* Lemke's output as the reference of PGS and Jacobi: the trace starts at z = 0 (z_error 1) and
 * ends at the reference. */
Test(lcp_cli, reference_and_trace_measure_iterates_against_lemke) {
  lcp_run ref = run_lcp("lcp_ref", mixed3, NULL);
  cr_assert_eq(ref.code, 0);
  char *json = cJSON_Print(ref.json);
  const char *dir = test_dir("lcp_ref_files");
  char refp[1100], trace[1100];
  snprintf(refp, sizeof refp, "%s", write_text(dir, "ref.json", json));
  free(json);
  run_free(&ref);
  const char *solvers[] = {"pgs", "jacobi"};
  for (int s = 0; s < 2; ++s) {
    snprintf(trace, sizeof trace, "%s/%s.csv", dir, solvers[s]);
    lcp_run r = run_lcp("lcp_trace", mixed3,
                        (const char *[]){"--solver", solvers[s], "--omega", s ? "0.4" : "1.2",
                                         "--tol", "1e-11", "--reference", refp, "--trace", trace,
                                         NULL});
    cr_assert_eq(r.code, 0, "%s: %s", solvers[s], r.err);
    cr_assert_leq(json_number(r.json, "reference_error"), 1e-10);
    cr_assert_leq(json_number(r.json, "reference_w_error"), 1e-10);
    char *csv = read_text(trace);
    cr_assert_not_null(csv);
    cr_assert(strncmp(csv, "iteration,seconds,lcp_error,z_error,w_error\n0,0,", 48) == 0, "%s",
              csv);
    long rows = 0, last_it = -1;
    double z_err = NAN;
    for (char *line = strtok(strchr(csv, '\n') + 1, "\n"); line; line = strtok(NULL, "\n")) {
      long it;
      double sec, lcp, ze, we;
      cr_assert_eq(sscanf(line, "%ld,%lf,%lf,%lf,%lf", &it, &sec, &lcp, &ze, &we), 5, "%s", line);
      cr_assert_eq(it, rows < 101 ? rows : it, "one row per iteration up to 100");
      cr_assert_gt(it, last_it);
      if (rows == 0) cr_assert_float_eq(ze, 1.0, 1e-15);
      last_it = it;
      z_err = ze;
      rows++;
    }
    cr_assert_eq(last_it, (long)json_number(r.json, "iterations"));
    cr_assert_leq(z_err, 1e-10);
    free(csv);
    run_free(&r);
  }
}

Test(lcp_cli, bad_reference_exits_2_naming_it) {
  const char *dir = test_dir("lcp_badref");
  char shortp[1100], notjson[1100];
  snprintf(shortp, sizeof shortp, "%s", write_text(dir, "short.json", "{\"z\": [1, 2]}"));
  snprintf(notjson, sizeof notjson, "%s", write_text(dir, "bad.json", "z = 1 2 3"));
  const char *refs[] = {shortp, notjson, "/nonexistent/ref.json"};
  for (size_t i = 0; i < 3; ++i) {
    lcp_run r = run_lcp("lcp_badref_run", mixed3,
                        (const char *[]){"--solver", "pgs", "--reference", refs[i], NULL});
    cr_assert_eq(r.code, 2, "case %zu: exit %d", i, r.code);
    cr_assert_null(r.json);
    cr_assert(strstr(r.err, refs[i]) != NULL, "message names the reference: %s", r.err);
    run_free(&r);
  }
}
