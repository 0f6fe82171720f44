/* interpolate.c — a recorded series read at any time: linear between samples. */
#include "metrics/metrics.h"

double vbc_interp_linear(const double *t, const double *v, size_t n, double s) {
  size_t lo = 1, hi = n - 1; /* the first k >= 1 with t_k >= s */
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (t[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  const double dt = t[lo] - t[lo - 1];
  return dt > 0.0 ? v[lo - 1] + (v[lo] - v[lo - 1]) * (s - t[lo - 1]) / dt : v[lo];
}
