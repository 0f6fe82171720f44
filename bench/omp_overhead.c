/* omp_overhead.c — what one OpenMP synchronisation costs on this machine.
 *
 * vbc's passes go parallel above a size (core/parallel.h), and a step of the 3D peer dam break
 * opens about 24 thread teams; under OMP_WAIT_POLICY=passive, vbc's default (docs/architecture.md), every
 * team start and every barrier wakes a sleeping thread through the kernel. This bench measures
 * that cost directly: a light pass over n doubles (one multiply-add and a sum per item) run
 *   - serially,
 *   - as its own parallel region (static schedule, and guided, 4 on blocks of 256 items),
 *   - as a worksharing loop inside one region that stays open (a barrier instead of a region),
 * each repeated --reps times, in microseconds per pass. The policy is the environment's: run it
 * once as is and once with OMP_WAIT_POLICY=active (docs/notes/bench-journal.md, "Two threads").
 *
 *   build/omp_overhead [--reps N] [--sizes n1,n2,...]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 256 };

static double light(double *x, size_t lo, size_t hi) {
  double s = 0.0;
  for (size_t i = lo; i < hi; ++i) {
    x[i] = x[i] * 1.0000001 + 1e-9;
    s += x[i];
  }
  return s;
}

static size_t block_end(size_t c, size_t n) { return c + BLOCK < n ? c + BLOCK : n; }

/* Microseconds per pass of each form; sink keeps the passes from being optimised away. */
static void measure(size_t n, int reps, double us[4], double *sink) {
  double *x = calloc(n ? n : 1, sizeof *x), s = 0.0;
  if (x == NULL) {
    fprintf(stderr, "omp_overhead: out of memory\n");
    exit(1);
  }
  double t0 = omp_get_wtime();
  for (int r = 0; r < reps; ++r) s += light(x, 0, n);
  us[0] = (omp_get_wtime() - t0) / reps * 1e6;
  t0 = omp_get_wtime();
  for (int r = 0; r < reps; ++r) {
#pragma omp parallel for schedule(static)
    for (size_t c = 0; c < n; c += BLOCK) light(x, c, block_end(c, n));
  }
  us[1] = (omp_get_wtime() - t0) / reps * 1e6;
  t0 = omp_get_wtime();
  for (int r = 0; r < reps; ++r) {
#pragma omp parallel for schedule(guided, 4)
    for (size_t c = 0; c < n; c += BLOCK) light(x, c, block_end(c, n));
  }
  us[2] = (omp_get_wtime() - t0) / reps * 1e6;
  t0 = omp_get_wtime();
#pragma omp parallel
  for (int r = 0; r < reps; ++r) {
#pragma omp for schedule(static)
    for (size_t c = 0; c < n; c += BLOCK) light(x, c, block_end(c, n));
  }
  us[3] = (omp_get_wtime() - t0) / reps * 1e6;
  for (size_t i = 0; i < n; ++i) s += x[i];
  *sink += s;
  free(x);
}

int main(int argc, char **argv) {
  int reps = 20000;
  const char *sizes = "0,2000,20000,200000";
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--sizes") && a + 1 < argc) sizes = argv[++a];
    else {
      fprintf(stderr, "usage: omp_overhead [--reps N] [--sizes n1,n2,...]\n");
      return 2;
    }
  }
  if (reps < 1) {
    fprintf(stderr, "omp_overhead: --reps: expected a positive integer\n");
    return 2;
  }
  const char *policy = getenv("OMP_WAIT_POLICY");
  printf("threads %d, OMP_WAIT_POLICY %s, %d passes each; microseconds per pass\n",
         omp_get_max_threads(), policy ? policy : "(unset: libgomp spins, then sleeps)", reps);
  printf("%10s %10s %14s %14s %16s\n", "items", "serial", "region static", "region guided",
         "in one region");
  double sink = 0.0;
  for (const char *p = sizes; *p;) {
    char *end;
    const long long n = strtoll(p, &end, 10);
    if (end == p || n < 0) {
      fprintf(stderr, "omp_overhead: --sizes: expected non-negative integers, got \"%s\"\n", p);
      return 2;
    }
    double us[4];
    measure((size_t)n, reps, us, &sink);
    printf("%10lld %10.1f %14.1f %14.1f %16.1f\n", n, us[0], us[1], us[2], us[3]);
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') {
      fprintf(stderr, "omp_overhead: --sizes: expected a comma-separated list\n");
      return 2;
    }
  }
  volatile double kept = sink; /* the passes' results are used: nothing is optimised away */
  (void)kept;
  return 0;
}
