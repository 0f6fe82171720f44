/* dfsph_passes.h — the dfsph block's residual and apply passes on sph_density's rows, each row's
 * sums kept per component in two halves (Bender & Koschier 2017, eq. 9 and Algorithms 2-3;
 * dfsph_passes.c). */
#ifndef VBC_DFSPH_PASSES_H
#define VBC_DFSPH_PASSES_H

#include "solvers/blocks/blocks.h"

/* 1 if every one of the np particles has the lattice volume view->cell. */
int vbc_dfsph_uniform_volume(const vbc_sph_rows_view *v, size_t np);
/* 1 if this processor runs the passes' AVX-512VL form (the same bits as the plain one). */
int vbc_dfsph_wide_available(void);
/* res = b - J v over the rows (no bodies: every particle moves with its own velocity). */
void vbc_dfsph_residual_pass(const vbc_sph_rows_view *v, const vbc_system *sys,
                             const vbc_rows *rows, int uniform, int wide, double *res);
/* v += M^-1 J^T d over the moving rows (no bodies). */
void vbc_dfsph_apply_pass(const vbc_sph_rows_view *v, vbc_system *sys, int wide, const double *d);

#endif
