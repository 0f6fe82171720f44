/* grid_scan.h — the neighbour search's distance test over one run of candidates (grid_lists.c): a
 * plain loop, and one for AVX-512 (core/simd.h) with the same results. */
#ifndef VBC_GRID_SCAN_H
#define VBC_GRID_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { VBC_SCAN_SLACK = 8 }; /* entries a scan may write past those it keeps */

/* 1 where this build carries the AVX-512 loops and the processor has AVX-512F and AVX-512VL. */
int vbc_scan_wide_available(void);

/* The candidates g->sorted[k .. end) other than particle i with r^2 = |r_j - pi|^2 < r2max, in
 * order: their indices into out, their r^2 into r2. Returns how many; out and r2 need room for
 * end - k + VBC_SCAN_SLACK entries. wide (only where vbc_scan_wide_available): the AVX-512 loop. */
size_t vbc_scan_run(const vbc_grid *g, size_t k, size_t end, vbc_vec pi, double r2max,
                    uint32_t i, int wide, uint32_t *out, double *r2);

/* x[q] = sqrt(x[q]) for q < n. */
void vbc_scan_sqrt(double *x, size_t n, int wide);

#ifdef __cplusplus
}
#endif

#endif
