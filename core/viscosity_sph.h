/* viscosity_sph.h — explicit SPH velocity terms for the non-pressure step u* = u + h a
 * (Ihmsen et al. 2014, IISPH, Algorithm step 4; docs/iisph.md step 4):
 *
 *   XSPH (Monaghan 1989, as IISPH's step 4 writes it):
 *     a_i = (alpha / h) sum_j V_j (v_j - v_i) W_ij,          j fluid neighbours only;
 *   physical viscosity, the SPH Laplacian of Morris, Fox & Zhu (1997, eq. 8) for constant nu:
 *     a_i = 2 nu sum_j V_j (x_ij . grad_i W_ij) / (|x_ij|^2 + eta^2) (v_i - v_j),
 *     x_ij = x_i - x_j, eta = 0.1 (H / 2), j every neighbour (fluid, wall, rigid).
 *
 * W is the SPH kernel of core/kernel.h (sys->sph: fluid.sph_kernel, support H), V_j = l^d for every
 * particle, h = sys->dt. Choices and reasons are in viscosity_sph.c. Both *add* to acc (so that
 * they combine with each other and with the MPS Laplacian) and touch fluid particles only; the
 * neighbour lists must reach H. */
#ifndef VBC_VISCOSITY_SPH_H
#define VBC_VISCOSITY_SPH_H

#include "core/constraint.h"

/* acc[i] += (alpha / h) sum_{j fluid} V_j (v_j - v_i) W_ij for fluid particles i. */
void vbc_xsph_add(const vbc_system *sys, double alpha, vbc_vec *acc);

/* acc[i] += nu lap u_i by Morris's form above, for fluid particles i; walls and rigid particles
 * take part with their velocity (vbc_system_velocity) and their terms times wall_factor: 1
 * no-slip walls, 0 no viscous term against walls and bodies (free slip; core/viscosity.h); with
 * wall_normal (NULL: off) only the tangential part of their relative velocity (He et al. 2012
 * eq. 24, core/viscosity.h). */
void vbc_sph_viscosity_add(const vbc_system *sys, double nu, double wall_factor,
                           const vbc_vec *wall_normal, vbc_vec *acc);

#endif
