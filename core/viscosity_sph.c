/* viscosity_sph.c — explicit SPH velocity terms; see viscosity_sph.h.
 *
 * Papers and equations.
 *   XSPH: Ihmsen et al. 2014 (IISPH), Algorithm 1 step 4 (docs/iisph.md):
 *   a_i = (alpha / dt) sum_j (m_j / rho_j) (v_j - v_i) W_ij, after
 *   Monaghan's XSPH (J. Comput. Phys. 82, 1989). As in IISPH's step 4 it is an acceleration of the
 *   non-pressure step v* = v + dt a_np (Monaghan applied it to the advection velocity only), so
 *   v* = v + alpha sum_j V_j (v_j - v_i) W_ij whatever dt is.
 *   Physical viscosity: Morris, Fox & Zhu, "Modeling low Reynolds number incompressible flows
 *   using SPH", J. Comput. Phys. 136 (1997), eq. 8, with mu = rho nu and equal densities:
 *     nu lap v_i = 2 nu sum_j V_j (x_ij . grad_i W_ij) / (|x_ij|^2 + eta^2) v_ij,  v_ij = v_i - v_j,
 *   Brookshaw's (1985) first-derivative Laplacian applied to every velocity component.
 *
 * Choices the papers leave open, and what we chose.
 *   - Morris's form rather than Monaghan's "standard" one (Monaghan 2005 eq. 4.6; SPlisHSPlasH's
 *     Viscosity_Standard), a_i = 2 (d + 2) nu sum_j V_j (v_ij . x_ij) / (|x_ij|^2 + eta^2)
 *     grad_i W_ij. Monaghan's pair force lies along x_ij and so conserves angular momentum too,
 *     but on the particle lattice at the default H = 2 l it misses nu lap v of a shear profile
 *     u_x = y^2 by 35 % in 2D and 30 % in 3D (measured: only the diagonal neighbours carry the
 *     shear there), still 9 % / 6 % at H = 3 l. Morris's form is within 2.7 % for every H in
 *     [2 l, 4 l] in 2D and 3D (tests/test_viscosity_sph.c), equals nu lap v also where div v != 0,
 *     and is the form validated on Couette and Poiseuille flow. Its cost: the pair force is along
 *     v_ij, so it conserves linear but not angular momentum.
 *   - eta = 0.1 h with the *smoothing length* h = H / 2 of the kernel (Morris's eta^2 = 0.01 h^2),
 *     i.e. eta^2 = 0.0025 H^2. It only keeps coincident particles finite; SPlisHSPlasH's
 *     0.01 H^2 is four times larger and biases the sum (at r = l, H = 4 l it takes 14 % off the
 *     nearest neighbours): measured on the lattice, u_x = y^2, 2D, H = 2 l / 3 l / 4 l:
 *     -2.0 / -3.7 / -4.8 % with 0.01 H^2, +0.5 / -0.5 / -1.3 % with ours.
 *   - Volumes V_j = l^d for every particle (fluid, wall, rigid): the rest volume rather than
 *     m_j / rho_j with the current SPH density, so that the terms do not depend on which fluid
 *     block runs (MPS computes no SPH density), as core/viscosity.c.
 *   - Boundaries in the viscosity: walls and rigid particles count with their current velocity
 *     (vbc_system_velocity: vel[] for walls, v + w x r of their body for rigid particles) and
 *     volume l^d, so walls are no-slip and moving bodies drag the fluid, like core/viscosity.c.
 *     As there, bodies feel no reaction: the viscous force on bodies is not applied.
 *   - Boundaries in XSPH: excluded, only fluid neighbours count. XSPH smooths the *fluid* velocity
 *     field towards its local mean; with walls it would add a wall friction set by alpha instead
 *     of nu. Since W_ij = W_ji and V_i = V_j, fluid pairs exchange equal and opposite
 *     accelerations: XSPH conserves the fluid's momentum.
 *   - Both are gathers over the neighbour lists (sys->nbrs, all pairs within sim->support >= H),
 *     one particle per iteration, so the results are the same for any number of threads. */
#include <math.h>

#include "core/kernel.h"
#include "core/parallel.h"
#include "core/viscosity.h"
#include "core/viscosity_sph.h"

/* W_ij of list entry q: the value a block's prepare left for these lists (sys->pair_w, the same
 * bits), else the kernel at q = r / H as listed, else at r. */
static inline double xsph_w(const vbc_sph_kernel *k, const vbc_neighbors *nb, const double *wk,
                            const double *qk, size_t q) {
  if (wk) return wk[q];
  return qk ? vbc_sph_W_q(k, qk[q]) : vbc_sph_W(k, nb->dist[q]);
}

/* One fluid particle's XSPH sum, from wk where it is given (NULL or not: a constant at each
 * call), else from the kernel. */
static inline vbc_vec xsph_sum(const vbc_system *sys, size_t i, const double *wk,
                               const double *qk) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  vbc_vec a = vbc_vec_zero();
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    size_t j = nb->index[q];
    if (p->kind[j] != VBC_FLUID) continue;
    const double w = xsph_w(&sys->sph, nb, wk, qk, q);
    a = vbc_vec_axpy(a, w, vbc_vec_sub(p->vel[j], p->vel[i]));
  }
  return a;
}

void vbc_xsph_add(const vbc_system *sys, double alpha, vbc_vec *acc) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_sph_kernel *k = &sys->sph;
  const double coef = alpha / sys->dt * pow(sys->spacing, sys->dim);
  const double *qk = nb->q_scale == k->H ? nb->q : NULL; /* r / H per pair, if listed */
  const double *wk = sys->pair_w && sys->pair_w_build == nb->build ? sys->pair_w : NULL;
  const size_t nf = vbc_fluid_count(sys);
#pragma omp parallel for schedule(guided, 4) if (nf >= VBC_PARALLEL_MIN)
  for (size_t m = 0; m < nf; ++m) {
    const size_t i = vbc_fluid_at(sys, m);
    if (p->kind[i] != VBC_FLUID) continue;
    const vbc_vec a = wk ? xsph_sum(sys, i, wk, NULL) : xsph_sum(sys, i, NULL, qk);
    acc[i] = vbc_vec_axpy(acc[i], coef, a);
  }
}

void vbc_sph_viscosity_add(const vbc_system *sys, double nu, double wall_factor,
                           const vbc_vec *wall_normal, vbc_vec *acc) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_sph_kernel *k = &sys->sph;
  const double H = k->H;
  const double eta2 = 0.0025 * H * H; /* (0.1 h)^2, h = H / 2 */
  const double coef = 2.0 * nu * pow(sys->spacing, sys->dim);
  const size_t nf = vbc_fluid_count(sys);
#pragma omp parallel for schedule(guided, 4) if (nf >= VBC_PARALLEL_MIN)
  for (size_t m = 0; m < nf; ++m) {
    const size_t i = vbc_fluid_at(sys, m);
    if (p->kind[i] != VBC_FLUID) continue;
    vbc_vec a = vbc_vec_zero();
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t j = nb->index[q];
      double r = nb->dist[q];
      /* x_ij . grad_i W_ij = r dW/dr (<= 0), so the sum pulls v_i towards its neighbours */
      double f = r * vbc_sph_dW(k, r) / (r * r + eta2);
      if (p->kind[j] == VBC_FLUID) {
        if (f != 0.0) a = vbc_vec_axpy(a, f, vbc_vec_sub(p->vel[i], vbc_system_velocity(sys, j)));
      } else {
        f *= wall_factor; /* exact for 1: no-slip unchanged */
        const vbc_vec du = vbc_vec_sub(vbc_system_velocity(sys, j), p->vel[i]);
        if (f != 0.0) a = vbc_vec_axpy(a, -f, vbc_wall_relative_velocity(du, wall_normal, j));
      }
    }
    acc[i] = vbc_vec_axpy(acc[i], coef, a);
  }
}
