/* spheric_test2.h — SPHERIC Test 2 (Kleefsman et al. 2005, J. Comput. Phys. 206:363-393): the
 * experiment's record reduced for scoring, the gauges and the scoring functions of
 * metrics/spheric_test2.c, kept apart from the simulation so that tests can feed them made-up
 * histories. */
#ifndef VBC_SPHERIC_TEST2_H
#define VBC_SPHERIC_TEST2_H

#include <stddef.h>

#include "sim/sim.h"

/* metrics/spheric_test2_data.c: 300 rows {t [s], P1 [Pa], H2 [m], H4 [m]}, 5 ms bin averages of
 * the 1 kHz record over 0-1.5 s, P1 less its baseline (the median for t < 0.2 s). */
#define VBC_SPHERIC_TEST2_ROWS 300
#define VBC_SPHERIC_TEST2_COL_P1 1
#define VBC_SPHERIC_TEST2_COL_H2 2
#define VBC_SPHERIC_TEST2_COL_H4 3
extern const double vbc_spheric_test2_reference[VBC_SPHERIC_TEST2_ROWS][4];

/* From the full 1 kHz record (not binned), the same baseline: P1's peak [Pa] over 0-1.5 s and the
 * first sample at or above 25 % of it [s] (the arrival as DGM's validation defines it). */
#define VBC_SPHERIC_TEST2_P1_PEAK 11267.9
#define VBC_SPHERIC_TEST2_P1_ARRIVAL 0.3950

/* The water height above floor_y at the gauge (x, z), as a wave gauge's wetted wire reads it:
 * the fluid particles within half_width of the gauge in x and in z are binned by height in
 * layers of l (bins[k] for k < nbins: scratch, the highest y in layer k); from the floor up, the
 * water column continues while no two successive layers are empty, and the height is its top
 * particle plus l/2, minus floor_y. A column that does not start in the lowest two layers, and
 * spray above a gap of two layers, do not count; 0 when the gauge is dry. */
double vbc_spheric_gauge_height(const vbc_particles *p, double x, double z, double half_width,
                                double l, double floor_y, double *bins, size_t nbins);

/* The fluid pressure at the point x: the Shepard average sum_j p_j W_j / sum_j W_j over the fluid
 * particles within radius of x, W Wendland's C2 function of r / radius; 0 when none is there
 * (a dry probe). */
double vbc_spheric_probe_pressure(const vbc_particles *p, vbc_vec x, double radius);

/* The mean of |v(t_k) - ref_k| over the reference rows k with t_k <= window, divided by the
 * largest ref_k of those rows; v linear between the simulated samples (t increasing). ref is a
 * table of rows of `stride` numbers, its time in column 0 and ref_k in column `column`. *points:
 * the rows inside the simulated span. NAN when that is not every row up to window (the run
 * ended early) or the rows' largest value is not > 0. */
double vbc_spheric_normalised_error(const double *t, const double *v, size_t n,
                                    const double *ref, size_t stride, size_t nref, size_t column,
                                    double window, size_t *points);

/* The first simulated time with v >= threshold and t <= window (linear between samples: where
 * the line crosses it); NAN if never. */
double vbc_spheric_arrival(const double *t, const double *v, size_t n, double threshold,
                           double window);

/* The largest v over the samples with t <= window; NAN without one. */
double vbc_spheric_peak(const double *t, const double *v, size_t n, double window);

#endif
