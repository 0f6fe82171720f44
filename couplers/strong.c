/* strong.c — strong coupling: every constraint block in one iteration loop (Miyamoto &
 * Koshizuka §2.5 and Fig. 1).
 *
 * One step: neighbour search at r^t; explicit terms give u* (gravity, viscosity); every block
 * prepares its rows from r^t and u*; one solver iterates all blocks together until the combined
 * stopping test holds; blocks write back their results (pressure); u^{t+1} = u*, and
 * r^{t+1} = r^t + h u^{t+1}. The blocks are the scene's fluid constraint and the particle contacts
 * (fluid against walls, §4.2), swept in that order by the scene's fluid solver; rigid-body
 * contacts and joints join the same problem when rigid bodies exist. */
#include <stdlib.h>

#include "core/registry.h"
#include "core/sim.h"
#include "couplers/couplers.h"

typedef struct strong_state {
  vbc_block fluid, contact;
  vbc_block *blocks[2];
  vbc_solver solver;
  vbc_problem problem;
} strong_state;

static const char *const strong_labels[] = {"fluid", "contact"};

static void strong_free(void *state) {
  strong_state *s = state;
  vbc_block_free(&s->fluid);
  vbc_block_free(&s->contact);
  vbc_solver_free(&s->solver);
  free(s);
}

static void *strong_alloc(vbc_sim *sim, vbc_error *err) {
  strong_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  const vbc_scene *sc = sim->scene;
  if (vbc_block_init(&s->fluid, sc->fluid_constraint, sc->fluid_params, &sim->sys, "fluid",
                     err) != VBC_OK ||
      vbc_block_init(&s->contact, vbc_registry_contact_block(), sc->contact_params, &sim->sys,
                     "contact", err) != VBC_OK ||
      vbc_solver_init(&s->solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK) {
    strong_free(s);
    return NULL;
  }
  if (s->fluid.support > sim->support) sim->support = s->fluid.support;
  s->blocks[0] = &s->fluid;
  s->blocks[1] = &s->contact;
  s->problem.sys = &sim->sys;
  s->problem.blocks = s->blocks;
  s->problem.nblocks = 2;
  return s;
}

static int strong_step(void *state, vbc_sim *sim, vbc_step_report *rep, vbc_error *err) {
  strong_state *s = state;
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  vbc_sim_explicit(sim);
  for (size_t b = 0; b < s->problem.nblocks; ++b) {
    vbc_block *blk = s->blocks[b];
    if (blk->type->prepare(blk->state, &sim->sys, &blk->rows, err) != VBC_OK) return err->code;
  }
  rep->block_labels = strong_labels; /* before the solve: a failed solve's trace is written too */
  rep->nblocks = s->problem.nblocks;
  if (vbc_solve(&s->solver, &s->problem, &rep->fluid, rep->trace, err) != VBC_OK)
    return err->code;
  for (size_t b = 0; b < s->problem.nblocks; ++b) {
    vbc_block *blk = s->blocks[b];
    blk->type->finish(blk->state, &sim->sys, &blk->rows);
  }
  rep->solves = 1;
  vbc_sim_advect(sim);
  return VBC_OK;
}

const vbc_coupler_type vbc_coupler_strong = {
    .name = "strong",
    .summary = "all blocks in one solver loop, then integrate (Miyamoto & Koshizuka Fig. 1)",
    .alloc = strong_alloc,
    .free = strong_free,
    .step = strong_step,
};
