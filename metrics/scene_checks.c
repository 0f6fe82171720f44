/* bench_gravity.c — the scene checks several benchmarks share (metrics/metrics.h). */
#include "metrics/metrics.h"
#include "app/scene.h"

int vbc_benchmark_gravity_down(const vbc_scene *sc, const char *name, vbc_error *err) {
  const vbc_vec g = sc->gravity;
  if (g.x != 0.0 || g.z != 0.0 || g.y >= 0.0)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: gravity: expected gravity along -y for the %s benchmark, got "
                         "(%g, %g, %g)", sc->file, name, g.x, g.y, g.z);
  return VBC_OK;
}
