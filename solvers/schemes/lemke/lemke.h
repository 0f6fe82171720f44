/* lemke.h — Lemke's complementary pivoting: the exact LCP solver (Kurose & Takahashi §4.2.2).
 *
 * LCP(M, q): find z >= 0 with w = M z + q >= 0 and z^T w = 0. Lemke's method adds an artificial
 * variable z0 and a covering vector d > 0 (default all ones), w = q + M z + d z0, starts from
 * z0 = max_i(-q_i / d_i) and pivots complementarily until z0 leaves the basis (a solution), the
 * entering column has no blocking row (a ray: for the positive semi-definite matrices of
 * frictionless contacts this proves that no solution exists), or the pivot limit is reached.
 * Algorithm, data structures and tolerances: the head comment of lemke.c and docs/lcp.md.
 *
 * Two layers:
 *   vbc_lemke_dense / vbc_lemke_sparse (lemke.c) — a plain function on (n, M, q), independent
 *   of blocks.
 *   vbc_lemke_assemble, vbc_solver_lemke (lemke_blocks.c) — the LCP of constraint blocks' rows,
 *   M = J W J^T with W = M^-1 the inverse mass of the generalized velocities
 *   (core/constraint.h), and the solver type `lemke` whose one iteration solves that LCP exactly
 *   and applies the impulses.
 *
 * Sign mapping (vbc rows, Miyamoto's and Kurose's notation). A unilateral row k reads
 * J_k v >= b_k, lambda_k >= 0, lambda_k (J_k v - b_k) = 0. With v = v_c + W J^T (lambda - lambda0),
 * where v_c is the current velocity that already holds the starting impulses lambda0,
 *   J v - b = (J W J^T) lambda + (J v_c - b - J W J^T lambda0),
 * so z = lambda, M = J W J^T (Kurose's A, eq. 12) and q = -r - M lambda0 with r = b - J v_c the
 * rows' residual (for a cold start q = J u* - b: minus the residual at zero impulse; Kurose's
 * b_i = (1 + eps) v_i of eq. 11 is this q for the restitution target b_k = -eps v_k). */
#ifndef VBC_LEMKE_H
#define VBC_LEMKE_H

#include <stddef.h>

#include "core/constraint.h"

typedef enum vbc_lemke_status {
  VBC_LEMKE_SOLVED = 0,     /* z0 left the basis and the verified error is <= tolerance */
  VBC_LEMKE_RAY = 1,        /* ray termination: no blocking row for the entering column */
  VBC_LEMKE_MAX_PIVOTS = 2, /* the pivot limit was reached */
  VBC_LEMKE_INACCURATE = 3  /* z0 left the basis, but even after refinement and a fresh
                               factorisation of the final basis the error exceeds tolerance */
} vbc_lemke_status;

const char *vbc_lemke_status_name(vbc_lemke_status s); /* "solved", "ray", ... */

typedef struct vbc_lemke_options {
  long max_pivots;       /* <= 0: vbc_lemke_default_max_pivots(n) */
  double tolerance;      /* largest vbc_lcp_error reported as solved (default 1e-9) */
  double tie_tolerance;  /* ratio-test ties, in the scaled problem (default 1e-12; lemke.c) */
  double pivot_tolerance;/* smallest admissible pivot, relative (default 1e-9; lemke.c) */
  const double *cover;   /* covering vector d > 0 (n entries); NULL: all ones */
  double regularization; /* < 0 (default): automatic; 0: none; > 0: this eps added to the unit
                            diagonal of the scaled M, then removed by proximal steps (lemke.c) */
  int plain_first;       /* automatic: the plain run first on contact-like matrices too, the
                            regularized one only when it fails (default 0: regularized first) */
  size_t deferred_updates; /* basis borders a column of A^-1 may take late, when it is read
                              (default VBC_LEMKE_DEFERRED_UPDATES; 0: all columns at once):
                              the same results to the bit, faster once A^-1 outgrows the cache
                              (lemke_defer.c) */
} vbc_lemke_options;

#define VBC_LEMKE_TOLERANCE 1e-9
#define VBC_LEMKE_TIE_TOLERANCE 1e-12
#define VBC_LEMKE_PIVOT_TOLERANCE 1e-9
#define VBC_LEMKE_DEFERRED_UPDATES 32

void vbc_lemke_options_default(vbc_lemke_options *o);

/* max(100 n, 2^min(n, 20)): a few n pivots is what practical problems take, and Murty's example
 * (2^n - 1 pivots) is covered up to n = 20. */
long vbc_lemke_default_max_pivots(size_t n);

typedef struct vbc_lemke_result {
  vbc_lemke_status status;
  long pivots;      /* complementary pivots after the start (z0 entering is not counted), the
                       last one (z0 leaves) included; 0 when q >= 0 */
  double error;     /* vbc_lcp_error of the returned z on w = M z + q recomputed from M and q */
  size_t basis_max; /* largest number of z variables (with z0) in the basis at once */
  long refactors;   /* fresh factorisations of the basis forced by an inaccurate A^-1 */
  double regularization; /* eps of the run that produced the result (0: none) */
  int attempts;     /* runs made (automatic regularization may try a second) */
} vbc_lemke_result;

/* Solve LCP(M, q) with M dense (n x n, row-major) or sparse (CSR, nrows = ndofs = n; entries
 * may come in any order within a row, duplicates are summed). z and w (n each) receive the last
 * point (z = 0, w = q for ray and max_pivots). Returns VBC_OK, or an error code for bad
 * arguments (n = 0, non-finite entries, d not > 0) or when memory runs out; the LCP outcome is
 * res->status. */
int vbc_lemke_dense(size_t n, const double *M, const double *q, const vbc_lemke_options *opt,
                    double *z, double *w, vbc_lemke_result *res, vbc_error *err);
int vbc_lemke_sparse(const vbc_sparse *M, const double *q, const vbc_lemke_options *opt,
                     double *z, double *w, vbc_lemke_result *res, vbc_error *err);

/* The error measure of every LCP solver in vbc: the largest violation over i of z_i >= 0,
 * w_i >= 0 and z_i w_i = 0, i.e. max_i max(0, -z_i, -w_i, |z_i w_i|), divided by
 * max(1, ||q||_inf). w must be M z + q recomputed from z. */
double vbc_lcp_error(size_t n, const double *q, const double *z, const double *w);

/* The LCP of the rows of a problem's blocks. Included: rows with A_kk > 0 (rows with A_kk <= 0
 * are inert, as for every vbc solver, and keep their impulse). A unilateral row (bounds [0, inf))
 * is one LCP row; a bilateral row (bounds (-inf, inf)) is split into two, lambda = z+ - z-, with
 * rows (J_k, b_k) and (-J_k, -b_k): M stays positive semi-definite (singular), so Lemke still
 * applies. Other bounds (finite upper bounds, nonzero lower bounds) are refused with an error
 * naming the block and the row. Every block must offer its Jacobian (vbc_block_type.jacobian).
 * The velocities and the rows' impulses are the current ones (e.g. inside vbc_solve, after the
 * warm start); q is set so that z is the total impulse (see the sign mapping above). */
typedef struct vbc_lemke_lcp {
  size_t n;
  vbc_sparse M;   /* n x n, CSR */
  double *q;      /* n */
  size_t *block;  /* n: which block of the problem */
  size_t *row;    /* n: which row of that block */
  signed char *sign; /* n: +1, or -1 for the second half of a split bilateral row */
  size_t cap;
} vbc_lemke_lcp;

int vbc_lemke_assemble(vbc_problem *pb, vbc_lemke_lcp *lcp, vbc_error *err);
void vbc_lemke_lcp_free(vbc_lemke_lcp *lcp);

/* The solver type `lemke` (registered in registry/registry.c): one iterate() assembles the LCP of all
 * blocks, solves it, applies the impulse changes through the blocks' apply passes and sets the
 * impulses. It fails (VBC_EXIT_FAILED) unless the LCP is solved. Its result: */
extern const vbc_solver_type vbc_solver_lemke;
/* The last solve of a lemke solver instance (status, pivots, error, LCP size); 0 if s is not a
 * lemke solver or has not solved yet. */
int vbc_lemke_solver_last(const vbc_solver *s, vbc_lemke_result *res, size_t *n);

#endif
