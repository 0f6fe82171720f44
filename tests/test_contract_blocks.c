/* test_contract_blocks.c — the algebra of core/constraint.h's block interface checked for every
 * block the built-in registry holds (a loop over the registry, no hand list: a block registered
 * tomorrow is checked by these tests without a line written for it), on the shared scene of
 * tests/block_fixture.h in 2D and 3D with the block's default parameters (its sweeps and threads:
 * test_contract_sweeps.c):
 *   rows       n > 0, lo <= hi, finite targets, A_kk >= 0, starting impulses within bounds, and
 *              VBC_ROWS_BILATERAL only on rows that are two-sided or fixed;
 *   residual   r = b - J v with J the block's `jacobian` rows over the generalized velocities, and
 *              A_kk = J_k W J_k^T (W = M^-1: 1/m of fluid particles, the bodies' 1/m and world
 *              inverse inertia), where the block gives J;
 *   apply      v += W J^T d for a random d, where the block gives J;
 *   operator   the assembled A (the block's own `assemble`, else J W J^T of core/operator.h) times
 *              a random x equals the matrix-free product, the residual before an apply of x minus
 *              the one after (and, with J, the test's own J W J^T x); its diagonal is rows.diag;
 *              A is symmetric unless the block reports VBC_ROWS_UNSYMMETRIC.
 * A block that cannot be made from a scene (vbc_block_init refuses with exit 2) is skipped with
 * its message logged (--verbose); lcp_matrix, which is made from a matrix, gets the same checks
 * on a random LCP of its own (M = J W J^T, unilateral and bilateral rows).
 * Tolerance: 1e-12 (BC_REL) relative to the size of the terms a result sums (|b| + sum |J v|
 * terms, sum |A_ij x_j| + |b| + |r|, |v| + sum |W J^T d| terms, sqrt(A_ii A_jj) for A_ij - A_ji
 * by Cauchy-Schwarz): the room that summing the same products in another order leaves (the
 * blocks sum per row in neighbour order, the test per degree of freedom). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"
#include "solvers/blocks/blocks.h"
#include "tests/block_contract.h"

/* ---- the checks ---- */

static void check_rows(subject *s) {
  bc_reset(s);
  const vbc_rows *rows = &s->blk->rows;
  const unsigned t = bc_traits(s);
  cr_assert_gt(rows->n, 0, "%s has no rows on the fixture: extend block_fixture_scene", NAME);
  size_t active = 0;
  for (size_t k = 0; k < rows->n; ++k) {
    cr_assert(isfinite(rows->target[k]) && isfinite(rows->diag[k]), "%s row %zu", NAME, k);
    cr_assert_geq(rows->diag[k], 0.0, "%s row %zu", NAME, k);
    cr_assert_leq(rows->lo[k], rows->hi[k], "%s row %zu", NAME, k);
    cr_assert(rows->impulse[k] >= rows->lo[k] && rows->impulse[k] <= rows->hi[k]);
    if (t & VBC_ROWS_BILATERAL)
      cr_assert((rows->lo[k] == -INFINITY && rows->hi[k] == INFINITY) || rows->lo[k] == rows->hi[k],
                "%s reports bilateral rows, row %zu has [%g, %g]", NAME, k, rows->lo[k],
                rows->hi[k]);
    active += rows->diag[k] > 0.0;
  }
  cr_assert_gt(active, 0, "%s: every row inert", NAME);
}

/* Blocks whose residual is not b - J v over their Jacobian rows while bodies move, with the
 * reason. sph_density treats rigid particles as moving walls (sph_density.c): their velocity
 * enters its residual, but its Jacobian has no body columns (rigid neighbours without rows get
 * none, those with rows get their particle's own dofs, which the interface says do not exist),
 * so with the fixture's box moving r differs from b - J v in the rows next to it. Such a block is
 * checked on the same scene with every body at rest (and its particles' stored velocities 0),
 * and the difference with them moving is logged. */
static const char *residual_exception(const subject *s) {
  if (s->blk->type == &vbc_block_sph_density)
    return "moving bodies enter the residual, not the Jacobian (bodies are moving walls)";
  return NULL;
}

/* Every body and rigid particle at rest: the velocities the exception above is checked on. */
static void bodies_at_rest(subject *s) {
  vbc_system *sys = s->sys;
  for (size_t b = 0; b < sys->nbodies; ++b) sys->bodies[b].v = sys->bodies[b].w = vbc_vec_zero();
  for (size_t i = 0; sys->particles && i < sys->particles->n; ++i)
    if (sys->particles->kind[i] == VBC_RIGID) sys->particles->vel[i] = vbc_vec_zero();
}

/* The worst |r - (b - J v)| relative to |b| + sum |J v| terms; asserted unless `log_only`. */
static double residual_against_jacobian(subject *s, const vbc_sparse *J, int log_only) {
  const vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  double *v = bc_alloc(s->ndofs), *r = bc_alloc(n), *jv = bc_alloc(n), *size = bc_alloc(n);
  bc_gather(s->sys, v);
  bc_residual(s, r);
  bc_j_times(J, v, 0, jv);
  bc_j_times(J, v, 1, size);
  double worst = 0.0;
  for (size_t k = 0; k < n; ++k) {
    const double scale = fabs(rows->target[k]) + size[k];
    const double miss = fabs(r[k] - (rows->target[k] - jv[k]));
    worst = fmax(worst, scale > 0.0 ? miss / scale : miss);
    if (!log_only)
      cr_assert_leq(miss, BC_REL * scale, "%s row %zu: r = %.17g, b - J v = %.17g", NAME, k, r[k],
                    rows->target[k] - jv[k]);
  }
  free(v), free(r), free(jv), free(size);
  return worst;
}

static void check_residual(subject *s) {
  vbc_sparse J = {0};
  bc_reset(s);
  if (!bc_jacobian(s, &J)) {
    cr_log_info("%s: no Jacobian rows; its residual is checked through its operator", NAME);
    return;
  }
  const char *why = residual_exception(s);
  if (why) {
    cr_log_info("%s: with the bodies moving r differs from b - J v by up to %.3g relative: %s; "
                "asserted with the bodies at rest", NAME, residual_against_jacobian(s, &J, 1), why);
    bodies_at_rest(s);
  }
  residual_against_jacobian(s, &J, 0);
  const vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  double *e = bc_alloc(n), *wje = bc_alloc(s->ndofs);
  for (size_t k = 0; k < n; ++k) { /* A_kk = J_k W J_k^T */
    e[k] = 1.0;
    bc_w_jt(s->sys, &J, e, 0, wje);
    e[k] = 0.0;
    double a = 0.0;
    for (size_t q = J.start[k]; q < J.start[k + 1]; ++q) a += J.val[q] * wje[J.col[q]];
    cr_assert_leq(fabs(rows->diag[k] - a), BC_REL * fmax(fabs(a), rows->diag[k]),
                  "%s row %zu: A_kk = %.17g, J_k W J_k^T = %.17g", NAME, k, rows->diag[k], a);
  }
  free(e), free(wje);
  vbc_sparse_free(&J);
}

static void check_apply(subject *s) {
  vbc_sparse J = {0};
  bc_reset(s);
  if (!bc_jacobian(s, &J)) {
    cr_log_info("%s: no Jacobian rows; apply is checked through its operator", NAME);
    return;
  }
  const size_t n = s->blk->rows.n, nd = s->ndofs;
  double *d = bc_alloc(n), *before = bc_alloc(nd), *after = bc_alloc(nd);
  double *dv = bc_alloc(nd), *size = bc_alloc(nd), *dabs = bc_alloc(n);
  for (size_t k = 0; k < n; ++k) d[k] = bc_uniform(&s->seed), dabs[k] = fabs(d[k]);
  bc_gather(s->sys, before);
  bc_apply(s, d);
  bc_gather(s->sys, after);
  bc_w_jt(s->sys, &J, d, 0, dv);
  bc_w_jt(s->sys, &J, d, 1, size);
  size_t moved = 0;
  for (size_t c = 0; c < nd; ++c) {
    cr_assert_leq(fabs(after[c] - before[c] - dv[c]), BC_REL * (fabs(before[c]) + size[c]),
                  "%s dof %zu: v changed by %.17g, W J^T d = %.17g", NAME, c, after[c] - before[c],
                  dv[c]);
    moved += dv[c] != 0.0;
  }
  cr_assert_gt(moved, 0, "%s: apply moved nothing", NAME);
  free(d), free(before), free(after), free(dv), free(size), free(dabs);
  vbc_sparse_free(&J);
}

static void check_operator(subject *s) {
  bc_reset(s);
  vbc_block *blocks[1] = {s->blk};
  vbc_problem pb = {s->sys, blocks, 1};
  if (vbc_problem_unassemblable(&pb)) {
    cr_log_info("%s: no operator to assemble (neither assemble nor jacobian)", NAME);
    return;
  }
  vbc_error err = {0};
  vbc_sparse A = {0}, J = {0};
  cr_assert_eq(vbc_problem_assemble(&pb, &A, &err), 0, "%s: %s", NAME, err.message);
  const vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  cr_assert_eq(A.nrows, n);
  double *x = bc_alloc(n), *r0 = bc_alloc(n), *r1 = bc_alloc(n), *ax = bc_alloc(n);
  double *size = bc_alloc(n), *own = bc_alloc(n), *wjx = bc_alloc(s->ndofs);
  for (size_t k = 0; k < n; ++k) x[k] = bc_uniform(&s->seed);
  for (size_t i = 0; i < n; ++i)
    for (size_t e = A.start[i]; e < A.start[i + 1]; ++e) {
      ax[i] += A.val[e] * x[A.col[e]];
      size[i] += fabs(A.val[e] * x[A.col[e]]);
    }
  const int has_j = bc_jacobian(s, &J);
  if (has_j) {
    bc_w_jt(s->sys, &J, x, 0, wjx);
    bc_j_times(&J, wjx, 0, own);
  }
  bc_residual(s, r0);
  bc_apply(s, x);
  bc_residual(s, r1);
  for (size_t i = 0; i < n; ++i) {
    const double scale = size[i] + fabs(rows->target[i]) + fabs(r0[i]) + fabs(r1[i]);
    cr_assert_leq(fabs(r0[i] - r1[i] - ax[i]), BC_REL * scale,
                  "%s row %zu: matrix-free (A x) = %.17g, assembled %.17g", NAME, i, r0[i] - r1[i],
                  ax[i]);
    if (has_j)
      cr_assert_leq(fabs(own[i] - ax[i]), BC_REL * size[i], "%s row %zu: J W J^T x = %.17g, "
                    "assembled %.17g", NAME, i, own[i], ax[i]);
    const double aii = bc_csr_entry(&A, i, i);
    cr_assert_leq(fabs(aii - rows->diag[i]), BC_REL * fabs(aii), "%s row %zu: A_ii = %.17g, "
                  "rows.diag %.17g", NAME, i, aii, rows->diag[i]);
  }
  if (bc_traits(s) & VBC_ROWS_UNSYMMETRIC) {
    cr_log_info("%s reports an unsymmetric operator: symmetry not checked", NAME);
  } else {
    for (size_t i = 0; i < n; ++i)
      for (size_t e = A.start[i]; e < A.start[i + 1]; ++e) {
        const size_t j = A.col[e];
        const double aij = bc_csr_entry(&A, i, j), aji = bc_csr_entry(&A, j, i);
        /* |A_ij| <= sqrt(A_ii A_jj) bounds the terms of both sums (Cauchy-Schwarz) */
        const double scale = sqrt(fabs(bc_csr_entry(&A, i, i) * bc_csr_entry(&A, j, j)));
        cr_assert_leq(fabs(aij - aji), BC_REL * scale, "%s: A[%zu][%zu] = %.17g, A[%zu][%zu] = "
                      "%.17g, and the block reports a symmetric operator", NAME, i, j, aij, j, i,
                      aji);
      }
  }
  free(x), free(r0), free(r1), free(ax), free(size), free(own), free(wjx);
  vbc_sparse_free(&A);
  vbc_sparse_free(&J);
}

Test(contract_blocks, rows_2d) { bc_every_block(block_scene_2d, check_rows); }
Test(contract_blocks, rows_3d) { bc_every_block(block_scene_3d, check_rows); }
Test(contract_blocks, residual_is_b_minus_jv_2d) { bc_every_block(block_scene_2d, check_residual); }
Test(contract_blocks, residual_is_b_minus_jv_3d) { bc_every_block(block_scene_3d, check_residual); }
Test(contract_blocks, apply_is_w_jt_d_2d) { bc_every_block(block_scene_2d, check_apply); }
Test(contract_blocks, apply_is_w_jt_d_3d) { bc_every_block(block_scene_3d, check_apply); }
Test(contract_blocks, operator_2d) { bc_every_block(block_scene_2d, check_operator); }
Test(contract_blocks, operator_3d) { bc_every_block(block_scene_3d, check_operator); }

/* lcp_matrix, made from a matrix, on an LCP of its own. */
static void lcp_matrix_checks(subject *s) {
  check_rows(s);
  check_residual(s);
  check_apply(s);
  check_operator(s);
}

Test(contract_blocks, lcp_matrix_unilateral) { bc_lcp_matrix(0, lcp_matrix_checks); }
Test(contract_blocks, lcp_matrix_bilateral) { bc_lcp_matrix(1, lcp_matrix_checks); }
