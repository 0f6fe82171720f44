/* krylov.c — see krylov.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"
#include "core/parallel.h"
#include "core/reduce.h"
#include "solvers/schemes/krylov.h"

const char vbc_krylov_divergence_hint[] =
    "a Krylov solve diverges where its operator is not positive definite on its rows (the "
    "equality forms of mps and sph_density keep near-null pressure modes: docs/krylov.md): solve "
    "the one-sided rows (equality false) with mprgp or pgs";

void vbc_krylov_free(vbc_krylov *k) {
  void *p[] = {k->unknown, k->lo, k->hi, k->diag, k->x, k->r, k->applied, k->tmp, k->prod};
  for (size_t i = 0; i < sizeof p / sizeof *p; ++i) free(p[i]);
  memset(k, 0, sizeof *k);
}

/* Insertion sort of each row's (column, value) pairs: rows hold tens of entries. */
void vbc_krylov_sort_rows(vbc_sparse *A) {
#pragma omp parallel for schedule(static) if (A->nrows >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < A->nrows; ++i)
    for (size_t e = A->start[i] + 1; e < A->start[i + 1]; ++e) {
      const size_t c = A->col[e];
      const double v = A->val[e];
      size_t f = e;
      for (; f > A->start[i] && A->col[f - 1] > c; --f)
        A->col[f] = A->col[f - 1], A->val[f] = A->val[f - 1];
      A->col[f] = c, A->val[f] = v;
    }
}

int vbc_krylov_gather(vbc_krylov *k, const vbc_problem *pb, vbc_error *err) {
  k->n = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    k->offset[b] = k->n;
    k->n += pb->blocks[b]->rows.n;
  }
  k->offset[pb->nblocks] = k->n;
  void *const arrays[] = {&k->unknown, &k->lo,      &k->hi,  &k->diag, &k->x,
                          &k->r,       &k->applied, &k->tmp, &k->prod};
  const size_t d = sizeof(double);
  const size_t sizes[] = {1, d, d, d, d, d, d, d, d};
  if (vbc_grow(&k->cap, k->n, arrays, sizes, 9, err) != VBC_OK) return err->code;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    const size_t o = k->offset[b];
    for (size_t i = 0; i < r->n; ++i) {
      k->lo[o + i] = r->lo[i], k->hi[o + i] = r->hi[i], k->diag[o + i] = r->diag[i];
      k->x[o + i] = r->impulse[i], k->r[o + i] = 0.0;
      k->unknown[o + i] = r->diag[i] > 0.0 && r->lo[i] < r->hi[i];
      k->applied[o + i] = 0.0;
    }
  }
  k->residual_current = 0;
  return VBC_OK;
}

void vbc_krylov_refresh(vbc_krylov *k, const vbc_problem *pb) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    const size_t o = k->offset[b];
    for (size_t i = 0; i < r->n; ++i)
      k->x[o + i] = r->impulse[i], k->r[o + i] = r->residual[i], k->applied[o + i] = 0.0;
  }
  k->residual_current = 1;
}

int vbc_krylov_vector(const vbc_krylov *k, double **v, size_t *cap, vbc_error *err) {
  const size_t old = *cap;
  if (vbc_grow(cap, k->n, (void *[]){v}, (size_t[]){sizeof **v}, 1, err) != VBC_OK)
    return err->code;
  if (*cap > old) memset(*v, 0, *cap * sizeof **v);
  return VBC_OK;
}

double vbc_krylov_dot(vbc_krylov *k, const double *a, const double *b) {
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < k->n; ++i) k->tmp[i] = k->unknown[i] ? a[i] * b[i] : 0.0;
  return vbc_sum(k->tmp, k->n);
}

/* Each block's part of d applied to the velocities. */
static void apply_all(const vbc_krylov *k, vbc_problem *pb, const double *d) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, d + k->offset[b]);
  }
}

static void spmv(const vbc_krylov *k, const vbc_sparse *A, const double *p, double *q) {
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < k->n; ++i) {
    double acc = 0.0;
    if (k->unknown[i])
      for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
        if (k->unknown[A->col[e]]) acc += A->val[e] * p[A->col[e]];
    q[i] = acc;
  }
}

void vbc_krylov_product(vbc_krylov *k, vbc_problem *pb, const vbc_sparse *A, const double *p,
                        double *q) {
  if (A && A->nrows == k->n) {
    spmv(k, A, p, q);
    return;
  }
  /* r before: the residual at the current velocities, which hold `applied` already; the
   * iteration's first product has it from vbc_solve (k->r) */
  const double *before = k->r;
  if (!k->residual_current) {
    for (size_t b = 0; b < pb->nblocks; ++b) {
      vbc_block *blk = pb->blocks[b];
      if (blk->rows.n)
        blk->type->residual(blk->state, pb->sys, &blk->rows, k->prod + k->offset[b]);
    }
    before = k->prod;
  }
  apply_all(k, pb, p);
  k->residual_current = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->residual(blk->state, pb->sys, &blk->rows, k->tmp + k->offset[b]);
  }
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < k->n; ++i) {
    q[i] = k->unknown[i] ? before[i] - k->tmp[i] : 0.0;
    k->applied[i] += p[i];
  }
}

void vbc_krylov_sync(vbc_krylov *k, vbc_problem *pb, const double *dx) {
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < k->n; ++i) k->tmp[i] = dx[i] - k->applied[i];
  apply_all(k, pb, k->tmp);
  k->residual_current = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_rows *r = &pb->blocks[b]->rows;
    const size_t o = k->offset[b];
    for (size_t i = 0; i < r->n; ++i) {
      r->impulse[i] += dx[o + i];
      k->x[o + i] = r->impulse[i];
      k->applied[o + i] = 0.0;
    }
  }
}

int vbc_krylov_check(const vbc_problem *pb, const char *solver, int need_matrix, const char *pc,
                     vbc_error *err) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->type->traits && (blk->type->traits(blk->state) & VBC_ROWS_UNSYMMETRIC))
      return vbc_error_set(err, VBC_EXIT_INPUT, "block %s (%s) has an unsymmetric operator; %s "
                           "needs a symmetric one", blk->type->name, blk->label, solver);
  }
  const vbc_block *bad = need_matrix ? vbc_problem_unassemblable(pb) : NULL;
  if (bad && bad->type->assemble)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: preconditioner \"%s\" needs the assembled "
                         "operator of the whole stage; block %s (%s) has an operator of its own "
                         "but no Jacobian rows, so it cannot be assembled together with the "
                         "stage's other blocks: solve it in a stage of its own (coupler "
                         "lemke_contacts or staggered) or use preconditioner jacobi or none (they need only "
                         "the diagonal)",
                         solver, pc, bad->type->name, bad->label);
  if (bad)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: preconditioner \"%s\" needs the assembled "
                         "operator, which block %s (%s) cannot give (neither its own operator nor "
                         "Jacobian rows): use preconditioner jacobi or none (they need only the diagonal)",
                         solver, pc,
                         bad->type->name, bad->label);
  return VBC_OK;
}
