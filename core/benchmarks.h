/* benchmarks.h — the benchmark metric modules (selected by `benchmark.type`). */
#ifndef VBC_BENCHMARKS_H
#define VBC_BENCHMARKS_H

#include "core/benchmark.h"
#include "core/scene.h"

extern const vbc_benchmark_type vbc_benchmark_hydrostatic;    /* Miyamoto §5.2 */
extern const vbc_benchmark_type vbc_benchmark_circular_patch; /* Miyamoto §5.4 */
extern const vbc_benchmark_type vbc_benchmark_bodies;         /* Miyamoto §5.1, §5.7 */
extern const vbc_benchmark_type vbc_benchmark_buoyancy;       /* Miyamoto §5.5 */
extern const vbc_benchmark_type vbc_benchmark_seesaw;         /* Miyamoto §5.6 */
extern const vbc_benchmark_type vbc_benchmark_dam_break;      /* Koshizuka & Oka 1996 */

/* Benchmarks that measure depths and surfaces along y need gravity along -y: VBC_OK, or exit 2
 * "FILE: gravity: expected gravity along -y for the NAME benchmark, got (x, y, z)". */
int vbc_benchmark_gravity_down(const vbc_scene *sc, const char *name, vbc_error *err);

#endif
