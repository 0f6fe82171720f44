/* pms.c — weak coupling by the passively moving solid (Koshizuka et al.; Miyamoto & Koshizuka
 * §1, §5.6 and Fig. 15), the particle form of Carlson et al.'s Rigid Fluid (§6.2-6.3).
 *
 * One step:
 *   1. neighbour search at r^t; explicit terms (gravity, viscosity) give u* for the fluid and
 *      v*, w* for the bodies; each body's v, w from before them are kept as (v0, w0);
 *   2. the particles of every free and pinned body become fluid for the fluid solve: each gets
 *      its body's point velocity and moves on its own as a point mass of its body's mass per
 *      particle, rho_B l^d (vbc_system_inv_mass) — a body lighter than water is pushed harder by
 *      the same pressure, which is how buoyancy reaches it. Fixed and scripted bodies stay rigid
 *      (walls, moving walls). The scene's fluid block and the contacts with a fluid side
 *      (fluid-wall, and fluid against fixed or scripted bodies) are solved together by the
 *      scene's solver; the block only sees which particles are fluid, so any fluid block works;
 *   3. each body gains the linear and angular momentum its particles gained relative to the
 *      rigid motion (v0, w0) — gravity and the pressure impulses (Carlson eq. 24-25, fitted to the
 *      change so that the body keeps its own inertia; a pinned body only turns about its pin):
 *      vbc_body_project;
 *   4. the contacts between bodies (rigid-rigid, rigid-wall) and the pin joints are solved
 *      afterwards as their own problem, by the same solver type with the fluid's stopping test:
 *      bodies meet each other weakly, as in Koshizuka's model;
 *   5. r^{t+1} = r^t + h u^{t+1} for the fluid; the bodies move by eq. 44-45 and their particles
 *      follow with v + w x r (eq. 26).
 * Nothing in step 2 knows about the other side of a body: a push on one face reaches the fluid
 * at the opposite face only in the next step (the seesaw of §5.6: no pressure under the bar after
 * one step, where strong coupling has some). */
#include <stdlib.h>

#include "app/sim.h"
#include "couplers/body_contacts.h"
#include "solvers/blocks/contact.h"
#include "couplers/coupler_blocks.h"
#include "couplers/couplers.h"

enum { FLUID, FLUID_CONTACT, BODY_CONTACT, PIN, NBLOCKS };

typedef struct pms_state {
  vbc_block block[NBLOCKS];
  vbc_block *blocks[NBLOCKS];
  vbc_solver fluid_solver, body_solver;
  vbc_problem fluid, bodies; /* blocks FLUID, FLUID_CONTACT; then BODY_CONTACT, PIN */
  vbc_vec *v0, *w0;          /* per body: its velocities before the explicit terms */
} pms_state;

static const char *const pms_labels[2] = {"fluid", "contact"};

static void pms_free(void *state) {
  pms_state *s = state;
  for (int b = 0; b < NBLOCKS; ++b) vbc_block_free(&s->block[b]);
  vbc_solver_free(&s->fluid_solver);
  vbc_solver_free(&s->body_solver);
  free(s->v0);
  free(s->w0);
  free(s);
}

static void *pms_alloc(vbc_sim *sim, vbc_error *err) {
  pms_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  const vbc_scene *sc = sim->scene;
  s->v0 = vbc_calloc(sim->sys.nbodies + 1, sizeof *s->v0, err);
  s->w0 = s->v0 ? vbc_calloc(sim->sys.nbodies + 1, sizeof *s->w0, err) : NULL;
  if (s->w0 == NULL ||
      vbc_block_init(&s->block[FLUID], sc->fluid_constraint, sc->fluid_params, &sim->sys,
                     "fluid", err) != VBC_OK ||
      vbc_block_init(&s->block[FLUID_CONTACT], &vbc_block_contact, sc->contact_params,
                     &sim->sys, "contact", err) != VBC_OK ||
      vbc_coupler_contact_pin_init(sim, &s->block[BODY_CONTACT], "body_contact",
                                   VBC_CONTACTS_BODIES, &s->block[PIN], err) != VBC_OK ||
      vbc_solver_init(&s->fluid_solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK ||
      vbc_solver_init(&s->body_solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK) {
    pms_free(s);
    return NULL;
  }
  vbc_contact_select(&s->block[FLUID_CONTACT], VBC_CONTACTS_FLUID);
  vbc_coupler_link_blocks(sim, s->block, s->blocks, NBLOCKS);
  s->fluid = (vbc_problem){&sim->sys, &s->blocks[FLUID], 2};
  s->bodies = (vbc_problem){&sim->sys, &s->blocks[BODY_CONTACT], 2};
  return s;
}

static int passive(const vbc_body *b) {
  return b->motion == VBC_MOTION_FREE || b->motion == VBC_MOTION_PINNED;
}

/* Step 2: the particles of free and pinned bodies become fluid with their body's velocity. */
static void bodies_to_fluid(vbc_sim *sim) {
  vbc_particles *p = &sim->particles;
  for (size_t k = 0; k < sim->sys.nbodies; ++k) {
    const vbc_body *b = &sim->bodies[k];
    if (!passive(b)) continue;
    for (size_t i = b->first; i < b->first + b->count; ++i) {
      p->vel[i] = vbc_body_point_velocity(b, p->pos[i]);
      p->kind[i] = VBC_FLUID;
    }
  }
}

/* Step 3: back to rigid particles, each body with the momentum its particles gained. */
static void fluid_to_bodies(const pms_state *s, vbc_sim *sim) {
  vbc_particles *p = &sim->particles;
  for (size_t k = 0; k < sim->sys.nbodies; ++k) {
    vbc_body *b = &sim->bodies[k];
    if (!passive(b)) continue;
    for (size_t i = b->first; i < b->first + b->count; ++i) p->kind[i] = VBC_RIGID;
    vbc_body_project(b, sim->sys.dim, p->pos, p->vel, s->v0[k], s->w0[k]);
  }
}

static int pms_step(void *state, vbc_sim *sim, vbc_step_report *rep, vbc_error *err) {
  pms_state *s = state;
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  for (size_t k = 0; k < sim->sys.nbodies; ++k) {
    s->v0[k] = sim->bodies[k].v;
    s->w0[k] = sim->bodies[k].w;
  }
  vbc_sim_explicit(sim);
  bodies_to_fluid(sim);
  rep->block_labels = pms_labels;
  rep->nblocks = s->fluid.nblocks;
  int rc = vbc_problem_prepare(&s->fluid, err);
  if (rc == VBC_OK) rc = vbc_solve(&s->fluid_solver, &s->fluid, &rep->fluid, rep->trace, err);
  if (rc == VBC_OK) vbc_problem_finish(&s->fluid);
  fluid_to_bodies(s, sim); /* also after a failure: the particles are the bodies' again */
  if (rc != VBC_OK) return rc;
  rep->solves = 1;
  if (vbc_solve_body_contacts(&s->bodies, &s->body_solver, rep, err) != VBC_OK)
    return err->code;
  vbc_sim_advect(sim);
  return VBC_OK;
}

const vbc_coupler_type vbc_coupler_pms = {
    .name = "pms",
    .summary = "weak coupling: bodies solved as fluid, projected to rigid motion, then contacts "
               "between bodies (Koshizuka's passively moving solid; Carlson eq. 24-26)",
    .alloc = pms_alloc,
    .free = pms_free,
    .step = pms_step,
};
