/* wedge_wagner.c — the von Kármán / Wagner momentum estimate of a wedge's entry velocity
 * (wedge_wagner.h has the equations and the choices). */
#include <math.h>

#include "metrics/wedge_wagner.h"

#define STEP 1e-6 /* s: Runge–Kutta step (the estimate's own error is far larger) */

static double half_width_factor(const vbc_wedge_entry_model *m) {
  const double k = 1.0 / tan(m->deadrise);
  return m->wetting == VBC_WETTING_WAGNER ? 0.5 * M_PI * k : k;
}

/* dzeta/dt = M (V0 + g t) / (M + a zeta^2). */
static double rate(const vbc_wedge_entry_model *m, double a, double t, double zeta) {
  return m->mass * (m->v0 + m->g * t) / (m->mass + a * zeta * zeta);
}

/* Integrate zeta from 0 to t; stop early (returning the time reached) once zeta passes `stop`. */
static double integrate(const vbc_wedge_entry_model *m, double t, double stop, double *zeta) {
  const double k = half_width_factor(m), a = 0.5 * M_PI * m->density * k * k;
  double z = 0.0, s = 0.0;
  while (s < t && z < stop) {
    const double h = fmin(STEP, t - s);
    const double k1 = rate(m, a, s, z), k2 = rate(m, a, s + 0.5 * h, z + 0.5 * h * k1);
    const double k3 = rate(m, a, s + 0.5 * h, z + 0.5 * h * k2), k4 = rate(m, a, s + h, z + h * k3);
    z += h * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
    s += h;
  }
  *zeta = z;
  return s;
}

static double chine_depth(const vbc_wedge_entry_model *m) {
  return 0.5 * m->breadth / half_width_factor(m);
}

double vbc_wedge_chine_time(const vbc_wedge_entry_model *m) {
  double z;
  const double t = integrate(m, 10.0, chine_depth(m), &z);
  return z >= chine_depth(m) ? t : INFINITY;
}

double vbc_wedge_velocity(const vbc_wedge_entry_model *m, double t, double *depth) {
  double z;
  integrate(m, t, INFINITY, &z);
  if (depth) *depth = z;
  if (z > chine_depth(m)) return NAN;
  const double k = half_width_factor(m), a = 0.5 * M_PI * m->density * k * k;
  return rate(m, a, t, z);
}
