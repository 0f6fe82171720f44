/* lcp_matrix.h — an explicit linear complementarity problem as a constraint block.
 *
 * LCP(M, q): find z >= 0 with w = M z + q >= 0 and z^T w = 0. As a block its impulses are z, its
 * "velocity" is y = M z (kept inside the block), its rows read J_k v = (M z)_k >= b_k = -q_k, and
 * applying dz adds M dz to y. Every solver of the interface therefore runs on a plain matrix
 * problem: the small LCPs with known solutions of the tests, and the LCP files of `vbc lcp`. M is
 * stored sparse (lcp_matrix.c). */
#ifndef VBC_LCP_MATRIX_H
#define VBC_LCP_MATRIX_H

#include "core/constraint.h"

/* Copy M (n x n, row-major) and q into a new block; the system pointer passed to the block's
 * functions is not used. */
int vbc_lcp_matrix_block_init(vbc_block *b, size_t n, const double *M, const double *q,
                              vbc_error *err);
/* Make every row two-sided (the linear system M z = -q instead of the LCP), for the equality
 * solvers (cg) and their tests. */
void vbc_lcp_matrix_bilateral(vbc_block *b);
/* w = M z + q for the block's current impulses z. */
void vbc_lcp_matrix_w(const vbc_block *b, double *w);

#endif
