/* test_lcp_dump.c — `vbc run --dump-lcp STEP DIR` (lcp/lcp_dump.c): the file of a coarse
 * hydrostatic step is one LCP that `vbc lcp` reads, Lemke solves it to 1e-9, and converged PGS on
 * the same file lands on Lemke's impulses (to the run's PGS tolerance 1e-3: a singular or
 * ill-conditioned M = J W J^T fixes w sharply, z only up to its near-null space) and on its w
 * (1e-6); the warm start (starting impulses) does not change the dumped LCP (q = J u* - b);
 * a pin's bilateral rows are written split in two; every bad input exits 2 with one message
 * before anything is written. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

static const char *scene(void) { return source_path("experiments/scenes/hydrostatic.json"); }

/* `vbc run` hydrostatic at l = 0.05 (241 rows), two steps, dumping step 2 into dir/lcp. */
static int dump_run(const char *dir, const char *step, const char *warm, char **err) {
  char out[1100], lcp[1100], warm_set[64];
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(lcp, sizeof lcp, "%s/lcp", dir);
  snprintf(warm_set, sizeof warm_set, "method.fluid.warm_start=%s", warm);
  const char *args[] = {"run", scene(), "--set", "spacing=0.05", "--set", "time.end=0.002",
                        "--set", warm_set, "--threads", "1", "--out", out,
                        "--dump-lcp", step, lcp, NULL};
  return run_vbc(args, err);
}

/* The one .lcp file in dir/lcp (path into buf); fails if there is not exactly one, or if a
 * temporary file was left behind. */
static const char *only_lcp(const char *dir, char *buf, size_t cap) {
  char lcp[1100];
  snprintf(lcp, sizeof lcp, "%s/lcp", dir);
  DIR *d = opendir(lcp);
  cr_assert_not_null(d, "no directory %s", lcp);
  int found = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    size_t len = strlen(e->d_name);
    cr_assert(len > 4 && strcmp(e->d_name + len - 4, ".lcp") == 0, "stray file %s", e->d_name);
    snprintf(buf, cap, "%s/%s", lcp, e->d_name);
    found++;
  }
  closedir(d);
  cr_assert_eq(found, 1, "expected one LCP file in %s, found %d", lcp, found);
  return buf;
}

/* `vbc lcp file opts...`: exit code, stdout parsed as JSON (NULL if not JSON). */
static int lcp_solve(const char *dir, const char *file, const char *const *opts, cJSON **json) {
  char outp[1100];
  snprintf(outp, sizeof outp, "%s/lcp_stdout.json", dir);
  const char *args[16] = {"lcp", file};
  int k = 2;
  for (; *opts && k < 15; ++opts) args[k++] = *opts;
  args[k] = NULL;
  int rc = run_vbc_to(args, outp, NULL);
  cr_assert_geq(rc, 0, "vbc lcp did not run or died");
  *json = read_json(outp);
  return rc;
}

/* max_i |a_i - b_i| / max_i |a_i| over the arrays key of two results. */
static double rel_diff(const cJSON *a, const cJSON *b, const char *key) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, key);
  const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, key);
  int n = cJSON_GetArraySize(x);
  cr_assert(n > 0 && n == cJSON_GetArraySize(y));
  double diff = 0.0, scale = 0.0;
  for (int i = 0; i < n; ++i) {
    double u = cJSON_GetArrayItem(x, i)->valuedouble, v = cJSON_GetArrayItem(y, i)->valuedouble;
    diff = fmax(diff, fabs(u - v));
    scale = fmax(scale, fabs(u));
  }
  return diff / scale;
}

Test(lcp_dump, hydrostatic_step_is_an_lcp_that_lemke_solves_and_pgs_agrees_with) {
  const char *dir = test_dir("lcp_dump_hydro");
  char *err = NULL, file[1200];
  cr_assert_eq(dump_run(dir, "2", "true", &err), 0, "%s", err ? err : "");
  free(err);
  only_lcp(dir, file, sizeof file);
  cr_assert(strstr(file, "/step000002_solve0_mps") != NULL, "file name %s", file);
  char *text = read_text(file);
  cr_assert_not_null(text);
  cr_assert(strstr(text, "# scene: ") && strstr(text, "hydrostatic.json"));
  cr_assert(strstr(text, "# step: 2 (1-based; advances t = 0.001 s to 0.002 s"));
  cr_assert(strstr(text, "block 0: mps (fluid)"));
  cr_assert(strstr(text, "z = lambda"));
  free(text);

  cJSON *lemke = NULL, *pgs = NULL;
  cr_assert_eq(lcp_solve(dir, file, (const char *[]){"--solver", "lemke", NULL}, &lemke), 0);
  cr_assert_not_null(lemke);
  cr_assert_str_eq(cJSON_GetObjectItem(lemke, "status")->valuestring, "solved");
  cr_assert_leq(json_number(lemke, "error"), 1e-9);
  cr_assert_gt(json_number(lemke, "n"), 100);
  cr_assert_leq(json_number(lemke, "n"), 500);
  cr_assert_eq(lcp_solve(dir, file,
                         (const char *[]){"--solver", "pgs", "--tol", "1e-10", "--max-iterations",
                                          "200000", NULL},
                         &pgs), 0);
  cr_assert_not_null(pgs);
  cr_assert_leq(rel_diff(lemke, pgs, "z"), 1e-3, "z: PGS vs Lemke %g", rel_diff(lemke, pgs, "z"));
  cr_assert_leq(rel_diff(lemke, pgs, "w"), 1e-6, "w: PGS vs Lemke %g", rel_diff(lemke, pgs, "w"));
  /* MPRGP (IC(0) in face) on the same file: w to 1e-9 of Lemke's; z as PGS's, up to the
   * near-null space of M (measured: w 4.6e-11, z 4.1e-6) */
  cJSON *mprgp = NULL;
  cr_assert_eq(lcp_solve(dir, file,
                         (const char *[]){"--solver", "mprgp", "--tol", "1e-10", "--max-iterations",
                                          "20000", NULL},
                         &mprgp), 0);
  cr_assert_not_null(mprgp);
  cr_assert_str_eq(cJSON_GetObjectItem(mprgp, "status")->valuestring, "solved");
  cr_assert_leq(rel_diff(lemke, mprgp, "w"), 1e-9, "w: MPRGP vs Lemke %g",
                rel_diff(lemke, mprgp, "w"));
  cr_assert_leq(rel_diff(lemke, mprgp, "z"), 1e-3, "z: MPRGP vs Lemke %g",
                rel_diff(lemke, mprgp, "z"));
  cJSON_Delete(mprgp);
  cJSON_Delete(lemke);
  cJSON_Delete(pgs);
}

/* A pin joint's bilateral rows (the seesaw's bar) have no place in a standard LCP: they are
 * written split in two, as Lemke solves them, and the file is still solved. */
Test(lcp_dump, pin_rows_are_written_split_and_lemke_solves_them) {
  const char *dir = test_dir("lcp_dump_pin");
  char out[1100], lcp[1100], file[1200];
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(lcp, sizeof lcp, "%s/lcp", dir);
  const char *args[] = {"run", source_path("experiments/scenes/seesaw.json"), "--set",
                        "time.end=0.01", "--threads", "1", "--quiet", "--out", out,
                        "--dump-lcp", "2", lcp, NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 0, "%s", err ? err : "");
  free(err);
  only_lcp(dir, file, sizeof file);
  cr_assert(strstr(file, "/step000002_solve0_mps+pin.lcp") != NULL, "file name %s", file);
  char *text = read_text(file);
  cr_assert_not_null(text);
  cr_assert(strstr(text, "pin (pin): LCP rows") && strstr(text, "2 bilateral"), "%s", text);
  free(text);
  cJSON *lemke = NULL;
  cr_assert_eq(lcp_solve(dir, file, (const char *[]){"--solver", "lemke", NULL}, &lemke), 0);
  cr_assert_leq(json_number(lemke, "error"), 1e-9);
  cJSON *mprgp = NULL; /* and MPRGP, on the split rows too */
  cr_assert_eq(lcp_solve(dir, file,
                         (const char *[]){"--solver", "mprgp", "--tol", "1e-10", "--max-iterations",
                                          "20000", NULL},
                         &mprgp), 0);
  cr_assert_leq(json_number(mprgp, "error"), 1e-10);
  cr_assert_leq(rel_diff(lemke, mprgp, "w"), 1e-9, "w: %g", rel_diff(lemke, mprgp, "w"));
  cJSON_Delete(mprgp);
  cJSON_Delete(lemke);
}

/* The numbers of an LCP file (comments skipped); *n gets how many. */
static double *numbers(const char *path, size_t *n) {
  char *text = read_text(path);
  cr_assert_not_null(text, "cannot read %s", path);
  size_t cap = 1024, k = 0;
  double *x = malloc(cap * sizeof *x);
  cr_assert_not_null(x);
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[strspn(line, " \t")] == '#') continue;
    for (char *p = line, *end;; p = end) {
      double v = strtod(p, &end);
      if (end == p) break;
      if (k == cap) x = realloc(x, (cap *= 2) * sizeof *x);
      cr_assert_not_null(x);
      x[k++] = v;
    }
  }
  free(text);
  *n = k;
  return x;
}

Test(lcp_dump, warm_start_does_not_change_the_dumped_lcp) {
  /* step 1 is the same with and without warm start (no pressure yet); in step 2 the warm-started
   * solve starts from step 1's impulses, yet q = J u* - b must be the same */
  char *err = NULL, cold[1200], warm[1200];
  const char *dcold = test_dir("lcp_dump_cold");
  cr_assert_eq(dump_run(dcold, "2", "false", &err), 0, "%s", err ? err : "");
  free(err);
  const char *dwarm = test_dir("lcp_dump_warm");
  cr_assert_eq(dump_run(dwarm, "2", "true", &err), 0, "%s", err ? err : "");
  free(err);
  size_t nc, nw;
  double *a = numbers(only_lcp(dcold, cold, sizeof cold), &nc);
  double *b = numbers(only_lcp(dwarm, warm, sizeof warm), &nw);
  cr_assert_eq(nc, nw);
  const size_t n = (size_t)a[0];
  cr_assert_eq(nc, 1 + n * n + n);
  double mscale = 0.0, mdiff = 0.0, qscale = 0.0, qdiff = 0.0;
  for (size_t k = 1; k < nc; ++k) {
    const int in_q = k > n * n;
    double *scale = in_q ? &qscale : &mscale, *diff = in_q ? &qdiff : &mdiff;
    *scale = fmax(*scale, fabs(a[k]));
    *diff = fmax(*diff, fabs(a[k] - b[k]));
  }
  cr_assert_eq(mdiff, 0.0, "M differs by %g", mdiff);
  cr_assert_leq(qdiff, 1e-9 * qscale, "q differs by %g of %g", qdiff, qscale);
  cr_assert_gt(qscale, 0.0);
  free(a);
  free(b);
}

/* Exit 2, one line naming what is wrong, and no summary.json. */
static void expect_refused(const char *name, const char *step, const char *lcp_dir,
                           const char *fragment) {
  const char *dir = test_dir(name);
  char out[1100], summary[1200];
  snprintf(out, sizeof out, "%s/out", dir);
  const char *args[] = {"run", scene(), "--set", "spacing=0.05", "--set", "time.end=0.002",
                        "--quiet", "--out", out, "--dump-lcp", step, lcp_dir, NULL};
  char *err = NULL;
  int rc = run_vbc(args, &err);
  cr_assert_eq(rc, 2, "%s: exit %d", name, rc);
  cr_assert_not_null(err);
  cr_assert(strstr(err, fragment) != NULL, "%s: message '%s' lacks '%s'", name, err, fragment);
  snprintf(summary, sizeof summary, "%s/summary.json", out);
  cr_assert(!file_exists(summary), "%s: summary.json written", name);
  free(err);
}

Test(lcp_dump, bad_step_or_directory_exits_2) {
  char dir[1024], lcp[1100], blocker[1100];
  snprintf(dir, sizeof dir, "%s", test_dir("lcp_dump_bad")); /* test_dir's buffers rotate */
  snprintf(lcp, sizeof lcp, "%s/lcp", dir);
  expect_refused("lcp_dump_bad_zero", "0", lcp, "--dump-lcp: expected a positive step number");
  expect_refused("lcp_dump_bad_word", "two", lcp, "--dump-lcp: expected a positive step number");
  expect_refused("lcp_dump_bad_neg", "-1", lcp, "--dump-lcp: expected a positive step number");
  expect_refused("lcp_dump_bad_beyond", "3", lcp, "--dump-lcp 3: expected a step in 1..2");
  cr_assert(!file_exists(lcp), "the directory was made for a step that never comes");
  /* a directory below a regular file cannot be created */
  snprintf(blocker, sizeof blocker, "%s/sub", write_text(dir, "plain_file", "x\n"));
  expect_refused("lcp_dump_bad_dir", "1", blocker, "cannot write into directory");
}
