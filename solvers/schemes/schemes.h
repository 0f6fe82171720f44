/* schemes.h — the iteration schemes that solve constraint blocks (core/constraint.h), one file
 * each in this folder. */
#ifndef VBC_SCHEMES_H
#define VBC_SCHEMES_H

#include "core/constraint.h"

extern const vbc_solver_type vbc_solver_pgs;    /* projected Gauss-Seidel / SOR */
extern const vbc_solver_type vbc_solver_jacobi; /* projected relaxed Jacobi (IISPH) */
extern const vbc_solver_type vbc_solver_lemke;  /* Lemke's pivoting (lemke.h) */
extern const vbc_solver_type vbc_solver_cg;     /* preconditioned conjugate gradients */
extern const vbc_solver_type vbc_solver_mprgp;  /* MPRGP, Dostál & Schöberl 2005 */
extern const vbc_solver_type vbc_solver_dfsph_jacobi; /* DFSPH's Jacobi, Bender & Koschier */
extern const vbc_solver_type vbc_solver_pgs_coarse; /* pgs + aggregation coarse correction */
extern const vbc_solver_type vbc_solver_pgs_chebyshev; /* pgs + Chebyshev semi-iteration */

/* One pgs iteration: every block's forward sweep in order, then, with symmetric, every block's
 * backward sweep in reverse order (Miyamoto & Koshizuka eq. 36-41, 65-72; SSOR). */
void vbc_pgs_sweeps(vbc_problem *pb, double omega, int symmetric);

#endif
