/* jacobi_check.h — omega of relaxed Jacobi against its lattice bound (sim/jacobi_check.c). */
#ifndef VBC_JACOBI_CHECK_H
#define VBC_JACOBI_CHECK_H

#include "scene/scene.h"

/* 2 / lambda_max(D^-1 A) of block's rows on the scene's interior lattice (core/jacobi_bound.h);
 * 0 for a block without that form. */
double vbc_jacobi_omega_bound(const vbc_scene *s, const vbc_block_type *block);

/* Every group solved by jacobi: warn, clamp or nothing, per its omega_limit (jacobi_check.c). */
void vbc_scene_check_jacobi(vbc_scene *s);

#endif
