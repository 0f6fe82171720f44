/* solid_normal.h — the outward normal of a solid (wall or rigid) particle from its solid
 * neighbours, He et al. 2012 eq. 20. The paper's normal is the gradient of a signed distance φ;
 * a particle carries one number, so after the normalisation α_i eq. 20 is the unit vector of
 *     n_i ∝ Σ_{j solid, 0 < r_ij < cutoff} |W′(r_ij)| (x_i − x_j) / r_ij,
 * which points out of the solid where the solid ends. Used by the staggered block (eq. 23, 26–28)
 * and by the tangential wall viscosity (eq. 24's T = I − n nᵀ, core/viscosity.h). */
#ifndef VBC_SOLID_NORMAL_H
#define VBC_SOLID_NORMAL_H

#include "core/constraint.h"
#include "core/kernel.h"

/* normal[i] = n_i for wall and rigid particles, the zero vector for fluid particles and where the
 * sum vanishes (inside a solid, or a lone particle). The neighbour lists must reach cutoff. */
void vbc_solid_normals(const vbc_system *sys, const vbc_sph_kernel *k, double cutoff,
                       vbc_vec *normal);

#endif
