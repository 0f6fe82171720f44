/* wedge_wagner.h — the momentum estimate of a wedge's entry velocity (von Kármán, NACA TN 321,
 * 1929; Wagner, ZAMM 12, 1932), for any deadrise, breadth and mass, up to chine wetting.
 *
 * A symmetric wedge of deadrise beta (faces rising at beta above the horizontal), breadth B and
 * mass M per metre enters still water of density rho at V0, apex first, at t = 0. At penetration
 * zeta the wetted half-width is c = k zeta: k = 1 / tan(beta) for von Kármán (the still-water
 * line), k = pi / (2 tan(beta)) for Wagner (the water piled up along the faces). The fluid's
 * momentum is that of the added mass of a flat plate of half-width c moving normal to itself in
 * the half space, m_a = (pi / 2) rho c^2 (half the full-space value pi rho c^2), and the body's
 * and fluid's momentum change only by gravity:
 *     (M + (pi/2) rho k^2 zeta^2) dzeta/dt = M (V0 + g t),        V = dzeta/dt,
 * until chine wetting, c = B/2 (zeta_c = B / (2 k)); the estimate ends there (after it the flow
 * separates from the chines, which the model does not describe). Integrated by classical
 * Runge–Kutta with a step of 1e-6 s (the right-hand side is smooth).
 *
 * Closed form the tests use: with g = 0, M zeta + a zeta^3 / 3 = M V0 t and V = M V0 / (M + a
 * zeta^2), a = (pi/2) rho k^2. */
#ifndef VBC_WEDGE_WAGNER_H
#define VBC_WEDGE_WAGNER_H

typedef enum vbc_wedge_wetting { VBC_WETTING_VON_KARMAN, VBC_WETTING_WAGNER } vbc_wedge_wetting;

typedef struct vbc_wedge_entry_model {
  double deadrise; /* beta [rad], in (0, pi/2) */
  double breadth;  /* B [m] */
  double mass;     /* M per metre [kg/m] */
  double density;  /* rho of the water [kg/m^3] */
  double v0;       /* downward velocity at t = 0 [m/s] */
  double g;        /* gravity's downward magnitude [m/s^2] */
  vbc_wedge_wetting wetting;
} vbc_wedge_entry_model;

/* The time the chines wet [s] (infinite if they never do). */
double vbc_wedge_chine_time(const vbc_wedge_entry_model *m);
/* The downward velocity at t >= 0, and in *depth (may be NULL) the penetration; NAN after the
 * chines wet. */
double vbc_wedge_velocity(const vbc_wedge_entry_model *m, double t, double *depth);

#endif
