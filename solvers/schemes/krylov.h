/* krylov.h — what the Krylov solvers (cg.c, mprgp.c) share: the rows of a problem's blocks as one
 * vector (block after block), which of them are unknowns, deterministic dot products, products
 * with the operator A = J M^-1 J^T — matrix-free through the blocks' apply and residual passes, or
 * by the assembled A (core/operator.h) — and keeping the velocities equal to u* + M^-1 J^T lambda.
 *
 * Matrix-free products. A block has no pass that computes A p without moving the velocities: its
 * apply adds M^-1 J^T p to them and its residual pass then reads r - A p. So a product applies p
 * and the solver accounts for it: `applied` is what has gone into the velocities during the
 * current iteration, and vbc_krylov_sync applies the difference to the impulse change the
 * iteration decided, so that every iteration ends with v = u* + M^-1 J^T lambda (up to the
 * round-off of the passes; vbc_solve recomputes the true residual from v after it). */
#ifndef VBC_KRYLOV_H
#define VBC_KRYLOV_H

#include "core/constraint.h"

typedef struct vbc_krylov {
  size_t n, cap;                       /* rows of all blocks */
  size_t offset[VBC_MAX_BLOCKS + 1];   /* block b's rows are offset[b] .. offset[b + 1] - 1 */
  unsigned char *unknown;              /* 1: diag > 0 and lo < hi; inert and fixed rows: 0 */
  double *lo, *hi, *diag, *x, *r;      /* the rows' bounds, diagonal, impulses, residual */
  double *applied;                     /* what went into the velocities this iteration */
  double *tmp, *prod;                  /* scratch: a residual pass, products */
  int residual_current;                /* r is the residual at the velocities as they are */
} vbc_krylov;

/* The failure message's advice after a cg or mprgp solve diverged (vbc_solver_type
 * .divergence_hint). */
extern const char vbc_krylov_divergence_hint[];

void vbc_krylov_free(vbc_krylov *k);
/* Gather the rows of pb at the start of a solve (a solver's begin): bounds, diagonal, unknowns,
 * impulses; zero `applied`. The residual is not known yet (vbc_solve computes it after begin). */
int vbc_krylov_gather(vbc_krylov *k, const vbc_problem *pb, vbc_error *err);
/* At the start of an iteration: the impulses and rows.residual as vbc_solve left them, which is
 * the residual at the current velocities (the first product of the iteration uses it instead of a
 * residual pass of its own); zero `applied`. The rows' bounds and diagonal do not change within a
 * solve, so they are not gathered again. */
void vbc_krylov_refresh(vbc_krylov *k, const vbc_problem *pb);
/* Grow an extra vector of k->n doubles (a solver's own: p, z, q, ...), zeroed when grown. */
int vbc_krylov_vector(const vbc_krylov *k, double **v, size_t *cap, vbc_error *err);

/* The set-up checks the Krylov solvers share (exit 2 naming the block and the solver): every block
 * symmetric, and, when the preconditioner `pc` needs the assembled operator (need_matrix), the
 * problem's operator assemblable. */
int vbc_krylov_check(const vbc_problem *pb, const char *solver, int need_matrix, const char *pc,
                     vbc_error *err);

/* Sort every row of an assembled A by column (the preconditioners' set-up wants them so; the
 * product's sum then runs in column order). */
void vbc_krylov_sort_rows(vbc_sparse *A);

/* sum_i a_i b_i over the unknowns, the same for any thread count (core/reduce.h). */
double vbc_krylov_dot(vbc_krylov *k, const double *a, const double *b);

/* q = A p over the unknowns (entries of p off the unknowns must be 0). With A assembled (nrows =
 * k->n) a sparse product; otherwise matrix-free: applies p to the velocities (k->applied += p)
 * and reads A p = r - r' from a residual pass. */
void vbc_krylov_product(vbc_krylov *k, vbc_problem *pb, const vbc_sparse *A, const double *p,
                        double *q);
/* The iteration moved the impulses by dx (over all rows): apply dx - applied to the velocities
 * and add dx to the rows' impulses. */
void vbc_krylov_sync(vbc_krylov *k, vbc_problem *pb, const double *dx);

#endif
