/* affinity.c — see affinity.h. */
#define _GNU_SOURCE
#include <sched.h>

#include <omp.h>

#include "sim/affinity.h"

int vbc_bound_places(void) {
  return omp_get_proc_bind() == omp_proc_bind_false ? 0 : omp_get_num_places();
}

int vbc_place_cpus(int place, int *cpu, int most) {
  const int n = omp_get_place_num_procs(place);
  if (n < 1 || n > most) return 0;
  omp_get_place_proc_ids(place, cpu);
  for (int k = 0; k < n; ++k)
    if (cpu[k] < 0 || cpu[k] >= CPU_SETSIZE) return 0;
  return n;
}
