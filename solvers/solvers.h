/* solvers.h — the constraint blocks of the fluid methods and the iteration schemes. */
#ifndef VBC_SOLVERS_H
#define VBC_SOLVERS_H

#include "core/constraint.h"

extern const vbc_block_type vbc_block_mps;        /* Miyamoto & Koshizuka §2, eq. 15-41 */
extern const vbc_block_type vbc_block_sph_density; /* Ihmsen et al. 2014 (IISPH), Akinci 2012 */
extern const vbc_block_type vbc_block_lcp_matrix; /* an explicit LCP (M, q), for tests and tools */

extern const vbc_solver_type vbc_solver_pgs;
extern const vbc_solver_type vbc_solver_jacobi;
extern const vbc_solver_type vbc_solver_lemke; /* solvers/lemke.h */

#endif
