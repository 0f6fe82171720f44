/* number_density.c — see number_density.h. */
#include "core/kernel.h"
#include "core/number_density.h"
#include "core/parallel.h"

void vbc_number_density_of(const vbc_system *sys, unsigned kinds, double *out) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    double n = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      if (kinds & VBC_KINDS(p->kind[nb->index[q]])) n += vbc_mps_w(nb->dist[q], sys->re);
    out[i] = n;
  }
}

void vbc_number_density(const vbc_system *sys) {
  const unsigned all = VBC_KINDS(VBC_FLUID) | VBC_KINDS(VBC_RIGID) | VBC_KINDS(VBC_WALL);
  vbc_number_density_of(sys, all, sys->particles->number_density);
}
