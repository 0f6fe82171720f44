/* kernel.h — weighting functions.
 *
 * MPS (Miyamoto & Koshizuka): w(r) = (1 - r/r_e)^2 for r < r_e (eq. 3), chosen because w' is
 * continuous at r_e; the smoothing weight w_smooth(r) = (r_e^2 - r^2)^3 (eq. 43).
 * SPH (vbc_sph_kernel, chosen by fluid.sph_kernel, support H = fluid.sph_support_over_l * l):
 *   cubic_spline — the cubic B-spline (Monaghan 1992) written with its *support radius* H (W = 0
 *     for r >= H; the classic smoothing length is H/2), normalised in 2D (40/(7 pi H^2)) and 3D
 *     (8/(pi H^3)); the kernel IISPH is usually run with;
 *   wendland_c2 — Wendland's C2 function W = sigma (1 - q)^4 (1 + 4 q), q = r/H, sigma = 7/(pi H^2)
 *     in 2D and 21/(2 pi H^3) in 3D (Dehnen & Aly 2012, their H). Its Fourier transform is
 *     positive, and on the square and simple cubic lattices vbc fills its scenes with it stays
 *     stable under pressure at H = 2 l, where the cubic spline's lattice buckles (docs/iisph.md,
 *     "Kernel and lattice"; tests/test_kernel.c). */
#ifndef VBC_KERNEL_H
#define VBC_KERNEL_H

#include "core/vec.h"

#ifdef __cplusplus
extern "C" {
#endif

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

typedef enum vbc_sph_kernel_type { VBC_SPH_CUBIC_SPLINE, VBC_SPH_WENDLAND_C2 } vbc_sph_kernel_type;

typedef struct vbc_sph_kernel {
  vbc_sph_kernel_type type;
  int dim;
  double H;            /* support radius */
  double sigma;        /* normalisation */
  double sigma_over_H; /* sigma / H, the factor of dW/dr */
} vbc_sph_kernel;

vbc_sph_kernel vbc_sph_kernel_make(vbc_sph_kernel_type type, double H, int dim);
/* The type named `name` ("cubic_spline", "wendland_c2"); -1 when there is none. */
int vbc_sph_kernel_parse(const char *name);
/* W, dW/dr and grad W are inline: every neighbour pass of the SPH blocks calls them per pair.
 * The _of forms take q = r / H < 1. */
static inline double vbc_sph_W_of(const vbc_sph_kernel *k, double q) {
  const double t = 1.0 - q;
  if (k->type == VBC_SPH_WENDLAND_C2) return k->sigma * t * t * t * t * (1.0 + 4.0 * q);
  if (q <= 0.5) return k->sigma * (6.0 * q * q * q - 6.0 * q * q + 1.0);
  return k->sigma * 2.0 * t * t * t;
}

static inline double vbc_sph_dW_of(const vbc_sph_kernel *k, double q) {
  const double s = k->sigma_over_H, t = 1.0 - q;
  if (k->type == VBC_SPH_WENDLAND_C2) return -20.0 * s * q * t * t * t;
  if (q <= 0.5) return s * (18.0 * q * q - 12.0 * q);
  return -6.0 * s * t * t;
}

/* W and dW/dr of q = r / H (any q >= 0): the values of vbc_sph_W and vbc_sph_dW at r, for a
 * caller that has q. */
static inline double vbc_sph_W_q(const vbc_sph_kernel *k, double q) {
  return q >= 1.0 ? 0.0 : vbc_sph_W_of(k, q);
}

static inline double vbc_sph_dW_q(const vbc_sph_kernel *k, double q) {
  return q >= 1.0 ? 0.0 : vbc_sph_dW_of(k, q);
}

static inline double vbc_sph_W(const vbc_sph_kernel *k, double r) {
  return vbc_sph_W_q(k, r / k->H);
}

static inline double vbc_sph_dW(const vbc_sph_kernel *k, double r) { /* dW/dr */
  return vbc_sph_dW_q(k, r / k->H);
}

/* grad_i W(|r_i - r_j|): rij = r_i - r_j, r = |rij|. Zero for r = 0. */
static inline vbc_vec vbc_sph_gradW(const vbc_sph_kernel *k, vbc_vec rij, double r) {
  if (r <= 0.0) return vbc_vec_zero();
  return vbc_vec_scale(rij, vbc_sph_dW(k, r) / r);
}

/* W and dW/dr of the cubic spline at q = r / H (any q >= 0), the values of vbc_sph_W_q and
 * vbc_sph_dW_q by the same operations, with both sides of q = 1/2 computed and one selected: no
 * branch to mispredict where the nearest neighbours of a lattice sit at q close to 1/2. */
static inline void vbc_sph_cubic_W_dW_q(const vbc_sph_kernel *k, double q, double *w,
                                        double *dw) {
  const double t = 1.0 - q, s = k->sigma_over_H;
  const double w_in = k->sigma * (6.0 * q * q * q - 6.0 * q * q + 1.0);
  const double w_out = k->sigma * 2.0 * t * t * t;
  const double dw_in = s * (18.0 * q * q - 12.0 * q), dw_out = -6.0 * s * t * t;
  const int inner = q <= 0.5, inside = q < 1.0;
  *w = inside ? (inner ? w_in : w_out) : 0.0;
  *dw = inside ? (inner ? dw_in : dw_out) : 0.0;
}

/* grad W and, in *w, W of one pair from one q = r / H (given): the values of vbc_sph_gradW and
 * vbc_sph_W. */
static inline vbc_vec vbc_sph_W_gradW_q(const vbc_sph_kernel *k, vbc_vec rij, double r, double q,
                                        double *w) {
  *w = vbc_sph_W_q(k, q);
  if (r <= 0.0) return vbc_vec_zero();
  return vbc_vec_scale(rij, vbc_sph_dW_q(k, q) / r);
}
/* sum_j weight W(|x_j|) over the ideal lattice of spacing l in k->dim dimensions, the origin
 * included: what a particle inside the lattice sums (SPH volumes and densities calibrated on the
 * lattice, as MPS takes n0 from it). */
double vbc_sph_lattice_sum(const vbc_sph_kernel *k, double l, double weight);
/* The volume V = l^d / S, S the lattice sum of l^d W, so that a particle inside the ideal lattice
 * has rho = rho0 exactly, as MPS takes n0 from the same lattice (Miyamoto eq. 6). With V = l^d
 * the lattice density is rho0 S (S = 1.0009 in 2D at H = 2 l for the cubic spline), and IISPH's
 * full one-step correction of that offset makes a tank of water at rest expand by 0.09 % in its
 * first step: 0.3 m/s at the edges of a 0.6 m column. */
double vbc_sph_lattice_volume(const vbc_sph_kernel *k, double l);
/* M = -sum_j V x_j^2 W'(r_j) / r_j over the ideal lattice of spacing l with volumes V (the same
 * along every axis by its symmetry): sum_j V p_j grad W_ij of p = G x at a lattice point is G M
 * in x, so grad W / M makes the SPH gradient of a linear field exact there. */
double vbc_sph_lattice_gradient_moment(const vbc_sph_kernel *k, double l, double V);

#ifdef __cplusplus
}
#endif

#endif
