/* number_density.h — the MPS particle number density n_i = sum_{j != i} w(r_ij) (Miyamoto eq. 4),
 * over all particles (fluid, rigid, wall; §4.1), written to particles->number_density; or over
 * the neighbours of chosen kinds only, for a block that leaves some particles out (the mps
 * block's bodies = "ignored": Kurose & Takahashi's fluid, which meets the bodies through contacts
 * only). */
#ifndef VBC_NUMBER_DENSITY_H
#define VBC_NUMBER_DENSITY_H

#include "core/constraint.h"

/* A set of particle kinds for vbc_number_density_of: VBC_KINDS(VBC_FLUID) | VBC_KINDS(VBC_WALL). */
#define VBC_KINDS(kind) (1u << (unsigned)(kind))

void vbc_number_density(const vbc_system *sys);

/* out[i] = sum over the neighbours j of i whose kind is in `kinds` of w(r_ij), every particle i. */
void vbc_number_density_of(const vbc_system *sys, unsigned kinds, double *out);

#endif
