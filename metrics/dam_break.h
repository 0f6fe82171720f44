/* dam_break.h — the scoring of the residual water height at the closed wall of the dam_break
 * benchmark (metrics/dam_break.c) against Martin & Moyce (1952), separate from the simulation so
 * that it can be checked on made-up histories. */
#ifndef VBC_DAM_BREAK_H
#define VBC_DAM_BREAK_H

#include <stddef.h>

typedef struct vbc_height_errors {
  double mean, max; /* of |H_sim(tau_k) - H_k| over the scored points; NAN without points */
  size_t points;
} vbc_height_errors;

/* Martin & Moyce's n^2 = 2, a = 2.25 in height table: tau = t sqrt(g/a), H = h/(n^2 a). */
extern const double vbc_mm1952_height[][2];
extern const size_t vbc_mm1952_height_points;

/* The simulated H at samples tau_k = T[k] * tau_per_T (k < n, increasing), linear between
 * samples, against the table's points with tau inside [tau_0, tau_{n-1}] and below tau_cut. */
vbc_height_errors vbc_dam_break_height_errors(const double *T, const double *H, size_t n,
                                              double tau_per_T, double tau_cut);

#endif
