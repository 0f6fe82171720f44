/* limits.h — resource limits checked before anything is allocated: a scene whose
 * spacing would create more particles than fit in memory is bad input (exit 2), not a crash or an
 * hour of swapping.
 *
 * The count is made from the shapes alone, in microseconds whatever the spacing: fluid boxes and
 * tank walls exactly (the lattice counts scene/generate.c uses), fluid disks and balls by their
 * area or volume over l^d, and so are bodies (box, disk, cross, polygon; a union as the sum of
 * its parts), less the share of a body's bounding box inside fluid boxes (bodies displace fluid).
 * The limit is about orders of magnitude, not the last particle (the estimate is within 5 % on
 * every shipped scene).
 *
 * Memory per particle: a model fitted to measured runs, 400 bytes for the particle arrays, the
 * step's backup and the solver rows, plus 30 bytes per neighbour (index, distance and the
 * block's per-pair data) with pi (r_e/l)^2 neighbours in 2D and 4/3 pi (r_e/l)^3 in 3D. Measured
 * on the hydrostatic tank (r_e = 2.5 l): 1000 bytes per particle in 2D, model 989. */
#ifndef VBC_LIMITS_H
#define VBC_LIMITS_H

#include "scene/scene.h"

/* The particles the scene's shapes would create (see above). */
double vbc_particle_estimate(const vbc_scene *s);
/* Bytes one particle costs during a run, by the model above. */
double vbc_bytes_per_particle(const vbc_scene *s);
/* The default limit: the particles whose estimated memory fits in physical RAM. */
double vbc_default_max_particles(const vbc_scene *s);
/* VBC_EXIT_INPUT naming the scene file and `spacing` when the estimate exceeds the limit
 * (s->max_particles, or the default when it is 0) or 2^32 - 1 (neighbour indices are 32-bit):
 * the count, the memory it would need and how to raise the limit. */
int vbc_check_particle_limit(const vbc_scene *s, vbc_error *err);

#endif
