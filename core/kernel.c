/* kernel.c — SPH cubic spline, see kernel.h. */
#include <math.h>

#include "core/kernel.h"

double vbc_sph_sigma(double support, int dim) {
  if (dim == 2) return 40.0 / (7.0 * M_PI * support * support);
  return 8.0 / (M_PI * support * support * support);
}

double vbc_sph_W(double r, double support, int dim) {
  double q = r / support;
  if (q >= 1.0) return 0.0;
  double s = vbc_sph_sigma(support, dim);
  if (q <= 0.5) return s * (6.0 * q * q * q - 6.0 * q * q + 1.0);
  double t = 1.0 - q;
  return s * 2.0 * t * t * t;
}

double vbc_sph_dW(double r, double support, int dim) {
  double q = r / support;
  if (q >= 1.0) return 0.0;
  double s = vbc_sph_sigma(support, dim) / support;
  if (q <= 0.5) return s * (18.0 * q * q - 12.0 * q);
  double t = 1.0 - q;
  return -6.0 * s * t * t;
}

vbc_vec vbc_sph_gradW(vbc_vec rij, double r, double support, int dim) {
  if (r <= 0.0) return vbc_vec_zero();
  return vbc_vec_scale(rij, vbc_sph_dW(r, support, dim) / r);
}
