/* precond.c — see precond.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "solvers/schemes/precond.h"

int vbc_precond_needs_matrix(vbc_precond_kind kind) {
  return kind == VBC_PRECOND_SSOR || kind == VBC_PRECOND_IC0;
}

void vbc_precond_free(vbc_precond *P) {
  free(P->adiag), free(P->start), free(P->col), free(P->val), free(P->where);
  P->adiag = P->val = NULL, P->start = P->col = P->where = NULL;
  P->cap_n = P->cap_start = P->cap_nnz = 0;
}

/* A's diagonal, entries of one row summed. */
static void diagonal(vbc_precond *P, const vbc_krylov *k, const vbc_sparse *A) {
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < k->n; ++i) {
    double d = 0.0;
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
      if (A->col[e] == i) d += A->val[e];
    P->adiag[i] = P->exact_diagonal ? k->diag[i] : d;
  }
}

/* L's pattern: the unknown lower entries of A, columns ascending (A's rows are sorted:
 * vbc_krylov_sort_rows), the diagonal last. */
static int lower_pattern(vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                         const vbc_sparse *A, vbc_error *err) {
  if (vbc_grow(&P->cap_start, k->n + 1, (void *[]){&P->start}, (size_t[]){sizeof *P->start}, 1,
               err) != VBC_OK)
    return err->code;
  size_t nnz = 0;
  P->start[0] = 0;
  for (size_t i = 0; i < k->n; ++i) {
    if (mask[i]) {
      const size_t len = A->start[i + 1] - A->start[i] + 1;
      if (vbc_grow(&P->cap_nnz, nnz + len, (void *[]){&P->col, &P->val},
                   (size_t[]){sizeof *P->col, sizeof *P->val}, 2, err) != VBC_OK)
        return err->code;
      for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
        if (A->col[e] < i && mask[A->col[e]] && A->val[e] != 0.0)
          P->col[nnz] = A->col[e], P->val[nnz++] = A->val[e];
      P->col[nnz] = i, P->val[nnz++] = P->adiag[i];
    }
    P->start[i + 1] = nnz;
  }
  return VBC_OK;
}

/* IC(0) of A + shift diag(A) in place on L's pattern; 0 if a pivot was not positive. Row by row
 * (up-looking): L_ic = (a_ic - sum_{k<c} L_ik L_ck) / L_cc over the columns c of row i in
 * ascending order, the sum found by walking row c and looking L_ik up in a scatter map of row i
 * (P->where: the entry of column k in row i, or SIZE_MAX). */
static int factor(vbc_precond *P, const vbc_krylov *k, const unsigned char *mask, double shift) {
  size_t *where = P->where;
  for (size_t i = 0; i < k->n; ++i) where[i] = SIZE_MAX;
  for (size_t i = 0; i < k->n; ++i) {
    if (!mask[i]) continue;
    const size_t first = P->start[i], diag = P->start[i + 1] - 1;
    for (size_t e = first; e < diag; ++e) where[P->col[e]] = e;
    double d = P->adiag[i] * (1.0 + shift);
    for (size_t e = first; e < diag; ++e) {
      const size_t c = P->col[e], cdiag = P->start[c + 1] - 1;
      double v = P->val[e];
      for (size_t f = P->start[c]; f < cdiag; ++f) {
        const size_t at = where[P->col[f]];
        if (at != SIZE_MAX) v -= P->val[at] * P->val[f];
      }
      P->val[e] = v / P->val[cdiag];
      d -= P->val[e] * P->val[e];
    }
    for (size_t e = first; e < diag; ++e) where[P->col[e]] = SIZE_MAX;
    if (!(d > 0.0)) return 0;
    P->val[diag] = sqrt(d);
  }
  return 1;
}

static int setup_ic0(vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                     const vbc_sparse *A, vbc_error *err) {
  P->shift = 0.0;
  for (double shift = 0.0; shift <= 1.0; shift = shift > 0.0 ? 10.0 * shift : 1e-3) {
    if (lower_pattern(P, k, mask, A, err) != VBC_OK) return err->code; /* fresh values */
    if (factor(P, k, mask, shift)) {
      P->shift = shift;
      return VBC_OK;
    }
  }
  return vbc_error_set(err, VBC_EXIT_FAILED, "IC(0) broke down even with the diagonal shifted "
                       "by 100 %% (the operator is not positive definite on the unknowns)");
}

int vbc_precond_setup(vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                      const vbc_sparse *A, vbc_error *err) {
  if (!vbc_precond_needs_matrix(P->kind)) return VBC_OK;
  if (vbc_grow(&P->cap_n, k->n, (void *[]){&P->adiag, &P->where},
               (size_t[]){sizeof *P->adiag, sizeof *P->where}, 2, err) != VBC_OK)
    return err->code;
  diagonal(P, k, A);
  return P->kind == VBC_PRECOND_IC0 ? setup_ic0(P, k, mask, A, err) : VBC_OK;
}

/* SSOR: (D/w + L) y = r forward, then (D/w + U) z = (D/w) y backward, z *= (2 - w). */
static void apply_ssor(const vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                       const vbc_sparse *A, const double *r, double *z) {
  const double w = P->omega;
  for (size_t i = 0; i < k->n; ++i) {
    if (!mask[i]) {
      z[i] = 0.0;
      continue;
    }
    double s = r[i];
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
      if (A->col[e] < i && mask[A->col[e]]) s -= A->val[e] * z[A->col[e]];
    z[i] = s * w / P->adiag[i];
  }
  for (size_t i = 0; i < k->n; ++i) z[i] = mask[i] ? z[i] * P->adiag[i] / w : 0.0;
  for (size_t i = k->n; i-- > 0;) {
    if (!mask[i]) continue;
    double s = z[i];
    for (size_t e = A->start[i]; e < A->start[i + 1]; ++e)
      if (A->col[e] > i && mask[A->col[e]]) s -= A->val[e] * z[A->col[e]];
    z[i] = s * w / P->adiag[i];
  }
  for (size_t i = 0; i < k->n; ++i) z[i] *= 2.0 - w;
}

/* IC(0): L y = r forward, L^T z = y backward (column updates on the rows of L). */
static void apply_ic0(const vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                      const double *r, double *z) {
  for (size_t i = 0; i < k->n; ++i) {
    if (!mask[i]) {
      z[i] = 0.0;
      continue;
    }
    const size_t diag = P->start[i + 1] - 1;
    double s = r[i];
    for (size_t e = P->start[i]; e < diag; ++e) s -= P->val[e] * z[P->col[e]];
    z[i] = s / P->val[diag];
  }
  for (size_t i = k->n; i-- > 0;) {
    if (!mask[i]) continue;
    const size_t diag = P->start[i + 1] - 1;
    z[i] /= P->val[diag];
    for (size_t e = P->start[i]; e < diag; ++e) z[P->col[e]] -= P->val[e] * z[i];
  }
}

void vbc_precond_apply(const vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                       const vbc_sparse *A, const double *r, double *z) {
  switch (P->kind) {
    case VBC_PRECOND_SSOR: apply_ssor(P, k, mask, A, r, z); return;
    case VBC_PRECOND_IC0: apply_ic0(P, k, mask, r, z); return;
    case VBC_PRECOND_JACOBI:
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN_LIGHT)
      for (size_t i = 0; i < k->n; ++i) z[i] = mask[i] ? r[i] / k->diag[i] : 0.0;
      return;
    default:
#pragma omp parallel for schedule(static) if (k->n >= VBC_PARALLEL_MIN_LIGHT)
      for (size_t i = 0; i < k->n; ++i) z[i] = mask[i] ? r[i] : 0.0;
  }
}
