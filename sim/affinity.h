/* affinity.h — the CPUs of OpenMP's places, where vbc hands CPUs on to a process it starts: its
 * own re-exec for passive waiting (cli/main.c) and the runner's cases side by side
 * (experiments/runner/sweep_spawn.c). */
#ifndef VBC_AFFINITY_H
#define VBC_AFFINITY_H

#ifdef __cplusplus
extern "C" {
#endif

/* How many OpenMP places this process has when its threads are bound (OMP_PROC_BIND, or
 * OMP_PLACES alone, which binds them); 0 when they are not. */
int vbc_bound_places(void);

/* The CPUs of place `place` (0 <= place < vbc_bound_places()) into cpu, room for `most`; returns
 * their number, or 0 when there are more than `most` or one lies outside what an affinity mask
 * holds. */
int vbc_place_cpus(int place, int *cpu, int most);

#ifdef __cplusplus
}
#endif

#endif
