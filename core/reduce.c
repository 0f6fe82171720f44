/* reduce.c — see reduce.h. */
#include <stdlib.h>

#include "core/reduce.h"

enum { CHUNK = 4096 };

static double array_chunk(void *ctx, size_t begin, size_t end) {
  const double *x = ctx;
  double s = 0.0;
  for (size_t i = begin; i < end; ++i) s += x[i];
  return s;
}

double vbc_sum_pass(size_t n, vbc_chunk_pass f, void *ctx) {
  size_t nchunks = (n + CHUNK - 1) / CHUNK;
  double stack[256];
  double *part = nchunks <= 256 ? stack : malloc(nchunks * sizeof *part);
  double total = 0.0;
  if (part == NULL) { /* no memory for partial sums: same chunk order, serially */
    for (size_t c = 0; c < nchunks; ++c)
      total += f(ctx, c * CHUNK, (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n);
    return total;
  }
#pragma omp parallel for schedule(static) if (nchunks > 1)
  for (size_t c = 0; c < nchunks; ++c)
    part[c] = f(ctx, c * CHUNK, (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n);
  for (size_t c = 0; c < nchunks; ++c) total += part[c];
  if (part != stack) free(part);
  return total;
}

double vbc_sum(const double *x, size_t n) { return vbc_sum_pass(n, array_chunk, (void *)x); }
