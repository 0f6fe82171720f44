/* akinci.c — two-way weak coupling of an SPH pressure solve with rigid bodies (Akinci, Ihmsen,
 * Akinci, Solenthaler & Teschner 2012, "Versatile rigid-fluid coupling for incompressible SPH";
 * with IISPH as the pressure solver, Ihmsen et al. 2014).
 *
 * One step (core/coupler.h):
 *   1. neighbour search at r^t; explicit terms (gravity, viscosity, XSPH) give u* for the fluid
 *      and v*, w* for the bodies;
 *   2. stage `fluid`: the scene's fluid block alone is solved by the scene's solver (IISPH =
 *      sph_density + jacobi). Wall and rigid particles are boundary particles of Akinci volume
 *      Psi_k / rho0: they enter the density with their volume and the divergence with their
 *      velocity (bodies are moving walls), and they feel the pressure but are not moved by it
 *      inside the solve;
 *   3. after it, the reaction of every boundary particle of a free or pinned body — Akinci's
 *      pressure force F_k = rho0 V_k (p_i / rho_i^2) m_i grad W_ik summed over fluid i, times h
 *      (the block's boundary_impulses) — is applied to its body at the particle's position (force
 *      and torque);
 *   4. stage `body_contact`: the contacts between bodies (rigid-rigid, rigid-wall) and the pin
 *      joints as their own problem, by method.contact.solver (pgs by default), skipped in steps
 *      without such rows: bodies meet each other through contacts, as in Akinci's rigid-body
 *      solver, after the fluid;
 *   5. r^{t+1} = r^t + h u^{t+1} for the fluid; the bodies move by eq. 44-45 of Miyamoto &
 *      Koshizuka (quaternions) and their particles follow.
 * Weak: a body's new velocity from step 3 reaches the fluid's divergence rows only in the next
 * step, so a body lighter than the fluid it moves overshoots by m_a / m each step (the added-mass
 * instability of partitioned coupling, Causin, Gerbeau & Nobile 2005; docs/iisph.md measures it,
 * the body_jitter monitor of sim/monitors.c flags it). There are no fluid-wall or fluid-body
 * contact rows: with Akinci boundaries the pressure alone keeps the fluid out of walls and bodies
 * (vbc's `strong` coupler adds contact rows instead).
 * Choices the paper leaves open: the force of step 3 uses the pressure the solver stopped with
 * (not a converged one), which is what the fluid received, so momentum between fluid and bodies
 * is conserved to round-off for any stopping tolerance; only fluid blocks that report boundary
 * impulses (vbc_block_type.boundary_impulses: sph_density, dfsph) can be coupled this way. */
#include <stdlib.h>

#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/contact.h"

enum { FLUID, BODY_CONTACT, PIN };

typedef struct akinci_state {
  vbc_vec *impulse; /* per particle: the boundary impulse of step 3 */
} akinci_state;

static void akinci_free(void *state) {
  akinci_state *s = state;
  free(s->impulse);
  free(s);
}

static void *akinci_alloc(vbc_coupling *c, vbc_error *err) {
  const vbc_block *fluid = &c->block[FLUID];
  if (fluid->type->boundary_impulses == NULL) {
    vbc_error_set(err, VBC_EXIT_INPUT,
                  "%s: method.fluid.constraint: expected a block that reports the pressure "
                  "force on boundary particles for method.coupler \"%s\" (\"sph_density\" or "
                  "\"dfsph\"), got \"%s\"", c->file, c->type->name, fluid->type->name);
    return NULL;
  }
  akinci_state *s = vbc_calloc(1, sizeof *s, err);
  if (s && (s->impulse = vbc_calloc(c->sys->particles->n, sizeof *s->impulse, err)) == NULL) {
    free(s);
    return NULL;
  }
  return s;
}

/* Step 3: each free or pinned body takes the boundary impulses of its particles, in particle
 * order (deterministic). A pinned body's pin row (step 4) removes what would move its pin. Every
 * body, fixed and scripted ones too, adds their sum to its fluid_impulse (drag and lift). */
static int push_bodies(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  (void)stage, (void)err;
  if (!ok) return VBC_OK;
  akinci_state *s = c->state;
  vbc_coupling_push_boundary_impulses(c->sys, &c->block[FLUID], s->impulse);
  return VBC_OK;
}

/* The hooks for other couplers whose slot 0 is an SPH fluid block (couplers.h; the dfsph
 * coupler runs them after both of its solves). */
void *vbc_akinci_alloc(vbc_coupling *c, vbc_error *err) { return akinci_alloc(c, err); }
void vbc_akinci_free(void *state) { akinci_free(state); }
int vbc_akinci_push_bodies(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  return push_bodies(c, stage, ok, err);
}

/* The contacts between bodies get a solver of their own (projected Gauss-Seidel by default, a
 * rigid-body engine's solver): relaxed Jacobi, IISPH's fluid solver, diverges on resting
 * contacts (a pile of boxes on the floor: non-finite residual at step 28). */
static const vbc_group_spec groups[] = {VBC_GROUP_FLUID, VBC_GROUP_BODY_CONTACT};

static const vbc_slot_spec slots[] = {
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [BODY_CONTACT] = {.label = "body_contact", .group = "contact", .type = &vbc_block_contact,
                      .setup = vbc_contact_body_pairs},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};

static const vbc_stage_spec stages[] = {
    {.label = "fluid", VBC_STAGE_SLOTS(FLUID), .solver_group = "fluid",
     .after = push_bodies},
    {.label = "body_contact", VBC_STAGE_SLOTS(BODY_CONTACT, PIN),
     .solver_group = "contact", .skip_without_rows = 1},
};

const vbc_coupler_type vbc_coupler_akinci = {
    .name = "akinci",
    .summary = "weak coupling of an SPH pressure solve: pressure forces on boundary particles "
               "move the bodies, then contacts between bodies (Akinci et al. 2012)",
    .groups = groups,
    .ngroups = VBC_COUNTOF(groups),
    .slots = slots,
    .nslots = VBC_COUNTOF(slots),
    .stages = stages,
    .nstages = VBC_COUNTOF(stages),
    .body_traits = VBC_ROWS_PRESSURE_LOAD,
    .primary = 0,
    .alloc = akinci_alloc,
    .free = akinci_free,
    .records_fluid_impulse = 1,
};
