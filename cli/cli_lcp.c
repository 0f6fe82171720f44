/* cli_lcp.c — `vbc lcp FILE [--solver NAME] [--max-pivots N] [--max-iterations N]
 * [--tol T] [--reference REF] [--trace FILE.csv]`: solve one linear complementarity problem read
 * from a file (docs/lcp.md).
 *
 * File: the .lcp format of lcp/lcp_file.h (n, M row by row, q; '#' comments). Output: one JSON
 * object on stdout with solver, status, n, pivots (lemke) or iterations (pgs, jacobi), error,
 * seconds, z and w. error is vbc_lcp_error (solvers/schemes/lemke/lemke.h) on w = M z + q recomputed from the
 * file's M and q, so every solver is judged by the same measure.
 *
 *   lemke        solvers/schemes/lemke/lemke.c; status solved, ray, max_pivots or inaccurate.
 *   pgs, jacobi  the lcp_matrix block (solvers/blocks/lcp_matrix.h) under vbc_solve with the
 *                solver's default parameters (--omega W sets the relaxation); they iterate
 *                until error <= T, checked after chunks of at
 *                most a tenth of the iterations made so far (at least 10), or until
 *                --max-iterations: status solved or max_iterations (diverged if the residual
 *                becomes non-finite).
 * T (--tol) is the largest error reported as solved, 1e-9 unless given. Exit codes: 0 solved;
 * 3 any other status; 2 bad input: a malformed file (missing, non-numeric token, n not a
 * positive integer, wrong count of numbers) with one message naming the file and the reason,
 * or bad options.
 *
 * Exact references. --reference REF reads z* from REF, a JSON object with an array
 * "z" of n numbers (what `vbc lcp --solver lemke` prints), and adds to the output
 * reference_error = |z - z*|_inf / max(|z*|_inf, 1e-300) and reference_w_error =
 * |w - w*|_inf / max(|w* - q|_inf, 1e-300), w* = M z* + q recomputed here: both are 1 at z = 0
 * and measure the part of the way from z = 0 to the solution still to go. For a symmetric positive
 * semi-definite M every solution has the same w, while z is only as well determined as M's
 * smallest eigenvalues allow, so the second is the fair measure on singular contact matrices.
 * --trace FILE (pgs, jacobi) writes the CSV iteration,seconds,lcp_error,z_error,w_error (the two
 * last empty without --reference) for the start (iteration 0) and every iteration up to 100,
 * then every ~1 % more iterations; seconds is the solve's wall time so far, without the trace.
 *
 * Storage: the lcp_matrix block keeps M sparse, so an iteration costs O(nnz), not O(n^2) (the LCPs
 * of `vbc run --dump-lcp` have a few dozen entries per row). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "lcp/exact_reference.h"
#include "lcp/lcp_file.h"
#include "io/files.h"
#include "io/json_file.h"
#include "core/json_util.h"
#include "sim/progress.h"
#include "registry/registry.h"
#include "solvers/blocks/lcp_matrix.h"
#include "solvers/schemes/lemke/lemke.h"

typedef struct lcp_args {
  const vbc_registry *registry;
  const char *file, *solver, *reference, *trace;
  long max_pivots, max_iterations;
  double tol, omega; /* omega: NAN for the solver's default */
} lcp_args;

static const char lcp_usage_line[] =
    "usage: vbc lcp FILE [--solver lemke|pgs|jacobi|mprgp|...] [--max-pivots N] [--max-iterations N] "
    "[--tol T]\n               [--omega W] [--reference REF.json] [--trace FILE.csv]\n";

static int lcp_usage(const char *fmt, const char *what) {
  fprintf(stderr, "vbc lcp: ");
  fprintf(stderr, fmt, what);
  fprintf(stderr, "\n%s", lcp_usage_line);
  return VBC_EXIT_INPUT;
}

static int positive_long(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < 1) return 0;
  *out = v;
  return 1;
}

/* omega within the range the solver type declares for its parameter. */
static int omega_in_range(const vbc_registry *reg, const char *solver, double omega) {
  const vbc_param_spec *p = vbc_param_find(vbc_registry_solver(reg, solver)->params, "omega");
  return p && omega <= p->max && (p->min_open ? omega > p->min : omega >= p->min);
}

static int parse_args(int argc, char **argv, lcp_args *a) {
  *a = (lcp_args){a->registry, NULL, "lemke", NULL, NULL, 0, 0, VBC_LEMKE_TOLERANCE, NAN};
  for (int i = 2; i < argc; ++i) {
    const char *s = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(s, "--solver") == 0) {
      if (!v) return lcp_usage("%s needs a registered solver (lemke, pgs, mprgp, ...)", s);
      if (vbc_registry_solver(a->registry, v) == NULL)
        return lcp_usage("--solver: expected a registered solver (vbc list), got %s", v);
      a->solver = v;
      ++i;
    } else if (strcmp(s, "--max-pivots") == 0) {
      if (!v || !positive_long(v, &a->max_pivots))
        return lcp_usage("--max-pivots: expected a positive integer, got %s", v ? v : "nothing");
      ++i;
    } else if (strcmp(s, "--max-iterations") == 0) {
      if (!v || !positive_long(v, &a->max_iterations) || a->max_iterations > 1000000000L)
        return lcp_usage("--max-iterations: expected an integer in 1..1e9, got %s",
                         v ? v : "nothing");
      ++i;
    } else if (strcmp(s, "--tol") == 0) {
      char *end;
      a->tol = v ? strtod(v, &end) : NAN;
      if (!v || end == v || *end != '\0' || !(a->tol > 0.0) || !isfinite(a->tol))
        return lcp_usage("--tol: expected a number > 0, got %s", v ? v : "nothing");
      ++i;
    } else if (strcmp(s, "--omega") == 0) {
      char *end;
      a->omega = v ? strtod(v, &end) : NAN;
      if (!v || end == v || *end != '\0' || !isfinite(a->omega))
        return lcp_usage("--omega: expected a number, got %s", v ? v : "nothing");
      ++i;
    } else if (strcmp(s, "--reference") == 0 || strcmp(s, "--trace") == 0) {
      if (!v) return lcp_usage("%s needs a file", s);
      *(s[2] == 'r' ? &a->reference : &a->trace) = v;
      ++i;
    } else if (s[0] == '-' && s[1] != '\0') {
      return lcp_usage("unknown option %s", s);
    } else if (a->file == NULL) {
      a->file = s;
    } else {
      return lcp_usage("unexpected argument %s", s);
    }
  }
  if (a->file == NULL) return lcp_usage("%s", "needs an LCP file");
  int lemke = strcmp(a->solver, "lemke") == 0;
  if (lemke && a->max_iterations)
    return lcp_usage("%s applies to --solver pgs and jacobi", "--max-iterations");
  if (!lemke && a->max_pivots) return lcp_usage("%s applies to --solver lemke", "--max-pivots");
  if (lemke && a->trace) return lcp_usage("%s applies to --solver pgs and jacobi", "--trace");
  if (lemke && !isnan(a->omega))
    return lcp_usage("%s applies to --solver pgs and jacobi", "--omega");
  if (!lemke && !isnan(a->omega) && !omega_in_range(a->registry, a->solver, a->omega))
    return lcp_usage("--omega: outside the range of --solver %s (vbc list)", a->solver);
  if (!a->max_iterations) a->max_iterations = 10000;
  return 0;
}

typedef struct lcp_outcome {
  const char *status;
  const char *count_key; /* "pivots" or "iterations" */
  long count;
  double seconds;
} lcp_outcome;

static int solve_lemke(const lcp_args *a, size_t n, const double *M, const double *q, double *z,
                       double *w, lcp_outcome *o, vbc_error *err) {
  vbc_lemke_options opt;
  vbc_lemke_options_default(&opt);
  opt.max_pivots = a->max_pivots;
  opt.tolerance = a->tol;
  vbc_lemke_result res;
  const double t0 = vbc_now();
  if (vbc_lemke_dense(n, M, q, &opt, z, w, &res, err) != VBC_OK) return err->code;
  *o = (lcp_outcome){vbc_lemke_status_name(res.status), "pivots", res.pivots, vbc_now() - t0};
  return VBC_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Exact reference and trace (head comment). */

/* z* and w* = M z* + q, the scales and the two errors: vbc_lcp_reference (lcp/exact_reference.h,
 * shared with vbc run --exact-reference). */
typedef vbc_lcp_reference lcp_ref;

static int read_reference(const char *path, size_t n, const double *M, const double *q,
                          lcp_ref *r, vbc_error *err) {
  memset(r, 0, sizeof *r);
  cJSON *root = vbc_json_load_file(path, err);
  if (root == NULL) return err->code;
  const cJSON *z = cJSON_GetObjectItemCaseSensitive(root, "z");
  int ok = cJSON_IsArray(z) && (size_t)cJSON_GetArraySize(z) == n;
  if (vbc_lcp_reference_resize(r, n, err) != VBC_OK) {
    cJSON_Delete(root);
    return err->code;
  }
  for (size_t i = 0; ok && i < n; ++i) {
    const cJSON *x = cJSON_GetArrayItem(z, (int)i);
    ok = cJSON_IsNumber(x) && isfinite(x->valuedouble);
    if (ok) r->z[i] = x->valuedouble;
  }
  cJSON_Delete(root);
  if (!ok)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: expected a JSON object with \"z\", an array "
                         "of %zu finite numbers (vbc lcp --solver lemke prints one)", path, n);
  for (size_t i = 0; i < n; ++i) {
    double acc = q[i];
    for (size_t k = 0; k < n; ++k) acc += M[i * n + k] * r->z[k];
    r->w[i] = acc;
  }
  vbc_lcp_reference_scale(r, q);
  return VBC_OK;
}

/* One trace row: iteration, seconds, lcp_error, z_error, w_error. */
static void trace_row(FILE *f, long it, double seconds, size_t n, const double *q, const double *z,
                      const double *w, const lcp_ref *ref) {
  fprintf(f, "%ld,%.6g,%.6e,", it, seconds, vbc_lcp_error(n, q, z, w));
  double ez, ew;
  if (ref->z) {
    vbc_lcp_reference_errors(ref, z, w, &ez, &ew);
    fprintf(f, "%.6e,%.6e\n", ez, ew);
  } else
    fputs(",\n", f);
}

/* Iterations until the next check: a tenth of those made so far (at least 10); with a trace,
 * every iteration up to 100, then a hundredth of those made so far. */
static long next_chunk(long done, int tracing) {
  if (tracing) return done < 100 ? 1 : done / 100;
  return done / 10 > 10 ? done / 10 : 10;
}

/* PGS or Jacobi on the lcp_matrix block, in chunks of vbc_solve calls (head comment); trace (may
 * be NULL) gets the rows of --trace. */
static int iterate_chunks(const lcp_args *a, vbc_block *b, vbc_solver *s, const double *q,
                          double *z, double *w, FILE *trace, const lcp_ref *ref, lcp_outcome *o,
                          vbc_error *err) {
  vbc_system sys = {0};
  vbc_block *blocks[1] = {b};
  vbc_problem pb = {&sys, blocks, 1};
  double solving = 0.0; /* seconds in the solver, without the trace's own work */
  for (;;) {
    const double t0 = vbc_now();
    /* restart from z: prepare zeroes the block's M z, vbc_solve's warm start applies z again */
    if (b->type->prepare(b->state, &sys, &b->rows, err) != VBC_OK) return err->code;
    memcpy(b->rows.impulse, z, b->rows.n * sizeof *z);
    long left = a->max_iterations - o->count, chunk = next_chunk(o->count, trace != NULL);
    s->control.max_iterations = (int)(chunk < left ? chunk : left);
    vbc_solve_result res;
    int rc = vbc_solve(s, &pb, &res, NULL, err);
    if (rc != VBC_OK) {
      if (rc != VBC_EXIT_FAILED) return rc;
      o->status = "diverged"; /* the residual became non-finite */
      vbc_error_clear(err);
      break;
    }
    o->count += res.iterations;
    memcpy(z, b->rows.impulse, b->rows.n * sizeof *z);
    vbc_lcp_matrix_w(b, w);
    const double err_now = vbc_lcp_error(b->rows.n, q, z, w);
    solving += vbc_now() - t0;
    if (trace && res.iterations > 0) trace_row(trace, o->count, solving, b->rows.n, q, z, w, ref);
    if (err_now <= a->tol) {
      o->status = "solved";
      break;
    }
    if (o->count >= a->max_iterations || res.iterations == 0) break;
  }
  o->seconds = solving;
  return VBC_OK;
}

static int solve_iterative(const lcp_args *a, size_t n, const double *M, const double *q,
                           double *z, double *w, const lcp_ref *ref, lcp_outcome *o,
                           vbc_error *err) {
  vbc_block b;
  vbc_solver s;
  if (vbc_lcp_matrix_block_init(&b, n, M, q, err) != VBC_OK) return err->code;
  cJSON *params = cJSON_CreateObject();
  if (params == NULL || (!isnan(a->omega) && !cJSON_AddNumberToObject(params, "omega", a->omega))) {
    cJSON_Delete(params);
    vbc_block_free(&b);
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
  }
  int init = vbc_solver_init(&s, vbc_registry_solver(a->registry, a->solver), params, err);
  cJSON_Delete(params);
  if (init != VBC_OK) {
    vbc_block_free(&b);
    return err->code;
  }
  s.control.tolerance = 0.0; /* the stopping test is ours: error <= tol */
  s.control.min_iterations = 0;
  *o = (lcp_outcome){"max_iterations", "iterations", 0, 0.0};
  memset(z, 0, n * sizeof *z);
  memcpy(w, q, n * sizeof *q);
  vbc_file trace = {0};
  int rc = a->trace ? vbc_file_open(&trace, a->trace, ".tmp", err) : VBC_OK;
  if (rc == VBC_OK && a->trace) {
    fputs("iteration,seconds,lcp_error,z_error,w_error\n", trace.f);
    trace_row(trace.f, 0, 0.0, n, q, z, w, ref);
  }
  if (rc == VBC_OK) rc = iterate_chunks(a, &b, &s, q, z, w, trace.f, ref, o, err);
  if (rc == VBC_OK) vbc_lcp_matrix_w(&b, w);
  if (trace.f) {
    if (rc == VBC_OK) rc = vbc_file_commit(&trace, err);
    else vbc_file_discard(&trace);
  }
  vbc_solver_free(&s);
  vbc_block_free(&b);
  return rc;
}

static cJSON *vector(const double *v, size_t n) {
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; arr && i < n; ++i) cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[i]));
  return arr;
}

static int print_result(const lcp_args *a, size_t n, const double *q, const double *z,
                        const double *w, const lcp_ref *ref, const lcp_outcome *o) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "solver", a->solver);
  cJSON_AddStringToObject(root, "status", o->status);
  cJSON_AddNumberToObject(root, "n", (double)n);
  cJSON_AddNumberToObject(root, o->count_key, (double)o->count);
  cJSON_AddNumberToObject(root, "error", vbc_lcp_error(n, q, z, w));
  cJSON_AddNumberToObject(root, "seconds", o->seconds);
  if (ref->z) {
    double ez, ew;
    vbc_lcp_reference_errors(ref, z, w, &ez, &ew);
    cJSON_AddNumberToObject(root, "reference_error", ez);
    cJSON_AddNumberToObject(root, "reference_w_error", ew);
  }
  cJSON_AddItemToObject(root, "z", vector(z, n));
  cJSON_AddItemToObject(root, "w", vector(w, n));
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL) {
    fprintf(stderr, "vbc: out of memory\n");
    return VBC_EXIT_SYSTEM;
  }
  puts(text);
  free(text);
  return strcmp(o->status, "solved") == 0 ? 0 : VBC_EXIT_FAILED;
}

/* Solve with the chosen solver and print the result; errors are reported by the caller. */
static int solve_and_print(const lcp_args *a, size_t n, const double *M, const double *q,
                           const lcp_ref *ref, vbc_error *err) {
  double *z = vbc_calloc(n, sizeof *z, err), *w = z ? vbc_calloc(n, sizeof *w, err) : NULL;
  int rc;
  if (w == NULL) {
    rc = err->code;
  } else {
    lcp_outcome o = {"failed", "pivots", 0, 0.0};
    rc = strcmp(a->solver, "lemke") == 0 ? solve_lemke(a, n, M, q, z, w, &o, err)
                                         : solve_iterative(a, n, M, q, z, w, ref, &o, err);
    if (rc == VBC_OK) rc = print_result(a, n, q, z, w, ref, &o);
  }
  free(z);
  free(w);
  return rc;
}

int vbc_lcp_main(int argc, char **argv, const vbc_registry *registry) {
  lcp_args a = {.registry = registry};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  vbc_error err;
  vbc_error_clear(&err);
  size_t n = 0;
  lcp_ref ref = {0};
  double *x = vbc_lcp_file_read(a.file, &n, &err);
  if (x != NULL &&
      (a.reference == NULL || read_reference(a.reference, n, x + 1, x + 1 + n * n, &ref, &err) ==
                                  VBC_OK)) {
    rc = solve_and_print(&a, n, x + 1, x + 1 + n * n, &ref, &err);
    if (err.code) fprintf(stderr, "vbc: %s: %s\n", a.file, err.message);
  } else {
    fprintf(stderr, "vbc: %s\n", err.message); /* the message names the file */
  }
  vbc_lcp_reference_free(&ref);
  free(x);
  return err.code ? err.code : rc;
}
