/* number_density.h — the MPS particle number density n_i = sum_{j != i} w(r_ij) (Miyamoto eq. 4),
 * over all particles (fluid, rigid, wall; §4.1), written to particles->number_density. */
#ifndef VBC_NUMBER_DENSITY_H
#define VBC_NUMBER_DENSITY_H

#include "core/constraint.h"

void vbc_number_density(const vbc_system *sys);

#endif
