/* main.c — the vbc executable.
 *
 * OpenMP threads that spin while waiting made 2-thread runs several times slower than 1 thread on
 * shared 2-core machines (docs/notes/bench-journal.md). libgomp reads OMP_WAIT_POLICY when it loads, before
 * main, so when the user has not chosen a policy vbc sets "passive" and re-executes itself once.
 *
 * With OMP_PROC_BIND (or OMP_PLACES) set, libgomp has by then also bound this thread to the
 * first place, and exec keeps that mask: the re-executed vbc saw one CPU and ran every thread on
 * it (the 3D peer dam break on 2 threads as slow as on 1: 3.1 s against 1.9 s). So before exec
 * the thread gets back the CPUs of all places: the mask libgomp built its places from, or the
 * CPUs the user's OMP_PLACES names. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim/affinity.h"
#include "cli/cli.h"

static void unbind_before_exec(void) {
  static int cpu[CPU_SETSIZE];
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int place = 0; place < vbc_bound_places(); ++place) {
    const int n = vbc_place_cpus(place, cpu, CPU_SETSIZE);
    for (int k = 0; k < n; ++k) CPU_SET(cpu[k], &cpus);
  }
  if (CPU_COUNT(&cpus) > 0) sched_setaffinity(0, sizeof cpus, &cpus); /* as bound, if refused */
}

int main(int argc, char **argv) {
  if (getenv("OMP_WAIT_POLICY") == NULL && setenv("OMP_WAIT_POLICY", "passive", 1) == 0) {
    unbind_before_exec();
    execv("/proc/self/exe", argv);
    /* exec unavailable: carry on with the default policy */
  }
  return vbc_main(argc, argv);
}
