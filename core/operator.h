/* operator.h — the assembled operator of constraint rows: A = J W J^T, W = M^-1 the inverse mass
 * of the generalized velocities (Kurose & Takahashi's A, eq. 12; the matrix a Gauss–Seidel sweep
 * of Miyamoto eq. 36-41 iterates on), or a block's own operator where the method defines one
 * (He et al.'s staggered Laplacian, eq. 12-13, is not J W J^T over the particle velocities).
 * Matrix-free solvers never need it; preconditioners that factor or sweep A (SSOR, IC(0)) and
 * Lemke's method do. */
#ifndef VBC_OPERATOR_H
#define VBC_OPERATOR_H

#include "core/constraint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* M = S J W J^T S over n listed rows: row i is row row[i] of block block[i] of pb, with sign
 * sign[i] (+1 or -1: Lemke splits a bilateral row into two). Every block with a listed row must
 * offer its Jacobian (VBC_EXIT_INPUT naming the block otherwise). M is n x n, CSR, entries of a
 * row in no particular order; the bodies' inverse inertia is the current world one. */
int vbc_assemble_rows(const vbc_problem *pb, size_t n, const size_t *block, const size_t *row,
                      const signed char *sign, vbc_sparse *M, vbc_error *err);

/* All rows of pb's blocks, in block order: row index = the rows of the blocks before + k. */
size_t vbc_problem_rows(const vbc_problem *pb);

/* A over all rows of pb: a problem of one block that assembles its own operator
 * (vbc_block_type.assemble) gives that; otherwise the generic J W J^T, which needs every block's
 * Jacobian; bilateral rows are not split. */
int vbc_problem_assemble(const vbc_problem *pb, vbc_sparse *A, vbc_error *err);

/* The same with every body held still (W = 0 on the bodies' degrees of freedom): the particle
 * part of J W J^T. A body couples every row that touches it into a dense block; a preconditioner
 * may leave that coupling out (mprgp.c). A block's own operator is returned as it is. */
int vbc_problem_assemble_fixed_bodies(const vbc_problem *pb, vbc_sparse *A, vbc_error *err);

/* The block that keeps pb's operator from being assembled (no own operator where it would be
 * used, no Jacobian), or NULL: for solvers' set-up checks. */
const vbc_block *vbc_problem_unassemblable(const vbc_problem *pb);

#ifdef __cplusplus
}
#endif

#endif
