/* test_kernel.c — weighting functions: values, derivatives, normalisation. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/kernel.h"

Test(mps_weight, values_follow_eq3) {
  const double re = 2.1;
  cr_assert_float_eq(vbc_mps_w(0.0, re), 1.0, 1e-15);
  cr_assert_float_eq(vbc_mps_w(1.05, re), 0.25, 1e-15);
  cr_assert_eq(vbc_mps_w(re, re), 0.0);
  cr_assert_eq(vbc_mps_w(3.0, re), 0.0);
}

Test(mps_weight, derivative_matches_finite_difference_and_is_continuous_at_re) {
  const double re = 2.5, h = 1e-6;
  for (double r = 0.1; r < re - 1e-3; r += 0.1) {
    double fd = (vbc_mps_w(r + h, re) - vbc_mps_w(r - h, re)) / (2 * h);
    cr_assert_float_eq(vbc_mps_dw(r, re), fd, 1e-8, "r = %g", r);
  }
  cr_assert_float_eq(vbc_mps_dw(re - 1e-12, re), 0.0, 1e-11);
  cr_assert_eq(vbc_mps_dw(re, re), 0.0);
}

Test(smoothing_weight, follows_eq43) {
  cr_assert_float_eq(vbc_smooth_w(0.0, 2.0), 64.0, 1e-12);
  cr_assert_float_eq(vbc_smooth_w(1.0, 2.0), 27.0, 1e-12);
  cr_assert_eq(vbc_smooth_w(2.0, 2.0), 0.0);
}

/* Integral of W over the plane / space by the radial rule: 2 pi r dr (2D), 4 pi r^2 dr (3D). */
static double radial_integral(double H, int dim) {
  const int n = 200000;
  double dr = H / n, sum = 0.0;
  for (int k = 0; k < n; ++k) {
    double r = (k + 0.5) * dr;
    double shell = dim == 2 ? 2.0 * M_PI * r : 4.0 * M_PI * r * r;
    sum += vbc_sph_W(r, H, dim) * shell * dr;
  }
  return sum;
}

Test(sph_kernel, is_normalised_in_2d_and_3d) {
  cr_assert_float_eq(radial_integral(0.37, 2), 1.0, 1e-8);
  cr_assert_float_eq(radial_integral(0.37, 3), 1.0, 1e-8);
}

Test(sph_kernel, gradient_matches_finite_difference) {
  const double H = 1.3, h = 1e-7;
  for (int dim = 2; dim <= 3; ++dim)
    for (double r = 0.05; r < H; r += 0.05) {
      double fd = (vbc_sph_W(r + h, H, dim) - vbc_sph_W(r - h, H, dim)) / (2 * h);
      cr_assert_float_eq(vbc_sph_dW(r, H, dim), fd, 1e-5 * fabs(fd) + 1e-9, "dim %d r %g", dim, r);
    }
  vbc_vec rij = vbc_vec_make(0.3, -0.4, 0.0);
  vbc_vec g = vbc_sph_gradW(rij, 0.5, H, 2);
  cr_assert_float_eq(g.x, vbc_sph_dW(0.5, H, 2) * 0.6, 1e-14);
  cr_assert_float_eq(g.y, vbc_sph_dW(0.5, H, 2) * -0.8, 1e-14);
  cr_assert_eq(vbc_sph_W(H, H, 3), 0.0);
  cr_assert_eq(vbc_sph_dW(H, H, 3), 0.0);
}
