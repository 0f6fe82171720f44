/* reduce.c — see reduce.h. */
#include <stdlib.h>

#include "core/parallel.h"
#include "core/reduce.h"

enum { CHUNK = 4096 };

static double array_chunk(void *ctx, size_t begin, size_t end, size_t *count) {
  (void)count;
  const double *x = ctx;
  double s = 0.0;
  for (size_t i = begin; i < end; ++i) s += x[i];
  return s;
}

/* Chunk c of n items: its sum by f, its count in *count. */
static double chunk(size_t n, size_t c, vbc_chunk_pass f, void *ctx, size_t *count) {
  *count = 0;
  return f(ctx, c * CHUNK, (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n, count);
}

double vbc_sum_pass(size_t n, vbc_chunk_pass f, void *ctx, size_t *count) {
  size_t nchunks = (n + CHUNK - 1) / CHUNK, counted = 0;
  double stack[256];
  size_t stack_counts[256];
  double *part = nchunks <= 256 ? stack : malloc(nchunks * sizeof *part);
  size_t *counts = nchunks <= 256 ? stack_counts : malloc(nchunks * sizeof *counts);
  double total = 0.0;
  if (part == NULL || counts == NULL) { /* no memory for partial sums: same order, serially */
    for (size_t c = 0; c < nchunks; ++c) {
      size_t k;
      total += chunk(n, c, f, ctx, &k);
      counted += k;
    }
  } else {
#pragma omp parallel for schedule(static) if (n >= VBC_PARALLEL_MIN_LIGHT)
    for (size_t c = 0; c < nchunks; ++c) part[c] = chunk(n, c, f, ctx, &counts[c]);
    for (size_t c = 0; c < nchunks; ++c) total += part[c], counted += counts[c];
  }
  if (part != stack) free(part);
  if (counts != stack_counts) free(counts);
  if (count) *count = counted;
  return total;
}

double vbc_sum(const double *x, size_t n) {
  return vbc_sum_pass(n, array_chunk, (void *)x, NULL);
}
