/* kernel.c — SPH kernels, see kernel.h. */
#include <math.h>
#include <string.h>

#include "core/kernel.h"

vbc_sph_kernel vbc_sph_kernel_make(vbc_sph_kernel_type type, double H, int dim) {
  vbc_sph_kernel k = {.type = type, .dim = dim, .H = H};
  const double Hd = dim == 2 ? H * H : H * H * H;
  if (type == VBC_SPH_WENDLAND_C2)
    k.sigma = (dim == 2 ? 7.0 / M_PI : 21.0 / (2.0 * M_PI)) / Hd;
  else
    k.sigma = (dim == 2 ? 40.0 / (7.0 * M_PI) : 8.0 / M_PI) / Hd;
  k.sigma_over_H = k.sigma / H;
  return k;
}

int vbc_sph_kernel_parse(const char *name) {
  if (strcmp(name, "cubic_spline") == 0) return VBC_SPH_CUBIC_SPLINE;
  if (strcmp(name, "wendland_c2") == 0) return VBC_SPH_WENDLAND_C2;
  return -1;
}

double vbc_sph_lattice_sum(const vbc_sph_kernel *k, double l, double weight) {
  const int n = (int)ceil(k->H / l), dim = k->dim;
  double sum = 0.0;
  for (int a = -n; a <= n; ++a)
    for (int b = -n; b <= n; ++b)
      for (int c = (dim == 3 ? -n : 0); c <= (dim == 3 ? n : 0); ++c)
        sum += weight * vbc_sph_W(k, l * sqrt((double)(a * a + b * b + c * c)));
  return sum;
}

double vbc_sph_lattice_volume(const vbc_sph_kernel *k, double l) {
  const double cell = pow(l, k->dim);
  return cell / vbc_sph_lattice_sum(k, l, cell);
}

double vbc_sph_lattice_gradient_moment(const vbc_sph_kernel *k, double l, double V) {
  const int n = (int)ceil(k->H / l), dim = k->dim;
  double M = 0.0;
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int c = (dim == 3 ? -n : 0); c <= (dim == 3 ? n : 0); ++c) {
        const double r = l * sqrt((double)(i * i + j * j + c * c)), x = l * i;
        if (r > 0.0) M -= V * x * x * vbc_sph_dW(k, r) / r;
      }
  return M;
}
