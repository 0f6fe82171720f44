/* pair_laplacian.h — the operator of fluid blocks whose A is a weighted graph Laplacian over
 * neighbour pairs, not J M^-1 J^T over the velocities: Koshizuka & Oka's Laplacian model
 * (mps_poisson.c) and He et al.'s staggered Laplacian, eq. 12-13 (staggered.c). Row r belongs to
 * particle particle_of[r]; for the neighbour pair q of that particle (sys->nbrs order) whose
 * particle j has a row, A_{r, row_of[j]} = -coef[q]; A_rr = rows->diag[r] (the block sets it,
 * the sum of the row's coefficients, surface neighbours included: they are rows held at 0).
 *
 * Such a block keeps y = A lambda itself: its residual is b - y, its apply adds A d to y, its
 * Gauss-Seidel sweep updates y row by row, and it offers A through `assemble`; the velocities
 * change once, in its `finish`. These are those four passes, written once. */
#ifndef VBC_PAIR_LAPLACIAN_H
#define VBC_PAIR_LAPLACIAN_H

#include <stdint.h>

#include "core/constraint.h"

typedef struct vbc_pair_laplacian {
  const long *row_of;          /* per particle: its row or -1 */
  const uint32_t *particle_of; /* per row */
  const double *coef;          /* per neighbour pair: the weight, 0 where the pair is not coupled */
  double *y;                   /* per row: (A lambda)_r, kept by the passes below */
} vbc_pair_laplacian;

/* res = target - y (parallel). */
void vbc_pair_residual(const vbc_pair_laplacian *L, const vbc_rows *rows, double *res);
/* y += A d, row by row (parallel, deterministic). */
void vbc_pair_apply(const vbc_pair_laplacian *L, const vbc_neighbors *nb, const vbc_rows *rows,
                    const double *d);
/* The projected Gauss-Seidel update of row r (y kept); returns its change of lambda_r. */
double vbc_pair_sweep_row(const vbc_pair_laplacian *L, const vbc_neighbors *nb, vbc_rows *rows,
                          size_t r, double omega);
/* One projected Gauss-Seidel sweep in row order, or its reverse (serial). */
void vbc_pair_sweep(const vbc_pair_laplacian *L, const vbc_neighbors *nb, vbc_rows *rows,
                    double omega, vbc_sweep_order order);
/* A over the rows, CSR, the diagonal first in each row. */
int vbc_pair_assemble(const vbc_pair_laplacian *L, const vbc_neighbors *nb, const vbc_rows *rows,
                      vbc_sparse *A, vbc_error *err);

#endif
