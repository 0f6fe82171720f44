/* agitation.c — random displacements that keep a particle packing from jamming (agitation.h). */
#include "core/agitation.h"

#include <math.h>
#include <stdint.h>

#include "core/kernel.h"
#include "core/parallel.h"

/* splitmix64's finaliser: a well-mixed 64-bit hash of (i, step, salt). */
static uint64_t mix(size_t i, long step, uint64_t salt) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
  x ^= ((uint64_t)step + salt) * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* uniform in [0, 1) from the top 53 bits */
static double unit(uint64_t x) { return (double)(x >> 11) * 0x1.0p-53; }

vbc_vec vbc_agitation_direction(int dim, size_t i, long step) {
  const double phi = 2.0 * M_PI * unit(mix(i, step, 0));
  if (dim == 2) return vbc_vec_make(cos(phi), sin(phi), 0.0);
  /* z uniform in [-1, 1] gives a uniform direction (Archimedes' hat-box theorem) */
  const double z = 2.0 * unit(mix(i, step, 0x5851F42D4C957F2Dull)) - 1.0;
  const double s = sqrt(fmax(0.0, 1.0 - z * z));
  return vbc_vec_make(s * cos(phi), s * sin(phi), z);
}

void vbc_agitation_displacements(const vbc_system *sys, double amplitude, double n0, long step,
                                 vbc_vec *out) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double re = sys->re, len = amplitude * sys->spacing;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    out[i] = vbc_vec_zero();
    if (p->kind[i] != VBC_FLUID) continue;
    double n = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const double r = vbc_vec_norm(vbc_vec_sub(p->pos[nb->index[q]], p->pos[i]));
      if (r > 0.0 && r < re) n += vbc_mps_w(r, re);
    }
    if (n >= VBC_AGITATION_SURFACE * n0)
      out[i] = vbc_vec_scale(vbc_agitation_direction(sys->dim, i, step), len);
  }
}
