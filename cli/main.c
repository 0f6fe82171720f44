/* main.c — the vbc executable.
 *
 * OpenMP threads that spin while waiting made 2-thread runs several times slower than 1 thread on
 * shared 2-core machines (DESIGN.md §6). libgomp reads OMP_WAIT_POLICY when it loads, before
 * main, so when the user has not chosen a policy vbc sets "passive" and re-executes itself once. */
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

int main(int argc, char **argv) {
  if (getenv("OMP_WAIT_POLICY") == NULL && setenv("OMP_WAIT_POLICY", "passive", 1) == 0) {
    execv("/proc/self/exe", argv);
    /* exec unavailable: carry on with the default policy */
  }
  return vbc_main(argc, argv);
}
