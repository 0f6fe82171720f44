/* registry_describe.c — the registry as data (registry.h: vbc_registry_json): every module with
 * its parameters, kinds, groups, stages and defaults. `vbc list --format json` prints it, `vbc
 * list --format markdown` renders it (registry_markdown.c) into docs/modules.md, and a test keeps
 * that page equal to what the binary prints, so the docs never copy the registry by hand. */
#include <string.h>

#include "registry/registry.h"

static const char *param_type(vbc_param_kind k) {
  switch (k) {
  case VBC_PARAM_INTEGER: return "integer";
  case VBC_PARAM_BOOL: return "bool";
  case VBC_PARAM_CHOICE: return "choice";
  default: return "number";
  }
}

static cJSON *params_json(const vbc_param_spec *p) {
  cJSON *a = cJSON_CreateArray();
  for (; a && p && p->key; ++p) {
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) break;
    cJSON_AddItemToArray(a, o);
    cJSON_AddStringToObject(o, "key", p->key);
    cJSON_AddStringToObject(o, "type", param_type(p->kind));
    if (p->kind == VBC_PARAM_BOOL) {
      cJSON_AddBoolToObject(o, "default", p->def != 0.0);
    } else if (p->kind == VBC_PARAM_CHOICE) {
      cJSON_AddStringToObject(o, "default", p->choices[(int)p->def]);
      cJSON *c = cJSON_AddArrayToObject(o, "choices");
      for (const char *const *w = p->choices; c && *w; ++w)
        cJSON_AddItemToArray(c, cJSON_CreateString(*w));
    } else {
      cJSON_AddNumberToObject(o, "default", p->def);
      cJSON_AddNumberToObject(o, "min", p->min);
      cJSON_AddNumberToObject(o, "max", p->max);
      if (p->min_open) cJSON_AddBoolToObject(o, "min_open", 1);
    }
    cJSON_AddStringToObject(o, "doc", p->doc ? p->doc : "");
  }
  return a;
}

/* What a block offers beyond the required passes: the solvers and couplers that need it check
 * for it (an assembled operator, Jacobian rows, a lattice bound, boundary impulses). */
static cJSON *block_offers(const vbc_block_type *b) {
  cJSON *a = cJSON_CreateArray();
  const struct { int has; const char *what; } offer[] = {
      {b->sweep != NULL, "sweep"},
      {b->jacobian != NULL, "jacobian"},
      {b->assemble != NULL, "assemble"},
      {b->error_scale != NULL, "error_measure"},
      {b->boundary_impulses != NULL, "boundary_impulses"},
      {b->lattice_lambda_max != NULL, "lattice_lambda_max"},
      {b->figures != NULL, "figures"},
  };
  for (size_t k = 0; a && k < sizeof offer / sizeof *offer; ++k)
    if (offer[k].has) cJSON_AddItemToArray(a, cJSON_CreateString(offer[k].what));
  return a;
}

static cJSON *block_json(const vbc_block_type *b) {
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  cJSON_AddStringToObject(o, "name", b->name);
  cJSON_AddStringToObject(o, "kind", vbc_block_kind_name(b->kind));
  cJSON_AddStringToObject(o, "summary", b->summary ? b->summary : "");
  cJSON_AddItemToObject(o, "offers", block_offers(b));
  cJSON_AddItemToObject(o, "params", params_json(b->params));
  return o;
}

static cJSON *solver_json(const vbc_solver_type *s) {
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  cJSON_AddStringToObject(o, "name", s->name);
  cJSON_AddStringToObject(o, "summary", s->summary ? s->summary : "");
  if (s->relaxation_key) cJSON_AddStringToObject(o, "relaxation_key", s->relaxation_key);
  cJSON_AddItemToObject(o, "params", params_json(s->params));
  return o;
}

static cJSON *group_json(const vbc_coupler_type *t, const vbc_group_spec *g) {
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  cJSON_AddStringToObject(o, "key", g->key);
  cJSON_AddStringToObject(o, "doc", g->doc ? g->doc : "");
  if (g->constraint_kind != VBC_BLOCK_NONE) {
    cJSON_AddStringToObject(o, "constraint_kind", vbc_block_kind_name(g->constraint_kind));
    cJSON_AddStringToObject(o, "constraint_default", g->constraint_default);
  }
  if (g->solver_default) cJSON_AddStringToObject(o, "solver_default", g->solver_default);
  if (g->solver_defaults) cJSON_AddStringToObject(o, "solver_defaults", g->solver_defaults);
  cJSON *blocks = cJSON_AddArrayToObject(o, "blocks");
  for (size_t k = 0; blocks && k < t->nslots; ++k) {
    if (strcmp(t->slots[k].group, g->key) != 0) continue;
    cJSON *b = cJSON_CreateObject();
    if (b == NULL) break;
    cJSON_AddItemToArray(blocks, b);
    cJSON_AddStringToObject(b, "label", t->slots[k].label);
    cJSON_AddStringToObject(b, "type", t->slots[k].type ? t->slots[k].type->name : "constraint");
  }
  return o;
}

static cJSON *stage_json(const vbc_coupler_type *t, size_t s) {
  const vbc_stage_spec *st = &t->stages[s];
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  cJSON_AddStringToObject(o, "label", st->label);
  cJSON *blocks = cJSON_AddArrayToObject(o, "blocks");
  for (size_t b = 0; blocks && b < st->nslots; ++b)
    cJSON_AddItemToArray(blocks, cJSON_CreateString(t->slots[st->slots[b]].label));
  cJSON_AddStringToObject(o, "solver_group", st->solver_group);
  cJSON_AddBoolToObject(o, "skip_without_rows", st->skip_without_rows);
  cJSON_AddBoolToObject(o, "primary", s == t->primary);
  return o;
}

static cJSON *coupler_json(const vbc_coupler_type *t) {
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  cJSON_AddStringToObject(o, "name", t->name);
  cJSON_AddStringToObject(o, "summary", t->summary ? t->summary : "");
  cJSON_AddBoolToObject(o, "records_fluid_impulse", t->records_fluid_impulse);
  cJSON_AddItemToObject(o, "params", params_json(t->params));
  cJSON *groups = cJSON_AddArrayToObject(o, "groups");
  for (size_t g = 0; groups && g < t->ngroups; ++g)
    cJSON_AddItemToArray(groups, group_json(t, &t->groups[g]));
  cJSON *stages = cJSON_AddArrayToObject(o, "stages");
  for (size_t s = 0; stages && s < t->nstages; ++s)
    cJSON_AddItemToArray(stages, stage_json(t, s));
  return o;
}

static cJSON *benchmark_json(const vbc_benchmark_type *b) {
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  cJSON_AddStringToObject(o, "name", b->name);
  cJSON_AddStringToObject(o, "summary", b->summary ? b->summary : "");
  cJSON_AddItemToObject(o, "params", params_json(b->params));
  if (b->series_columns) cJSON_AddStringToObject(o, "series_columns", b->series_columns);
  cJSON *m = cJSON_AddArrayToObject(o, "metrics");
  for (const char *const *n = b->metric_names; m && n && *n; ++n)
    cJSON_AddItemToArray(m, cJSON_CreateString(*n));
  return o;
}

cJSON *vbc_registry_json(const vbc_registry *r, vbc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *blocks = root ? cJSON_AddArrayToObject(root, "blocks") : NULL;
  cJSON *solvers = blocks ? cJSON_AddArrayToObject(root, "solvers") : NULL;
  cJSON *couplers = solvers ? cJSON_AddArrayToObject(root, "couplers") : NULL;
  cJSON *benchmarks = couplers ? cJSON_AddArrayToObject(root, "benchmarks") : NULL;
  if (benchmarks == NULL) {
    cJSON_Delete(root);
    vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory describing the registry");
    return NULL;
  }
  /* blocks grouped by kind, as a coupler's group chooses among the blocks of one kind */
  for (int k = VBC_BLOCK_FLUID; k < VBC_BLOCK_KINDS; ++k)
    for (size_t i = 0; i < r->nblocks; ++i)
      if ((int)r->block[i]->kind == k) cJSON_AddItemToArray(blocks, block_json(r->block[i]));
  for (size_t i = 0; i < r->nsolvers; ++i)
    cJSON_AddItemToArray(solvers, solver_json(r->solver[i]));
  for (size_t i = 0; i < r->ncouplers; ++i)
    cJSON_AddItemToArray(couplers, coupler_json(r->coupler[i]));
  for (size_t i = 0; i < r->nbenchmarks; ++i)
    cJSON_AddItemToArray(benchmarks, benchmark_json(r->benchmark[i]));
  return root;
}
