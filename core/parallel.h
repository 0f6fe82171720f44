/* parallel.h — when a loop is worth an OpenMP team.
 *
 * Starting a parallel region costs microseconds (far more with OMP_WAIT_POLICY=passive, which
 * wakes sleeping threads through the kernel), while a pass over a thousand particles takes a few
 * microseconds. Loops therefore go parallel only above VBC_PARALLEL_MIN items; results never
 * depend on that choice. */
#ifndef VBC_PARALLEL_H
#define VBC_PARALLEL_H

#define VBC_PARALLEL_MIN 4096

/* The same for loops that do a few flops per item (a clamp, a term of a sum): at 1-3 ns an item,
 * a team's wake-up (18-23 us with passive waiting on this project's 2-core machines) costs more
 * than it saves below this many. */
#define VBC_PARALLEL_MIN_LIGHT 16384

#endif
