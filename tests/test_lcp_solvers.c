/* test_lcp_solvers.c — projected Gauss–Seidel and projected relaxed Jacobi on small LCPs with
 * known solutions, through the constraint interface (the lcp_matrix block), and the stopping
 * test's bookkeeping. */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_linalg.h>

#include "core/constraint.h"
#include "tests/support.h"
#include "registry/registry.h"
#include "solvers/blocks/lcp_matrix.h"
#include "solvers/schemes/schemes.h"

typedef struct solved {
  double z[8], w[8];
  vbc_solve_result res;
} solved;

/* Solve the LCP (M, q) with the named solver and the given solver parameters. */
static solved solve_with(const char *solver, const cJSON *params, size_t n, const double *M,
                         const double *q, vbc_solve_trace *trace) {
  solved out = {0};
  vbc_error err = {0};
  vbc_block b;
  cr_assert_eq(vbc_lcp_matrix_block_init(&b, n, M, q, &err), VBC_OK);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), solver), params, &err),
               VBC_OK);
  vbc_system sys = {0};
  vbc_block *blocks[1] = {&b};
  vbc_problem pb = {&sys, blocks, 1};
  cr_assert_eq(b.type->prepare(b.state, &sys, &b.rows, &err), VBC_OK);
  cr_assert_eq(vbc_solve(&s, &pb, &out.res, trace, &err), VBC_OK, "%s", err.message);
  for (size_t k = 0; k < n; ++k) out.z[k] = b.rows.impulse[k];
  vbc_lcp_matrix_w(&b, out.w);
  vbc_solver_free(&s);
  vbc_block_free(&b);
  return out;
}

static solved solve(const char *solver, double omega, size_t n, const double *M, const double *q,
                    double tol, int max_it, vbc_solve_trace *trace) {
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "omega", omega);
  cJSON_AddNumberToObject(params, "tolerance", tol);
  cJSON_AddNumberToObject(params, "max_iterations", max_it);
  solved out = solve_with(solver, params, n, M, q, trace);
  cJSON_Delete(params);
  return out;
}

static void expect_solution(const solved *s, size_t n, const double *z, const double *w,
                            double tol) {
  for (size_t k = 0; k < n; ++k) {
    cr_assert_float_eq(s->z[k], z[k], tol, "z[%zu] = %g, expected %g", k, s->z[k], z[k]);
    cr_assert_float_eq(s->w[k], w[k], tol, "w[%zu] = %g, expected %g", k, s->w[k], w[k]);
    cr_assert_geq(s->z[k], 0.0);
    cr_assert_leq(fabs(s->z[k] * s->w[k]), tol);
  }
}

static const double M2[] = {2, 1, 1, 2};
static const double M3[] = {4, 1, 0, 1, 4, 1, 0, 1, 4};

Test(pgs, solves_an_lcp_with_all_rows_active) {
  const double q[] = {-5, -6}, z[] = {4.0 / 3.0, 7.0 / 3.0}, w[] = {0, 0};
  solved s = solve("pgs", 1.0, 2, M2, q, 1e-12, 1000, NULL);
  expect_solution(&s, 2, z, w, 1e-9);
  cr_assert_eq(s.res.reason, VBC_STOP_TOLERANCE);
}

Test(pgs, leaves_a_separating_row_at_zero_impulse) {
  const double q[] = {-1, 3}, z[] = {0.5, 0}, w[] = {0, 3.5};
  solved s = solve("pgs", 1.0, 2, M2, q, 1e-12, 1000, NULL);
  expect_solution(&s, 2, z, w, 1e-9);
}

Test(pgs, solves_a_3x3_lcp_with_mixed_rows_and_sor) {
  const double q[] = {-1, 2, -3}, z[] = {0.25, 0, 0.75}, w[] = {0, 3, 0};
  expect_solution((solved[]){solve("pgs", 1.0, 3, M3, q, 1e-12, 1000, NULL)}, 3, z, w, 1e-9);
  expect_solution((solved[]){solve("pgs", 1.3, 3, M3, q, 1e-12, 1000, NULL)}, 3, z, w, 1e-9);
}

Test(jacobi, solves_the_same_lcps) {
  const double qa[] = {-5, -6}, za[] = {4.0 / 3.0, 7.0 / 3.0}, wa[] = {0, 0};
  expect_solution((solved[]){solve("jacobi", 0.5, 2, M2, qa, 1e-12, 5000, NULL)}, 2, za, wa, 1e-9);
  const double qb[] = {-1, 2, -3}, zb[] = {0.25, 0, 0.75}, wb[] = {0, 3, 0};
  expect_solution((solved[]){solve("jacobi", 0.5, 3, M3, qb, 1e-12, 5000, NULL)}, 3, zb, wb, 1e-9);
}

Test(jacobi, needs_more_iterations_than_pgs_on_the_same_problem) {
  const double q[] = {-1, 2, -3};
  solved g = solve("pgs", 1.0, 3, M3, q, 1e-10, 5000, NULL);
  solved j = solve("jacobi", 0.5, 3, M3, q, 1e-10, 5000, NULL);
  cr_assert_lt(g.res.iterations, j.res.iterations);
}

/* pgs with `symmetric`: one iteration is a forward sweep then a backward one (symmetric SOR).
 * From z = 0 on M3 (every row of the solution active), the first iteration equals the two sweeps
 * written out here, rows 0, 1, 2 then 2, 1, 0 (row 2 twice in a row), each
 * z_k <- max(0, z_k + omega (-q_k - (M z)_k) / M_kk). */
Test(pgs, symmetric_iteration_is_a_forward_then_a_backward_sweep) {
  const double q[] = {-1, -2, -3}, omega = 1.2;
  double z[3] = {0, 0, 0};
  const int order[] = {0, 1, 2, 2, 1, 0};
  for (int s = 0; s < 6; ++s) {
    const int k = order[s];
    double mz = 0.0;
    for (int j = 0; j < 3; ++j) mz += M3[k * 3 + j] * z[j];
    z[k] = fmax(0.0, z[k] + omega * (-q[k] - mz) / M3[k * 3 + k]);
  }
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "omega", omega);
  cJSON_AddBoolToObject(params, "symmetric", 1);
  cJSON_AddNumberToObject(params, "tolerance", 1e-300);
  cJSON_AddNumberToObject(params, "max_iterations", 1);
  solved one = solve_with("pgs", params, 3, M3, q, NULL);
  cr_assert_eq(one.res.iterations, 1);
  for (int k = 0; k < 3; ++k) cr_assert_float_eq(one.z[k], z[k], 1e-15, "z[%d]", k);
  /* and it converges to the LCP's solution, M z = -q with z > 0 */
  cJSON_ReplaceItemInObject(params, "tolerance", cJSON_CreateNumber(1e-13));
  cJSON_ReplaceItemInObject(params, "max_iterations", cJSON_CreateNumber(1000));
  solved all = solve_with("pgs", params, 3, M3, q, NULL);
  const double zs[] = {5.0 / 28.0, 2.0 / 7.0, 19.0 / 28.0}, ws[] = {0, 0, 0};
  expect_solution(&all, 3, zs, ws, 1e-10);
  cJSON_Delete(params);
}

Test(solve_loop, nothing_to_do_takes_no_iteration) {
  const double q[] = {1, 2};
  solved s = solve("pgs", 1.0, 2, M2, q, 1e-6, 100, NULL);
  cr_assert_eq(s.res.iterations, 0);
  cr_assert_eq(s.res.residual_ref, 0.0);
  cr_assert_eq(s.z[0], 0.0);
}

Test(solve_loop, reports_the_iteration_limit_and_traces_every_iteration) {
  const double q[] = {-5, -6};
  vbc_solve_trace t = {0};
  solved s = solve("jacobi", 0.5, 2, M2, q, 1e-300, 3, &t);
  cr_assert_eq(s.res.reason, VBC_STOP_MAX_ITERATIONS);
  cr_assert_eq(s.res.iterations, 3);
  cr_assert_eq(t.n, 4u, "iteration 0 and three iterations");
  cr_assert_float_eq(t.total[0], s.res.residual_ref, 1e-15, "cold start: start = reference");
  for (size_t i = 1; i < t.n; ++i) cr_assert_lt(t.total[i], t.total[i - 1]);
  cr_assert_float_eq(t.total[3], s.res.residual, 1e-15);
  vbc_solve_trace_free(&t);
}

Test(solve_loop, residual_is_the_energy_norm_of_the_natural_residual) {
  /* z = 0: e_k = -min(0, ... ) = the violated part of w = q; energy sum e_k^2 / M_kk */
  const double q[] = {-1, 3};
  vbc_solve_trace t = {0};
  solve("pgs", 1.0, 2, M2, q, 1e-12, 1, &t);
  cr_assert_float_eq(t.total[0], sqrt(1.0 * 1.0 / 2.0), 1e-15);
  vbc_solve_trace_free(&t);
}

/* IISPH's solve is relaxed Jacobi on a linear system whose solution is interior (every pressure
 * positive). On an SPD system with such a solution the projected iteration must converge to the
 * direct solution: here an 8 x 8 diagonally dominant SPD matrix against GSL's Cholesky solve. */
Test(jacobi, converges_to_the_direct_solution_of_an_spd_system) {
  enum { N = 8 };
  double M[N * N], q[N], b[N];
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j)
      M[i * N + j] = i == j ? 4.0 + 0.5 * (double)i : 1.0 / (1.0 + (double)(i + j));
    b[i] = 1.0 + 0.3 * sin(2.0 * (double)i); /* M z = b with z > 0 */
    q[i] = -b[i];
  }
  gsl_matrix *A = gsl_matrix_alloc(N, N);
  gsl_vector *rhs = gsl_vector_alloc(N), *x = gsl_vector_alloc(N);
  for (size_t i = 0; i < N; ++i) {
    gsl_vector_set(rhs, i, b[i]);
    for (size_t j = 0; j < N; ++j) gsl_matrix_set(A, i, j, M[i * N + j]);
  }
  cr_assert_eq(gsl_linalg_cholesky_decomp1(A), 0);
  cr_assert_eq(gsl_linalg_cholesky_solve(A, rhs, x), 0);
  solved s = solve("jacobi", 0.5, N, M, q, 1e-14, 100000, NULL);
  for (size_t k = 0; k < N; ++k) {
    cr_assert_gt(gsl_vector_get(x, k), 0.0, "the direct solution is interior");
    cr_assert_float_eq(s.z[k], gsl_vector_get(x, k), 1e-11, "z[%zu] = %.15g, direct %.15g", k,
                       s.z[k], gsl_vector_get(x, k));
  }
  cr_assert_lt(s.res.iterations, 200, "omega = 0.5 on a well-conditioned system");
  gsl_matrix_free(A);
  gsl_vector_free(rhs);
  gsl_vector_free(x);
}
