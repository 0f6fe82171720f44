/* test_exact_reference.c — `vbc run --exact-reference` (lcp/exact_reference.c): on a replayed
 * dam-break step (l = 0.02, MPS rows + fluid-wall contacts) PGS from zero impulses starts at
 * reference_error = reference_w_error = 1 and, converged to round-off, ends within 1e-6 of
 * Lemke's solution; without the option both columns are empty and every other column is the
 * same (the option changes nothing it does not add). The LCP is the one `vbc run --dump-lcp`
 * writes (the same vbc_lemke_assemble at the same point of vbc_solve; tests/test_lcp_dump.c). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

static const char *scene(void) { return source_path("experiments/scenes/dam_break.json"); }

/* The frozen state before step 100 of the dam break at l = 0.02, h = 0.001 (in dir). */
static const char *frozen_state(const char *dir) {
  static char state[1100];
  char out[1100];
  snprintf(state, sizeof state, "%s/step100.state", dir);
  snprintf(out, sizeof out, "%s/dump", dir);
  const char *args[] = {"run", scene(), "--set", "spacing=0.02", "--set", "time.dt=0.001",
                        "--set", "time.end=0.1", "--threads", "1", "--quiet", "--out", out,
                        "--dump-state", "100", state, NULL};
  cr_assert_eq(run_vbc(args, NULL), 0, "dumping the state failed");
  return state;
}

/* Replay the state with cold-started PGS converged to round-off, into dir/name. */
static char *replay(const char *dir, const char *name, const char *state, int exact) {
  char out[1100];
  snprintf(out, sizeof out, "%s/%s", dir, name);
  const char *args[] = {"run", scene(), "--set", "spacing=0.02", "--set", "time.dt=0.001",
                        "--set", "method.fluid.warm_start=false",
                        "--set", "method.fluid.tolerance=1e-12",
                        "--set", "method.fluid.max_iterations=20000",
                        "--threads", "1", "--quiet", "--out", out, "--from-state", state,
                        exact ? "--exact-reference" : NULL, NULL};
  char *err = NULL;
  int rc = run_vbc(args, &err);
  cr_assert_eq(rc, 0, "replay failed: %s", err ? err : "");
  cr_assert(err == NULL || strstr(err, "exact-reference") == NULL, "unexpected note: %s", err);
  free(err);
  char path[1200];
  snprintf(path, sizeof path, "%s/convergence.csv", out);
  char *text = read_text(path);
  cr_assert_not_null(text, "no %s", path);
  return text;
}

/* The reference columns (8 and 9) of the first and the last row of convergence.csv (NAN when
 * empty), and whether any row has them empty. */
typedef struct columns {
  double first_z, first_w, last_z, last_w;
  int rows, empty;
} columns;

static double field(const char *line, int index) {
  for (int k = 0; k < index; ++k) {
    line = strchr(line, ',');
    cr_assert_not_null(line);
    ++line;
  }
  return *line == ',' || *line == '\n' ? NAN : strtod(line, NULL);
}

static columns reference_columns(const char *csv) {
  const char *line = strchr(csv, '\n');
  cr_assert_not_null(line);
  cr_assert(strncmp(csv, "step,time,block,iteration,residual,relative_residual,mean_error,"
                         "reference_error,reference_w_error,seconds\n", (size_t)(line - csv + 1)) == 0,
            "header: %.*s", (int)(line - csv), csv);
  columns c = {NAN, NAN, NAN, NAN, 0, 0};
  for (++line; *line; line = strchr(line, '\n') + 1) {
    double z = field(line, 7), w = field(line, 8);
    if (c.rows++ == 0) c.first_z = z, c.first_w = w;
    c.last_z = z, c.last_w = w;
    c.empty += isnan(z) || isnan(w);
  }
  return c;
}

Test(exact_reference, pgs_from_zero_ends_at_lemkes_solution, .timeout = 60) {
  const char *dir = test_dir("exact_reference_pgs");
  const char *state = frozen_state(dir);
  char *with = replay(dir, "with", state, 1);
  columns c = reference_columns(with);
  cr_assert_gt(c.rows, 10);
  cr_assert_eq(c.empty, 0, "every row carries the solve's reference errors");
  cr_assert_float_eq(c.first_z, 1.0, 1e-15, "z = 0 is the whole way from z*: %g", c.first_z);
  cr_assert_float_eq(c.first_w, 1.0, 1e-12, "w = q is the whole way from w*: %g", c.first_w);
  cr_assert_lt(c.last_z, 1e-6, "converged PGS: z error %g", c.last_z);
  cr_assert_lt(c.last_w, 1e-6, "converged PGS: w error %g", c.last_w);
  free(with);
}

Test(exact_reference, off_leaves_the_columns_empty_and_the_rest_identical, .timeout = 60) {
  const char *dir = test_dir("exact_reference_off");
  const char *state = frozen_state(dir);
  char *with = replay(dir, "with", state, 1), *without = replay(dir, "without", state, 0);
  columns c = reference_columns(without);
  cr_assert_eq(c.empty, c.rows, "without the option the reference columns are empty");
  /* drop seconds, then the two reference columns: the rest must agree byte for byte */
  strip_last_field(with), strip_last_field(without);
  strip_last_field(with), strip_last_field(without);
  strip_last_field(with), strip_last_field(without);
  cr_assert_str_eq(with, without, "--exact-reference changed the solve");
  free(with), free(without);
}
