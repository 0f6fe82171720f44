/* coarse_space.h — a two-level aggregation coarse space for the fluid rows of a problem, the
 * coarse half of the pgs_coarse solver (pgs_coarse.c).
 *
 * Unsmoothed aggregation (Vaněk, Mandel & Brezina, Computing 56, 1996, §3: the greedy
 * aggregation of the strong-connection graph, phases 1-3): the rows are grouped into aggregates
 * by the assembled operator's own graph, P is the piecewise-constant prolongation (P_ia = 1 when
 * row i is in aggregate a), and the coarse operator is Galerkin's A_c = P^T A P. The rows are
 * those of the problem's fluid blocks (vbc_block_kind VBC_BLOCK_FLUID) with a free impulse
 * (A_kk > 0, lo < hi): the pressure's smooth modes live there (with all_rows, those of every
 * block). A is J M^-1 J^T over exactly those rows (core/operator.h), moving bodies included,
 * so a body that touches many rows couples their aggregates as it couples the rows.
 *
 * Choices the method leaves open, and ours: row i is strongly connected to j when |a_ij| >=
 * strength sqrt(a_ii a_jj) (Vaněk et al.'s epsilon; strength 0 takes every neighbour of the
 * operator's stencil, which on MPS rows of r_e = 2.1 l reaches 2 r_e); the rows are visited in
 * the blocks' own order (particles sorted by grid cell, so aggregates are compact); A_c is small
 * (a few hundred aggregates in 2D) and is factored densely by Cholesky once a solve, with a
 * relative diagonal shift of 1e-12, 1e-10, ... should a pivot not be positive (A_c is only
 * semidefinite when J is rank deficient). More than max_coarse aggregates is refused (exit 2)
 * rather than factored at O(n_c^3). */
#ifndef VBC_COARSE_SPACE_H
#define VBC_COARSE_SPACE_H

#include "core/constraint.h"

typedef struct vbc_coarse_space {
  int all_rows;            /* coarsen the free rows of every block, not only the fluid ones */
  unsigned char listed[VBC_MAX_BLOCKS]; /* block b has listed rows */
  size_t n, cap;           /* listed fine rows */
  size_t *block, *row;     /* listed row i is row row[i] of block block[i] */
  signed char *sign;       /* all +1 (vbc_assemble_rows' argument) */
  size_t *agg;             /* aggregate of each listed row */
  size_t *next;            /* scratch of the aggregation */
  double *d, *q, *w;       /* fine direction, A d, a masked residual: n each */
  vbc_sparse A;            /* J M^-1 J^T over the listed rows */
  size_t nc, cap_c;        /* aggregates */
  double *factor;          /* nc x nc: the Cholesky factor of A_c in its lower triangle */
  double *rc;              /* nc: restricted residual, then the coarse solution */
  size_t cap_rc;
  double shift;            /* the relative diagonal shift the factorisation needed (0: none) */
} vbc_coarse_space;

/* List the problem's free fluid rows, assemble A over them, aggregate with `strength`, form and
 * factor A_c. With no such row c->nc = 0 (nothing to correct). More than max_coarse aggregates:
 * VBC_EXIT_INPUT naming the count. */
int vbc_coarse_build(vbc_coarse_space *c, const vbc_problem *pb, double strength,
                     size_t max_coarse, vbc_error *err);

/* rc = P^T r (r over the listed rows, rc over the coarse unknowns). */
void vbc_coarse_restrict(const vbc_coarse_space *c, const double *r, double *rc);
/* d = P rc. */
void vbc_coarse_prolong(const vbc_coarse_space *c, const double *rc, double *d);

/* x = A_c^-1 x in place (x has c->nc entries). */
void vbc_coarse_solve(const vbc_coarse_space *c, double *x);

/* q = A d over the listed rows (d and q have c->n entries). */
void vbc_coarse_fine_product(const vbc_coarse_space *c, const double *d, double *q);

void vbc_coarse_free(vbc_coarse_space *c);

#endif
