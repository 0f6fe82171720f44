/* set.c — fuzz harness: one `--set KEY=VALUE` assignment (core/json_util.h vbc_json_set_path)
 * applied to the hydrostatic scene, then the scene's validation and set-up as `vbc validate`
 * does them. Seeds: fuzz/corpus/set (one assignment per file). */
#include <stdlib.h>

#include "sim/run.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_quiet();
  char *assignment = fuzz_string(data, size);
  const char *sets[] = {assignment};
  vbc_scene scene;
  vbc_error err = {0};
  if (vbc_scene_load_within(&scene, fuzz_source("experiments/scenes/hydrostatic.json"), sets, 1,
                            fuzz_registry(), 20000, &err) == VBC_OK) {
    vbc_check(&scene, &err);
  }
  fuzz_note("set", &err);
  vbc_scene_free(&scene);
  free(assignment);
  return 0;
}
