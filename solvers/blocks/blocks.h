/* blocks.h — the constraint blocks: every kind of row vbc knows (core/constraint.h), one file each
 * in this folder. */
#ifndef VBC_BLOCKS_H
#define VBC_BLOCKS_H

#include <math.h>

#include "core/constraint.h"

extern const vbc_block_type vbc_block_mps;         /* Miyamoto & Koshizuka §2, eq. 15-41 */
extern const vbc_block_type vbc_block_mps_poisson; /* Koshizuka & Oka 1996 (mps_poisson.c) */
extern const vbc_block_type vbc_block_sph_density; /* Ihmsen et al. 2014 (IISPH), Akinci 2012 */
extern const vbc_block_type vbc_block_staggered;   /* He et al. 2012 (staggered.c) */
extern const vbc_block_type vbc_block_contact;     /* Miyamoto & Koshizuka §3.2, §4 (contact.h) */
extern const vbc_block_type vbc_block_pin;         /* Miyamoto & Koshizuka §5.6-5.7 */
extern const vbc_block_type vbc_block_lcp_matrix;  /* an explicit LCP (M, q) (lcp_matrix.h) */
extern const vbc_block_type vbc_block_dfsph; /* Bender & Koschier 2015/2017 (dfsph.h) */

/* What sph_density's last prepare built, for a block that poses other targets on the same rows
 * with the same kernels, neighbour data and boundary volumes (dfsph.c): the particle of each row
 * and, per particle with a row, its density rho_i; for passes of its own over the same operator,
 * the volumes V_j (per particle), the calibrated gradients grad_i W_ij and the neighbour's row
 * (per pair, aligned with sys->nbrs->index), g_i = sum_j V_j grad W_ij (per row) and the rows the
 * block moves (1/m_i > 0). Valid until the next prepare. */
typedef struct vbc_sph_rows_view {
  const uint32_t *particle_of;
  const double *density;
  const double *volume;
  const vbc_vec *grad;
  const int32_t *pair_row;
  const vbc_vec *g;
  const uint32_t *within; /* per row: neighbours closer than H */
  const uint32_t *moving;
  size_t nmoving;
  double cell;       /* the volume of a fluid particle, l^d / S */
  double grad_scale; /* 1/M: grad W_ij = ((x_i - x_j) W'(r)/r) grad_scale */
} vbc_sph_rows_view;
void vbc_sph_density_view(const void *state, vbc_sph_rows_view *view);

/* The smoothed pressure of Miyamoto & Koshizuka eq. 42-43: each particle with a row (row_of >= 0)
 * averages the pressures of itself and its neighbours with rows; the others get 0. */
void vbc_mps_smooth_pressure(vbc_system *sys, const long *row_of);

/* The bounds of a pressure row (mps, sph_density). The LCP (default): p >= 0 everywhere
 * (Miyamoto & Koshizuka eq. 16-18; IISPH's clamped pressures). The equality form: rows of
 * free-surface particles are held at p = 0 (lo = hi = 0), every other row is two-sided, so
 * conjugate gradients apply. The operator stays J M^-1 J^T, the divergence of the gradient on one
 * set of particles, not a Laplacian model (Koshizuka & Oka 1996; Cummins & Rudman 1999): its
 * near-null pressure modes, which p >= 0 holds down, are free here (docs/krylov.md). */
static inline void vbc_pressure_row_bounds(vbc_rows *rows, size_t r, int equality, int surface) {
  rows->lo[r] = equality ? (surface ? 0.0 : -INFINITY) : 0.0;
  rows->hi[r] = equality && surface ? 0.0 : INFINITY;
}

#endif
