/* scene.c — fuzz harness: a scene file through loading, validation and set-up (particle
 * generation, overlap checks, bodies, the coupler's blocks and solvers: vbc validate). The
 * particle limit is lowered to 20 000 so that an input may not spend the fuzzer's time and
 * memory on a legitimately large scene. Seeds: experiments/scenes and fuzz/corpus/scene. */
#include "sim/run.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_quiet();
  const char *path = fuzz_write("scene.json", data, size);
  vbc_scene scene;
  vbc_error err = {0};
  if (vbc_scene_load_within(&scene, path, NULL, 0, fuzz_registry(), 20000, &err) == VBC_OK) {
    vbc_check(&scene, &err);
  }
  fuzz_note("scene", &err);
  vbc_scene_free(&scene);
  return 0;
}
