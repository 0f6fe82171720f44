/* agitation.h — random displacements that keep a particle packing from jamming (vbc's own
 * option, not a paper's; docs/notes/benchmarks-journal.md, "The band's mechanism").
 *
 * A fluid of particles at rest can hold shear stress as a granular packing does: a floating box
 * then comes to rest anywhere in a band of depths instead of at Archimedes' draft. Moving every
 * interior fluid particle by `amplitude` l in a random direction each step shakes the packing
 * loose; the pressure solve of the next step repairs the density. The direction is a hash of the
 * particle's index and the step number, so runs are reproducible, identical on any number of
 * threads and after a restart. Particles with n_i < 0.97 n0 (MPS number density over r_e,
 * Koshizuka & Oka's surface threshold) stay put, so the free surface does not spray. */
#ifndef VBC_AGITATION_H
#define VBC_AGITATION_H

#include "core/constraint.h"

#define VBC_AGITATION_SURFACE 0.97 /* n_i / n0 below which a particle counts as surface */

/* The direction of particle i's displacement in step `step`: a unit vector, uniform on the
 * circle (dim 2) or the sphere (dim 3). */
vbc_vec vbc_agitation_direction(int dim, size_t i, long step);

/* out[i] = amplitude * l * direction for every fluid particle with n_i >= 0.97 n0 (from the
 * neighbour lists of sys, pairs closer than r_e), 0 for every other particle. Does not move
 * anything. */
void vbc_agitation_displacements(const vbc_system *sys, double amplitude, double n0, long step,
                                 vbc_vec *out);

#endif
