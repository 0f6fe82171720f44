/* reduce.h — sums whose rounding does not depend on the number of threads.
 *
 * OpenMP reductions add partial sums in an order that depends on the thread count, so a stopping
 * test on such a sum can stop one iteration earlier on 2 threads than on 1. vbc sums fixed-size
 * chunks in parallel and adds the chunk sums in order: every thread count gives the same bits. */
#ifndef VBC_REDUCE_H
#define VBC_REDUCE_H

#include <stddef.h>

double vbc_sum(const double *x, size_t n);

#endif
