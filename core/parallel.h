/* parallel.h — when a loop is worth an OpenMP team.
 *
 * Starting a parallel region costs microseconds (far more with OMP_WAIT_POLICY=passive, which
 * wakes sleeping threads through the kernel), while a pass over a thousand particles takes a few
 * microseconds. Loops therefore go parallel only above VBC_PARALLEL_MIN items; results never
 * depend on that choice.
 *
 * Passes over neighbour lists use schedule(guided, 4), not static: their items cost unequal
 * amounts (a wall row next to the fluid, a particle at the free surface), and with passive waiting
 * the second thread often starts tens of microseconds late; a static half would hold the pass up
 * until it is done, where guided hands the late thread's share to the one already running. Each
 * item writes only its own outputs, so the schedule does not change a bit of the result. On the
 * 3D peer dam break (bench/README.md) this took 2 threads from 1.31x to 1.53x of 1 thread. */
#ifndef VBC_PARALLEL_H
#define VBC_PARALLEL_H

#define VBC_PARALLEL_MIN 4096

/* The same for loops that do a few flops per item (a clamp, a term of a sum): at 1-3 ns an item,
 * a team's wake-up (18-23 us with passive waiting on this project's 2-core machines) costs more
 * than it saves below this many. */
#define VBC_PARALLEL_MIN_LIGHT 16384

#endif
