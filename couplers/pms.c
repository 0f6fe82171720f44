/* pms.c — weak coupling by the passively moving solid (Koshizuka et al.; Miyamoto & Koshizuka
 * §1, §5.6 and Fig. 15), the particle form of Carlson et al.'s Rigid Fluid (§6.2-6.3).
 *
 * One step (core/coupler.h):
 *   1. neighbour search at r^t; each body's v, w are kept as (v0, w0) (begin_step); explicit
 *      terms (gravity, viscosity) give u* for the fluid and v*, w* for the bodies;
 *   2. stage `fluid`: the particles of every free and pinned body become fluid (before): each gets
 *      its body's point velocity and moves on its own as a point mass of its body's mass per
 *      particle, rho_B l^d (an inverse-mass override of the system) — a body lighter than water is
 *      pushed harder by the same pressure, which is how buoyancy reaches it. Fixed and scripted
 *      bodies stay rigid (walls, moving walls). The scene's fluid block and the contacts with a
 *      fluid side (fluid-wall, and fluid against fixed or scripted bodies) are solved together by
 *      the scene's solver; the block only sees which particles are fluid, so any fluid block works;
 *   3. after it, each body gains the linear and angular momentum its particles gained relative to
 *      the rigid motion (v0, w0) — gravity and the pressure impulses (Carlson eq. 24-25, fitted to
 *      the change so that the body keeps its own inertia; a pinned body only turns about its pin):
 *      vbc_body_project;
 *   4. stage `body_contact`: the contacts between bodies (rigid-rigid, rigid-wall) and the pin
 *      joints as their own problem, by the same solver type with the fluid's stopping test
 *      (skipped in steps without such rows): bodies meet each other weakly, as in Koshizuka's
 *      model;
 *   5. r^{t+1} = r^t + h u^{t+1} for the fluid; the bodies move by eq. 44-45 and their particles
 *      follow with v + w x r (eq. 26).
 * Nothing in step 2 knows about the other side of a body: a push on one face reaches the fluid
 * at the opposite face only in the next step (the seesaw of §5.6: no pressure under the bar after
 * one step, where strong coupling has some). */
#include <stdlib.h>

#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/contact.h"

enum { FLUID, FLUID_CONTACT, BODY_CONTACT, PIN };

typedef struct pms_state {
  vbc_vec *v0, *w0;  /* per body: its velocities before the explicit terms */
  double *inv_mass;  /* per particle: the override of stage `fluid` */
} pms_state;

static void pms_free(void *state) {
  pms_state *s = state;
  free(s->v0);
  free(s->w0);
  free(s->inv_mass);
  free(s);
}

/* The fluid stage's inverse masses: a fluid particle's own, and for every particle of a free or
 * pinned body its body's mass per particle (rho_B l^d); walls and other bodies stay infinite. */
static void fill_inv_mass(pms_state *s, const vbc_system *sys) {
  const vbc_particles *p = sys->particles;
  for (size_t i = 0; i < p->n; ++i) s->inv_mass[i] = vbc_system_inv_mass(sys, i);
  for (size_t k = 0; k < sys->nbodies; ++k) {
    const vbc_body *b = &sys->bodies[k];
    if (!vbc_body_movable(b)) continue;
    for (size_t i = b->first; i < b->first + b->count; ++i)
      s->inv_mass[i] = b->inv_mass * (double)b->count;
  }
}

static void *pms_alloc(vbc_coupling *c, vbc_error *err) {
  pms_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->v0 = vbc_calloc(c->sys->nbodies + 1, sizeof *s->v0, err);
  s->w0 = s->v0 ? vbc_calloc(c->sys->nbodies + 1, sizeof *s->w0, err) : NULL;
  s->inv_mass = s->w0 ? vbc_calloc(c->sys->particles->n, sizeof *s->inv_mass, err) : NULL;
  if (s->inv_mass == NULL) {
    pms_free(s);
    return NULL;
  }
  fill_inv_mass(s, c->sys);
  return s;
}

static int keep_body_velocities(vbc_coupling *c, vbc_error *err) {
  (void)err;
  pms_state *s = c->state;
  for (size_t k = 0; k < c->sys->nbodies; ++k) {
    s->v0[k] = c->sys->bodies[k].v;
    s->w0[k] = c->sys->bodies[k].w;
  }
  return VBC_OK;
}

/* Step 2: the particles of free and pinned bodies become fluid with their body's velocity. */
static int bodies_to_fluid(vbc_coupling *c, size_t stage, vbc_error *err) {
  (void)stage, (void)err;
  vbc_system *sys = c->sys;
  vbc_particles *p = sys->particles;
  for (size_t k = 0; k < sys->nbodies; ++k) {
    const vbc_body *b = &sys->bodies[k];
    if (!vbc_body_movable(b)) continue;
    for (size_t i = b->first; i < b->first + b->count; ++i) {
      p->vel[i] = vbc_body_point_velocity(b, p->pos[i]);
      p->kind[i] = VBC_FLUID;
    }
  }
  sys->inv_mass_override = ((const pms_state *)c->state)->inv_mass;
  return VBC_OK;
}

/* Step 3: back to rigid particles (also after a failure), each body with the momentum its
 * particles gained. */
static int fluid_to_bodies(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  (void)stage, (void)err;
  const pms_state *s = c->state;
  vbc_system *sys = c->sys;
  vbc_particles *p = sys->particles;
  sys->inv_mass_override = NULL;
  for (size_t k = 0; k < sys->nbodies; ++k) {
    vbc_body *b = &sys->bodies[k];
    if (!vbc_body_movable(b)) continue;
    for (size_t i = b->first; i < b->first + b->count; ++i) p->kind[i] = VBC_RIGID;
    if (ok) vbc_body_project(b, sys->dim, p->pos, p->vel, s->v0[k], s->w0[k]);
  }
  return VBC_OK;
}

static const vbc_group_spec groups[] = {VBC_GROUP_FLUID, VBC_GROUP_CONTACT};

static const vbc_slot_spec slots[] = {
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [FLUID_CONTACT] = {.label = "contact", .group = "contact", .type = &vbc_block_contact,
                       .setup = vbc_contact_fluid_pairs},
    [BODY_CONTACT] = {.label = "body_contact", .group = "contact", .type = &vbc_block_contact,
                      .setup = vbc_contact_body_pairs},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};

static const vbc_stage_spec stages[] = {
    {.label = "fluid", VBC_STAGE_SLOTS(FLUID, FLUID_CONTACT), .solver_group = "fluid",
     .before = bodies_to_fluid, .after = fluid_to_bodies},
    {.label = "body_contact", VBC_STAGE_SLOTS(BODY_CONTACT, PIN),
     .solver_group = "fluid", .skip_without_rows = 1},
};

const vbc_coupler_type vbc_coupler_pms = {
    .name = "pms",
    .summary = "weak coupling: bodies solved as fluid, projected to rigid motion, then contacts "
               "between bodies (Koshizuka's passively moving solid; Carlson eq. 24-26)",
    .groups = groups,
    .ngroups = VBC_COUNTOF(groups),
    .slots = slots,
    .nslots = VBC_COUNTOF(slots),
    .stages = stages,
    .nstages = VBC_COUNTOF(stages),
    .body_traits = VBC_ROWS_WEAK_MASSES,
    .primary = 0,
    .alloc = pms_alloc,
    .free = pms_free,
    .begin_step = keep_body_velocities,
};
