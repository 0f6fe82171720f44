/* test_lattice.c — n0 and C (Miyamoto eq. 4, 6) on the ideal lattice: C makes the gradient model
 * (eq. 5) exact for linear fields; particle generation follows the lattice. */
#include <criterion/criterion.h>
#include <math.h>

#include "scene/generate.h"
#include "core/kernel.h"
#include "core/lattice.h"

Test(lattice, n0_counts_the_twelve_2d_neighbours_within_2_1_l) {
  const double l = 0.02, re = 2.1 * l;
  vbc_mps_constants k = vbc_mps_lattice_constants(2, l, re);
  double expect = 4 * vbc_mps_w(l, re) + 4 * vbc_mps_w(sqrt(2.0) * l, re) + 4 * vbc_mps_w(2 * l, re);
  cr_assert_eq(k.neighbours, 12);
  cr_assert_float_eq(k.n0, expect, 1e-14);
  cr_assert_lt(k.C, 0.0, "w' < 0 makes C negative");
}

/* Gradient model of eq. 5 at the origin of the lattice for phi(x) = g . x. */
static vbc_vec gradient_of_linear_field(int dim, double l, double re, vbc_vec g, double C) {
  long K = (long)ceil(re / l) + 1, kz = dim == 3 ? K : 0;
  vbc_vec grad = vbc_vec_zero();
  double phi_i = 0.0;
  for (long z = -kz; z <= kz; ++z)
    for (long y = -K; y <= K; ++y)
      for (long x = -K; x <= K; ++x) {
        vbc_vec r = vbc_vec_make(x * l, y * l, z * l);
        double d = vbc_vec_norm(r);
        if (d == 0.0 || d >= re) continue;
        double phi_j = vbc_vec_dot(g, r);
        grad = vbc_vec_axpy(grad, C * (phi_i + phi_j) * vbc_mps_dw(d, re) / d, r);
      }
  return grad;
}

Test(lattice, C_reproduces_the_exact_gradient_of_linear_fields_in_2d_and_3d) {
  const double ratios[] = {2.1, 2.5, 3.1};
  for (int dim = 2; dim <= 3; ++dim)
    for (size_t r = 0; r < 3; ++r) {
      const double l = 0.01, re = ratios[r] * l;
      vbc_mps_constants k = vbc_mps_lattice_constants(dim, l, re);
      vbc_vec g = vbc_vec_make(3.0, -7.0, dim == 3 ? 2.5 : 0.0);
      vbc_vec got = gradient_of_linear_field(dim, l, re, g, k.C);
      cr_assert_float_eq(got.x, g.x, 1e-12, "dim %d re/l %g", dim, ratios[r]);
      cr_assert_float_eq(got.y, g.y, 1e-12, "dim %d re/l %g", dim, ratios[r]);
      cr_assert_float_eq(got.z, g.z, 1e-12, "dim %d re/l %g", dim, ratios[r]);
    }
}

Test(lattice, laplacian_constant_is_the_weighted_mean_square_distance) {
  const double l = 1.0, re = 2.1;
  vbc_mps_constants k = vbc_mps_lattice_constants(2, l, re);
  double num = 4 * 1.0 * vbc_mps_w(1.0, re) + 4 * 2.0 * vbc_mps_w(sqrt(2.0), re) +
               4 * 4.0 * vbc_mps_w(2.0, re);
  cr_assert_float_eq(k.lambda, num / k.n0, 1e-14);
}

Test(generate, fluid_box_and_tank_share_one_lattice) {
  vbc_particles p = {0};
  vbc_error err = {0};
  const double l = 0.1;
  vbc_vec lo = vbc_vec_make(0, 0, 0), hi = vbc_vec_make(1.0, 0.5, 0);
  cr_assert_eq(vbc_generate_fluid_box(&p, 2, l, lo, hi, vbc_vec_zero(), 0.0, &err), VBC_OK);
  cr_assert_eq(p.n, 50u);
  cr_assert_float_eq(p.pos[0].x, 0.05, 1e-15);
  cr_assert_float_eq(p.pos[49].y, 0.45, 1e-15);
  size_t fluid = p.n;
  cr_assert_eq(vbc_generate_tank(&p, 2, l, lo, vbc_vec_make(1.0, 0.7, 0), 3, 0, &err), VBC_OK);
  /* 3 layers below 10 + 2*3 columns, 3 layers beside each of 7 rows */
  cr_assert_eq(p.n - fluid, 3u * 16u + 2u * 3u * 7u);
  for (size_t i = fluid; i < p.n; ++i) {
    cr_assert_eq(p.kind[i], VBC_WALL);
    for (size_t j = 0; j < fluid; ++j)
      cr_assert_geq(vbc_vec_norm(vbc_vec_sub(p.pos[i], p.pos[j])), l - 1e-12);
  }
  vbc_particles_free(&p);
}

Test(generate, disk_carries_the_strain_field) {
  vbc_particles p = {0};
  vbc_error err = {0};
  vbc_vec c = vbc_vec_make(1.0, 2.0, 0.0);
  cr_assert_eq(vbc_generate_fluid_ball(&p, 2, 0.01, c, 0.5, vbc_vec_zero(), 2.0, &err), VBC_OK);
  cr_assert_float_eq((double)p.n * 1e-4, M_PI * 0.25, 0.01, "area of the lattice disk");
  for (size_t i = 0; i < p.n; ++i) {
    cr_assert_lt(vbc_vec_norm(vbc_vec_sub(p.pos[i], c)), 0.5);
    cr_assert_float_eq(p.vel[i].x, 2.0 * (p.pos[i].x - c.x), 1e-12);
    cr_assert_float_eq(p.vel[i].y, -2.0 * (p.pos[i].y - c.y), 1e-12);
  }
  vbc_particles_free(&p);
}
