/* benchmarks.h — the benchmark metric modules (selected by `benchmark.type`). */
#ifndef VBC_BENCHMARKS_H
#define VBC_BENCHMARKS_H

#include "core/benchmark.h"

extern const vbc_benchmark_type vbc_benchmark_hydrostatic;    /* Miyamoto §5.2 */
extern const vbc_benchmark_type vbc_benchmark_circular_patch; /* Miyamoto §5.4 */

#endif
