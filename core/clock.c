/* clock.c — see clock.h. */
#include <time.h>

#include "core/clock.h"

double vbc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time, not wall: a run's cost measured on a shared machine, where other processes stretch
 * the wall time but not (much) the CPU time the run itself needed. */
double vbc_cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
