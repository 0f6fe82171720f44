/* reduce.c — see reduce.h. */
#include <stdlib.h>

#include "core/reduce.h"

enum { CHUNK = 4096 };

static double chunk_sum(const double *x, size_t n, size_t c) {
  size_t end = (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n;
  double s = 0.0;
  for (size_t i = c * CHUNK; i < end; ++i) s += x[i];
  return s;
}

double vbc_sum(const double *x, size_t n) {
  size_t nchunks = (n + CHUNK - 1) / CHUNK;
  double stack[256];
  double *part = nchunks <= 256 ? stack : malloc(nchunks * sizeof *part);
  double total = 0.0;
  if (part == NULL) { /* no memory for partial sums: same chunk order, serially */
    for (size_t c = 0; c < nchunks; ++c) total += chunk_sum(x, n, c);
    return total;
  }
#pragma omp parallel for schedule(static) if (nchunks > 1)
  for (size_t c = 0; c < nchunks; ++c) part[c] = chunk_sum(x, n, c);
  for (size_t c = 0; c < nchunks; ++c) total += part[c];
  if (part != stack) free(part);
  return total;
}
