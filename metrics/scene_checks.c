/* scene_checks.c — the scene checks several benchmarks share (metrics/metrics.h). */
#include "metrics/metrics.h"
#include "scene/scene.h"
#include "sim/sim.h"

int vbc_benchmark_gravity_down(const vbc_scene *sc, const char *name, vbc_error *err) {
  const vbc_vec g = sc->gravity;
  if (g.x != 0.0 || g.z != 0.0 || g.y >= 0.0)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: gravity: expected gravity along -y for the %s benchmark, got "
                         "(%g, %g, %g)", sc->file, name, g.x, g.y, g.z);
  return VBC_OK;
}

long vbc_benchmark_body(const struct vbc_sim *sim, long b, int motion, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  if (b < (long)sc->nbodies && (motion < 0 || (int)sim->bodies[b].motion == motion)) return b;
  const char *word = motion == VBC_MOTION_FREE     ? "free "
                     : motion == VBC_MOTION_PINNED ? "pinned "
                                                   : "";
  vbc_error_set(err, VBC_EXIT_INPUT, "%s: benchmark.body: expected the index of a %sbody "
                "(bodies has %zu entries), got %ld", sc->file, word, sc->nbodies, b);
  return -1;
}
