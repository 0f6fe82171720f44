/* solid_normal.c — see solid_normal.h. One particle per iteration (a gather over its list), so
 * the result does not depend on the number of threads. */
#include "core/parallel.h"
#include "core/solid_normal.h"

void vbc_solid_normals(const vbc_system *sys, const vbc_sph_kernel *k, double cutoff,
                       vbc_vec *normal) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    vbc_vec n = vbc_vec_zero();
    if (p->kind[i] != VBC_FLUID)
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
        const size_t j = nb->index[q];
        const double d = nb->dist[q];
        if (p->kind[j] == VBC_FLUID || !(d > 0.0 && d < cutoff)) continue;
        n = vbc_vec_axpy(n, -vbc_sph_dW(k, d) / d, vbc_vec_sub(p->pos[i], p->pos[j]));
      }
    const double len = vbc_vec_norm(n);
    normal[i] = len > 0.0 ? vbc_vec_scale(n, 1.0 / len) : vbc_vec_zero();
  }
}
