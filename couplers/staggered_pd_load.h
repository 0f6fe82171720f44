/* staggered_pd_load.h — the body's load from p^d by He et al. 2012 eq. 23 (couplers/
 * staggered_pd_load.c), an option of the staggered coupler (method.pd_body_load). */
#ifndef VBC_STAGGERED_PD_LOAD_H
#define VBC_STAGGERED_PD_LOAD_H

#include "core/constraint.h"

/* impulse[i] = h F_i of eq. 23 for every rigid particle i (zero for the others), from p^d on the
 * fluid particles (pd, per particle); mirrored: solid particles hold their fluid neighbours'
 * Shepard-averaged p^d (else 0); muller: eq. 23's (p_i + p_j)/2 as printed (else the full sum).
 * The neighbour lists must reach the SPH support H. */
void vbc_staggered_pd_impulses(const vbc_system *sys, const double *pd, int mirrored, int muller,
                               vbc_vec *impulse);

/* Every body takes its particles' impulses (eq. 21: force and torque about the centre of mass),
 * free and pinned ones through their inverse mass; every body records them as the fluid's
 * impulse (drag and lift). */
void vbc_staggered_pd_push(vbc_system *sys, const vbc_vec *impulse);

#endif
