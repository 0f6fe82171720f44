/* akinci.c — two-way weak coupling of an SPH pressure solve with rigid bodies (Akinci, Ihmsen,
 * Akinci, Solenthaler & Teschner 2012, "Versatile rigid-fluid coupling for incompressible SPH";
 * with IISPH as the pressure solver, Ihmsen et al. 2014 and papers/ihmsen-iisph-notes.md).
 *
 * One step:
 *   1. neighbour search at r^t; explicit terms (gravity, viscosity, XSPH) give u* for the fluid
 *      and v*, w* for the bodies;
 *   2. the scene's fluid block alone is solved by the scene's solver (IISPH = sph_density +
 *      jacobi). Wall and rigid particles are boundary particles of Akinci volume Psi_k / rho0:
 *      they enter the density with their volume and the divergence with their velocity (bodies
 *      are moving walls), and they feel the pressure but are not moved by it inside the solve;
 *   3. the reaction of every boundary particle of a free or pinned body — Akinci's pressure force
 *      F_k = rho0 V_k (p_i / rho_i^2) m_i grad W_ik summed over fluid i, times h (the block's
 *      boundary_impulses) — is applied to its body at the particle's position (force and torque);
 *   4. the contacts between bodies (rigid-rigid, rigid-wall) and the pin joints are solved as
 *      their own problem, by the same solver type (same parameters): bodies meet each other
 *      through contacts, as in Akinci's rigid-body solver, after the fluid;
 *   5. r^{t+1} = r^t + h u^{t+1} for the fluid; the bodies move by eq. 44-45 of Miyamoto &
 *      Koshizuka (quaternions) and their particles follow.
 * Weak: a body's new velocity from step 3 reaches the fluid's divergence rows only in the next
 * step. There are no fluid-wall or fluid-body contact rows: with Akinci boundaries the pressure
 * alone keeps the fluid out of walls and bodies (vbc's `strong` coupler adds contact rows instead).
 * Choices the paper leaves open: the force of step 3 uses the pressure the solver stopped with
 * (not a converged one), which is what the fluid received, so momentum between fluid and bodies
 * is conserved to round-off for any stopping tolerance; only fluid blocks that report boundary
 * impulses (vbc_block_type.boundary_impulses: sph_density) can be coupled this way. */
#include <stdlib.h>

#include "app/sim.h"
#include "couplers/body_contacts.h"
#include "couplers/coupler_blocks.h"
#include "couplers/couplers.h"

enum { FLUID, BODY_CONTACT, PIN, NBLOCKS };

typedef struct akinci_state {
  vbc_block block[NBLOCKS];
  vbc_block *blocks[NBLOCKS];
  vbc_solver fluid_solver, body_solver;
  vbc_problem fluid, bodies; /* block FLUID; then BODY_CONTACT, PIN */
  vbc_vec *impulse;          /* per particle: the boundary impulse of step 3 */
  size_t cap;
} akinci_state;

static const char *const akinci_labels[1] = {"fluid"};

static void akinci_free(void *state) {
  akinci_state *s = state;
  for (int b = 0; b < NBLOCKS; ++b) vbc_block_free(&s->block[b]);
  vbc_solver_free(&s->fluid_solver);
  vbc_solver_free(&s->body_solver);
  free(s->impulse);
  free(s);
}

static void *akinci_alloc(vbc_sim *sim, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  if (sc->fluid_constraint->boundary_impulses == NULL) {
    vbc_error_set(err, VBC_EXIT_INPUT,
                  "%s: method.fluid.constraint: expected a block that reports the pressure "
                  "force on boundary particles for method.coupler \"akinci\" (\"sph_density\"), "
                  "got \"%s\"", sc->file, sc->fluid_constraint->name);
    return NULL;
  }
  akinci_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  if (vbc_block_init(&s->block[FLUID], sc->fluid_constraint, sc->fluid_params, &sim->sys,
                     "fluid", err) != VBC_OK ||
      vbc_coupler_contact_pin_init(sim, &s->block[BODY_CONTACT], "body_contact",
                                   VBC_CONTACTS_BODIES, &s->block[PIN], err) != VBC_OK ||
      vbc_solver_init(&s->fluid_solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK ||
      vbc_solver_init(&s->body_solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK ||
      (s->impulse = vbc_calloc(sim->particles.n, sizeof *s->impulse, err)) == NULL) {
    akinci_free(s);
    return NULL;
  }
  s->cap = sim->particles.n;
  vbc_coupler_link_blocks(sim, s->block, s->blocks, NBLOCKS);
  s->fluid = (vbc_problem){&sim->sys, &s->blocks[FLUID], 1};
  s->bodies = (vbc_problem){&sim->sys, &s->blocks[BODY_CONTACT], 2};
  return s;
}

/* Step 3: each free or pinned body takes the boundary impulses of its particles, in particle
 * order (deterministic). A pinned body's pin row (step 4) removes what would move its pin. */
static void push_bodies(akinci_state *s, vbc_sim *sim) {
  vbc_particles *p = &sim->particles;
  const vbc_block *fluid = &s->block[FLUID];
  for (size_t i = 0; i < p->n; ++i) s->impulse[i] = vbc_vec_zero();
  fluid->type->boundary_impulses(fluid->state, &sim->sys, &fluid->rows, s->impulse);
  for (size_t k = 0; k < sim->sys.nbodies; ++k) {
    vbc_body *b = &sim->bodies[k];
    if (b->motion != VBC_MOTION_FREE && b->motion != VBC_MOTION_PINNED) continue;
    for (size_t i = b->first; i < b->first + b->count; ++i)
      vbc_body_push(b, p->pos[i], s->impulse[i]);
  }
}

static int akinci_step(void *state, vbc_sim *sim, vbc_step_report *rep, vbc_error *err) {
  akinci_state *s = state;
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  vbc_sim_explicit(sim);
  rep->block_labels = akinci_labels;
  rep->nblocks = s->fluid.nblocks;
  if (vbc_problem_prepare(&s->fluid, err) != VBC_OK ||
      vbc_solve(&s->fluid_solver, &s->fluid, &rep->fluid, rep->trace, err) != VBC_OK)
    return err->code;
  vbc_problem_finish(&s->fluid);
  rep->solves = 1;
  push_bodies(s, sim);
  if (vbc_solve_body_contacts(&s->bodies, &s->body_solver, rep, err) != VBC_OK)
    return err->code;
  vbc_sim_advect(sim);
  return VBC_OK;
}

const vbc_coupler_type vbc_coupler_akinci = {
    .name = "akinci",
    .summary = "weak coupling of an SPH pressure solve: pressure forces on boundary particles "
               "move the bodies, then contacts between bodies (Akinci et al. 2012)",
    .alloc = akinci_alloc,
    .free = akinci_free,
    .step = akinci_step,
};
