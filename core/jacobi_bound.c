/* jacobi_bound.c — see jacobi_bound.h. */
#include <math.h>
#include <stdlib.h>

#include "core/jacobi_bound.h"

typedef struct offset {
  double k[3]; /* lattice offset in units of l */
  double gx[3]; /* g(r) e along each axis */
} offset;

/* The lattice offsets within reach, with g(r) e; returns their count, *den = sum g^2. */
static size_t offsets(int dim, double l, double reach, double (*grad)(double, const void *),
                      const void *ctx, offset *out, double *den) {
  const int K = (int)ceil(reach / l);
  size_t n = 0;
  *den = 0.0;
  for (int a = -K; a <= K; ++a)
    for (int b = -K; b <= K; ++b)
      for (int c = dim == 3 ? -K : 0; c <= (dim == 3 ? K : 0); ++c) {
        const double r = l * sqrt((double)(a * a + b * b + c * c));
        if (r == 0.0 || r >= reach) continue;
        const double g = grad(r, ctx);
        if (g == 0.0) continue;
        const double k[3] = {a, b, c};
        for (int d = 0; d < 3; ++d) out[n].k[d] = k[d], out[n].gx[d] = g * k[d] * l / r;
        *den += g * g;
        ++n;
      }
  return n;
}

double vbc_jacobi_lattice_lambda_max(int dim, double l, double reach,
                                     double (*grad)(double r, const void *ctx), const void *ctx,
                                     int n) {
  const int K = (int)ceil(reach / l);
  const size_t cap = (size_t)(2 * K + 1) * (size_t)(2 * K + 1) * (dim == 3 ? (size_t)(2 * K + 1) : 1);
  offset *o = malloc(cap * sizeof *o);
  if (o == NULL) return NAN;
  double den;
  const size_t m = offsets(dim, l, reach, grad, ctx, o, &den);
  if (n <= 1) n = dim == 3 ? 25 : 65;
  const int nz = dim == 3 ? n : 1;
  const double step = M_PI / (n - 1);
  double best = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int q = 0; q < nz; ++q) {
        const double t[3] = {i * step, j * step, dim == 3 ? q * step : 0.0};
        double v[3] = {0.0, 0.0, 0.0};
        for (size_t p = 0; p < m; ++p) {
          const double s = sin(t[0] * o[p].k[0] + t[1] * o[p].k[1] + t[2] * o[p].k[2]);
          for (int d = 0; d < 3; ++d) v[d] += s * o[p].gx[d];
        }
        best = fmax(best, (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / den);
      }
  free(o);
  return m ? best : 0.0;
}
