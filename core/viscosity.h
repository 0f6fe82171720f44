/* viscosity.h — explicit viscous acceleration with the standard MPS Laplacian model
 * (Koshizuka & Oka 1996) and the weight of Miyamoto eq. 3:
 *     nu lap u_i = nu 2d / (lambda n0) sum_j (u_j - u_i) w(r_ij),
 * summed over all neighbours; wall particles (u = 0) make walls no-slip. The terms of wall and
 * rigid neighbours are multiplied by wall_factor (fluid.wall_viscosity): 1 no-slip (the model as
 * written), 0 no viscous term against walls and bodies (free slip, SPlisHSPlasH's default of no
 * boundary viscosity), in between a partial slip. With wall_normal (NULL: off) only the
 * tangential part of a wall or body neighbour's relative velocity counts, (I − n_j n_jᵀ)(u_j − u_i)
 * with n_j its solid normal (core/solid_normal.h): He et al. 2012 eq. 24's mapping T, whose
 * normal part the solid's velocity constraint handles (§5.2's partial slip: free-slip rows plus
 * this term, μˢ = μᶠ). */
#ifndef VBC_VISCOSITY_H
#define VBC_VISCOSITY_H

#include "core/constraint.h"
#include "core/lattice.h"

/* acc[i] = nu lap u_i for fluid particles, 0 for the others. */
void vbc_mps_viscosity(const vbc_system *sys, const vbc_mps_constants *k, double nu,
                       double wall_factor, const vbc_vec *wall_normal, vbc_vec *acc);

/* The relative velocity u_j − u_i of a wall or body neighbour j as the viscous terms see it: all
 * of it, or with wall_normal its tangential part (I − n_j n_jᵀ)(u_j − u_i). */
static inline vbc_vec vbc_wall_relative_velocity(vbc_vec du, const vbc_vec *wall_normal,
                                                 size_t j) {
  return wall_normal ? vbc_vec_axpy(du, -vbc_vec_dot(wall_normal[j], du), wall_normal[j]) : du;
}

#endif
