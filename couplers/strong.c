/* strong.c — strong coupling: every constraint block in one iteration loop (Miyamoto &
 * Koshizuka §2.5, §4 and Fig. 1).
 *
 * One step: neighbour search at r^t; explicit terms give u* for the fluid and v*, w* for the
 * bodies (gravity, viscosity); every block prepares its rows from r^t and u*; one solver iterates
 * all blocks together until the combined stopping test holds (vbc_solve: the residual of all rows
 * relative to the residual they would have with zero impulses); blocks write back their results
 * (pressure); u^{t+1} = u*; r^{t+1} = r^t + h u^{t+1} and the bodies move by eq. 44-45.
 *
 * The blocks, swept in this order by the scene's fluid solver (PGS, Jacobi, ...):
 *   fluid    the scene's incompressibility block (method.fluid.constraint);
 *   contact  particle contacts: fluid-wall, fluid-rigid (§4.2), rigid-rigid and rigid-wall (§3.2);
 *   pin      the pin joints of pinned bodies (§5.6-5.7).
 * How rigid particles enter the incompressibility rows — a choice the paper leaves open — is the
 * fluid block's option rigid_pressure (solvers/blocks/mps_incompressibility.c, docs/coupling.md): their
 * velocity is always the body's in the divergence term; with rigid_pressure the rows' impulses
 * also act on the bodies, without it only the contacts move them. Either way all three blocks
 * are in the one loop, so a push on one side of a body reaches the fluid on its other side within
 * the same step (the seesaw of §5.6). */
#include <stdlib.h>

#include "app/registry.h"
#include "app/sim.h"
#include "couplers/coupler_blocks.h"
#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"

enum { FLUID, CONTACT, PIN, NBLOCKS };

typedef struct strong_state {
  vbc_block block[NBLOCKS];
  vbc_block *blocks[NBLOCKS];
  vbc_solver solver;
  vbc_problem problem;
} strong_state;

static const char *const strong_labels[NBLOCKS] = {"fluid", "contact", "pin"};

static void strong_free(void *state) {
  strong_state *s = state;
  for (int b = 0; b < NBLOCKS; ++b) vbc_block_free(&s->block[b]);
  vbc_solver_free(&s->solver);
  free(s);
}

static void *strong_alloc(vbc_sim *sim, vbc_error *err) {
  strong_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  const vbc_scene *sc = sim->scene;
  if (vbc_block_init(&s->block[FLUID], sc->fluid_constraint, sc->fluid_params, &sim->sys,
                     "fluid", err) != VBC_OK ||
      vbc_block_init(&s->block[CONTACT], vbc_registry_contact_block(), sc->contact_params,
                     &sim->sys, "contact", err) != VBC_OK ||
      vbc_block_init(&s->block[PIN], &vbc_block_pin, sc->contact_params, &sim->sys, "pin",
                     err) != VBC_OK ||
      vbc_solver_init(&s->solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK) {
    strong_free(s);
    return NULL;
  }
  vbc_coupler_link_blocks(sim, s->block, s->blocks, NBLOCKS);
  s->problem.sys = &sim->sys;
  s->problem.blocks = s->blocks;
  s->problem.nblocks = NBLOCKS;
  return s;
}

static int strong_step(void *state, vbc_sim *sim, vbc_step_report *rep, vbc_error *err) {
  strong_state *s = state;
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  vbc_sim_explicit(sim);
  if (vbc_problem_prepare(&s->problem, err) != VBC_OK) return err->code;
  rep->block_labels = strong_labels; /* before the solve: a failed solve's trace is written too */
  rep->nblocks = s->problem.nblocks;
  if (vbc_solve(&s->solver, &s->problem, &rep->fluid, rep->trace, err) != VBC_OK)
    return err->code;
  vbc_problem_finish(&s->problem);
  rep->solves = 1;
  vbc_sim_advect(sim);
  return VBC_OK;
}

const vbc_coupler_type vbc_coupler_strong = {
    .name = "strong",
    .summary = "all blocks (fluid, contacts, pins) in one solver loop, then integrate (Miyamoto "
               "& Koshizuka Fig. 1)",
    .alloc = strong_alloc,
    .free = strong_free,
    .step = strong_step,
};
