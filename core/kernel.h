/* kernel.h — weighting functions.
 *
 * MPS (Miyamoto & Koshizuka): w(r) = (1 - r/r_e)^2 for r < r_e (eq. 3), chosen because w' is
 * continuous at r_e; the smoothing weight w_smooth(r) = (r_e^2 - r^2)^3 (eq. 43).
 * SPH: the cubic B-spline (Monaghan 1992) written with its *support radius* H (W = 0 for r >= H;
 * the classic smoothing length is H/2), normalised in 2D (40/(7 pi H^2)) and 3D (8/(pi H^3)).
 * It is the kernel IISPH is usually run with; later SPH modules choose H relative to l. */
#ifndef VBC_KERNEL_H
#define VBC_KERNEL_H

#include "core/vec.h"

static inline double vbc_mps_w(double r, double re) {
  if (r >= re) return 0.0;
  double s = 1.0 - r / re;
  return s * s;
}

/* dw/dr; negative inside the support, 0 outside (continuous at r_e). */
static inline double vbc_mps_dw(double r, double re) {
  if (r >= re) return 0.0;
  return -2.0 * (1.0 - r / re) / re;
}

static inline double vbc_smooth_w(double r, double re) {
  if (r >= re) return 0.0;
  double s = re * re - r * r;
  return s * s * s;
}

double vbc_sph_sigma(double support, int dim);
double vbc_sph_W(double r, double support, int dim);
double vbc_sph_dW(double r, double support, int dim); /* dW/dr */
/* grad_i W(|r_i - r_j|): rij = r_i - r_j, r = |rij|. Zero for r = 0. */
vbc_vec vbc_sph_gradW(vbc_vec rij, double r, double support, int dim);

#endif
