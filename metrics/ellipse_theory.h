/* ellipse_theory.h — the theory of the stretching circular patch (Miyamoto & Koshizuka §5.4,
 * eq. 74-77, after Monaghan's elliptical drop):
 *     da/dt = -a A,  db/dt = b A,  d2A/dt2 = 4 (dA/dt)^2 / A - 2 A^3,
 * a (semi-axis along y, shrinking for A > 0) and b (along x) starting from the patch radius R,
 * A(0) = A0 (the strain rate of the initial field u = A0 (x, -y)) and dA/dt(0) = 0. Integrated
 * with GSL's gsl_odeiv2 (Runge–Kutta Prince–Dormand 8(9), relative tolerance 1e-12).
 *
 * Closed-form facts the tests use: a b = R^2 for all t; substituting A = u^(-1/3) turns eq. 76
 * into u'' = 6 u^(1/3), whose energy integral is (dA/dt)^2 = A^4 (1 - (A/A0)^4). */
#ifndef VBC_ELLIPSE_THEORY_H
#define VBC_ELLIPSE_THEORY_H

#include <gsl/gsl_odeiv2.h>

#include "core/error.h"

typedef struct vbc_ellipse_theory {
  gsl_odeiv2_system sys;
  gsl_odeiv2_driver *driver;
  int freeze_strain; /* test option: hold A = A0 (then a = R e^{-A0 t}, b = R e^{A0 t}) */
  double t;
  double y[4]; /* a, b, A, dA/dt */
} vbc_ellipse_theory;

int vbc_ellipse_theory_init(vbc_ellipse_theory *th, double radius, double A0, int freeze_strain,
                            vbc_error *err);
/* Advance to time t (>= the current time); y[] then holds the state at t. */
int vbc_ellipse_theory_advance(vbc_ellipse_theory *th, double t, vbc_error *err);
void vbc_ellipse_theory_free(vbc_ellipse_theory *th);

#endif
