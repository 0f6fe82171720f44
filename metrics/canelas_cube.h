/* canelas_cube.h — the scoring function of metrics/canelas_cube.c (a dam break hitting one free
 * cube, Canelas et al. 2016), kept apart from the simulation so that tests can feed it made-up
 * trajectories, and the embedded experimental record. */
#ifndef VBC_CANELAS_CUBE_H
#define VBC_CANELAS_CUBE_H

#include <stddef.h>

/* The experiment's cube x(t): {t [s], x [m] from the gate}, 42 points over 0-1.55 s. */
#define VBC_CANELAS_CUBE_POINTS 42
extern const double vbc_canelas_cube_x[VBC_CANELAS_CUBE_POINTS][2];

/* The mean of |x(t_k) - x_k| / length over the reference points (t_k, x_k) with t_k <= window
 * (ref: nref rows {t, x}), x linear between the simulated samples (t increasing). *points: the
 * reference points inside the simulated span. NAN when that is not every point up to window (the
 * run ended early) or there is none. */
double vbc_canelas_x_error(const double *t, const double *x, size_t n, const double (*ref)[2],
                           size_t nref, double window, double length, size_t *points);

#endif
