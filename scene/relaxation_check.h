/* relaxation_check.h — a relaxed scheme's omega against its convergence bound on the scene's
 * lattice and on the rows it assembles (scene/relaxation_check.c). */
#ifndef VBC_RELAXATION_CHECK_H
#define VBC_RELAXATION_CHECK_H

#include "scene/scene.h"

/* 2 / lambda_max(D^-1 A) of the rows of `block` on the scene's interior lattice
 * (vbc_block_type.lattice_lambda_max); 0 for a block that does not report it. */
double vbc_relaxation_bound(const vbc_scene *s, const vbc_block_type *block, const cJSON *params);

/* Every group whose solver declares a relaxation_key, against the lattice bound and the bound
 * measured on the rows of step 1 (relaxation_check.c): per KEY_limit, refuse (VBC_EXIT_INPUT, the
 * bound and the fix) or warn, clamp, or nothing. */
int vbc_scene_check_relaxation(vbc_scene *s, vbc_error *err);

#endif
