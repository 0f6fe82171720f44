/* precond.h — preconditioners of the conjugate gradient solver (cg.c) on the unknown rows of a
 * problem (krylov.h): none, Jacobi (the diagonal), SSOR and incomplete Cholesky IC(0), the four of
 * He et al. 2012, Table 1. SSOR and IC(0) work on the assembled operator A (core/operator.h).
 *
 * SSOR (Barrett et al. 1994, Templates §3.3; He et al. §7.1, their omega = 1.7):
 *     M = 1/(2 - omega) (D/omega + L) (D/omega)^-1 (D/omega + L)^T,
 * applied by a forward and a backward triangular solve over A's entries.
 * IC(0): L L^T = A on A's sparsity pattern (no fill). A = J M^-1 J^T of the MPS rows is not an
 * M-matrix (rows two neighbours apart couple with either sign), so a pivot can turn negative; the
 * factorisation then restarts on A + alpha diag(A) with alpha = 1e-3, 1e-2, ... (Manteuffel's
 * shifted IC), and the shift used is reported. The triangular solves of both are serial (each row
 * needs the ones before it); set-up and products are the only parts that run in parallel. */
#ifndef VBC_PRECOND_H
#define VBC_PRECOND_H

#include "solvers/schemes/krylov.h"

typedef enum vbc_precond_kind {
  VBC_PRECOND_NONE,
  VBC_PRECOND_JACOBI,
  VBC_PRECOND_SSOR,
  VBC_PRECOND_IC0
} vbc_precond_kind;

typedef struct vbc_precond {
  vbc_precond_kind kind;
  double omega;        /* SSOR */
  double *adiag;       /* A's diagonal over the rows */
  size_t cap_n;
  /* IC(0): the lower factor by rows, columns ascending, the diagonal last */
  size_t *start, *col;
  size_t *where;       /* IC(0) set-up: scatter map of one row */
  double *val;
  size_t cap_start, cap_nnz;
  double shift;        /* IC(0): the alpha that made it positive (0: none) */
  int exact_diagonal;  /* take the diagonal from the rows (rows.diag, the exact A_kk), not from
                          the matrix given: for a matrix that leaves part of A out */
} vbc_precond;

/* Whether the kind needs the assembled A. */
int vbc_precond_needs_matrix(vbc_precond_kind kind);
/* Build the preconditioner of A's principal submatrix on the rows with mask[i] != 0 (a subset
 * of k's unknowns: all of them for cg, the free rows for mprgp's preconditioning in face); A is
 * NULL for none and Jacobi, and has its rows sorted by column (vbc_krylov_sort_rows). */
int vbc_precond_setup(vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                      const vbc_sparse *A, vbc_error *err);
/* z = M^-1 r over the rows of mask (0 elsewhere), the mask the set-up used. */
void vbc_precond_apply(const vbc_precond *P, const vbc_krylov *k, const unsigned char *mask,
                       const vbc_sparse *A, const double *r, double *z);
void vbc_precond_free(vbc_precond *P);

#endif
