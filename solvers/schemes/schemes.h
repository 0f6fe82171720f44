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

#endif
