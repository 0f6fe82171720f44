/* viscosity.c — see viscosity.h. */
#include "core/kernel.h"
#include "core/parallel.h"
#include "core/viscosity.h"

void vbc_mps_viscosity(const vbc_system *sys, const vbc_mps_constants *k, double nu,
                       double wall_factor, const vbc_vec *wall_normal, vbc_vec *acc) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double coef = nu * 2.0 * sys->dim / (k->lambda * k->n0);
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    vbc_vec a = vbc_vec_zero();
    if (p->kind[i] == VBC_FLUID)
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
        size_t j = nb->index[q];
        double w = vbc_mps_w(nb->dist[q], sys->re);
        vbc_vec du = vbc_vec_sub(p->vel[j], p->vel[i]);
        if (p->kind[j] != VBC_FLUID) {
          w *= wall_factor; /* exact for 1: no-slip unchanged */
          du = vbc_wall_relative_velocity(du, wall_normal, j);
        }
        a = vbc_vec_axpy(a, w, du);
      }
    acc[i] = vbc_vec_scale(a, coef);
  }
}
