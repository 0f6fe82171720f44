/* coupler.c — the generic part of every coupler: blocks, solvers and problems from a stage table,
 * the step skeleton and its report; see coupler.h. */
#include <stdio.h>
#include <string.h>

#include "core/body.h"
#include "core/clock.h"
#include "core/coupler.h"
#include "core/operator.h"

const vbc_group_spec *vbc_coupler_group(const vbc_coupler_type *type, const char *key) {
  for (size_t g = 0; g < type->ngroups; ++g)
    if (strcmp(type->groups[g].key, key) == 0) return &type->groups[g];
  return NULL;
}

const vbc_method_group *vbc_method_group_find(const vbc_method_group *groups, size_t n,
                                              const char *key) {
  for (size_t g = 0; g < n; ++g)
    if (groups[g].key && strcmp(groups[g].key, key) == 0) return &groups[g];
  return NULL;
}

void vbc_coupling_free(vbc_coupling *c) {
  if (c->type && c->type->free && c->state) c->type->free(c->state);
  for (size_t k = 0; k < VBC_MAX_SLOTS; ++k) vbc_block_free(&c->block[k]);
  for (size_t k = 0; k < VBC_MAX_STAGES; ++k) vbc_solver_free(&c->solver[k]);
  memset(c, 0, sizeof *c);
}

/* The scene's choice for group key, which the loader has resolved for every declared group. */
static const vbc_method_group *chosen(const vbc_coupling *c, const vbc_method_group *groups,
                                      size_t ngroups, const char *key, vbc_error *err) {
  const vbc_method_group *g = vbc_method_group_find(groups, ngroups, key);
  if (g == NULL)
    vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: coupler \"%s\": no resolved method.%s", c->file,
                  c->type->name, key);
  return g;
}

static int init_slots(vbc_coupling *c, const vbc_method_group *groups, size_t ngroups,
                      vbc_error *err) {
  const vbc_coupler_type *t = c->type;
  for (size_t k = 0; k < t->nslots; ++k) {
    const vbc_slot_spec *slot = &t->slots[k];
    const vbc_method_group *g = chosen(c, groups, ngroups, slot->group, err);
    if (g == NULL) return err->code;
    const vbc_block_type *type = slot->type ? slot->type : g->constraint;
    if (type == NULL)
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: coupler \"%s\": slot %s has no block",
                           c->file, t->name, slot->label);
    if (vbc_block_init(&c->block[k], type, g->params, c->sys, slot->label, err) != VBC_OK)
      return err->code;
    if (slot->setup) slot->setup(&c->block[k]);
    if (c->block[k].support > c->support) c->support = c->block[k].support;
  }
  return VBC_OK;
}

/* The solver's set-up check of stage s, its message prefixed with where the choice was made. */
static int check_solver(vbc_coupling *c, size_t s, vbc_error *err) {
  const vbc_solver *solver = &c->solver[s];
  if (solver->type->check == NULL) return VBC_OK;
  vbc_error inner = {0};
  if (solver->type->check(solver->state, &c->problem[s], &inner) == VBC_OK) return VBC_OK;
  return vbc_error_set(err, inner.code, "%s: method.%s.solver: solver \"%s\" cannot run stage "
                       "%s of coupler \"%s\": %s", c->file, c->type->stages[s].solver_group,
                       solver->type->name, c->type->stages[s].label, c->type->name,
                       inner.message);
}

static int init_stages(vbc_coupling *c, const vbc_method_group *groups, size_t ngroups,
                       vbc_error *err) {
  const vbc_coupler_type *t = c->type;
  for (size_t s = 0; s < t->nstages; ++s) {
    const vbc_stage_spec *st = &t->stages[s];
    const vbc_method_group *g = chosen(c, groups, ngroups, st->solver_group, err);
    if (g == NULL) return err->code;
    if (g->solver == NULL)
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: coupler \"%s\": stage %s: method.%s has "
                           "no solver", c->file, t->name, st->label, st->solver_group);
    if (vbc_solver_init(&c->solver[s], g->solver, g->params, err) != VBC_OK) return err->code;
    for (size_t b = 0; b < st->nslots; ++b) c->members[s][b] = &c->block[st->slots[b]];
    c->problem[s] = (vbc_problem){c->sys, c->members[s], st->nslots};
    if (check_solver(c, s, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

/* What a block lacking a coupler's body trait can do instead (the pairs that float a box of
 * half the water's density within 0.02 of Archimedes at l = 0.04: docs/notes/method-status.md). */
static const char *body_remedy(unsigned need, unsigned have) {
  if (need == VBC_ROWS_PUSH_BODIES)
    return have & VBC_ROWS_PRESSURE_LOAD
               ? "constraint mps (rigid_pressure true) under this coupler, or this block under "
                 "coupler akinci or pms"
               : "constraint mps (rigid_pressure true) under this coupler";
  if (need == VBC_ROWS_WEAK_MASSES) return "constraint mps or sph_density under coupler pms";
  if (need & VBC_ROWS_BODY_REACTION)
    return "constraint staggered (He et al.'s p^v) or mps (rigid_pressure true) under this "
           "coupler, or sph_density with method.prepass_move once";
  return "constraint sph_density (or dfsph) under this coupler";
}

/* With a free body, the fluid block must carry the fluid's load to it the way the coupler needs
 * (vbc_coupler_type.body_traits): else the body gets no buoyancy and sinks, with exit 0. */
static int check_body_coupling(vbc_coupling *c, vbc_error *err) {
  const unsigned need = c->type->body_traits;
  size_t body = c->sys->nbodies;
  for (size_t k = 0; k < c->sys->nbodies && body == c->sys->nbodies; ++k)
    if (vbc_body_movable(&c->sys->bodies[k])) body = k;
  if (need == 0 || body == c->sys->nbodies) return VBC_OK;
  for (size_t k = 0; k < c->type->nslots; ++k) {
    const vbc_block *b = &c->block[k];
    if (c->type->slots[k].type != NULL || b->type->kind != VBC_BLOCK_FLUID) continue;
    const unsigned have = b->type->traits ? b->type->traits(b->state) : 0u;
    if (have & need) continue;
    const char *what = need == VBC_ROWS_PUSH_BODIES ? "the block's impulses pushing the bodies "
                                                      "of its rigid particles"
                       : need == VBC_ROWS_WEAK_MASSES ? "the block solving rigid particles as "
                                                        "fluid"
                       : need & VBC_ROWS_BODY_REACTION
                           ? "the fluid block to hand the bodies p^v's share of the load (its "
                             "rigid rows, its boundary impulses or eq. 28's reaction)"
                           : "the block's boundary impulses giving the whole pressure force";
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->params, "uncoupled_bodies"))) {
      fprintf(stderr, "vbc: warning: %s: method.uncoupled_bodies: block %s under coupler %s "
              "gives body %zu no fluid load (the coupler relies on %s)\n", c->file,
              b->type->name, c->type->name, body, what);
      continue;
    }
    const char *fate = need & VBC_ROWS_BODY_REACTION
                           ? "would get the pre-pass's share of the load alone (a box of half "
                             "the water's density floats at 0.37 submerged, not 0.5)"
                           : "would get no buoyancy and sink";
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: method.fluid.constraint: block %s cannot hold up body %zu under "
                         "coupler %s, which relies on %s: the body %s. Use %s; or set "
                         "method.uncoupled_bodies to true for an ablation that wants it",
                         c->file, b->type->name, body, c->type->name, what, fate,
                         body_remedy(need, have));
  }
  /* a load path the block has, but which the scene's other choices leave without the static
   * load: refused like a missing trait, or under the same opt-in said once here and flagged from
   * the first step (sim/monitors.c, no_static_load) */
  const char *why = c->type->static_load_missing ? c->type->static_load_missing(c) : NULL;
  if (why == NULL) return VBC_OK;
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->params, "uncoupled_bodies")))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: method: body %zu under coupler %s gets no "
                         "static load: %s; or set method.uncoupled_bodies to true for an "
                         "ablation that wants it (the run is then flagged no_static_load)",
                         c->file, body, c->type->name, why);
  fprintf(stderr, "vbc: warning: %s: no_static_load: body %zu under coupler %s: %s\n", c->file,
          body, c->type->name, why);
  return VBC_OK;
}

int vbc_coupling_init(vbc_coupling *c, const vbc_coupler_type *type, vbc_system *sys,
                      const vbc_method_group *groups, size_t ngroups, const cJSON *params,
                      const char *file, const vbc_step_ops *ops, vbc_error *err) {
  memset(c, 0, sizeof *c);
  c->type = type;
  c->sys = sys;
  c->params = params;
  c->file = file;
  c->ops = *ops;
  if (type->nslots > VBC_MAX_SLOTS || type->nstages > VBC_MAX_STAGES ||
      type->ngroups > VBC_MAX_GROUPS || type->primary >= type->nstages ||
      type->stages_before_explicit > type->nstages)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "coupler \"%s\": its table exceeds VBC_MAX_SLOTS, "
                         "VBC_MAX_STAGES or VBC_MAX_GROUPS, or names no primary stage",
                         type->name);
  int rc = init_slots(c, groups, ngroups, err);
  if (rc == VBC_OK) rc = init_stages(c, groups, ngroups, err);
  if (rc == VBC_OK && type->alloc && (c->state = type->alloc(c, err)) == NULL) rc = err->code;
  if (rc == VBC_OK) rc = check_body_coupling(c, err);
  if (rc != VBC_OK) vbc_coupling_free(c);
  return rc;
}

/* Rows, solve and write-back of one stage, between its before and after hooks. */
static int solve_stage(vbc_coupling *c, size_t s, vbc_stage_report *r, vbc_error *err) {
  const vbc_stage_spec *st = &c->type->stages[s];
  vbc_problem *pb = &c->problem[s];
  double t0 = vbc_now();
  if (vbc_problem_prepare(pb, err) != VBC_OK) return err->code;
  r->prepare_seconds += vbc_now() - t0;
  r->rows = vbc_problem_rows(pb);
  if (st->skip_without_rows && r->rows == 0) return VBC_OK;
  t0 = vbc_now();
  if (st->start && st->start(c, s, err) != VBC_OK) return err->code;
  r->hook_seconds += vbc_now() - t0;
  vbc_solve_trace *trace = NULL;
  if (s == c->type->primary) {
    c->report->traced = pb; /* before the solve: a failed solve's trace is written too */
    trace = c->report->trace;
  }
  if (vbc_solve(&c->solver[s], pb, &r->result, trace, err) != VBC_OK) {
    /* which stage and solver failed: a message from inside a solver names neither */
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    const int code = err->code;
    vbc_error_clear(err);
    return vbc_error_set(err, code, "stage %s of coupler %s (method.%s.solver %s): %s",
                         st->label, c->type->name, st->solver_group, c->solver[s].type->name,
                         msg);
  }
  t0 = vbc_now();
  vbc_problem_finish(pb);
  r->prepare_seconds += vbc_now() - t0;
  r->solved = 1;
  return VBC_OK;
}

static int run_stage(vbc_coupling *c, size_t s, vbc_error *err) {
  const vbc_stage_spec *st = &c->type->stages[s];
  vbc_stage_report *r = &c->report->stage[s];
  c->report->nstages = s + 1;
  memset(r, 0, sizeof *r);
  r->label = st->label;
  r->solver = c->solver[s].type;
  double t0 = vbc_now();
  if (st->before && st->before(c, s, err) != VBC_OK) return err->code;
  r->hook_seconds = vbc_now() - t0;
  int rc = solve_stage(c, s, r, err);
  t0 = vbc_now();
  if (st->after && (r->solved || rc != VBC_OK || !st->skip_without_rows)) {
    if (rc != VBC_OK) st->after(c, s, 0, &(vbc_error){0}); /* restore only */
    else rc = st->after(c, s, 1, err);
  }
  r->hook_seconds += vbc_now() - t0;
  /* The blocks' figures of the rows they built, after the hooks' own. */
  const vbc_problem *pb = &c->problem[s];
  for (size_t k = 0; rc == VBC_OK && k < pb->nblocks; ++k) {
    const vbc_block *b = pb->blocks[k];
    if (b->type->figures) rc = b->type->figures(b->state, &r->figures, err);
  }
  return rc;
}

int vbc_coupling_step(vbc_coupling *c, vbc_step_report *rep, vbc_error *err) {
  vbc_solve_trace *trace = rep->trace;
  memset(rep, 0, sizeof *rep);
  rep->trace = trace;
  c->report = rep;
  if (c->type->records_fluid_impulse && c->sys->fluid_impulse)
    for (size_t k = 0; k < c->sys->nbodies; ++k) c->sys->fluid_impulse[k] = vbc_vec_zero();
  double t0 = vbc_now();
  int rc = c->ops.neighbours(c->ops.ctx, err);
  rep->neighbours_seconds = vbc_now() - t0;
  if (rc == VBC_OK && c->type->begin_step) rc = c->type->begin_step(c, err);
  size_t s = 0;
  for (; rc == VBC_OK && s < c->type->stages_before_explicit; ++s) rc = run_stage(c, s, err);
  t0 = vbc_now();
  if (rc == VBC_OK) c->ops.explicit_terms(c->ops.ctx);
  rep->explicit_seconds = vbc_now() - t0;
  for (; rc == VBC_OK && s < c->type->nstages; ++s) rc = run_stage(c, s, err);
  t0 = vbc_now();
  if (rc == VBC_OK) c->ops.advect(c->ops.ctx);
  rep->advect_seconds = vbc_now() - t0;
  c->report = NULL;
  return rc;
}

double vbc_coupling_block_figure(const vbc_coupling *c, const char *name, double fallback) {
  for (size_t k = 0; k < c->type->nslots; ++k) {
    const vbc_block *b = &c->block[k];
    if (b->type == NULL || b->type->figures == NULL) continue;
    vbc_solve_stats f = {0};
    if (b->type->figures(b->state, &f, &(vbc_error){0}) != VBC_OK) continue;
    for (size_t i = 0; i < f.n; ++i)
      if (strcmp(f.name[i], name) == 0) return f.value[i];
  }
  return fallback;
}

void vbc_coupling_push_boundary_impulses(vbc_system *sys, const vbc_block *blk, vbc_vec *scratch) {
  if (blk->type == NULL || blk->type->boundary_impulses == NULL || sys->nbodies == 0) return;
  const vbc_particles *p = sys->particles;
  for (size_t i = 0; i < p->n; ++i) scratch[i] = vbc_vec_zero();
  blk->type->boundary_impulses(blk->state, sys, &blk->rows, scratch);
  for (size_t k = 0; k < sys->nbodies; ++k) {
    vbc_body *b = &sys->bodies[k];
    const int movable = vbc_body_movable(b);
    for (size_t i = b->first; i < b->first + b->count; ++i) {
      if (sys->fluid_impulse)
        sys->fluid_impulse[k] = vbc_vec_add(sys->fluid_impulse[k], scratch[i]);
      if (movable) vbc_body_push(b, p->pos[i], scratch[i]);
    }
  }
}
