/* sweep_spec.c — fuzz harness: a sweep spec loaded and expanded into its cases (every case's
 * scene loaded and validated, ids, metrics and plots checked), as `vbc sweep --list` does. The
 * spec is written to DIR/sweeps/ with DIR/scenes a link to experiments/scenes, so the shipped
 * specs' relative scene paths resolve. Seeds: experiments/sweeps and fuzz/corpus/sweep_spec. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiments/runner/sweep.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_quiet();
  static int ready;
  char sweeps[600], scenes[600];
  snprintf(sweeps, sizeof sweeps, "%s/sweeps", fuzz_dir());
  snprintf(scenes, sizeof scenes, "%s/scenes", fuzz_dir());
  if (!ready) {
    mkdir(sweeps, 0700);
    if (symlink(fuzz_source("experiments/scenes"), scenes) != 0) return 0;
    ready = 1;
  }
  const char *path = fuzz_write("sweeps/spec.json", data, size);
  vbc_sweep sw;
  memset(&sw, 0, sizeof sw);
  sw.registry = fuzz_registry();
  vbc_error err = {0};
  if (vbc_sweep_spec_load(&sw.spec, path, NULL, 0, &err) == VBC_OK) {
    snprintf(sw.out, sizeof sw.out, "%s/out", fuzz_dir());
    snprintf(sw.cases_dir, sizeof sw.cases_dir, "%s/out/cases", fuzz_dir());
    vbc_sweep_expand(&sw, &err);
  }
  fuzz_note("sweep", &err);
  vbc_sweep_free(&sw);
  return 0;
}
