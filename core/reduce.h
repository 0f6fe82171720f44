/* reduce.h — sums whose rounding does not depend on the number of threads.
 *
 * OpenMP reductions add partial sums in an order that depends on the thread count, so a stopping
 * test on such a sum can stop one iteration earlier on 2 threads than on 1. vbc sums fixed-size
 * chunks in parallel and adds the chunk sums in order: every thread count gives the same bits. */
#ifndef VBC_REDUCE_H
#define VBC_REDUCE_H

#include <stddef.h>

double vbc_sum(const double *x, size_t n);

/* One pass over the items [begin, end) of a chunk: computes a value per item and returns their
 * sum, added in index order from 0.0; it may also count items in *count (0 on entry). */
typedef double (*vbc_chunk_pass)(void *ctx, size_t begin, size_t end, size_t *count);

/* The sum over [0, n) of the values f computes, by vbc_sum's chunks, run in parallel and added in
 * order: the bits of writing the values to an array and calling vbc_sum on it, in one parallel
 * region instead of two (each region wakes the sleeping threads: docs/architecture.md), and
 * serially below VBC_PARALLEL_MIN_LIGHT items. With count (may be NULL), *count gets the sum of
 * the chunks' counts. f must be safe to call for different chunks at once. */
double vbc_sum_pass(size_t n, vbc_chunk_pass f, void *ctx, size_t *count);

#endif
