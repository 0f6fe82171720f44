/* test_krylov_algebra.c — the Krylov solvers on explicit matrices through the constraint interface
 * (the lcp_matrix block): cg with every preconditioner against GSL's dense Cholesky solve, IC(0)
 * of a tridiagonal matrix against its exact Cholesky factor, mprgp against Lemke's method on small
 * LCPs, degenerate ones included. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "registry/registry.h"
#include "core/constraint.h"
#include "solvers/blocks/lcp_matrix.h"
#include "solvers/schemes/lemke/lemke.h"
#include "solvers/schemes/precond.h"
#include "tests/support.h"

enum { NMAX = 24 };

typedef struct solved {
  double z[NMAX], w[NMAX];
  vbc_solve_result res;
} solved;

/* Solve (M, q) with the named solver: the LCP, or with bilateral the system M z = -q. params may
 * be NULL; tolerance 1e-14 unless params says otherwise. */
static solved solve(const char *solver, cJSON *params, size_t n, const double *M, const double *q,
                    int bilateral) {
  solved out = {0};
  vbc_error err = {0};
  vbc_block b;
  cr_assert_eq(vbc_lcp_matrix_block_init(&b, n, M, q, &err), VBC_OK);
  if (bilateral) vbc_lcp_matrix_bilateral(&b);
  cJSON *p = params ? params : cJSON_CreateObject();
  if (!cJSON_HasObjectItem(p, "tolerance")) cJSON_AddNumberToObject(p, "tolerance", 1e-14);
  if (!cJSON_HasObjectItem(p, "max_iterations")) cJSON_AddNumberToObject(p, "max_iterations", 5000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), solver), p, &err), VBC_OK,
               "%s", err.message);
  vbc_system sys = {0};
  vbc_block *blocks[1] = {&b};
  vbc_problem pb = {&sys, blocks, 1};
  if (s.type->check) cr_assert_eq(s.type->check(s.state, &pb, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(b.type->prepare(b.state, &sys, &b.rows, &err), VBC_OK);
  cr_assert_eq(vbc_solve(&s, &pb, &out.res, NULL, &err), VBC_OK, "%s", err.message);
  for (size_t k = 0; k < n; ++k) out.z[k] = b.rows.impulse[k];
  vbc_lcp_matrix_w(&b, out.w);
  vbc_solver_free(&s);
  vbc_block_free(&b);
  if (params == NULL) cJSON_Delete(p);
  return out;
}

static cJSON *with_preconditioner(const char *name) {
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "preconditioner", name);
  return p;
}

/* A random SPD matrix B^T B + shift I (B n x n, entries in [-1, 1]) and a vector in [-1, 1]. */
static void random_spd(size_t n, unsigned seed, double shift, double *M, double *q) {
  double B[NMAX * NMAX];
  srand(seed);
  for (size_t i = 0; i < n * n; ++i) B[i] = 2.0 * rand() / RAND_MAX - 1.0;
  for (size_t i = 0; i < n; ++i) {
    q[i] = 2.0 * rand() / RAND_MAX - 1.0;
    for (size_t j = 0; j < n; ++j) {
      double s = i == j ? shift : 0.0;
      for (size_t k = 0; k < n; ++k) s += B[k * n + i] * B[k * n + j];
      M[i * n + j] = s;
    }
  }
}

/* The solution of M z = -q by GSL's Cholesky. */
static void cholesky_solve(size_t n, const double *M, const double *q, double *z) {
  gsl_matrix *A = gsl_matrix_alloc(n, n);
  gsl_vector *b = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
  for (size_t i = 0; i < n; ++i) {
    gsl_vector_set(b, i, -q[i]);
    for (size_t j = 0; j < n; ++j) gsl_matrix_set(A, i, j, M[i * n + j]);
  }
  cr_assert_eq(gsl_linalg_cholesky_decomp1(A), 0);
  cr_assert_eq(gsl_linalg_cholesky_solve(A, b, x), 0);
  for (size_t i = 0; i < n; ++i) z[i] = gsl_vector_get(x, i);
  gsl_matrix_free(A), gsl_vector_free(b), gsl_vector_free(x);
}

Test(cg, every_preconditioner_solves_spd_systems_as_cholesky_does) {
  const char *pcs[] = {"none", "jacobi", "ssor", "ic0"};
  const size_t sizes[] = {1, 5, 12, 20};
  for (size_t t = 0; t < 4; ++t) {
    const size_t n = sizes[t];
    double M[NMAX * NMAX], q[NMAX], z[NMAX];
    random_spd(n, 17u + (unsigned)t, 0.5, M, q);
    cholesky_solve(n, M, q, z);
    double zmax = 0.0;
    for (size_t i = 0; i < n; ++i) zmax = fmax(zmax, fabs(z[i]));
    for (size_t p = 0; p < 4; ++p) {
      solved s = solve("cg", with_preconditioner(pcs[p]), n, M, q, 1);
      for (size_t i = 0; i < n; ++i)
        cr_assert_leq(fabs(s.z[i] - z[i]), 1e-10 * zmax, "n %zu %s: z[%zu] = %.15g, Cholesky %.15g",
                      n, pcs[p], i, s.z[i], z[i]);
      cr_assert_neq(s.res.reason, VBC_STOP_MAX_ITERATIONS, "n %zu %s", n, pcs[p]);
      cr_assert_leq(s.res.iterations, (int)(2 * n + 2), "n %zu %s: %d iterations", n, pcs[p],
                    s.res.iterations);
    }
  }
}

Test(cg, stops_on_a_direction_of_zero_curvature_with_reason_breakdown) {
  /* indefinite with a positive diagonal (eigenvalues 3, -1): the first direction has p.Ap < 0 */
  const double M[] = {1, 2, 2, 1}, q[] = {-1, 1};
  solved s = solve("cg", NULL, 2, M, q, 1);
  cr_assert_eq(s.res.reason, VBC_STOP_BREAKDOWN, "reason %s", vbc_stop_reason_name(s.res.reason));
}

Test(ic0, of_a_tridiagonal_matrix_is_its_exact_cholesky_factor) {
  /* no fill-in occurs in the Cholesky factor of a tridiagonal matrix, so IC(0) is exact */
  enum { n = 9 };
  double M[n * n] = {0};
  for (size_t i = 0; i < n; ++i) {
    M[i * n + i] = 2.0 + 0.1 * (double)i;
    if (i + 1 < n) M[i * n + i + 1] = M[(i + 1) * n + i] = -1.0 + 0.05 * (double)i;
  }
  vbc_error err = {0};
  vbc_sparse A = {0};
  cr_assert_eq(vbc_sparse_reserve(&A, n, n * n, &err), VBC_OK);
  size_t e = 0;
  for (size_t i = 0; i < n; ++i) {
    A.start[i] = e;
    for (size_t j = 0; j < n; ++j)
      if (M[i * n + j] != 0.0) A.col[e] = j, A.val[e++] = M[i * n + j];
  }
  A.start[n] = e, A.nnz = e, A.nrows = A.ndofs = n;
  unsigned char unknown[n];
  double diag[n];
  for (size_t i = 0; i < n; ++i) unknown[i] = 1, diag[i] = M[i * n + i];
  vbc_krylov k = {0};
  k.n = n, k.unknown = unknown, k.diag = diag;
  vbc_precond P = {.kind = VBC_PRECOND_IC0};
  cr_assert_eq(vbc_precond_setup(&P, &k, unknown, &A, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(P.shift, 0.0);
  gsl_matrix *L = gsl_matrix_alloc(n, n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) gsl_matrix_set(L, i, j, M[i * n + j]);
  cr_assert_eq(gsl_linalg_cholesky_decomp1(L), 0);
  for (size_t i = 0; i < n; ++i) /* row i of the factor: columns ascending, the diagonal last */
    for (size_t f = P.start[i]; f < P.start[i + 1]; ++f)
      cr_assert_float_eq(P.val[f], gsl_matrix_get(L, i, P.col[f]), 1e-14, "L[%zu][%zu]", i,
                         P.col[f]);
  cr_assert_eq(P.start[n], 2 * n - 1, "the factor's pattern is the lower band");
  gsl_matrix_free(L);
  vbc_precond_free(&P);
  vbc_sparse_free(&A);
}

/* Lemke's z and w for (M, q). */
static void lemke(size_t n, const double *M, const double *q, double *z, double *w) {
  vbc_error err = {0};
  vbc_lemke_result res;
  cr_assert_eq(vbc_lemke_dense(n, M, q, NULL, z, w, &res, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(res.status, VBC_LEMKE_SOLVED);
}

/* mprgp with each preconditioner against Lemke: w within tol always (it is unique for a
 * symmetric positive semidefinite M), z within tol when unique_z, else z must solve the LCP. */
static void mprgp_matches_lemke(size_t n, const double *M, const double *q, int unique_z,
                                double tol) {
  double z[NMAX], w[NMAX];
  lemke(n, M, q, z, w);
  const char *pcs[] = {"none", "jacobi", "ic0"};
  for (size_t p = 0; p < 3; ++p) {
    solved s = solve("mprgp", with_preconditioner(pcs[p]), n, M, q, 0);
    cr_assert_neq(s.res.reason, VBC_STOP_MAX_ITERATIONS, "%s: no convergence", pcs[p]);
    for (size_t i = 0; i < n; ++i) {
      cr_assert_leq(fabs(s.w[i] - w[i]), tol, "%s: w[%zu] = %.15g, Lemke %.15g", pcs[p], i, s.w[i],
                    w[i]);
      if (unique_z)
        cr_assert_leq(fabs(s.z[i] - z[i]), tol, "%s: z[%zu] = %.15g, Lemke %.15g", pcs[p], i,
                      s.z[i], z[i]);
      cr_assert_geq(s.z[i], 0.0);
      cr_assert_geq(s.w[i], -tol);
      cr_assert_leq(fabs(s.z[i] * s.w[i]), tol);
    }
  }
}

Test(mprgp, matches_lemke_on_random_positive_definite_lcps) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const size_t n = 4 + 3 * seed;
    double M[NMAX * NMAX], q[NMAX];
    random_spd(n, seed, 0.2, M, q);
    mprgp_matches_lemke(n, M, q, 1, 1e-9);
  }
}

Test(mprgp, all_active_and_all_free_solutions) {
  double M[NMAX * NMAX], q[NMAX];
  random_spd(8, 99u, 0.5, M, q);
  for (size_t i = 0; i < 8; ++i) q[i] = 1.0 + fabs(q[i]); /* z = 0, w = q */
  mprgp_matches_lemke(8, M, q, 1, 1e-9);
  double z[8];
  for (size_t i = 0; i < 8; ++i) z[i] = 0.5 + 0.1 * (double)i; /* q = -M z: every row free */
  for (size_t i = 0; i < 8; ++i) {
    q[i] = 0.0;
    for (size_t j = 0; j < 8; ++j) q[i] -= M[i * 8 + j] * z[j];
  }
  mprgp_matches_lemke(8, M, q, 1, 1e-9);
}

Test(mprgp, degenerate_lcps_zero_and_duplicated_rows) {
  /* a zero row and column (inert: z free to be anything with w = q >= 0; Lemke gives 0) */
  const double Mz[] = {2, 0, 1, 0, 0, 0, 1, 0, 2}, qz[] = {-1, 0.5, -2};
  mprgp_matches_lemke(3, Mz, qz, 1, 1e-9);
  /* duplicated rows: M singular, z not unique (only z0 + z1 is), w unique */
  const double Md[] = {1, 1, 0.5, 1, 1, 0.5, 0.5, 0.5, 2}, qd[] = {-1, -1, -1};
  mprgp_matches_lemke(3, Md, qd, 0, 1e-9);
  solved s = solve("mprgp", NULL, 3, Md, qd, 0);
  double z[3], w[3];
  lemke(3, Md, qd, z, w);
  cr_assert_float_eq(s.z[0] + s.z[1], z[0] + z[1], 1e-9);
  cr_assert_float_eq(s.z[2], z[2], 1e-9);
  /* degenerate complementarity: z = 0 and w = 0 on a row */
  const double Mg[] = {2, 1, 1, 2}, qg[] = {-2, -1}; /* z = (1, 0), w = (0, 0) */
  mprgp_matches_lemke(2, Mg, qg, 1, 1e-9);
}

Test(mprgp, reports_its_steps_and_the_norm_estimate) {
  double M[NMAX * NMAX], q[NMAX];
  random_spd(10, 5u, 0.2, M, q);
  vbc_error err = {0};
  vbc_block b;
  cr_assert_eq(vbc_lcp_matrix_block_init(&b, 10, M, q, &err), VBC_OK);
  cJSON *p = with_preconditioner("ic0");
  cJSON_AddNumberToObject(p, "tolerance", 1e-14);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), "mprgp"), p, &err),
               VBC_OK);
  vbc_system sys = {0};
  vbc_block *blocks[1] = {&b};
  vbc_problem pb = {&sys, blocks, 1};
  vbc_solve_result res;
  cr_assert_eq(b.type->prepare(b.state, &sys, &b.rows, &err), VBC_OK);
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), VBC_OK);
  const vbc_solve_stats *st = &res.stats;
  int seen = 0;
  for (size_t i = 0; i < st->n; ++i)
    if (strcmp(st->name[i], "norm_estimate") == 0) {
      /* power iterations approach |D^-1/2 M D^-1/2| from below */
      gsl_matrix *A = gsl_matrix_alloc(10, 10);
      for (size_t r = 0; r < 10; ++r)
        for (size_t c = 0; c < 10; ++c)
          gsl_matrix_set(A, r, c, M[r * 10 + c] / sqrt(M[r * 10 + r] * M[c * 10 + c]));
      gsl_vector *ev = gsl_vector_alloc(10);
      gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc(10);
      gsl_eigen_symm(A, ev, ws);
      const double top = gsl_vector_max(ev);
      cr_assert_leq(st->value[i], top * (1 + 1e-12));
      cr_assert_geq(st->value[i], 0.9 * top);
      gsl_eigen_symm_free(ws), gsl_vector_free(ev), gsl_matrix_free(A);
      seen = 1;
    }
  cr_assert(seen);
  vbc_solver_free(&s);
  vbc_block_free(&b);
  cJSON_Delete(p);
}
