/* sweep_fit.c — the observed order of convergence: error ≈ c · l^order, fitted by least squares
 * on log error against log l (gsl_fit_linear), over the points where both are positive and
 * finite. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_fit.h>

#include "experiments/runner/sweep.h"

size_t vbc_fit_order(const double *x, const double *y, size_t n, double *order, double *c) {
  *order = *c = NAN;
  double *lx = malloc((n ? n : 1) * sizeof *lx), *ly = malloc((n ? n : 1) * sizeof *ly);
  size_t m = 0;
  for (size_t i = 0; lx && ly && i < n; ++i) {
    if (!(x[i] > 0.0 && y[i] > 0.0 && isfinite(x[i]) && isfinite(y[i]))) continue;
    lx[m] = log(x[i]);
    ly[m++] = log(y[i]);
  }
  if (m >= 2) {
    double c0, c1, cov00, cov01, cov11, sumsq;
    if (gsl_fit_linear(lx, 1, ly, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) == 0 &&
        isfinite(c1)) {
      *order = c1;
      *c = exp(c0);
    } else {
      m = 0;
    }
  }
  free(lx), free(ly);
  return m >= 2 ? m : 0;
}
