/* lattice.c — see lattice.h. */
#include <math.h>

#include "core/kernel.h"
#include "core/lattice.h"

vbc_mps_constants vbc_mps_lattice_constants(int dim, double spacing, double re) {
  vbc_mps_constants k = {0.0, 0.0, 0.0, 0};
  long K = (long)ceil(re / spacing) + 1;
  long kz_max = dim == 3 ? K : 0;
  double sum_grad = 0.0, sum_r2w = 0.0;
  for (long kz = -kz_max; kz <= kz_max; ++kz)
    for (long ky = -K; ky <= K; ++ky)
      for (long kx = -K; kx <= K; ++kx) {
        if (kx == 0 && ky == 0 && kz == 0) continue;
        double x = kx * spacing, y = ky * spacing, z = kz * spacing;
        double r = sqrt(x * x + y * y + z * z);
        if (r >= re) continue;
        double w = vbc_mps_w(r, re);
        k.n0 += w;
        /* eq. 6 with r_i = 0: (r_i + r_j)_x w'(r_ij) (r_ij)_x / r_ij = x_j w'(r_j) x_j / r_j */
        sum_grad += x * vbc_mps_dw(r, re) * x / r;
        sum_r2w += r * r * w;
        k.neighbours++;
      }
  k.C = 1.0 / sum_grad;
  k.lambda = sum_r2w / k.n0;
  return k;
}
