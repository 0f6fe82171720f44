/* dfsph.h — which of DFSPH's two solves the dfsph block's rows state (Bender & Koschier 2015,
 * Algorithms 2 and 3; solvers/blocks/dfsph.c), set by the dfsph coupler before each stage. */
#ifndef VBC_DFSPH_H
#define VBC_DFSPH_H

#include "core/constraint.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vbc_dfsph_rows {
  VBC_DFSPH_DENSITY = 0,   /* constant density: rho*_i <= rho0 */
  VBC_DFSPH_DIVERGENCE = 1 /* divergence-free: D rho_i / Dt <= 0 */
} vbc_dfsph_rows;

/* The rows the next prepare of dfsph block b builds. same_positions: the particles have not moved
 * since its last prepare (the density solve right after the divergence solve of the same step),
 * so the kernels, volumes, densities and diagonals of that prepare are reused. */
void vbc_dfsph_set_rows(vbc_block *b, vbc_dfsph_rows rows, int same_positions);

#ifdef __cplusplus
}
#endif

#endif
