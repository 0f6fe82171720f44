/* pair_laplacian.c — see pair_laplacian.h. */
#include "core/parallel.h"
#include "solvers/blocks/pair_laplacian.h"

/* The row of pair q's neighbour when the pair is coupled, else -1. */
static inline long coupled_row(const vbc_pair_laplacian *L, const vbc_neighbors *nb, size_t q) {
  const long rj = L->row_of[nb->index[q]];
  return rj >= 0 && L->coef[q] != 0.0 ? rj : -1;
}

void vbc_pair_residual(const vbc_pair_laplacian *L, const vbc_rows *rows, double *res) {
#pragma omp parallel for schedule(static) if (rows->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t r = 0; r < rows->n; ++r) res[r] = rows->target[r] - L->y[r];
}

void vbc_pair_apply(const vbc_pair_laplacian *L, const vbc_neighbors *nb, const vbc_rows *rows,
                    const double *d) {
#pragma omp parallel for schedule(guided, 4) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < rows->n; ++r) {
    const size_t i = L->particle_of[r];
    double off = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const long rj = coupled_row(L, nb, q);
      if (rj >= 0) off += L->coef[q] * d[rj];
    }
    L->y[r] += rows->diag[r] * d[r] - off;
  }
}

double vbc_pair_sweep_row(const vbc_pair_laplacian *L, const vbc_neighbors *nb, vbc_rows *rows,
                          size_t r, double omega) {
  if (rows->diag[r] <= 0.0) return 0.0;
  const double d = vbc_pgs_row(rows, r, L->y[r], omega);
  if (d == 0.0) return 0.0;
  const size_t i = L->particle_of[r];
  L->y[r] += rows->diag[r] * d;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const long rj = coupled_row(L, nb, q);
    if (rj >= 0) L->y[rj] -= L->coef[q] * d;
  }
  return d;
}

void vbc_pair_sweep(const vbc_pair_laplacian *L, const vbc_neighbors *nb, vbc_rows *rows,
                    double omega, vbc_sweep_order order) {
  if (order == VBC_SWEEP_BACKWARD)
    for (size_t r = rows->n; r-- > 0;) vbc_pair_sweep_row(L, nb, rows, r, omega);
  else
    for (size_t r = 0; r < rows->n; ++r) vbc_pair_sweep_row(L, nb, rows, r, omega);
}

int vbc_pair_assemble(const vbc_pair_laplacian *L, const vbc_neighbors *nb, const vbc_rows *rows,
                      vbc_sparse *A, vbc_error *err) {
  size_t nnz = rows->n;
  for (size_t r = 0; r < rows->n; ++r) {
    const size_t i = L->particle_of[r];
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) nnz += coupled_row(L, nb, q) >= 0;
  }
  if (vbc_sparse_reserve(A, rows->n, nnz, err) != VBC_OK) return err->code;
  size_t e = 0;
  for (size_t r = 0; r < rows->n; ++r) {
    const size_t i = L->particle_of[r];
    A->start[r] = e;
    A->col[e] = r, A->val[e++] = rows->diag[r];
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const long rj = coupled_row(L, nb, q);
      if (rj >= 0) A->col[e] = (size_t)rj, A->val[e++] = -L->coef[q];
    }
  }
  A->start[rows->n] = e;
  A->nnz = e;
  A->nrows = A->ndofs = rows->n;
  return VBC_OK;
}
