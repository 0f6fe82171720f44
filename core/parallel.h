/* parallel.h — when a loop is worth an OpenMP team.
 *
 * Starting a parallel region costs microseconds (far more with OMP_WAIT_POLICY=passive, which
 * wakes sleeping threads through the kernel), while a pass over a thousand particles takes a few
 * microseconds. Loops therefore go parallel only above VBC_PARALLEL_MIN items; results never
 * depend on that choice. */
#ifndef VBC_PARALLEL_H
#define VBC_PARALLEL_H

#define VBC_PARALLEL_MIN 4096

#endif
