/* lcp_bench.c — Lemke (solvers/schemes/lemke/lemke.c) against PGS and, when available, Siconos' lcp_lexicolemke
 * on frictionless contact LCPs of unit spheres stacked in a box (docs/lcp.md).
 *
 * The LCPs are Kurose & Takahashi's eq. 7-12 for spheres: a contact k between spheres i and j
 * (normal n from j to i) has the Jacobian row J_k = [.. n^T (sphere i) .. -n^T (sphere j) ..],
 * a contact with a wall [.. n^T ..] with n the wall's inward normal; normals pass through the
 * centres, so rotations do not enter, and W = M^-1 = 1 (unit mass). Then M = J W J^T and
 * q = J v* with v* = g h + xi the spheres' velocity after the time step's gravity kick
 * (g = 9.81 m/s^2 down, h = 0.01 s) plus a deterministic "settling" perturbation xi with
 * components uniform in [-noise, noise] g h (default noise 0.3; --noise 0 is pure gravity, where
 * only wall contacts have q != 0). q = J v* (no penetration bias) keeps every instance solvable:
 * for symmetric PSD M, LCP(M, q) fails only if some z >= 0 with J^T z = 0 has q^T z < 0, and
 * q^T z = v*^T J^T z = 0.
 *
 *   sc   a loose simple-cubic stack: spacing 2 - 1e-3 with a +-2.5e-4 jitter, contacts with the six
 *        axis neighbours and the floor. Every row set along one axis is a forest (paths, the
 *        vertical ones grounded once), so J has full row rank: M is SPD, with the condition of a
 *        grounded chain, ~ (4 / pi^2) height^2, times the jitter's couplings.
 *   fcc  a dense face-centred-cubic stack, (001) layers, nearest distance 2 - 1e-3 exactly (no
 *        jitter), twelve neighbours per sphere, floor and four side walls: about twice as many
 *        rows as degrees of freedom, so M is singular PSD, and equal overlaps make it degenerate.
 * Spheres are added layer by layer, row by row, until the stack has n contacts; the rows beyond n
 * of the last sphere are dropped, so every case has exactly n rows.
 *
 * Timed: vbc_lemke_dense on the dense M (its conversion to sparse included), PGS through the
 * lcp_matrix block and vbc_solve to relative residuals 1e-6 and 1e-3 (the energy-norm measure of
 * core/constraint.h; capped by --pgs-max iterations), and lcp_lexicolemke on the same dense M when
 * the build found Siconos (VBC_HAVE_SICONOS). Every error is vbc_lcp_error on w = M z + q
 * recomputed here. Usage:
 *   lcp_bench [--sizes 50,200,1000,2000] [--cases sc,fcc] [--noise A] [--pgs-max N] [--repeat N]
 *             [--no-pgs] [--no-siconos] [--dump DIR]
 * --repeat N times Lemke and Siconos as the best of N runs (default 1); --dump writes each LCP
 * in `vbc lcp`'s file format. Single-threaded by design (lemke.c uses no OpenMP). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "core/clock.h"
#include "solvers/blocks/lcp_matrix.h"
#include "solvers/schemes/lemke/lemke.h"
#include "solvers/schemes/schemes.h"

#ifdef VBC_HAVE_SICONOS
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>
#endif

#define GRAVITY 9.81
#define STEP 0.01
#define OVERLAP 1e-3

/* ---- deterministic pseudo-random numbers (splitmix64) ---- */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static double uniform(double lo, double hi) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

typedef struct stack {
  size_t nsph, cap_sph;
  double *pos; /* 3 per sphere */
  size_t n, cap; /* contacts */
  int *a, *b;    /* sphere indices; b = -1 for a wall */
  double *nrm;   /* 3 per contact: from b to a */
  double lo[3], hi[3]; /* walls: lo[1] is the floor; side walls only for fcc */
  int side_walls;
} stack;

static void *grow(void *p, size_t n, size_t size) {
  void *q = realloc(p, n * size);
  if (q == NULL) {
    fprintf(stderr, "lcp_bench: out of memory\n");
    exit(4);
  }
  return q;
}

static void add_contact(stack *s, int a, int b, const double *nrm) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->a = grow(s->a, s->cap, sizeof *s->a);
    s->b = grow(s->b, s->cap, sizeof *s->b);
    s->nrm = grow(s->nrm, 3 * s->cap, sizeof *s->nrm);
  }
  s->a[s->n] = a;
  s->b[s->n] = b;
  memcpy(s->nrm + 3 * s->n, nrm, 3 * sizeof *nrm);
  s->n++;
}

/* Place sphere at p and record its contacts with earlier spheres and the walls. */
static void add_sphere(stack *s, const double *p) {
  if (s->nsph == s->cap_sph) {
    s->cap_sph = s->cap_sph ? 2 * s->cap_sph : 256;
    s->pos = grow(s->pos, 3 * s->cap_sph, sizeof *s->pos);
  }
  const int i = (int)s->nsph++;
  memcpy(s->pos + 3 * i, p, 3 * sizeof *p);
  for (int j = 0; j < i; ++j) {
    double d[3], r2 = 0.0;
    for (int c = 0; c < 3; ++c) {
      d[c] = p[c] - s->pos[3 * j + c];
      r2 += d[c] * d[c];
    }
    if (r2 >= 4.0) continue;
    const double r = sqrt(r2);
    for (int c = 0; c < 3; ++c) d[c] /= r;
    add_contact(s, i, j, d);
  }
  for (int c = 0; c < 3; ++c) {
    if (c != 1 && !s->side_walls) continue;
    double nl[3] = {0, 0, 0}, nh[3] = {0, 0, 0};
    nl[c] = 1.0;
    nh[c] = -1.0;
    if (p[c] - s->lo[c] < 1.0) add_contact(s, i, -1, nl);
    if (c != 1 && s->hi[c] - p[c] < 1.0) add_contact(s, i, -1, nh);
  }
}

/* The stacks of the head comment, grown until they have `target` contacts. */
static void build_stack(stack *s, const char *kind, size_t target) {
  memset(s, 0, sizeof *s);
  rng_state = 0x9e3779b97f4a7c15ULL;
  const double gap = 2.0 - OVERLAP;
  if (strcmp(kind, "sc") == 0) {
    const int side = (int)fmax(2.0, round(cbrt((double)target / 3.0)));
    s->lo[1] = 0.0;
    for (int k = 0; s->n < target; ++k)
      for (int j = 0; j < side && s->n < target; ++j)
        for (int i = 0; i < side && s->n < target; ++i) {
          double p[3] = {1.0 + i * gap, 1.0 - OVERLAP / 2 + k * gap, 1.0 + j * gap};
          for (int c = 0; c < 3; ++c) p[c] += uniform(-OVERLAP / 4, OVERLAP / 4);
          add_sphere(s, p);
        }
  } else {
    /* about 6 contacts per sphere: a square footprint of side cells^2 sites per two layers */
    const int cells = (int)fmax(2.0, round(cbrt((double)target / 6.0) * 1.2));
    const double step = gap / sqrt(2.0), first = 1.0 - OVERLAP / 2;
    s->side_walls = 1;
    for (int c = 0; c < 3; ++c) s->lo[c] = 0.0;
    s->hi[0] = s->hi[2] = 2 * first + (2 * cells - 1) * step;
    for (int k = 0; s->n < target; ++k)
      for (int j = 0; j < 2 * cells && s->n < target; ++j)
        for (int i = 0; i < 2 * cells && s->n < target; ++i) {
          if ((i + j + k) % 2) continue;
          double p[3] = {first + i * step, first + k * step, first + j * step};
          add_sphere(s, p);
        }
  }
  s->n = target;
}

/* Dense M = J J^T and q = J v*. */
static void build_lcp(const stack *s, double noise, double *M, double *q) {
  const size_t n = s->n;
  double *v = grow(NULL, 3 * s->nsph, sizeof *v);
  for (size_t i = 0; i < s->nsph; ++i)
    for (int c = 0; c < 3; ++c)
      v[3 * i + c] = (c == 1 ? -GRAVITY * STEP : 0.0) + noise * GRAVITY * STEP * uniform(-1, 1);
  for (size_t k = 0; k < n; ++k) {
    const double *nk = s->nrm + 3 * k;
    double qk = 0.0;
    for (int c = 0; c < 3; ++c)
      qk += nk[c] * (v[3 * s->a[k] + c] - (s->b[k] >= 0 ? v[3 * s->b[k] + c] : 0.0));
    q[k] = qk;
    for (size_t l = 0; l < n; ++l) {
      const double *nl = s->nrm + 3 * l;
      double dot = nk[0] * nl[0] + nk[1] * nl[1] + nk[2] * nl[2], m = 0.0;
      /* shared spheres: +n_k on a_k, -n_k on b_k; same for l */
      if (s->a[k] == s->a[l]) m += dot;
      if (s->b[l] >= 0 && s->a[k] == s->b[l]) m -= dot;
      if (s->b[k] >= 0 && s->b[k] == s->a[l]) m -= dot;
      if (s->b[k] >= 0 && s->b[k] == s->b[l]) m += dot;
      M[k * n + l] = m;
    }
  }
  free(v);
}

static void dump(const char *dir, const char *kind, size_t n, const double *M, const double *q) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%zu.lcp", dir, kind, n);
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    fprintf(stderr, "lcp_bench: cannot write %s\n", path);
    return;
  }
  fprintf(f, "# lcp_bench %s stack, n = %zu: M = J W J^T, q = J v*\n%zu\n", kind, n, n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) fprintf(f, "%.17g%c", M[i * n + j], j + 1 == n ? '\n' : ' ');
  for (size_t i = 0; i < n; ++i) fprintf(f, "%.17g%c", q[i], i + 1 == n ? '\n' : ' ');
  fclose(f);
}

static double error_of(size_t n, const double *M, const double *q, const double *z, double *w) {
  for (size_t i = 0; i < n; ++i) {
    double acc = q[i];
    for (size_t j = 0; j < n; ++j) acc += M[i * n + j] * z[j];
    w[i] = acc;
  }
  return vbc_lcp_error(n, q, z, w);
}

typedef struct outcome {
  const char *status;
  long count;
  double seconds, error;
  char note[64];
} outcome;

static void row(const char *kind, size_t n, size_t nsph, const char *solver, const outcome *o) {
  printf("%-5s %6zu %6zu  %-16s %-14s %9ld %10.4f %10.2e  %s\n", kind, n, nsph, solver,
         o->status, o->count, o->seconds, o->error, o->note);
  fflush(stdout);
}

static int repeat = 1; /* timings are the best of this many runs (a shared machine is noisy) */

static outcome run_lemke(size_t n, const double *M, const double *q, double *z, double *w) {
  vbc_error err = {0};
  vbc_lemke_result res;
  double best = INFINITY;
  for (int r = 0; r < repeat; ++r) {
    double t0 = vbc_now();
    if (vbc_lemke_dense(n, M, q, NULL, z, w, &res, &err) != VBC_OK) {
      fprintf(stderr, "lcp_bench: %s\n", err.message);
      exit(4);
    }
    best = fmin(best, vbc_now() - t0);
  }
  outcome o = {vbc_lemke_status_name(res.status), res.pivots, best, 0.0, ""};
  snprintf(o.note, sizeof o.note, "basis <= %zu, refactorisations %ld", res.basis_max,
           res.refactors);
  o.error = error_of(n, M, q, z, w);
  return o;
}

static outcome run_pgs(size_t n, const double *M, const double *q, double tol, int max_it,
                       double *z, double *w) {
  vbc_error err = {0};
  vbc_block b;
  vbc_solver s;
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "tolerance", tol);
  cJSON_AddNumberToObject(params, "max_iterations", max_it);
  double t0 = vbc_now();
  if (vbc_lcp_matrix_block_init(&b, n, M, q, &err) != VBC_OK ||
      vbc_solver_init(&s, &vbc_solver_pgs, params, &err) != VBC_OK) {
    fprintf(stderr, "lcp_bench: %s\n", err.message);
    exit(4);
  }
  vbc_system sys = {0};
  vbc_block *blocks[1] = {&b};
  vbc_problem pb = {&sys, blocks, 1};
  vbc_solve_result res = {0};
  if (b.type->prepare(b.state, &sys, &b.rows, &err) != VBC_OK ||
      vbc_solve(&s, &pb, &res, NULL, &err) != VBC_OK) {
    fprintf(stderr, "lcp_bench: %s\n", err.message);
    exit(4);
  }
  outcome o = {res.reason == VBC_STOP_MAX_ITERATIONS ? "max_iterations" : "converged",
               res.iterations, vbc_now() - t0, 0.0, ""};
  memcpy(z, b.rows.impulse, n * sizeof *z);
  o.error = error_of(n, M, q, z, w);
  vbc_solver_free(&s);
  vbc_block_free(&b);
  cJSON_Delete(params);
  return o;
}

#ifdef VBC_HAVE_SICONOS
static outcome run_siconos(size_t n, const double *M, const double *q, double *z, double *w) {
  NumericsMatrix *A = NM_create(NM_DENSE, (int)n, (int)n);
  for (size_t i = 0; i < n; ++i) /* column-major */
    for (size_t j = 0; j < n; ++j) A->matrix0[j * n + i] = M[i * n + j];
  LinearComplementarityProblem pb = {(int)n, A, (double *)q};
  SolverOptions *opt = solver_options_create(SICONOS_LCP_LEMKE);
  opt->iparam[SICONOS_IPARAM_MAX_ITER] = (int)(10 * n + 1000);
  int info = 0;
  double best = INFINITY;
  for (int r = 0; r < repeat; ++r) {
    memset(z, 0, n * sizeof *z);
    memset(w, 0, n * sizeof *w);
    double t0 = vbc_now();
    lcp_lexicolemke(&pb, z, w, &info, opt);
    best = fmin(best, vbc_now() - t0);
  }
  outcome o = {info == 0 ? "info=0" : "info!=0", opt->iparam[SICONOS_IPARAM_ITER_DONE], best,
               0.0, ""};
  o.error = error_of(n, M, q, z, w);
  solver_options_delete(opt);
  NM_free(A);
  return o;
}
#endif

int main(int argc, char **argv) {
  size_t sizes[16] = {50, 200, 1000, 2000}, nsizes = 4;
  const char *cases[4] = {"sc", "fcc"};
  size_t ncases = 2;
  double noise = 0.3;
  int pgs = 1, siconos = 1, pgs_max = 10000;
  const char *dump_dir = NULL;
  for (int i = 1; i < argc; ++i) {
    const int more = i + 1 < argc;
    if (strcmp(argv[i], "--sizes") == 0 && more) {
      nsizes = 0;
      for (char *t = strtok(argv[++i], ","); t && nsizes < 16; t = strtok(NULL, ","))
        sizes[nsizes++] = (size_t)strtoul(t, NULL, 10);
    } else if (strcmp(argv[i], "--cases") == 0 && more) {
      ncases = 0;
      for (char *t = strtok(argv[++i], ","); t && ncases < 4; t = strtok(NULL, ","))
        cases[ncases++] = t;
    } else if (strcmp(argv[i], "--noise") == 0 && more) {
      noise = atof(argv[++i]);
    } else if (strcmp(argv[i], "--pgs-max") == 0 && more) {
      pgs_max = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--repeat") == 0 && more) {
      repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
    } else if (strcmp(argv[i], "--no-pgs") == 0) {
      pgs = 0;
    } else if (strcmp(argv[i], "--no-siconos") == 0) {
      siconos = 0;
    } else if (strcmp(argv[i], "--dump") == 0 && more) {
      dump_dir = argv[++i];
    } else {
      fprintf(stderr, "usage: lcp_bench [--sizes 50,200,1000,2000] [--cases sc,fcc] [--noise A] "
                      "[--pgs-max N] [--repeat N] [--no-pgs] [--no-siconos] [--dump DIR]\n");
      return 2;
    }
  }
  for (size_t c = 0; c < ncases; ++c)
    if (strcmp(cases[c], "sc") != 0 && strcmp(cases[c], "fcc") != 0) {
      fprintf(stderr, "lcp_bench: unknown case %s (sc, fcc)\n", cases[c]);
      return 2;
    }
#ifndef VBC_HAVE_SICONOS
  (void)siconos; /* --no-siconos is accepted either way */
  printf("# Siconos numerics not found at configure time: no lcp_lexicolemke comparison\n");
#endif
  printf("# noise %.2f g h; PGS through the lcp_matrix block, at most %d iterations; "
         "best of %d runs\n", noise, pgs_max, repeat);
  printf("%-5s %6s %6s  %-16s %-14s %9s %10s %10s\n", "case", "n", "sph", "solver", "status",
         "piv/iter", "seconds", "error");
  for (size_t c = 0; c < ncases; ++c)
    for (size_t k = 0; k < nsizes; ++k) {
      const size_t n = sizes[k];
      stack s;
      build_stack(&s, cases[c], n);
      double *M = grow(NULL, n * n, sizeof *M), *q = grow(NULL, n, sizeof *q);
      double *z = grow(NULL, n, sizeof *z), *w = grow(NULL, n, sizeof *w);
      build_lcp(&s, noise, M, q);
      if (dump_dir) dump(dump_dir, cases[c], n, M, q);
      outcome lk = run_lemke(n, M, q, z, w);
      row(cases[c], n, s.nsph, "lemke", &lk);
      if (pgs) {
        outcome p6 = run_pgs(n, M, q, 1e-6, pgs_max, z, w);
        row(cases[c], n, s.nsph, "pgs 1e-6", &p6);
        outcome p3 = run_pgs(n, M, q, 1e-3, pgs_max, z, w);
        row(cases[c], n, s.nsph, "pgs 1e-3", &p3);
      }
#ifdef VBC_HAVE_SICONOS
      if (siconos) {
        outcome si = run_siconos(n, M, q, z, w);
        row(cases[c], n, s.nsph, "siconos lexico", &si);
        printf("%-5s %6zu        speed ratio siconos/lemke %.1f  (errors: lemke %.2e, siconos "
               "%.2e)\n", cases[c], n, si.seconds / lk.seconds, lk.error, si.error);
      }
#endif
      free(M);
      free(q);
      free(z);
      free(w);
      free(s.pos);
      free(s.a);
      free(s.b);
      free(s.nrm);
    }
  return 0;
}
