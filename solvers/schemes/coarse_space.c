/* coarse_space.c — see coarse_space.h (Vaněk, Mandel & Brezina 1996 aggregation, Galerkin
 * coarse operator P^T A P, dense Cholesky of it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"
#include "core/parallel.h"
#include "solvers/schemes/coarse_space.h"

#define UNSET ((size_t)-1)

void vbc_coarse_free(vbc_coarse_space *c) {
  free(c->block), free(c->row), free(c->sign), free(c->agg), free(c->next);
  free(c->d), free(c->q), free(c->w), free(c->factor), free(c->rc);
  vbc_sparse_free(&c->A);
  memset(c, 0, sizeof *c);
}

/* Whether row k of blk is coarsened: a free row (A_kk > 0, lo < hi) of a fluid block, or of any
 * block with all_rows. */
static int is_free_fluid_row(const vbc_coarse_space *c, const vbc_block *blk, size_t k) {
  return (c->all_rows || blk->type->kind == VBC_BLOCK_FLUID) && blk->rows.diag[k] > 0.0 &&
         blk->rows.lo[k] < blk->rows.hi[k];
}

/* The free fluid rows of pb, in block order. */
static int list_rows(vbc_coarse_space *c, const vbc_problem *pb, vbc_error *err) {
  size_t n = 0;
  for (size_t b = 0; b < pb->nblocks; ++b)
    for (size_t k = 0; k < pb->blocks[b]->rows.n; ++k) n += is_free_fluid_row(c, pb->blocks[b], k);
  void *const arrays[] = {&c->block, &c->row, &c->sign, &c->agg, &c->next, &c->d, &c->q, &c->w};
  const size_t z = sizeof(size_t), d = sizeof(double);
  const size_t sizes[] = {z, z, 1, z, z, d, d, d};
  if (vbc_grow(&c->cap, n + 1, arrays, sizes, 8, err) != VBC_OK) return err->code;
  c->n = 0;
  for (size_t b = 0; b < VBC_MAX_BLOCKS; ++b) c->listed[b] = 0;
  for (size_t b = 0; b < pb->nblocks; ++b)
    for (size_t k = 0; k < pb->blocks[b]->rows.n; ++k)
      if (is_free_fluid_row(c, pb->blocks[b], k)) {
        c->block[c->n] = b, c->row[c->n] = k, c->sign[c->n] = 1;
        c->listed[b] = 1;
        c->n++;
      }
  return VBC_OK;
}

static double diagonal_entry(const vbc_sparse *A, size_t i) {
  for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
    if (A->col[e] == i) return A->val[e];
  return 0.0;
}

static int strong(const vbc_sparse *A, const double *diag, size_t i, size_t e, double strength) {
  const size_t j = A->col[e];
  return j != i && fabs(A->val[e]) >= strength * sqrt(diag[i] * diag[j]);
}

/* Vaněk et al.'s three phases. Phase 1: a row whose strong neighbours are all unaggregated
 * seeds an aggregate of itself and them. Phase 2: a row left joins the aggregate of its most
 * strongly connected aggregated neighbour. Phase 3: the rows still left (no aggregated strong
 * neighbour) seed aggregates of themselves and their unaggregated strong neighbours. */
static void aggregate(vbc_coarse_space *c, const double *diag, double strength) {
  const vbc_sparse *A = &c->A;
  size_t nc = 0;
  for (size_t i = 0; i < c->n; ++i) c->agg[i] = UNSET;
  for (size_t i = 0; i < c->n; ++i) {
    int clear = 1;
    for (size_t e = A->start[i]; e < A->start[i + 1] && clear; ++e)
      if (strong(A, diag, i, e, strength) && c->agg[A->col[e]] != UNSET) clear = 0;
    if (!clear) continue;
    c->agg[i] = nc;
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
      if (strong(A, diag, i, e, strength)) c->agg[A->col[e]] = nc;
    nc++;
  }
  for (size_t i = 0; i < c->n; ++i) { /* phase 2, from phase 1's aggregates only */
    c->next[i] = c->agg[i];
    if (c->agg[i] != UNSET) continue;
    double best = -1.0;
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e) {
      const size_t j = A->col[e];
      const double s = fabs(A->val[e]) / sqrt(diag[i] * diag[j]);
      if (strong(A, diag, i, e, strength) && c->agg[j] != UNSET && s > best)
        best = s, c->next[i] = c->agg[j];
    }
  }
  memcpy(c->agg, c->next, c->n * sizeof *c->agg);
  for (size_t i = 0; i < c->n; ++i) {
    if (c->agg[i] != UNSET) continue;
    c->agg[i] = nc;
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
      if (strong(A, diag, i, e, strength) && c->agg[A->col[e]] == UNSET) c->agg[A->col[e]] = nc;
    nc++;
  }
  c->nc = nc;
}

/* A_c = P^T A P into the lower triangle of c->factor (the upper is not read): with P piecewise
 * constant, entry (a, b) is the sum of A's entries between the rows of aggregates a and b. */
static void galerkin(vbc_coarse_space *c) {
  const size_t nc = c->nc;
  memset(c->factor, 0, nc * nc * sizeof *c->factor);
  for (size_t i = 0; i < c->n; ++i) {
    const size_t a = c->agg[i];
    for (size_t e = c->A.start[i]; e < c->A.start[i + 1]; ++e) {
      const size_t b = c->agg[c->A.col[e]];
      if (b <= a) c->factor[a * nc + b] += c->A.val[e];
    }
  }
}

/* Up-looking dense Cholesky in place on the lower triangle of A_c + shift diag(A_c); 0 if a
 * pivot was not positive. dg holds A_c's diagonal. */
static int cholesky(double *L, const double *dg, size_t nc, double shift) {
  for (size_t i = 0; i < nc; ++i) {
    double *li = L + i * nc;
    for (size_t j = 0; j < i; ++j) {
      const double *lj = L + j * nc;
      double s = li[j];
      for (size_t k = 0; k < j; ++k) s -= li[k] * lj[k];
      li[j] = s / lj[j];
    }
    double d = dg[i] * (1.0 + shift);
    for (size_t k = 0; k < i; ++k) d -= li[k] * li[k];
    if (!(d > 0.0)) return 0;
    li[i] = sqrt(d);
  }
  return 1;
}

static int factor_coarse(vbc_coarse_space *c, vbc_error *err) {
  const size_t nc = c->nc;
  double *dg = vbc_calloc(nc ? nc : 1, sizeof *dg, err);
  if (dg == NULL) return err->code;
  for (double shift = 0.0; shift <= 1e-2; shift = shift > 0.0 ? 100.0 * shift : 1e-12) {
    galerkin(c);
    for (size_t a = 0; a < nc; ++a) dg[a] = c->factor[a * nc + a];
    if (cholesky(c->factor, dg, nc, shift)) {
      c->shift = shift;
      free(dg);
      return VBC_OK;
    }
  }
  free(dg);
  return vbc_error_set(err, VBC_EXIT_FAILED, "pgs_coarse: the coarse operator P^T A P of %zu "
                       "aggregates is not positive definite even with its diagonal shifted by "
                       "1 %%", nc);
}

int vbc_coarse_build(vbc_coarse_space *c, const vbc_problem *pb, double strength,
                     size_t max_coarse, vbc_error *err) {
  c->nc = 0;
  c->shift = 0.0;
  if (list_rows(c, pb, err) != VBC_OK) return err->code;
  if (c->n == 0) return VBC_OK;
  if (vbc_assemble_rows(pb, c->n, c->block, c->row, c->sign, &c->A, err) != VBC_OK)
    return err->code;
  double *diag = c->d; /* borrowed: d is free until the first correction */
  for (size_t i = 0; i < c->n; ++i) diag[i] = diagonal_entry(&c->A, i);
  aggregate(c, diag, strength);
  if (c->nc > max_coarse)
    return vbc_error_set(err, VBC_EXIT_INPUT, "pgs_coarse: %zu aggregates of %zu fluid rows, "
                         "more than max_coarse (%zu) that the dense coarse factorisation takes: "
                         "lower `strength` (larger aggregates) or raise max_coarse",
                         c->nc, c->n, max_coarse);
  if (vbc_grow(&c->cap_c, c->nc * c->nc + 1, (void *[]){&c->factor},
               (size_t[]){sizeof *c->factor}, 1, err) != VBC_OK ||
      vbc_grow(&c->cap_rc, c->nc + 1, (void *[]){&c->rc}, (size_t[]){sizeof *c->rc}, 1, err) !=
          VBC_OK)
    return err->code;
  return factor_coarse(c, err);
}

void vbc_coarse_solve(const vbc_coarse_space *c, double *x) {
  const size_t nc = c->nc;
  const double *L = c->factor;
  for (size_t i = 0; i < nc; ++i) {
    double s = x[i];
    for (size_t k = 0; k < i; ++k) s -= L[i * nc + k] * x[k];
    x[i] = s / L[i * nc + i];
  }
  for (size_t i = nc; i-- > 0;) {
    x[i] /= L[i * nc + i];
    for (size_t k = 0; k < i; ++k) x[k] -= L[i * nc + k] * x[i];
  }
}

void vbc_coarse_fine_product(const vbc_coarse_space *c, const double *d, double *q) {
  const vbc_sparse *A = &c->A;
#pragma omp parallel for schedule(static) if (c->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < c->n; ++i) {
    double s = 0.0;
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e) s += A->val[e] * d[A->col[e]];
    q[i] = s;
  }
}

void vbc_coarse_restrict(const vbc_coarse_space *c, const double *r, double *rc) {
  memset(rc, 0, c->nc * sizeof *rc);
  for (size_t i = 0; i < c->n; ++i) rc[c->agg[i]] += r[i];
}

void vbc_coarse_prolong(const vbc_coarse_space *c, const double *rc, double *d) {
  for (size_t i = 0; i < c->n; ++i) d[i] = rc[c->agg[i]];
}
