/* test_kernel.c — weighting functions: values, derivatives, normalisation, and the stability of
 * the particle lattice under pressure that decides which SPH kernel a scene at rest can use. */
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
static double radial_integral(vbc_sph_kernel_type type, double H, int dim) {
  const vbc_sph_kernel k = vbc_sph_kernel_make(type, H, dim);
  const int n = 200000;
  double dr = H / n, sum = 0.0;
  for (int i = 0; i < n; ++i) {
    double r = (i + 0.5) * dr;
    double shell = dim == 2 ? 2.0 * M_PI * r : 4.0 * M_PI * r * r;
    sum += vbc_sph_W(&k, r) * shell * dr;
  }
  return sum;
}

static const vbc_sph_kernel_type sph_types[] = {VBC_SPH_CUBIC_SPLINE, VBC_SPH_WENDLAND_C2};

Test(sph_kernel, is_normalised_in_2d_and_3d) {
  for (int t = 0; t < 2; ++t) {
    cr_assert_float_eq(radial_integral(sph_types[t], 0.37, 2), 1.0, 1e-8, "kernel %d", t);
    cr_assert_float_eq(radial_integral(sph_types[t], 0.37, 3), 1.0, 1e-8, "kernel %d", t);
  }
}

Test(sph_kernel, gradient_matches_finite_difference) {
  const double H = 1.3, h = 1e-7;
  for (int t = 0; t < 2; ++t)
    for (int dim = 2; dim <= 3; ++dim) {
      const vbc_sph_kernel k = vbc_sph_kernel_make(sph_types[t], H, dim);
      for (double r = 0.05; r < H; r += 0.05) {
        double fd = (vbc_sph_W(&k, r + h) - vbc_sph_W(&k, r - h)) / (2 * h);
        cr_assert_float_eq(vbc_sph_dW(&k, r), fd, 1e-5 * fabs(fd) + 1e-9, "kernel %d dim %d r %g",
                           t, dim, r);
      }
      cr_assert_eq(vbc_sph_W(&k, H), 0.0);
      cr_assert_eq(vbc_sph_dW(&k, H), 0.0);
    }
  const vbc_sph_kernel k = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, H, 2);
  vbc_vec g = vbc_sph_gradW(&k, vbc_vec_make(0.3, -0.4, 0.0), 0.5);
  cr_assert_float_eq(g.x, vbc_sph_dW(&k, 0.5) * 0.6, 1e-14);
  cr_assert_float_eq(g.y, vbc_sph_dW(&k, 0.5) * -0.8, 1e-14);
}

Test(sph_kernel, names_parse) {
  cr_assert_eq(vbc_sph_kernel_parse("cubic_spline"), VBC_SPH_CUBIC_SPLINE);
  cr_assert_eq(vbc_sph_kernel_parse("wendland_c2"), VBC_SPH_WENDLAND_C2);
  cr_assert_eq(vbc_sph_kernel_parse("wendland"), -1);
}

/* Linear stability of the lattice under pressure (docs/iisph.md, "Kernel and lattice"). A square
 * (simple cubic) lattice of spacing 1 under a uniform pressure P, where i feels -2 P grad_i W_ij
 * from each neighbour (the symmetric SPH pressure force with p_i = p_j, up to positive factors;
 * MPS's has the same form): a displacement field u_j = u exp(i k . x_j) feels the force S(k) u with
 * S(k) = -2 sum_j Hess W(x_j) (1 - cos k . x_j) (per unit P). The density constraint resists only
 * the part of u along its divergence, g(k) = sum_j grad W(x_j) sin(k . x_j); in the directions
 * normal to g the lattice is stable only if S is negative semi-definite there. Returns the
 * largest eigenvalue of S restricted to those directions over a grid of k in the quarter (octant)
 * of the Brillouin zone, relative to the largest |S|: > 0 means a growing mode. */
typedef struct weight_fn {
  double (*dW)(const void *ctx, double r);
  const void *ctx;
  double H;
} weight_fn;

static double sph_dw(const void *ctx, double r) { return vbc_sph_dW(ctx, r); }
static double mps_dw(const void *ctx, double r) { return vbc_mps_dw(r, *(const double *)ctx); }

static double d2w(const weight_fn *w, double r) {
  const double h = 1e-6;
  return (w->dW(w->ctx, r + h) - w->dW(w->ctx, r - h)) / (2 * h);
}

/* the largest eigenvalue of the symmetric S restricted to the plane normal to g (3D) or to the
 * line normal to g (2D); with g = 0, of S itself */
static double tangential_max(int dim, double S[3][3], const double g[3]) {
  double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  double t[2][3];
  int nt = 0;
  if (gn < 1e-12) {
    double best = -INFINITY;
    for (int a = 0; a < dim; ++a) best = fmax(best, S[a][a]); /* a lower bound, enough here */
    return best;
  }
  if (dim == 2) {
    t[0][0] = -g[1] / gn, t[0][1] = g[0] / gn, t[0][2] = 0.0, nt = 1;
  } else {
    const double u[3] = {g[0] / gn, g[1] / gn, g[2] / gn};
    const double e[3] = {fabs(u[0]) < 0.9 ? 1.0 : 0.0, fabs(u[0]) < 0.9 ? 0.0 : 1.0, 0.0};
    double a[3] = {u[1] * e[2] - u[2] * e[1], u[2] * e[0] - u[0] * e[2], u[0] * e[1] - u[1] * e[0]};
    double an = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (int c = 0; c < 3; ++c) t[0][c] = a[c] / an;
    t[1][0] = u[1] * t[0][2] - u[2] * t[0][1];
    t[1][1] = u[2] * t[0][0] - u[0] * t[0][2];
    t[1][2] = u[0] * t[0][1] - u[1] * t[0][0];
    nt = 2;
  }
  double m[2][2] = {{0}};
  for (int p = 0; p < nt; ++p)
    for (int q = 0; q < nt; ++q)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) m[p][q] += t[p][a] * S[a][b] * t[q][b];
  if (nt == 1) return m[0][0];
  const double mean = 0.5 * (m[0][0] + m[1][1]), half = 0.5 * (m[0][0] - m[1][1]);
  return mean + sqrt(half * half + m[0][1] * m[0][1]);
}

static double lattice_growth(const weight_fn *w, int dim, int N) {
  const int n = (int)ceil(w->H);
  double worst = -INFINITY, scale = 0.0;
  for (int i = 0; i <= N; ++i)
    for (int j = 0; j <= N; ++j)
      for (int l = 0; l <= (dim == 3 ? N : 0); ++l) {
        if (i + j + l == 0) continue;
        const double k[3] = {M_PI * i / N, M_PI * j / N, M_PI * l / N};
        double S[3][3] = {{0}}, g[3] = {0};
        for (int a = -n; a <= n; ++a)
          for (int b = -n; b <= n; ++b)
            for (int c = (dim == 3 ? -n : 0); c <= (dim == 3 ? n : 0); ++c) {
              const double x[3] = {a, b, c}, r = sqrt(a * a + b * b + c * c);
              if (r == 0.0 || r >= w->H) continue;
              const double d1 = w->dW(w->ctx, r), d2 = d2w(w, r);
              const double ph = k[0] * a + k[1] * b + k[2] * c, cs = 1.0 - cos(ph), sn = sin(ph);
              for (int p = 0; p < 3; ++p) {
                g[p] += d1 * x[p] / r * sn;
                for (int q = 0; q < 3; ++q) {
                  const double ee = x[p] * x[q] / (r * r);
                  S[p][q] -= 2.0 * cs * (d2 * ee + d1 / r * ((p == q) - ee));
                }
              }
            }
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) scale = fmax(scale, fabs(S[p][q]));
        worst = fmax(worst, tangential_max(dim, S, g));
      }
  return worst / scale;
}

static double sph_growth(vbc_sph_kernel_type type, double H, int dim) {
  const vbc_sph_kernel k = vbc_sph_kernel_make(type, H, dim);
  const weight_fn w = {sph_dw, &k, H};
  return lattice_growth(&w, dim, dim == 2 ? 32 : 12);
}

/* Measured in the hydrostatic tank (l = 0.02, converged PGS, akinci coupler): the cubic spline at
 * H = 2 l starts moving at 0.4 s in a column-by-column shear (kinetic energy 1e-5 -> 0.6 J in
 * 0.16 s), at 2.2 l sooner, at 1.8 l not within 1 s; Wendland C2 at 2 l not within 0.8 s. MPS's
 * weight at r_e = 2.1 l collapses after 0.12 s, at 2.5 l it does not (the tank's r_e/l). */
Test(sph_kernel, lattice_stability_under_pressure_matches_the_tank) {
  const double re21 = 2.1, re25 = 2.5;
  const weight_fn m21 = {mps_dw, &re21, re21}, m25 = {mps_dw, &re25, re25};
  for (int dim = 2; dim <= 3; ++dim) {
    const double cubic = sph_growth(VBC_SPH_CUBIC_SPLINE, 2.0, dim);
    const double wendland = sph_growth(VBC_SPH_WENDLAND_C2, 2.0, dim);
    cr_log_info("lattice growth, dim %d, H = 2 l: cubic spline %.4f, Wendland C2 %.2e", dim,
                cubic, wendland);
    cr_assert_gt(cubic, 0.01, "dim %d: the cubic spline's lattice buckles at H = 2 l", dim);
    cr_assert_lt(wendland, 1e-3, "dim %d: Wendland C2's lattice is stable at H = 2 l", dim);
  }
  cr_log_info("2D: cubic spline at 1.8 l %.2e, 2.2 l %.4f; MPS at 2.1 l %.4f, 2.5 l %.2e",
              sph_growth(VBC_SPH_CUBIC_SPLINE, 1.8, 2), sph_growth(VBC_SPH_CUBIC_SPLINE, 2.2, 2),
              lattice_growth(&m21, 2, 32), lattice_growth(&m25, 2, 32));
  cr_assert_gt(sph_growth(VBC_SPH_CUBIC_SPLINE, 2.2, 2), sph_growth(VBC_SPH_CUBIC_SPLINE, 2.0, 2));
  cr_assert_lt(sph_growth(VBC_SPH_CUBIC_SPLINE, 1.8, 2), 1e-3);
  cr_assert_gt(lattice_growth(&m21, 2, 32), 0.01);
  cr_assert_lt(lattice_growth(&m25, 2, 32), 1e-3);
}

/* The cubic spline's branch-free W and dW/dr (sph_density's prepare) are vbc_sph_W_q's and
 * vbc_sph_dW_q's bits at every q, around q = 1/2 and q = 1 too, in 2D and 3D. */
Test(sph_kernel, cubic_branch_free_form_has_the_same_bits) {
  for (int dim = 2; dim <= 3; ++dim) {
    const vbc_sph_kernel k = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, 0.1, dim);
    size_t inner = 0, outer = 0, beyond = 0;
    for (int n = 0; n <= 240000; ++n) {
      const double q = n < 200000 ? n / 160000.0 : nextafter(0.5, n % 2 ? 0.0 : 1.0) +
                                                        (n - 200000) * 1e-17;
      double w, dw;
      vbc_sph_cubic_W_dW_q(&k, q, &w, &dw);
      cr_assert(w == vbc_sph_W_q(&k, q) && signbit(w) == signbit(vbc_sph_W_q(&k, q)),
                "W at q = %.17g", q);
      cr_assert(dw == vbc_sph_dW_q(&k, q) && signbit(dw) == signbit(vbc_sph_dW_q(&k, q)),
                "dW at q = %.17g", q);
      inner += q <= 0.5, outer += q > 0.5 && q < 1.0, beyond += q >= 1.0;
    }
    cr_assert(inner > 0 && outer > 0 && beyond > 0);
  }
}
