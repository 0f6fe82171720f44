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
 * 3D peer dam break (docs/notes/bench-journal.md) this took 2 threads from 1.31x to 1.53x of 1 thread. */
#ifndef VBC_PARALLEL_H
#define VBC_PARALLEL_H

#define VBC_PARALLEL_MIN 4096

/* The same for loops that do a few flops per item (a clamp, an axpy, a term of a sum): at 0.5 ns
 * an item, a team under passive waiting costs as much as it saves below this many. Measured with
 * bench/omp_overhead on a 2-core machine (docs/notes/bench-journal.md): 65 536 items take 32 us on
 * one thread and 57-70 us as a team, 131 072 items 66 us and 64-87 us (spinning threads: 7 and
 * 13 us, so a user who sets OMP_WAIT_POLICY=active gives up a few tens of microseconds per light
 * pass between 16 384 and this many items). */
#define VBC_PARALLEL_MIN_LIGHT 131072

/* Passes of a few nanoseconds an item that mostly stream memory: the state copy of sim/run.c (72
 * bytes a particle), the grid's bounding box (3 ns a particle) and its counting sort (whose two
 * barriers make a team dearer still; grid.c). Measured with farm-bench on the 2D peer dam break,
 * 2 threads (docs/notes/bench-journal.md), serial against parallel: at 13 782 particles 0.975 for the copy, 0.986
 * for the bounding box, 0.965 for the sort; at 24 120 0.977, 0.994 and 0.986. On the 3D one, at
 * 39 931 particles, the parallel copy gains 0.983 and the sort stays parallel (serial: 1.009). */
#define VBC_PARALLEL_MIN_STREAM 32768

#endif
