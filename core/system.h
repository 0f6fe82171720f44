/* system.h — what every constraint block may read or change during one step: the particles and
 * rigid bodies, their generalized velocities and inverse masses (core/constraint.h is the seam
 * built on it).
 *
 * Generalized velocities. A fluid particle is a point body: its velocity vel[i], inverse mass
 * 1/(rho l^d). A wall particle has infinite mass and the velocity stored in vel[i] (zero). A rigid
 * particle has no degrees of freedom of its own: its velocity is its body's v + w x (x_i - x_B)
 * and impulses on it act on the body (core/body.h); vbc_system_velocity reads either kind.
 * A weak coupler may hand a body's particles to the fluid solve as fluid-kind particles with
 * inverse masses of its own (vbc_system.inv_mass_override, couplers/pms.c).
 * Sparse Jacobians index degree of freedom dim * particle + axis for particles, then for body b
 * the dim linear and nrot angular components (nrot = 1 in 2D: w_z; 3 in 3D) starting at
 * vbc_system_body_dof(s, b). */
#ifndef VBC_SYSTEM_H
#define VBC_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/body.h"
#include "core/error.h"
#include "core/grid.h"
#include "core/kernel.h"
#include "core/particles.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vbc_problem;
struct vbc_solver;

/* An observer of solves (vbc_system.solve_hook): called by vbc_solve once the starting impulses
 * are applied, before the first iteration, with the problem exactly as the solver is about to
 * see it. It may read the rows (it may overwrite rows.residual, which vbc_solve recomputes) but
 * must not change impulses or velocities. A nonzero return fails the solve. */
typedef int (*vbc_solve_hook)(void *ctx, struct vbc_problem *pb, const struct vbc_solver *s,
                              vbc_error *err);

/* What every block may read or change during one step. The coupler owns it. */
typedef struct vbc_system {
  int dim;
  double dt;          /* h */
  double spacing;     /* l */
  double density;     /* rest density of the fluid rho [kg/m^d] */
  double fluid_mass;  /* rho l^d: the mass of a fluid particle (Miyamoto §4.2) */
  double re;          /* MPS effective radius r_e */
  vbc_sph_kernel sph; /* the SPH kernel and its support H (core/kernel.h) */
  vbc_particles *particles;
  const vbc_grid *grid;       /* built with cells >= every block's support */
  const vbc_neighbors *nbrs;  /* all pairs closer than r_e, at the positions of this step */
  vbc_body *bodies;           /* rigid bodies, indexed by particles->body of rigid particles */
  size_t nbodies;
  /* Per body: the fluid's impulse on it over the last step, fixed and scripted bodies too (drag
   * and lift), where the coupler records it (vbc_coupler_type.records_fluid_impulse: staggered,
   * akinci); NULL without bodies. */
  vbc_vec *fluid_impulse;
  /* NULL, or observes every solve of the step (the time loop sets it for `vbc run --dump-lcp`,
   * lcp/lcp_dump.h); couplers and blocks leave it alone. */
  vbc_solve_hook solve_hook;
  void *solve_hook_ctx;
  /* NULL, or one inverse mass per particle that replaces the default below while a weak coupler
   * solves some rigid particles as fluid (couplers/pms.c); the coupler that sets it clears it. */
  const double *inv_mass_override;
  /* NULL, or the indices of the fluid particles in increasing order (set with the simulation;
   * kinds change only inside a pms stage, which restores them). Loops that only touch fluid
   * particles visit these (vbc_fluid_count, vbc_fluid_at), so that static scheduling gives every
   * thread its share of the fluid whatever the particles' order: over all particles, with the
   * fluid first, one thread got the fluid and the other the walls to skip. */
  const uint32_t *fluid;
  size_t nfluid;
  /* NULL, or W_ij of sys->sph for every entry of the fluid particles' lists in nbrs, left by a
   * block's prepare that computed them (sph_density's) for the explicit terms after it (XSPH,
   * under a coupler that prepares its rows before them: dfsph). Valid only while nbrs->build is
   * pair_w_build: the lists, and so the positions, of the prepare that computed them. */
  const double *pair_w;
  unsigned long pair_w_build;
} vbc_system;

/* How many particles a loop over the fluid visits, and the k-th of them: the fluid list when
 * there is one, else every particle (the loop body then skips the others). */
static inline size_t vbc_fluid_count(const vbc_system *s) {
  return s->fluid ? s->nfluid : s->particles->n;
}
static inline size_t vbc_fluid_at(const vbc_system *s, size_t k) {
  return s->fluid ? (size_t)s->fluid[k] : k;
}

/* The inverse mass of particle i as a point body: 1/(rho l^d) for fluid, 0 for walls and rigid
 * particles (their body carries the mass), unless a coupler overrides it. */
static inline double vbc_system_inv_mass(const vbc_system *s, size_t particle) {
  if (s->inv_mass_override) return s->inv_mass_override[particle];
  return s->particles->kind[particle] == VBC_FLUID ? 1.0 / s->fluid_mass : 0.0;
}

/* The body of a rigid particle, NULL for fluid and wall particles. */
static inline vbc_body *vbc_system_body_of(const vbc_system *s, size_t particle) {
  return s->particles->kind[particle] == VBC_RIGID ? &s->bodies[s->particles->body[particle]]
                                                   : NULL;
}

/* The current velocity of particle i: its own (fluid, wall) or its body's at x_i (rigid). */
static inline vbc_vec vbc_system_velocity(const vbc_system *s, size_t i) {
  const vbc_body *b = vbc_system_body_of(s, i);
  return b ? vbc_body_point_velocity(b, s->particles->pos[i]) : s->particles->vel[i];
}

/* Degrees of freedom: dim per particle, then dim + nrot per body. */
static inline size_t vbc_system_nrot(const vbc_system *s) { return s->dim == 2 ? 1 : 3; }
static inline size_t vbc_system_body_dof(const vbc_system *s, size_t body) {
  return (size_t)s->dim * s->particles->n + body * ((size_t)s->dim + vbc_system_nrot(s));
}
static inline size_t vbc_system_ndofs(const vbc_system *s) {
  return vbc_system_body_dof(s, s->nbodies);
}

#ifdef __cplusplus
}
#endif

#endif
