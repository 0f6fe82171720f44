/* state.c — fuzz harness: a state or checkpoint file (sim/state_file.h, sim/checkpoint.h)
 * through the two ways a run takes one: `vbc run --from-state FILE` (read, fitted to the scene,
 * one step run) and `vbc run --resume DIR` (the checkpoint checked against the scene and
 * version, the run's state and output streams restored, the run finished). The scene is the
 * hydrostatic tank at l = 0.1 for 5 steps, PGS capped at 50 iterations, so a valid input costs
 * milliseconds.
 * Seeds: fuzz/corpus/state (a state dump and a checkpoint of that scene: scripts/fuzz.sh
 * --make-seeds writes them again). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/run.h"
#include "fuzz/fuzz.h"

/* PGS capped at 50 iterations: a fuzzed warm start would otherwise spend 5000 on every step */
static const char *const sets[] = {"spacing=0.1", "time.end=0.005", "time.output_interval=0.001",
                                   "method.fluid.max_iterations=50"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_quiet();
  static vbc_scene scene;
  static int loaded;
  vbc_error err = {0};
  if (!loaded) {
    if (vbc_scene_load(&scene, fuzz_source("experiments/scenes/hydrostatic.json"), sets, 4,
                       fuzz_registry(), &err) != VBC_OK)
      return 0;
    loaded = 1;
  }
  char run[600], resume[600];
  snprintf(run, sizeof run, "%s/run", fuzz_dir());
  snprintf(resume, sizeof resume, "%s/resume", fuzz_dir());
  mkdir(resume, 0700);
  const char *path = fuzz_write("state.vbc", data, size);
  vbc_run_options from = {.out_dir = run, .progress = VBC_PROGRESS_OFF, .from_state = path};
  vbc_run(&scene, &from, &err);
  fuzz_note("from-state", &err);
  /* a checkpoint with the streams it refers to (filler the resume cuts to its lengths: the
   * seed's are 498 and 20480 bytes) */
  static uint8_t filler[65536];
  if (filler[0] == 0) memset(filler, 'x', sizeof filler);
  fuzz_write("resume/checkpoint.vbc", data, size);
  fuzz_write("resume/series.csv.part", filler, 4096);
  fuzz_write("resume/convergence.csv.part", filler, sizeof filler);
  vbc_error_clear(&err);
  vbc_run_options res = {.out_dir = resume, .progress = VBC_PROGRESS_OFF, .resume = 1,
                         .sets = sets, .nsets = 4};
  vbc_run(&scene, &res, &err);
  fuzz_note("resume", &err);
  return 0;
}
