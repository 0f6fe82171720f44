/* test_contract_blocks.c — the contract of core/constraint.h checked for every block the built-in
 * registry holds (a loop over the registry, no hand list: a block registered tomorrow is checked
 * by these tests without a line written for it), on the shared scene of tests/block_fixture.h in
 * 2D and 3D with the block's default parameters:
 *   rows       n > 0, lo <= hi, finite targets, A_kk >= 0, starting impulses within bounds, and
 *              VBC_ROWS_BILATERAL only on rows that are two-sided or fixed;
 *   residual   r = b - J v with J the block's `jacobian` rows over the generalized velocities, and
 *              A_kk = J_k W J_k^T (W = M^-1: 1/m of fluid particles, the bodies' 1/m and world
 *              inverse inertia), where the block gives J;
 *   apply      v += W J^T d for a random d, where the block gives J;
 *   operator   the assembled A (the block's own `assemble`, else J W J^T of core/operator.h) times
 *              a random x equals the matrix-free product, the residual before an apply of x minus
 *              the one after (and, with J, the test's own J W J^T x); its diagonal is rows.diag;
 *              A is symmetric unless the block reports VBC_ROWS_UNSYMMETRIC;
 *   sweep      one row free (the others held by lo = hi = lambda): forward and backward sweeps
 *              both do exactly vbc_pgs_row on that row with J_k v = b_k - r_k, and change the
 *              state exactly as an apply of that change; a full sweep keeps its impulses in
 *              bounds and leaves the state an apply of its impulse changes would; with two
 *              coupled rows free, a forward sweep updates them in one order and a backward
 *              sweep in the other (Gauss-Seidel in an order and its reverse);
 *   threads    on scenes with more than VBC_PARALLEL_MIN fluid rows, prepare, residual, apply and
 *              forward and backward sweeps give the same bits on 1 and 2 OpenMP threads.
 * A block that cannot be made from a scene (vbc_block_init refuses with exit 2) is skipped with
 * its message logged; lcp_matrix, which is made from a matrix, gets the same checks on a random
 * LCP of its own (M = J W J^T, unilateral and bilateral rows).
 * Tolerances: 1e-12 relative to the size of the terms a result sums (|b| + |r|, sum |A_ij x_j|,
 * |v| + sum |W J^T d| terms), the room that summing the same products in another order leaves
 * (the blocks sum per row in neighbour order, the test per degree of freedom); 1e-10 for the
 * sweep-order check, whose expected second update goes through the assembled A_lk times the
 * first change instead of the velocities. Comparisons of a quantity nothing recomputes (held
 * rows' impulses, the bits on 1 and 2 threads) are exact. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"
#include "core/parallel.h"
#include "registry/registry.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/lcp_matrix.h"
#include "tests/block_fixture.h"
#include "tests/support.h"

#define REL 1e-12

/* A block under test and the system it acts on (a fixture's, or an empty one for lcp_matrix),
 * with the velocities it starts from and the random numbers of the checks. */
typedef struct subject {
  vbc_system *sys;
  vbc_block *blk;
  size_t ndofs;
  double *v0; /* generalized velocities at the start */
  unsigned seed;
} subject;

static double uniform(unsigned *state) { /* in [-1, 1) */
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 23) - 1.0;
}

static double *vec_alloc(size_t n) {
  double *v = calloc(n ? n : 1, sizeof *v);
  cr_assert_not_null(v);
  return v;
}

/* ---- generalized velocities: particles' dofs, then per body dim linear and nrot angular ---- */

static size_t system_ndofs(const vbc_system *s) { return s->particles ? vbc_system_ndofs(s) : 0; }

static void gather(const vbc_system *s, double *v) {
  if (s->particles == NULL) return;
  const size_t dim = (size_t)s->dim, nrot = vbc_system_nrot(s);
  for (size_t i = 0; i < s->particles->n; ++i)
    for (size_t a = 0; a < dim; ++a) v[dim * i + a] = vbc_vec_get(s->particles->vel[i], (int)a);
  for (size_t b = 0; b < s->nbodies; ++b) {
    const size_t base = vbc_system_body_dof(s, b);
    for (size_t a = 0; a < dim; ++a) v[base + a] = vbc_vec_get(s->bodies[b].v, (int)a);
    for (size_t a = 0; a < nrot; ++a)
      v[base + dim + a] = vbc_vec_get(s->bodies[b].w, nrot == 1 ? 2 : (int)a);
  }
}

static void scatter(vbc_system *s, const double *v) {
  if (s->particles == NULL) return;
  const size_t dim = (size_t)s->dim, nrot = vbc_system_nrot(s);
  for (size_t i = 0; i < s->particles->n; ++i)
    for (size_t a = 0; a < dim; ++a) vbc_vec_set(&s->particles->vel[i], (int)a, v[dim * i + a]);
  for (size_t b = 0; b < s->nbodies; ++b) {
    const size_t base = vbc_system_body_dof(s, b);
    for (size_t a = 0; a < dim; ++a) vbc_vec_set(&s->bodies[b].v, (int)a, v[base + a]);
    for (size_t a = 0; a < nrot; ++a)
      vbc_vec_set(&s->bodies[b].w, nrot == 1 ? 2 : (int)a, v[base + dim + a]);
  }
}

/* out = W J^T d (with `absolute`: |W| |J|^T |d|, the size of its terms), over all dofs. */
static void w_jt(const vbc_system *s, const vbc_sparse *J, const double *d, int absolute,
                 double *out) {
  const size_t nd = system_ndofs(s), dim = (size_t)s->dim;
  double *t = vec_alloc(nd);
  for (size_t k = 0; k < J->nrows; ++k)
    for (size_t e = J->start[k]; e < J->start[k + 1]; ++e)
      t[J->col[e]] += absolute ? fabs(J->val[e] * d[k]) : J->val[e] * d[k];
  const size_t np = s->particles ? s->particles->n : 0;
  for (size_t c = 0; c < dim * np; ++c) out[c] = vbc_system_inv_mass(s, c / dim) * t[c];
  for (size_t b = 0; b < s->nbodies; ++b) {
    const vbc_body *body = &s->bodies[b];
    const size_t base = vbc_system_body_dof(s, b);
    vbc_vec lin = vbc_vec_zero(), ang = vbc_vec_zero();
    for (size_t a = 0; a < dim; ++a) vbc_vec_set(&lin, (int)a, t[base + a]);
    if (dim == 2) ang.z = t[base + 2];
    else ang = vbc_vec_make(t[base + 3], t[base + 4], t[base + 5]);
    lin = vbc_vec_scale(vbc_body_unlocked(body, lin), body->inv_mass);
    vbc_mat3 I = body->inv_inertia;
    if (absolute)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) I.a[r][c] = fabs(I.a[r][c]);
    ang = vbc_mat3_mul(&I, ang);
    for (size_t a = 0; a < dim; ++a) out[base + a] = vbc_vec_get(lin, (int)a);
    if (dim == 2) out[base + 2] = ang.z;
    else out[base + 3] = ang.x, out[base + 4] = ang.y, out[base + 5] = ang.z;
  }
  free(t);
}

/* y = J x (with `absolute`: |J| |x|). */
static void j_times(const vbc_sparse *J, const double *x, int absolute, double *y) {
  for (size_t k = 0; k < J->nrows; ++k) {
    double s = 0.0;
    for (size_t e = J->start[k]; e < J->start[k + 1]; ++e)
      s += absolute ? fabs(J->val[e] * x[J->col[e]]) : J->val[e] * x[J->col[e]];
    y[k] = s;
  }
}

/* ---- the subject's state ---- */

static void residual(subject *s, double *r) {
  s->blk->type->residual(s->blk->state, s->sys, &s->blk->rows, r);
}

static void apply(subject *s, const double *d) {
  s->blk->type->apply(s->blk->state, s->sys, &s->blk->rows, d);
}

/* Velocities back to the start and the rows prepared again: impulses 0, a block's own y = 0. */
static void reset(subject *s) {
  vbc_error err = {0};
  scatter(s->sys, s->v0);
  cr_assert_eq(s->blk->type->prepare(s->blk->state, s->sys, &s->blk->rows, &err), 0, "%s: %s",
               s->blk->type->name, err.message);
}

static unsigned traits(const subject *s) {
  return s->blk->type->traits ? s->blk->type->traits(s->blk->state) : 0u;
}

/* Feasible random impulses of the size r_k / A_kk of the rows' first update. */
static void random_impulses(subject *s, const double *r0, double *lambda) {
  const vbc_rows *rows = &s->blk->rows;
  for (size_t k = 0; k < rows->n; ++k) {
    const double size = rows->diag[k] > 0.0 ? fabs(r0[k]) / rows->diag[k] + 1e-3 : 1.0;
    lambda[k] = vbc_clamp(size * uniform(&s->seed), rows->lo[k], rows->hi[k]);
  }
}

/* reset, then the impulses lambda applied: the state a solve with those impulses would be in. */
static void start_from(subject *s, const double *lambda) {
  reset(s);
  apply(s, lambda);
  memcpy(s->blk->rows.impulse, lambda, s->blk->rows.n * sizeof *lambda);
}

static int get_jacobian(subject *s, vbc_sparse *J) {
  if (s->blk->type->jacobian == NULL) return 0;
  vbc_error err = {0};
  cr_assert_eq(s->blk->type->jacobian(s->blk->state, s->sys, J, &err), 0, "%s", err.message);
  cr_assert_eq(J->nrows, s->blk->rows.n, "%s: Jacobian rows", s->blk->type->name);
  cr_assert_eq(J->ndofs, s->ndofs, "%s: Jacobian columns", s->blk->type->name);
  for (size_t e = 0; e < J->nnz; ++e) cr_assert_lt(J->col[e], s->ndofs);
  return 1;
}

#define NAME (s->blk->type->name)

/* ---- the checks ---- */

static void check_rows(subject *s) {
  reset(s);
  const vbc_rows *rows = &s->blk->rows;
  const unsigned t = traits(s);
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
  double *v = vec_alloc(s->ndofs), *r = vec_alloc(n), *jv = vec_alloc(n), *size = vec_alloc(n);
  gather(s->sys, v);
  residual(s, r);
  j_times(J, v, 0, jv);
  j_times(J, v, 1, size);
  double worst = 0.0;
  for (size_t k = 0; k < n; ++k) {
    const double scale = fabs(rows->target[k]) + size[k];
    const double miss = fabs(r[k] - (rows->target[k] - jv[k]));
    worst = fmax(worst, scale > 0.0 ? miss / scale : miss);
    if (!log_only)
      cr_assert_leq(miss, REL * scale, "%s row %zu: r = %.17g, b - J v = %.17g", NAME, k, r[k],
                    rows->target[k] - jv[k]);
  }
  free(v), free(r), free(jv), free(size);
  return worst;
}

static void check_residual(subject *s) {
  vbc_sparse J = {0};
  reset(s);
  if (!get_jacobian(s, &J)) {
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
  double *e = vec_alloc(n), *wje = vec_alloc(s->ndofs);
  for (size_t k = 0; k < n; ++k) { /* A_kk = J_k W J_k^T */
    e[k] = 1.0;
    w_jt(s->sys, &J, e, 0, wje);
    e[k] = 0.0;
    double a = 0.0;
    for (size_t q = J.start[k]; q < J.start[k + 1]; ++q) a += J.val[q] * wje[J.col[q]];
    cr_assert_leq(fabs(rows->diag[k] - a), REL * fmax(fabs(a), rows->diag[k]),
                  "%s row %zu: A_kk = %.17g, J_k W J_k^T = %.17g", NAME, k, rows->diag[k], a);
  }
  free(e), free(wje);
  vbc_sparse_free(&J);
}

static void check_apply(subject *s) {
  vbc_sparse J = {0};
  reset(s);
  if (!get_jacobian(s, &J)) {
    cr_log_info("%s: no Jacobian rows; apply is checked through its operator", NAME);
    return;
  }
  const size_t n = s->blk->rows.n, nd = s->ndofs;
  double *d = vec_alloc(n), *before = vec_alloc(nd), *after = vec_alloc(nd);
  double *dv = vec_alloc(nd), *size = vec_alloc(nd), *dabs = vec_alloc(n);
  for (size_t k = 0; k < n; ++k) d[k] = uniform(&s->seed), dabs[k] = fabs(d[k]);
  gather(s->sys, before);
  apply(s, d);
  gather(s->sys, after);
  w_jt(s->sys, &J, d, 0, dv);
  w_jt(s->sys, &J, d, 1, size);
  size_t moved = 0;
  for (size_t c = 0; c < nd; ++c) {
    cr_assert_leq(fabs(after[c] - before[c] - dv[c]), REL * (fabs(before[c]) + size[c]),
                  "%s dof %zu: v changed by %.17g, W J^T d = %.17g", NAME, c, after[c] - before[c],
                  dv[c]);
    moved += dv[c] != 0.0;
  }
  cr_assert_gt(moved, 0, "%s: apply moved nothing", NAME);
  free(d), free(before), free(after), free(dv), free(size), free(dabs);
  vbc_sparse_free(&J);
}

/* A(r, c), duplicates summed. */
static double csr_entry(const vbc_sparse *A, size_t r, size_t c) {
  double a = 0.0;
  for (size_t e = A->start[r]; e < A->start[r + 1]; ++e)
    if (A->col[e] == c) a += A->val[e];
  return a;
}

static void check_operator(subject *s) {
  reset(s);
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
  double *x = vec_alloc(n), *r0 = vec_alloc(n), *r1 = vec_alloc(n), *ax = vec_alloc(n);
  double *size = vec_alloc(n), *own = vec_alloc(n), *wjx = vec_alloc(s->ndofs);
  for (size_t k = 0; k < n; ++k) x[k] = uniform(&s->seed);
  for (size_t i = 0; i < n; ++i)
    for (size_t e = A.start[i]; e < A.start[i + 1]; ++e) {
      ax[i] += A.val[e] * x[A.col[e]];
      size[i] += fabs(A.val[e] * x[A.col[e]]);
    }
  const int has_j = get_jacobian(s, &J);
  if (has_j) {
    w_jt(s->sys, &J, x, 0, wjx);
    j_times(&J, wjx, 0, own);
  }
  residual(s, r0);
  apply(s, x);
  residual(s, r1);
  for (size_t i = 0; i < n; ++i) {
    const double scale = size[i] + fabs(rows->target[i]) + fabs(r0[i]) + fabs(r1[i]);
    cr_assert_leq(fabs(r0[i] - r1[i] - ax[i]), REL * scale,
                  "%s row %zu: matrix-free (A x) = %.17g, assembled %.17g", NAME, i, r0[i] - r1[i],
                  ax[i]);
    if (has_j)
      cr_assert_leq(fabs(own[i] - ax[i]), REL * size[i], "%s row %zu: J W J^T x = %.17g, "
                    "assembled %.17g", NAME, i, own[i], ax[i]);
    const double aii = csr_entry(&A, i, i);
    cr_assert_leq(fabs(aii - rows->diag[i]), REL * fabs(aii), "%s row %zu: A_ii = %.17g, "
                  "rows.diag %.17g", NAME, i, aii, rows->diag[i]);
  }
  if (traits(s) & VBC_ROWS_UNSYMMETRIC) {
    cr_log_info("%s reports an unsymmetric operator: symmetry not checked", NAME);
  } else {
    for (size_t i = 0; i < n; ++i)
      for (size_t e = A.start[i]; e < A.start[i + 1]; ++e) {
        const size_t j = A.col[e];
        const double aij = csr_entry(&A, i, j), aji = csr_entry(&A, j, i);
        /* |A_ij| <= sqrt(A_ii A_jj) bounds the terms of both sums (Cauchy-Schwarz) */
        const double scale = sqrt(fabs(csr_entry(&A, i, i) * csr_entry(&A, j, j)));
        cr_assert_leq(fabs(aij - aji), REL * scale, "%s: A[%zu][%zu] = %.17g, A[%zu][%zu] = "
                      "%.17g, and the block reports a symmetric operator", NAME, i, j, aij, j, i,
                      aji);
      }
  }
  free(x), free(r0), free(r1), free(ax), free(size), free(own), free(wjx);
  vbc_sparse_free(&A);
  vbc_sparse_free(&J);
}

/* What a sweep left: impulses, residual and velocities. */
typedef struct state_copy {
  double *impulse, *r, *v;
} state_copy;

static state_copy copy_state(subject *s) {
  const size_t n = s->blk->rows.n;
  state_copy c = {vec_alloc(n), vec_alloc(n), vec_alloc(s->ndofs)};
  memcpy(c.impulse, s->blk->rows.impulse, n * sizeof *c.impulse);
  residual(s, c.r);
  gather(s->sys, c.v);
  return c;
}

static void free_state(state_copy *c) { free(c->impulse), free(c->r), free(c->v); }

/* `got` (after a sweep from the state start_from(lambda) gives) against the state an apply of
 * its impulse changes makes from there. */
static void expect_applied(subject *s, const double *lambda, const state_copy *got,
                           const char *what) {
  const size_t n = s->blk->rows.n;
  double *d = vec_alloc(n);
  for (size_t k = 0; k < n; ++k) d[k] = got->impulse[k] - lambda[k];
  start_from(s, lambda);
  state_copy from = copy_state(s);
  apply(s, d);
  state_copy want = copy_state(s);
  for (size_t i = 0; i < n; ++i) {
    const double scale = fabs(s->blk->rows.target[i]) + fabs(from.r[i]) + fabs(want.r[i]) +
                         fabs(got->r[i]);
    cr_assert_leq(fabs(got->r[i] - want.r[i]), REL * scale, "%s, %s: row %zu's residual %.17g "
                  "after the sweep, %.17g after an apply of its changes", NAME, what, i, got->r[i],
                  want.r[i]);
  }
  for (size_t c = 0; c < s->ndofs; ++c) {
    const double scale = fabs(from.v[c]) + fabs(want.v[c] - from.v[c]) + fabs(got->v[c] - from.v[c]);
    cr_assert_leq(fabs(got->v[c] - want.v[c]), REL * scale, "%s, %s: dof %zu is %.17g after the "
                  "sweep, %.17g after an apply of its changes", NAME, what, c, got->v[c],
                  want.v[c]);
  }
  free_state(&from);
  free_state(&want);
  free(d);
}

/* Row k alone free: the sweep must do vbc_pgs_row on it with J_k v = b_k - r_k. */
static void sweep_one_row(subject *s, size_t k, const double *lambda, double omega,
                          vbc_sweep_order order) {
  vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n;
  start_from(s, lambda);
  for (size_t j = 0; j < n; ++j)
    if (j != k) rows->lo[j] = rows->hi[j] = lambda[j];
  double *r = vec_alloc(n), *impulse = vec_alloc(n);
  residual(s, r);
  memcpy(impulse, rows->impulse, n * sizeof *impulse);
  vbc_rows view = *rows;
  view.impulse = impulse;
  const double jv = rows->target[k] - r[k];
  vbc_pgs_row(&view, k, jv, omega);
  s->blk->type->sweep(s->blk->state, s->sys, rows, omega, order);
  state_copy got = copy_state(s);
  const double scale = fabs(lambda[k]) + 2.0 * omega * (fabs(rows->target[k]) + fabs(r[k])) /
                                             rows->diag[k];
  cr_assert_leq(fabs(got.impulse[k] - impulse[k]), REL * scale, "%s row %zu (%s sweep): "
                "lambda' = %.17g, vbc_pgs_row gives %.17g", NAME, k,
                order == VBC_SWEEP_FORWARD ? "forward" : "backward", got.impulse[k], impulse[k]);
  for (size_t j = 0; j < n; ++j)
    if (j != k) cr_assert_eq(got.impulse[j], lambda[j], "%s: held row %zu moved", NAME, j);
  expect_applied(s, lambda, &got, "one free row");
  free_state(&got);
  free(r), free(impulse);
}

static void check_sweep(subject *s) {
  reset(s);
  const size_t n = s->blk->rows.n;
  double *r0 = vec_alloc(n), *lambda = vec_alloc(n);
  residual(s, r0);
  random_impulses(s, r0, lambda);
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
    start_from(s, lambda);
    s->blk->type->sweep(s->blk->state, s->sys, &s->blk->rows, 1.0, (vbc_sweep_order)order);
    state_copy got = copy_state(s);
    size_t changed = 0;
    for (size_t k = 0; k < n; ++k) {
      const vbc_rows *rows = &s->blk->rows;
      cr_assert(got.impulse[k] >= rows->lo[k] && got.impulse[k] <= rows->hi[k],
                "%s row %zu: %g outside [%g, %g]", NAME, k, got.impulse[k], rows->lo[k],
                rows->hi[k]);
      if (!(rows->diag[k] > 0.0)) cr_assert_eq(got.impulse[k], lambda[k], "%s: inert row moved", NAME);
      changed += got.impulse[k] != lambda[k];
    }
    cr_assert_gt(changed, 0, "%s: the sweep changed no impulse", NAME);
    expect_applied(s, lambda, &got, order ? "full backward sweep" : "full forward sweep");
    free_state(&got);
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
  start_from(s, lambda);
  double *r = vec_alloc(n), *kl = vec_alloc(n), *lk = vec_alloc(n), got[2][2];
  residual(s, r);
  memcpy(kl, rows->impulse, n * sizeof *kl);
  memcpy(lk, rows->impulse, n * sizeof *lk);
  two_row_updates(s, k, l, r, csr_entry(A, l, k), omega, kl);
  two_row_updates(s, l, k, r, csr_entry(A, k, l), omega, lk);
  double scale = 0.0;
  for (size_t i = 0; i < 2; ++i) {
    const size_t j = i ? l : k;
    scale = fmax(scale, fabs(lambda[j]) + 2.0 * (fabs(rows->target[j]) + fabs(r[j]) +
                                                 fabs(kl[j] - lambda[j])) / rows->diag[j]);
  }
  const double apart = fmax(fabs(kl[k] - lk[k]), fabs(kl[l] - lk[l]));
  for (int order = 0; order < 2; ++order) {
    start_from(s, lambda);
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
  reset(s);
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
  double *r0 = vec_alloc(n), *lambda = vec_alloc(n);
  residual(s, r0);
  random_impulses(s, r0, lambda);
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
  reset(s);
  vbc_rows *rows = &s->blk->rows;
  const size_t n = rows->n, nd = s->ndofs;
  run_bits out = {vec_alloc(5 * n), vec_alloc(PASSES * n), vec_alloc(PASSES * nd)};
  const double *fields[5] = {rows->target, rows->lo, rows->hi, rows->diag, rows->impulse};
  for (int f = 0; f < 5; ++f) memcpy(out.rows + f * n, fields[f], n * sizeof(double));
  unsigned seed = 99u;
  double *d = vec_alloc(n);
  for (size_t k = 0; k < n; ++k) d[k] = 1e-3 * uniform(&seed);
  for (int pass = 0; pass < PASSES; ++pass) {
    if (pass == 1) apply(s, d);
    if (pass == 2) s->blk->type->sweep(s->blk->state, s->sys, rows, 1.0, VBC_SWEEP_FORWARD);
    if (pass == 3) s->blk->type->sweep(s->blk->state, s->sys, rows, 1.0, VBC_SWEEP_BACKWARD);
    residual(s, out.r + pass * n);
    gather(s->sys, out.v + pass * nd);
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

/* ---- drivers ---- */

typedef void (*check_fn)(subject *s);

/* Every registered block on the scene of the given size. */
static void every_block(block_scene_size size, check_fn check) {
  const vbc_registry *reg = test_registry();
  size_t checked = 0;
  for (size_t b = 0; b < reg->nblocks; ++b) {
    const vbc_block_type *type = reg->block[b];
    block_fixture f;
    block_fixture_scene(&f, size);
    vbc_error err = {0};
    const int rc = block_fixture_scene_block(&f, type, NULL, &err);
    if (rc != VBC_OK) {
      cr_assert_eq(rc, VBC_EXIT_INPUT, "%s: %s", type->name, err.message);
      cr_log_info("block %s skipped: it cannot be made from a scene (%s)%s", type->name,
                  err.message, type == &vbc_block_lcp_matrix ? "; lcp_matrix_* tests cover it" : "");
      block_fixture_free(&f);
      continue;
    }
    subject s = {&f.sys, &f.block, system_ndofs(&f.sys), NULL, 7u + (unsigned)b};
    s.v0 = vec_alloc(s.ndofs);
    gather(&f.sys, s.v0);
    check(&s);
    free(s.v0);
    block_fixture_free(&f);
    ++checked;
  }
  cr_assert_gt(checked, 0);
}

Test(contract_blocks, rows_2d) { every_block(block_scene_2d, check_rows); }
Test(contract_blocks, rows_3d) { every_block(block_scene_3d, check_rows); }
Test(contract_blocks, residual_is_b_minus_jv_2d) { every_block(block_scene_2d, check_residual); }
Test(contract_blocks, residual_is_b_minus_jv_3d) { every_block(block_scene_3d, check_residual); }
Test(contract_blocks, apply_is_w_jt_d_2d) { every_block(block_scene_2d, check_apply); }
Test(contract_blocks, apply_is_w_jt_d_3d) { every_block(block_scene_3d, check_apply); }
Test(contract_blocks, operator_2d) { every_block(block_scene_2d, check_operator); }
Test(contract_blocks, operator_3d) { every_block(block_scene_3d, check_operator); }
Test(contract_blocks, sweep_is_the_generic_row_update_2d) { every_block(block_scene_2d, check_sweep); }
Test(contract_blocks, sweep_is_the_generic_row_update_3d) { every_block(block_scene_3d, check_sweep); }
Test(contract_blocks, backward_sweep_reverses_the_forward_order_2d) {
  every_block(block_scene_2d, check_sweep_order);
}
Test(contract_blocks, backward_sweep_reverses_the_forward_order_3d) {
  every_block(block_scene_3d, check_sweep_order);
}
Test(contract_blocks, same_bits_on_1_and_2_threads_2d) {
  every_block(block_scene_2d_large, check_threads);
}
Test(contract_blocks, same_bits_on_1_and_2_threads_3d) {
  every_block(block_scene_3d_large, check_threads);
}

/* lcp_matrix on its own LCP: M = J W J^T with J random (n x 2n) and W diagonal positive. */
static void lcp_matrix_checks(int bilateral) {
  enum { N = 24, D = 48 };
  unsigned seed = 5u;
  static double J[N * D], W[D], M[N * N], q[N];
  for (size_t i = 0; i < N * D; ++i) J[i] = uniform(&seed) > 0.3 ? uniform(&seed) : 0.0;
  for (size_t c = 0; c < D; ++c) W[c] = 0.5 + 0.5 * (uniform(&seed) + 1.0);
  for (size_t i = 0; i < N; ++i) {
    q[i] = uniform(&seed);
    for (size_t j = 0; j < N; ++j) {
      double a = 0.0;
      for (size_t c = 0; c < D; ++c) a += J[i * D + c] * W[c] * J[j * D + c];
      M[i * N + j] = a;
    }
  }
  for (size_t i = 0; i < N; ++i) /* exactly symmetric: the sums above differ in rounding */
    for (size_t j = 0; j < i; ++j) M[i * N + j] = M[j * N + i];
  vbc_error err = {0};
  vbc_block blk;
  cr_assert_eq(vbc_lcp_matrix_block_init(&blk, N, M, q, &err), 0, "%s", err.message);
  if (bilateral) vbc_lcp_matrix_bilateral(&blk);
  vbc_particles none = {0};
  vbc_system sys = {.dim = 2, .particles = &none};
  subject s = {&sys, &blk, system_ndofs(&sys), vec_alloc(1), 3u};
  check_rows(&s);
  check_residual(&s);
  check_apply(&s);
  check_operator(&s);
  check_sweep(&s);
  check_sweep_order(&s);
  check_threads(&s);
  cr_assert_eq(!!(traits(&s) & VBC_ROWS_BILATERAL), bilateral);
  free(s.v0);
  vbc_block_free(&blk);
}

Test(contract_blocks, lcp_matrix_unilateral) { lcp_matrix_checks(0); }
Test(contract_blocks, lcp_matrix_bilateral) { lcp_matrix_checks(1); }
