/* test_contract_sweeps.c — the Gauss–Seidel sweeps and the thread independence of every block
 * the built-in registry holds (a loop over the registry: a block registered tomorrow is checked
 * without a line written for it), on the shared scene of tests/block_fixture.h with the block's
 * default parameters (the algebra of its passes: test_contract_blocks.c):
 *   sweep      one row free (the others held by lo = hi = lambda): forward and backward sweeps
 *              both do exactly vbc_pgs_row on that row with J_k v = b_k - r_k, and change the
 *              state exactly as an apply of that change; a full sweep keeps its impulses in
 *              bounds and leaves the state an apply of its impulse changes would;
 *   order      with two coupled rows free, a forward sweep updates them in one order and a
 *              backward sweep in the other (Gauss-Seidel in an order and its reverse, what
 *              symmetric PGS relies on);
 *   threads    on scenes with more than VBC_PARALLEL_MIN fluid rows (where the passes run as
 *              OpenMP teams), prepare, residual, apply and forward and backward sweeps give the
 *              same bits on 1 and 2 threads.
 * lcp_matrix gets the same checks on a random LCP of its own.
 * Tolerances: 1e-12 (BC_REL) relative to the size of the terms summed, as in
 * test_contract_blocks.c; 1e-10 for the order check, whose expected second update goes through
 * the assembled A_lk times the first change instead of through the velocities. The impulses of
 * held rows and the bits on 1 and 2 threads are compared exactly. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"
#include "core/parallel.h"
#include "tests/block_contract.h"

/* `got` (after a sweep from the state bc_start_from(lambda) gives) against the state an apply of
 * its impulse changes makes from there. */
static void expect_applied(subject *s, const double *lambda, const bc_state *got,
                           const char *what) {
  const size_t n = s->blk->rows.n;
  double *d = bc_alloc(n);
  for (size_t k = 0; k < n; ++k) d[k] = got->impulse[k] - lambda[k];
  bc_start_from(s, lambda);
  bc_state from = bc_copy_state(s);
  bc_apply(s, d);
  bc_state want = bc_copy_state(s);
  for (size_t i = 0; i < n; ++i) {
    const double scale = fabs(s->blk->rows.target[i]) + fabs(from.r[i]) + fabs(want.r[i]) +
                         fabs(got->r[i]);
    cr_assert_leq(fabs(got->r[i] - want.r[i]), BC_REL * scale, "%s, %s: row %zu's residual %.17g "
                  "after the sweep, %.17g after an apply of its changes", NAME, what, i, got->r[i],
                  want.r[i]);
  }
  for (size_t c = 0; c < s->ndofs; ++c) {
    const double scale =
        fabs(from.v[c]) + fabs(want.v[c] - from.v[c]) + fabs(got->v[c] - from.v[c]);
    cr_assert_leq(fabs(got->v[c] - want.v[c]), BC_REL * scale, "%s, %s: dof %zu is %.17g after the "
                  "sweep, %.17g after an apply of its changes", NAME, what, c, got->v[c],
                  want.v[c]);
  }
  bc_free_state(&from);
  bc_free_state(&want);
  free(d);
}

/* Row k alone free: the sweep must do vbc_pgs_row on it with J_k v = b_k - r_k. */
static void sweep_one_row(subject *s, size_t k, const double *lambda, double omega,
                          vbc_sweep_order order) {
  vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  bc_start_from(s, lambda);
  for (size_t j = 0; j < n; ++j)
    if (j != k) rows->lo[j] = rows->hi[j] = lambda[j];
  double *r = bc_alloc(n), *impulse = bc_alloc(n);
  bc_residual(s, r);
  memcpy(impulse, rows->impulse, n * sizeof *impulse);
  vbc_rows view = *rows;
  view.impulse = impulse;
  const double jv = rows->target[k] - r[k];
  vbc_pgs_row(&view, k, jv, omega);
  s->blk->type->sweep(s->blk->state, s->sys, rows, omega, order);
  bc_state got = bc_copy_state(s);
  const double scale = fabs(lambda[k]) + 2.0 * omega * (fabs(rows->target[k]) + fabs(r[k])) /
                                             rows->diag[k];
  cr_assert_leq(fabs(got.impulse[k] - impulse[k]), BC_REL * scale, "%s row %zu (%s sweep): "
                "lambda' = %.17g, vbc_pgs_row gives %.17g", NAME, k,
                order == VBC_SWEEP_FORWARD ? "forward" : "backward", got.impulse[k], impulse[k]);
  for (size_t j = 0; j < n; ++j)
    if (j != k) cr_assert_eq(got.impulse[j], lambda[j], "%s: held row %zu moved", NAME, j);
  expect_applied(s, lambda, &got, "one free row");
  bc_free_state(&got);
  free(r), free(impulse);
}

static void check_sweep(subject *s) {
  bc_reset(s);
  const size_t n = s->blk->rows.n;
  double *r0 = bc_alloc(n), *lambda = bc_alloc(n);
  bc_residual(s, r0);
  bc_random_impulses(s, r0, lambda);
  const size_t samples = n < 12 ? n : 12;
  size_t tried = 0;
  for (size_t t = 0; t < samples; ++t) {
    const size_t k = t * n / samples;
    if (!(s->blk->rows.diag[k] > 0.0)) continue;
    sweep_one_row(s, k, lambda, 1.3, VBC_SWEEP_FORWARD);
    sweep_one_row(s, k, lambda, 0.7, VBC_SWEEP_BACKWARD);
    ++tried;
  }
  cr_assert_gt(tried, 0, "%s: no active row to sweep", NAME);
  for (int order = 0; order < 2; ++order) { /* a full sweep */
    bc_start_from(s, lambda);
    s->blk->type->sweep(s->blk->state, s->sys, &s->blk->rows, 1.0, (vbc_sweep_order)order);
    bc_state got = bc_copy_state(s);
    size_t changed = 0;
    for (size_t k = 0; k < n; ++k) {
      const vbc_rows *rows = &s->blk->rows;
      cr_assert(got.impulse[k] >= rows->lo[k] && got.impulse[k] <= rows->hi[k],
                "%s row %zu: %g outside [%g, %g]", NAME, k, got.impulse[k], rows->lo[k],
                rows->hi[k]);
      if (!(rows->diag[k] > 0.0))
        cr_assert_eq(got.impulse[k], lambda[k], "%s: inert row %zu moved", NAME, k);
      changed += got.impulse[k] != lambda[k];
    }
    cr_assert_gt(changed, 0, "%s: the sweep changed no impulse", NAME);
    expect_applied(s, lambda, &got, order ? "full backward sweep" : "full forward sweep");
    bc_free_state(&got);
  }
  free(r0), free(lambda);
}

/* Rows k and l free, the others held: the two generic updates in the order (first, second),
 * from the residual r of the start and the coupling A[second][first]. */
static void two_row_updates(const subject *s, size_t first, size_t second, const double *r,
                            double a_sf, double omega, double *impulse) {
  vbc_rows view = s->blk->rows;
  view.impulse = impulse;
  const vbc_rows *rows = &s->blk->rows;
  const double d = vbc_pgs_row(&view, first, rows->target[first] - r[first], omega);
  vbc_pgs_row(&view, second, rows->target[second] - (r[second] - a_sf * d), omega);
}

/* A forward sweep is Gauss-Seidel in some order of the rows and a backward sweep in the reverse
 * of it (constraint.h): for two coupled rows alone free, one sweep must give the updates in one
 * order and the other sweep those in the other. Returns 1 if the pair told the orders apart. */
static int sweep_pair(subject *s, const vbc_sparse *A, size_t k, size_t l, const double *lambda) {
  vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  const double omega = 1.0;
  bc_start_from(s, lambda);
  double *r = bc_alloc(n), *kl = bc_alloc(n), *lk = bc_alloc(n), got[2][2];
  bc_residual(s, r);
  memcpy(kl, rows->impulse, n * sizeof *kl);
  memcpy(lk, rows->impulse, n * sizeof *lk);
  two_row_updates(s, k, l, r, bc_csr_entry(A, l, k), omega, kl);
  two_row_updates(s, l, k, r, bc_csr_entry(A, k, l), omega, lk);
  double scale = 0.0;
  for (size_t i = 0; i < 2; ++i) {
    const size_t j = i ? l : k;
    scale = fmax(scale, fabs(lambda[j]) + 2.0 * (fabs(rows->target[j]) + fabs(r[j]) +
                                                 fabs(kl[j] - lambda[j])) / rows->diag[j]);
  }
  const double apart = fmax(fabs(kl[k] - lk[k]), fabs(kl[l] - lk[l]));
  for (int order = 0; order < 2; ++order) {
    bc_start_from(s, lambda);
    for (size_t j = 0; j < n; ++j)
      if (j != k && j != l) rows->lo[j] = rows->hi[j] = lambda[j];
    s->blk->type->sweep(s->blk->state, s->sys, rows, omega, (vbc_sweep_order)order);
    got[order][0] = rows->impulse[k], got[order][1] = rows->impulse[l];
  }
  free(r);
  if (apart <= 1e-6 * scale) { /* both orders give the same: nothing to tell */
    free(kl), free(lk);
    return 0;
  }
  const double tol = 1e-10 * scale;
  const int fwd_kl = fabs(got[0][0] - kl[k]) <= tol && fabs(got[0][1] - kl[l]) <= tol;
  const int fwd_lk = fabs(got[0][0] - lk[k]) <= tol && fabs(got[0][1] - lk[l]) <= tol;
  const int bwd_kl = fabs(got[1][0] - kl[k]) <= tol && fabs(got[1][1] - kl[l]) <= tol;
  const int bwd_lk = fabs(got[1][0] - lk[k]) <= tol && fabs(got[1][1] - lk[l]) <= tol;
  cr_assert((fwd_kl && bwd_lk) || (fwd_lk && bwd_kl), "%s rows %zu and %zu: forward sweep "
            "(%.17g, %.17g), backward (%.17g, %.17g); Gauss-Seidel %zu then %zu gives (%.17g, "
            "%.17g), %zu then %zu (%.17g, %.17g)", NAME, k, l, got[0][0], got[0][1], got[1][0],
            got[1][1], k, l, kl[k], kl[l], l, k, lk[k], lk[l]);
  free(kl), free(lk);
  return 1;
}

static void check_sweep_order(subject *s) {
  bc_reset(s);
  vbc_block *blocks[1] = {s->blk};
  vbc_problem pb = {s->sys, blocks, 1};
  if (vbc_problem_unassemblable(&pb)) {
    cr_log_info("%s: no operator to find coupled rows with: sweep order not checked", NAME);
    return;
  }
  vbc_error err = {0};
  vbc_sparse A = {0};
  cr_assert_eq(vbc_problem_assemble(&pb, &A, &err), 0, "%s: %s", NAME, err.message);
  const vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  double *r0 = bc_alloc(n), *lambda = bc_alloc(n);
  bc_residual(s, r0);
  bc_random_impulses(s, r0, lambda);
  size_t told = 0, pairs = 0;
  for (size_t t = 0; t < 16 && t < n; ++t) {
    const size_t k = t * n / (n < 16 ? n : 16);
    size_t l = k;
    double best = 0.0; /* the row most strongly coupled to k */
    for (size_t e = A.start[k]; e < A.start[k + 1]; ++e) {
      const size_t j = A.col[e];
      const double c = fabs(A.val[e]) / sqrt(rows->diag[k] * rows->diag[j]);
      if (j != k && rows->diag[j] > 0.0 && c > best) best = c, l = j;
    }
    if (l == k || !(rows->diag[k] > 0.0)) continue;
    ++pairs;
    told += sweep_pair(s, &A, k, l, lambda);
  }
  cr_log_info("%s: sweep order told apart on %zu of %zu coupled pairs", NAME, told, pairs);
  if (pairs > 0) cr_assert_gt(told, 0, "%s: no coupled pair told the sweep orders apart", NAME);
  free(r0), free(lambda);
  vbc_sparse_free(&A);
}

/* ---- threads ---- */

typedef struct run_bits {
  double *rows, *r, *v; /* rows' arrays after prepare; residuals and velocities after each pass */
} run_bits;

enum { PASSES = 4 }; /* residual; apply; forward sweep; backward sweep */

static run_bits run_passes(subject *s, int threads) {
  omp_set_num_threads(threads);
  cr_assert_eq(omp_get_max_threads(), threads);
  bc_reset(s);
  vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n, nd = s->ndofs;
  run_bits out = {bc_alloc(5 * n), bc_alloc(PASSES * n), bc_alloc(PASSES * nd)};
  const double *fields[5] = {rows->target, rows->lo, rows->hi, rows->diag, rows->impulse};
  for (int f = 0; f < 5; ++f) memcpy(out.rows + f * n, fields[f], n * sizeof(double));
  unsigned seed = 99u;
  double *d = bc_alloc(n);
  for (size_t k = 0; k < n; ++k) d[k] = 1e-3 * bc_uniform(&seed);
  for (int pass = 0; pass < PASSES; ++pass) {
    if (pass == 1) bc_apply(s, d);
    if (pass == 2) s->blk->type->sweep(s->blk->state, s->sys, rows, 1.0, VBC_SWEEP_FORWARD);
    if (pass == 3) s->blk->type->sweep(s->blk->state, s->sys, rows, 1.0, VBC_SWEEP_BACKWARD);
    bc_residual(s, out.r + pass * n);
    bc_gather(s->sys, out.v + pass * nd);
  }
  free(d);
  return out;
}

static void check_threads(subject *s) {
  run_bits one = run_passes(s, 1), two = run_passes(s, 2);
  const size_t n = s->blk->rows.n, nd = s->ndofs;
  cr_log_info("%s: %zu rows (teams from %d)", NAME, n, VBC_PARALLEL_MIN);
  cr_assert_eq(memcmp(one.rows, two.rows, 5 * n * sizeof(double)), 0, "%s: prepare", NAME);
  const char *pass[PASSES] = {"residual", "apply", "forward sweep", "backward sweep"};
  for (int p = 0; p < PASSES; ++p) {
    cr_assert_eq(memcmp(one.r + p * n, two.r + p * n, n * sizeof(double)), 0,
                 "%s: residual after the %s differs between 1 and 2 threads", NAME, pass[p]);
    cr_assert_eq(memcmp(one.v + p * nd, two.v + p * nd, nd * sizeof(double)), 0,
                 "%s: velocities after the %s differ between 1 and 2 threads", NAME, pass[p]);
  }
  free(one.rows), free(one.r), free(one.v), free(two.rows), free(two.r), free(two.v);
}

Test(contract_sweeps, sweep_is_the_generic_row_update_2d) {
  bc_every_block(block_scene_2d, check_sweep);
}
Test(contract_sweeps, sweep_is_the_generic_row_update_3d) {
  bc_every_block(block_scene_3d, check_sweep);
}
Test(contract_sweeps, backward_sweep_reverses_the_forward_order_2d) {
  bc_every_block(block_scene_2d, check_sweep_order);
}
Test(contract_sweeps, backward_sweep_reverses_the_forward_order_3d) {
  bc_every_block(block_scene_3d, check_sweep_order);
}
Test(contract_sweeps, same_bits_on_1_and_2_threads_2d) {
  bc_every_block(block_scene_2d_large, check_threads);
}
Test(contract_sweeps, same_bits_on_1_and_2_threads_3d) {
  bc_every_block(block_scene_3d_large, check_threads);
}

/* lcp_matrix, made from a matrix, on an LCP of its own. */
static void lcp_matrix_checks(subject *s) {
  check_sweep(s);
  check_sweep_order(s);
  check_threads(s);
}

Test(contract_sweeps, lcp_matrix_unilateral) { bc_lcp_matrix(0, lcp_matrix_checks); }
Test(contract_sweeps, lcp_matrix_bilateral) { bc_lcp_matrix(1, lcp_matrix_checks); }
