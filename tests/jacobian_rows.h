/* jacobian_rows.h — an LCP given as explicit Jacobian rows, for the solver tests: rows J (n x m,
 * dense) over m generalized velocities, held as m / 2 fluid particles of a 2D system whose
 * inverse masses W (one per particle, both axes) the caller chooses (vbc_system.inv_mass_override).
 * With u* = 0 and target b = -q the rows are LCP(M, q) with M = J W J^T, the same problem an
 * lcp_matrix block of M poses, but as a block that gives its Jacobian (core/constraint.h), so
 * that solvers which assemble J W J^T themselves (lemke) run on it through vbc_solve. The block
 * does exactly what the interface says: residual b - J v, apply v += W J^T d, a Gauss–Seidel
 * sweep of vbc_pgs_row in row order (reversed: backward), its Jacobian; rows unilateral
 * ([0, inf)) or bilateral ((-inf, inf)). */
#ifndef VBC_TEST_JACOBIAN_ROWS_H
#define VBC_TEST_JACOBIAN_ROWS_H

#include "core/constraint.h"

typedef struct jacobian_lcp {
  vbc_particles p;
  double *inv_mass; /* per particle */
  vbc_system sys;
  vbc_block block;
} jacobian_lcp;

/* J n x m row-major (m even), w m / 2 inverse masses, q n; the block's rows prepared. Fails the
 * test on any error. */
void jacobian_lcp_init(jacobian_lcp *L, size_t n, size_t m, const double *J, const double *w,
                       const double *q, int bilateral);
void jacobian_lcp_free(jacobian_lcp *L);

#endif
