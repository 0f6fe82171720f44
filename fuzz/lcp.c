/* lcp.c — fuzz harness: an .lcp file (docs/lcp.md) read and solved by `vbc lcp FILE` with each
 * solver, the iterations and pivots capped so that an input cannot stall the fuzzer.
 * Seeds: fuzz/corpus/lcp. */
#include "cli/cli.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_quiet();
  const char *path = fuzz_write("problem.lcp", data, size);
  static const char *const solvers[] = {"lemke", "pgs", "jacobi"};
  for (int k = 0; k < 3; ++k) {
    char *argv[] = {"vbc", "lcp", (char *)path, "--solver", (char *)solvers[k],
                    k ? "--max-iterations" : "--max-pivots", "200", NULL};
    vbc_lcp_main(7, argv, fuzz_registry());
  }
  return 0;
}
