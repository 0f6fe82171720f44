/* block_contract.c — see block_contract.h. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/lcp_matrix.h"
#include "tests/block_contract.h"
#include "tests/support.h"


double bc_uniform(unsigned *state) { /* in [-1, 1) */
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 23) - 1.0;
}

double *bc_alloc(size_t n) {
  double *v = calloc(n ? n : 1, sizeof *v);
  cr_assert_not_null(v);
  return v;
}

/* ---- generalized velocities: particles' dofs, then per body dim linear and nrot angular ---- */

size_t bc_ndofs(const vbc_system *s) { return s->particles ? vbc_system_ndofs(s) : 0; }

void bc_gather(const vbc_system *s, double *v) {
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

void bc_scatter(vbc_system *s, const double *v) {
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
void bc_w_jt(const vbc_system *s, const vbc_sparse *J, const double *d, int absolute,
                 double *out) {
  const size_t nd = bc_ndofs(s), dim = (size_t)s->dim;
  double *t = bc_alloc(nd);
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
void bc_j_times(const vbc_sparse *J, const double *x, int absolute, double *y) {
  for (size_t k = 0; k < J->nrows; ++k) {
    double s = 0.0;
    for (size_t e = J->start[k]; e < J->start[k + 1]; ++e)
      s += absolute ? fabs(J->val[e] * x[J->col[e]]) : J->val[e] * x[J->col[e]];
    y[k] = s;
  }
}

/* ---- the subject's state ---- */

void bc_residual(subject *s, double *r) {
  s->blk->type->residual(s->blk->state, s->sys, &s->blk->rows, r);
}

void bc_apply(subject *s, const double *d) {
  s->blk->type->apply(s->blk->state, s->sys, &s->blk->rows, d);
}

/* Velocities back to the start and the rows prepared again: impulses 0, a block's own y = 0. */
void bc_reset(subject *s) {
  vbc_error err = {0};
  bc_scatter(s->sys, s->v0);
  cr_assert_eq(s->blk->type->prepare(s->blk->state, s->sys, &s->blk->rows, &err), 0, "%s: %s",
               s->blk->type->name, err.message);
}

unsigned bc_traits(const subject *s) {
  return s->blk->type->traits ? s->blk->type->traits(s->blk->state) : 0u;
}

/* Feasible random impulses of the size r_k / A_kk of the rows' first update. */
void bc_random_impulses(subject *s, const double *r0, double *lambda) {
  const vbc_rows *rows = &s->blk->rows;
  for (size_t k = 0; k < rows->n; ++k) {
    const double size = rows->diag[k] > 0.0 ? fabs(r0[k]) / rows->diag[k] + 1e-3 : 1.0;
    lambda[k] = vbc_clamp(size * bc_uniform(&s->seed), rows->lo[k], rows->hi[k]);
  }
}

/* reset, then the impulses lambda applied: the state a solve with those impulses would be in. */
void bc_start_from(subject *s, const double *lambda) {
  bc_reset(s);
  bc_apply(s, lambda);
  memcpy(s->blk->rows.impulse, lambda, s->blk->rows.n * sizeof *lambda);
}

int bc_jacobian(subject *s, vbc_sparse *J) {
  if (s->blk->type->jacobian == NULL) return 0;
  vbc_error err = {0};
  cr_assert_eq(s->blk->type->jacobian(s->blk->state, s->sys, J, &err), 0, "%s", err.message);
  cr_assert_eq(J->nrows, s->blk->rows.n, "%s: Jacobian rows", s->blk->type->name);
  cr_assert_eq(J->ndofs, s->ndofs, "%s: Jacobian columns", s->blk->type->name);
  for (size_t e = 0; e < J->nnz; ++e) cr_assert_lt(J->col[e], s->ndofs);
  return 1;
}

/* A(r, c), duplicates summed. */
double bc_csr_entry(const vbc_sparse *A, size_t r, size_t c) {
  double a = 0.0;
  for (size_t e = A->start[r]; e < A->start[r + 1]; ++e)
    if (A->col[e] == c) a += A->val[e];
  return a;
}

bc_state bc_copy_state(subject *s) {
  const size_t n = s->blk->rows.n;
  bc_state c = {bc_alloc(n), bc_alloc(n), bc_alloc(s->ndofs)};
  memcpy(c.impulse, s->blk->rows.impulse, n * sizeof *c.impulse);
  bc_residual(s, c.r);
  bc_gather(s->sys, c.v);
  return c;
}

void bc_free_state(bc_state *c) { free(c->impulse), free(c->r), free(c->v); }

/* Every registered block on the scene of the given size. */
void bc_every_block(block_scene_size size, bc_check check) {
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
                  err.message,
                  type == &vbc_block_lcp_matrix ? "; lcp_matrix_* tests cover it" : "");
      block_fixture_free(&f);
      continue;
    }
    subject s = {&f.sys, &f.block, bc_ndofs(&f.sys), NULL, 7u + (unsigned)b};
    s.v0 = bc_alloc(s.ndofs);
    bc_gather(&f.sys, s.v0);
    check(&s);
    free(s.v0);
    block_fixture_free(&f);
    ++checked;
  }
  cr_assert_gt(checked, 0);
}

/* lcp_matrix on its own LCP: M = J W J^T with J random and sparse (N x D), W in [0.5, 1.5). */
void bc_lcp_matrix(int bilateral, bc_check check) {
  enum { N = 24, D = 48 };
  unsigned seed = 5u;
  double *J = bc_alloc(N * D), *W = bc_alloc(D), *M = bc_alloc(N * N), *q = bc_alloc(N);
  for (size_t i = 0; i < N * D; ++i) J[i] = bc_uniform(&seed) > 0.3 ? bc_uniform(&seed) : 0.0;
  for (size_t c = 0; c < D; ++c) W[c] = 0.5 + 0.5 * (bc_uniform(&seed) + 1.0);
  for (size_t i = 0; i < N; ++i) {
    q[i] = bc_uniform(&seed);
    for (size_t j = 0; j <= i; ++j) { /* exactly symmetric */
      double a = 0.0;
      for (size_t c = 0; c < D; ++c) a += J[i * D + c] * W[c] * J[j * D + c];
      M[i * N + j] = M[j * N + i] = a;
    }
  }
  vbc_error err = {0};
  vbc_block blk;
  cr_assert_eq(vbc_lcp_matrix_block_init(&blk, N, M, q, &err), 0, "%s", err.message);
  if (bilateral) vbc_lcp_matrix_bilateral(&blk);
  vbc_particles none = {0};
  vbc_system sys = {.dim = 2, .particles = &none};
  subject s = {&sys, &blk, bc_ndofs(&sys), bc_alloc(1), 3u};
  check(&s);
  cr_assert_eq(!!(bc_traits(&s) & VBC_ROWS_BILATERAL), bilateral);
  free(s.v0);
  vbc_block_free(&blk);
  free(J), free(W), free(M), free(q);
}
