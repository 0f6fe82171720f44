/* staggered_pd_load.c — the body's load from p^d through He et al. 2012's generalised pressure
 * force (eq. 23, §5.1; Alg. 1 line 5: "update solid velocities" with F^density), computed from the
 * pre-pass's p^d on the fluid particles:
 *
 *     F_i = -Σ_j V_i V_j c (p_i^d + p_j^d) ∇_i W_ij      over the fluid neighbours j of solid i,
 *
 * V the lattice volume of a fluid particle (vbc_sph_lattice_volume) and ∇W calibrated on the
 * lattice as the sph_density block does (1/M, vbc_sph_lattice_gradient_moment), so that the
 * fluid's p^d and this force share one scale.
 *
 * Choices the paper leaves open (docs/staggered.md, "The body's weight through p^d"):
 * - c: eq. 23 as printed is Müller et al. 2003's (p_i + p_j)/2 form (c = ½), which transmits half
 *   of a pressure gradient; the pre-pass substitute holds the fluid with Monaghan's full symmetric
 *   gradient, p^d ≈ ρ0 g depth, so `full` (c = 1, the default) is the form consistent with it and
 *   `muller` the printed one;
 * - p^d on a solid particle: `mirrored` (the default: the Shepard average Σ W p_j / Σ W over its
 *   fluid neighbours, the pressure of the fluid next to it), `zero`;
 * - the direction: eq. 23 takes the derivative along n^d = n_i^s for a solid particle (eq. 20),
 *   which for a fluid particle beside a flat face is the gradient's own direction; vbc keeps the
 *   whole gradient, as the pre-pass does for the fluid.
 * With `mirrored` and `full`, a flat face of area A under fluid at pressure p takes p A on the
 * ideal lattice (Σ_{i solid} Σ_{j fluid} V_i V_j ∇_i W_ij = ½ A n). */
#include <math.h>

#include "core/body.h"
#include "core/grid.h"
#include "core/kernel.h"
#include "couplers/staggered_pd_load.h"

/* p^d of solid particle i: the Shepard average of its fluid neighbours' (mirrored) or 0. */
static double solid_pressure(const vbc_system *sys, const double *pd, size_t i, int mirrored) {
  if (!mirrored) return 0.0;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  double sw = 0.0, swp = 0.0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    if (p->kind[j] != VBC_FLUID || nb->dist[q] >= sys->sph.H) continue;
    const double w = vbc_sph_W(&sys->sph, nb->dist[q]);
    sw += w, swp += w * pd[j];
  }
  return sw > 0.0 ? swp / sw : 0.0;
}

void vbc_staggered_pd_impulses(const vbc_system *sys, const double *pd, int mirrored, int muller,
                               vbc_vec *impulse) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double V = vbc_sph_lattice_volume(&sys->sph, sys->spacing);
  const double scale = 1.0 / vbc_sph_lattice_gradient_moment(&sys->sph, sys->spacing, V);
  const double c = (muller ? 0.5 : 1.0) * V * V * scale * sys->dt;
  for (size_t i = 0; i < p->n; ++i) {
    impulse[i] = vbc_vec_zero();
    if (p->kind[i] != VBC_RIGID) continue;
    const double pi = solid_pressure(sys, pd, i, mirrored);
    vbc_vec f = vbc_vec_zero();
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      const double r = nb->dist[q];
      if (p->kind[j] != VBC_FLUID || r >= sys->sph.H || r <= 0.0) continue;
      const vbc_vec grad =
          vbc_vec_scale(vbc_vec_sub(p->pos[i], p->pos[j]), vbc_sph_dW(&sys->sph, r) / r);
      f = vbc_vec_axpy(f, -(pi + pd[j]), grad);
    }
    impulse[i] = vbc_vec_scale(f, c);
  }
}

void vbc_staggered_pd_push(vbc_system *sys, const vbc_vec *impulse) {
  const vbc_particles *p = sys->particles;
  for (size_t k = 0; k < sys->nbodies; ++k) {
    vbc_body *b = &sys->bodies[k];
    const int movable = vbc_body_movable(b);
    for (size_t i = b->first; i < b->first + b->count; ++i) {
      if (sys->fluid_impulse)
        sys->fluid_impulse[k] = vbc_vec_add(sys->fluid_impulse[k], impulse[i]);
      if (movable) vbc_body_push(b, p->pos[i], impulse[i]);
    }
  }
}
