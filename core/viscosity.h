/* viscosity.h — explicit viscous acceleration with the standard MPS Laplacian model
 * (Koshizuka & Oka 1996) and the weight of Miyamoto eq. 3:
 *     nu lap u_i = nu 2d / (lambda n0) sum_j (u_j - u_i) w(r_ij),
 * summed over all neighbours; wall particles (u = 0) make walls no-slip. The terms of wall and
 * rigid neighbours are multiplied by wall_factor (fluid.wall_viscosity): 1 no-slip (the model as
 * written), 0 no viscous term against walls and bodies (free slip, SPlisHSPlasH's default of no
 * boundary viscosity), in between a partial slip. */
#ifndef VBC_VISCOSITY_H
#define VBC_VISCOSITY_H

#include "core/constraint.h"
#include "core/lattice.h"

/* acc[i] = nu lap u_i for fluid particles, 0 for the others. */
void vbc_mps_viscosity(const vbc_system *sys, const vbc_mps_constants *k, double nu,
                       double wall_factor, vbc_vec *acc);

#endif
