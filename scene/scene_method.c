/* scene_method.c — the scene's `method`: the coupler and the parameter groups it declares
 * (core/coupler.h), validated from those declarations and the registry's modules. */
#include <string.h>

#include "scene/scene_parts.h"

enum { MAX_TABLES = VBC_MAX_SLOTS + 2, MAX_KEYS = 128 };

int vbc_scene_module_params(vbc_jctx *c, cJSON *obj, const char *path, const char *const *fixed,
                            const vbc_param_spec *const *tables, size_t ntables) {
  const char *allowed[MAX_KEYS + 1];
  size_t n = 0;
  for (const char *const *f = fixed; *f; ++f) allowed[n++] = *f;
  for (size_t t = 0; t < ntables; ++t)
    for (const vbc_param_spec *p = tables[t]; p && p->key; ++p) {
      int seen = 0; /* a key two blocks of one group share (contact and pin: alpha) */
      for (size_t k = 0; k < n && !seen; ++k) seen = strcmp(allowed[k], p->key) == 0;
      if (seen) continue;
      if (n == MAX_KEYS)
        return vbc_error_set(c->err, VBC_EXIT_SYSTEM, "%s: %s: more than %d parameters",
                             c->file, path, MAX_KEYS);
      allowed[n++] = p->key;
    }
  allowed[n] = NULL;
  if (vbc_json_check_keys(c, obj, path, allowed)) return c->err->code;
  for (size_t t = 0; t < ntables; ++t)
    if (vbc_params_resolve(obj, tables[t], c->file, path, c->err)) return c->err->code;
  return VBC_OK;
}

/* Drop from a group's object the keys that some registered module of the sorts the group can
 * choose declares but neither a fixed key nor the selected modules' tables do (alpha of mps under
 * sph_density, ...): one scene then runs under every combination with --set, and the resolved
 * scene in summary.json shows only what was used. Keys no module declares stay and are refused
 * by vbc_scene_module_params. */
static void drop_unselected(cJSON *obj, const char *const *fixed,
                            const vbc_param_spec *const *tables, size_t ntables,
                            const vbc_registry *reg, vbc_block_kind kind, int solvers) {
  for (cJSON *item = obj->child, *next; item; item = next) {
    next = item->next;
    const char *k = item->string;
    int keep = !vbc_registry_param_known(reg, kind, solvers, k);
    for (const char *const *f = fixed; *f && !keep; ++f) keep = strcmp(k, *f) == 0;
    for (size_t t = 0; t < ntables && !keep; ++t) keep = vbc_param_find(tables[t], k) != NULL;
    if (!keep) cJSON_Delete(cJSON_DetachItemViaPointer(obj, item));
  }
}

/* The group whose solver runs the stages that hold a block of group g. */
static const char *solved_by(const vbc_coupler_type *t, const char *g) {
  for (size_t s = 0; s < t->nstages; ++s)
    for (size_t b = 0; b < t->stages[s].nslots; ++b)
      if (strcmp(t->slots[t->stages[s].slots[b]].group, g) == 0) return t->stages[s].solver_group;
  return "another group";
}

/* The registered couplers whose group `key` has a solver of its own. */
static void couplers_with_solver(const vbc_registry *reg, const char *key, char *buf,
                                 size_t size) {
  buf[0] = '\0';
  for (size_t i = 0; i < reg->ncouplers; ++i) {
    const vbc_group_spec *g = vbc_coupler_group(reg->coupler[i], key);
    size_t len = strlen(buf);
    if (g && g->solver_default)
      snprintf(buf + len, size - len, "%s\"%s\"", len ? ", " : "", reg->coupler[i]->name);
  }
  if (buf[0] == '\0') snprintf(buf, size, "none");
}

/* `constraint` and `solver` of group g, looked up among the registered modules. */
static int choose_modules(vbc_jctx *c, const vbc_scene *s, const vbc_group_spec *g, cJSON *obj,
                          const char *path, vbc_method_group *out) {
  const vbc_registry *reg = s->registry;
  const char *name;
  char names[512], p[256];
  if (g->constraint_kind != VBC_BLOCK_NONE) {
    if (vbc_json_string(c, obj, path, "constraint", g->constraint_default, &name))
      return c->err->code;
    if ((out->constraint = vbc_registry_block(reg, g->constraint_kind, name)) == NULL) {
      vbc_registry_block_names(reg, g->constraint_kind, names, sizeof names);
      return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected one of %s, got \"%s\"",
                           c->file, vbc_path_join(p, sizeof p, path, "constraint"), names, name);
    }
  }
  const cJSON *solver = cJSON_GetObjectItemCaseSensitive(obj, "solver");
  if (g->solver_default == NULL && solver != NULL) {
    char got[96];
    vbc_json_describe(solver, got, sizeof got);
    couplers_with_solver(s->registry, g->key, names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected no solver for coupler \"%s\" (its %s blocks are "
                         "solved by method.%s.solver; couplers with a %s.solver: %s), got %s",
                         c->file, vbc_path_join(p, sizeof p, path, "solver"), s->coupler->name,
                         g->key, solved_by(s->coupler, g->key), path, names, got);
  }
  if (g->solver_default == NULL) return VBC_OK;
  if (vbc_json_string(c, obj, path, "solver", g->solver_default, &name)) return c->err->code;
  if ((out->solver = vbc_registry_solver(reg, name)) == NULL) {
    vbc_registry_solver_names(reg, names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected one of %s, got \"%s\"",
                         c->file, vbc_path_join(p, sizeof p, path, "solver"), names, name);
  }
  return VBC_OK;
}

/* The parameter tables of group g: its chosen block's, its slots' fixed blocks' (once each),
 * its solver's. The solver's keys sit beside the blocks' in one object, so they must not share
 * one (one value cannot mean two things). */
static int group_tables(vbc_jctx *c, const vbc_coupler_type *t, const vbc_group_spec *g,
                        const vbc_method_group *m, const char *path,
                        const vbc_param_spec **tables, size_t *n) {
  *n = 0;
  if (m->constraint) tables[(*n)++] = m->constraint->params;
  for (size_t k = 0; k < t->nslots; ++k) {
    const vbc_block_type *b = t->slots[k].type;
    if (b == NULL || strcmp(t->slots[k].group, g->key) != 0) continue;
    int seen = 0;
    for (size_t j = 0; j < k && !seen; ++j)
      seen = t->slots[j].type == b && strcmp(t->slots[j].group, g->key) == 0;
    if (!seen) tables[(*n)++] = b->params;
  }
  if (m->solver == NULL) return VBC_OK;
  for (size_t k = 0; k < *n; ++k)
    for (const vbc_param_spec *p = m->solver->params; p && p->key; ++p)
      if (vbc_param_find(tables[k], p->key))
        return vbc_error_set(c->err, VBC_EXIT_INPUT,
                             "%s: %s.solver: solver \"%s\" declares the parameter \"%s\", which a "
                             "block of this group declares too (%s cannot hold both)",
                             c->file, path, m->solver->name, p->key, path);
  tables[(*n)++] = m->solver->params;
  return VBC_OK;
}

/* The group's own defaults of its solver's parameters (vbc_group_spec.solver_defaults): added
 * to obj where the chosen solver is the group's default one, declares the key, and obj does not
 * have it (pgs chosen instead of cg keeps pgs's own omega). */
static int group_solver_defaults(vbc_jctx *c, const vbc_group_spec *g,
                                 const vbc_method_group *m, cJSON *obj) {
  if (g->solver_defaults == NULL || m->solver == NULL ||
      strcmp(m->solver->name, g->solver_default) != 0)
    return VBC_OK;
  cJSON *d = cJSON_Parse(g->solver_defaults);
  if (!cJSON_IsObject(d)) {
    cJSON_Delete(d);
    return vbc_error_set(c->err, VBC_EXIT_SYSTEM, "coupler group \"%s\": solver_defaults is not a "
                         "JSON object", g->key);
  }
  for (cJSON *item = d->child; item; item = item->next) {
    if (vbc_param_find(m->solver->params, item->string) == NULL ||
        cJSON_GetObjectItemCaseSensitive(obj, item->string) != NULL)
      continue;
    cJSON *copy = cJSON_Duplicate(item, 1);
    if (copy == NULL || !cJSON_AddItemToObject(obj, item->string, copy)) {
      cJSON_Delete(copy), cJSON_Delete(d);
      return vbc_error_set(c->err, VBC_EXIT_SYSTEM, "out of memory");
    }
  }
  cJSON_Delete(d);
  return VBC_OK;
}

/* The keys of a solve's stopping test (core/constraint.h, vbc_solve_control) whose meaning a
 * scene states with its solver: the test and its tolerances. max_iterations is each scheme's own
 * budget and stays the chosen solver's. */
static const char *const stopping_keys[] = {"tolerance", "error_tolerance", "min_iterations",
                                            NULL};

/* The value the scene's stated solve gives a stopping key: the group's solver_defaults when the
 * stated solver is its coupler's default one and they hold the key, else the solver's default. */
static cJSON *stated_value(const vbc_group_spec *sg, const vbc_solver_type *stated,
                           const char *key) {
  if (sg->solver_defaults && strcmp(stated->name, sg->solver_default) == 0) {
    cJSON *d = cJSON_Parse(sg->solver_defaults);
    cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(d, key);
    cJSON_Delete(d);
    if (v) return v;
  }
  const vbc_param_spec *p = vbc_param_find(stated->params, key);
  return p ? cJSON_CreateNumber(p->def) : NULL;
}

/* Changing a group's solver (by --set or a sweep) keeps the stopping test the scene states: the
 * stopping keys neither the scene nor an assignment wrote take the values the scene's own solver
 * (`stated`: the method before the assignments, or as a whole-method assignment such as a preset
 * left it) would have had, not the new solver's defaults. Switching PGS (relative residual
 * 1e-3) to jacobi then keeps the residual test instead of bringing IISPH's mean density error
 * 1e-3 with at least 2 iterations to MPS rows. Only between iterative solvers: one whose whole
 * solve is one iteration (a pivoting method: max_iterations default 1) neither passes its
 * acceptance bound on nor takes an iterative test. */
static int keep_stated_stopping(vbc_jctx *c, const vbc_scene *s, const cJSON *stated,
                                const vbc_group_spec *g, const vbc_method_group *m, cJSON *obj) {
  if (stated == NULL || m->solver == NULL) return VBC_OK;
  const cJSON *cn = cJSON_GetObjectItemCaseSensitive(stated, "coupler");
  const vbc_coupler_type *sc =
      vbc_registry_coupler(s->registry, cJSON_IsString(cn) ? cn->valuestring : "strong");
  const vbc_group_spec *sg = sc ? vbc_coupler_group(sc, g->key) : NULL;
  if (sg == NULL || sg->solver_default == NULL) return VBC_OK;
  const cJSON *sobj = cJSON_GetObjectItemCaseSensitive(stated, g->key);
  const cJSON *sn = cJSON_GetObjectItemCaseSensitive(sobj, "solver");
  const vbc_solver_type *st =
      vbc_registry_solver(s->registry, cJSON_IsString(sn) ? sn->valuestring : sg->solver_default);
  if (st == NULL || st == m->solver) return VBC_OK;
  const vbc_param_spec *budget = vbc_param_find(st->params, "max_iterations");
  const vbc_param_spec *own = vbc_param_find(m->solver->params, "max_iterations");
  if (budget == NULL || budget->def <= 1.0 || own == NULL || own->def <= 1.0) return VBC_OK;
  for (const char *const *k = stopping_keys; *k; ++k) {
    if (cJSON_GetObjectItemCaseSensitive(obj, *k) || !vbc_param_find(m->solver->params, *k))
      continue;
    cJSON *v = stated_value(sg, st, *k);
    if (v && !cJSON_AddItemToObject(obj, *k, v)) cJSON_Delete(v), v = NULL;
    if (v == NULL && vbc_param_find(st->params, *k))
      return vbc_error_set(c->err, VBC_EXIT_SYSTEM, "out of memory");
  }
  return VBC_OK;
}

static int load_group(vbc_jctx *c, vbc_scene *s, cJSON *m, const vbc_group_spec *g,
                      vbc_method_group *out, const cJSON *stated) {
  char path[64];
  snprintf(path, sizeof path, "method.%s", g->key);
  cJSON *obj = vbc_json_object(c, m, "method", g->key, 0);
  if (obj == NULL) return c->err->code;
  *out = (vbc_method_group){.key = g->key};
  const vbc_param_spec *tables[MAX_TABLES];
  size_t ntables;
  if (choose_modules(c, s, g, obj, path, out) != VBC_OK ||
      group_tables(c, s->coupler, g, out, path, tables, &ntables) != VBC_OK ||
      keep_stated_stopping(c, s, stated, g, out, obj) != VBC_OK ||
      group_solver_defaults(c, g, out, obj) != VBC_OK)
    return c->err->code;
  const char *fixed[3];
  size_t nfixed = 0;
  if (out->constraint) fixed[nfixed++] = "constraint";
  if (out->solver) fixed[nfixed++] = "solver";
  fixed[nfixed] = NULL;
  if (nfixed) drop_unselected(obj, fixed, tables, ntables, s->registry, g->constraint_kind,
                              out->solver != NULL);
  if (vbc_scene_module_params(c, obj, path, fixed, tables, ntables)) return c->err->code;
  const cJSON *lo = cJSON_GetObjectItemCaseSensitive(obj, "min_iterations");
  const cJSON *hi = cJSON_GetObjectItemCaseSensitive(obj, "max_iterations");
  if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi) && lo->valuedouble > hi->valuedouble)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s.min_iterations: expected at most max_iterations (%g), got %g",
                         c->file, path, hi->valuedouble, lo->valuedouble);
  out->params = obj;
  return VBC_OK;
}

/* `method` holds the coupler's name and own parameters and one object per group it declares;
 * the groups and parameters of other couplers are dropped (a scene runs under every coupler with
 * --set method.coupler=...). */
int vbc_scene_load_method(vbc_jctx *c, vbc_scene *s, cJSON *root, const cJSON *stated) {
  cJSON *m = vbc_json_object(c, root, "", "method", 0);
  if (m == NULL) return c->err->code;
  const char *name;
  char names[512];
  if (vbc_json_string(c, m, "method", "coupler", "strong", &name)) return c->err->code;
  if ((s->coupler = vbc_registry_coupler(s->registry, name)) == NULL) {
    vbc_registry_coupler_names(s->registry, names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.coupler: expected one of %s, got \"%s\"", c->file, names,
                         name);
  }
  const vbc_coupler_type *t = s->coupler;
  const char *fixed[VBC_MAX_GROUPS + 3] = {"coupler", "uncoupled_bodies"};
  for (size_t g = 0; g < t->ngroups; ++g) fixed[g + 2] = t->groups[g].key;
  const vbc_param_spec *tables[] = {t->params};
  for (cJSON *item = m->child, *next; item; item = next) {
    next = item->next;
    int mine = vbc_param_find(t->params, item->string) || vbc_coupler_group(t, item->string) ||
               strcmp(item->string, "coupler") == 0 ||
               strcmp(item->string, "uncoupled_bodies") == 0;
    if (!mine && vbc_registry_method_key_known(s->registry, item->string))
      cJSON_Delete(cJSON_DetachItemViaPointer(m, item));
  }
  if (vbc_scene_module_params(c, m, "method", fixed, tables, 1)) return c->err->code;
  /* core/coupler.h, body_traits: an ablation's explicit consent to free bodies the fluid block
   * cannot hold up under this coupler */
  /* (not written into the resolved scene when absent: it would change every sweep's case ids) */
  int uncoupled;
  if (cJSON_GetObjectItemCaseSensitive(m, "uncoupled_bodies") &&
      vbc_json_bool(c, m, "method", "uncoupled_bodies", 0, &uncoupled))
    return c->err->code;
  for (size_t g = 0; g < t->ngroups; ++g)
    if (load_group(c, s, m, &t->groups[g], &s->groups[g], stated) != VBC_OK) return c->err->code;
  s->ngroups = t->ngroups;
  s->method = m;
  return VBC_OK;
}

/* The registered modules that declare `key`: blocks of `kind` and solvers (group keys), or
 * couplers (kind VBC_BLOCK_NONE, solvers 0: method's own keys), as "block mps, solver jacobi". */
static void readers_of(const vbc_registry *reg, vbc_block_kind kind, int solvers, const char *key,
                       char *buf, size_t size) {
  size_t at = 0;
  buf[0] = '\0';
#define ADD(what, name)                                                                          \
  if (at < size) at += (size_t)snprintf(buf + at, size - at, "%s%s %s", at ? ", " : "", what, name)
  for (size_t i = 0; i < reg->nblocks; ++i)
    if (kind != VBC_BLOCK_NONE && reg->block[i]->kind == kind &&
        vbc_param_find(reg->block[i]->params, key))
      ADD("block", reg->block[i]->name);
  for (size_t i = 0; solvers && i < reg->nsolvers; ++i)
    if (vbc_param_find(reg->solver[i]->params, key)) ADD("solver", reg->solver[i]->name);
  for (size_t i = 0; kind == VBC_BLOCK_NONE && !solvers && i < reg->ncouplers; ++i)
    if (vbc_param_find(reg->coupler[i]->params, key) || vbc_coupler_group(reg->coupler[i], key))
      ADD("coupler", reg->coupler[i]->name);
#undef ADD
  if (buf[0] == '\0') snprintf(buf, size, "none");
}

/* What the selected modules of group g are, as "constraint staggered, solver pgs". */
static void selected_of(const vbc_method_group *g, char *buf, size_t size) {
  snprintf(buf, size, "%s%s%s%s%s", g->constraint ? "constraint " : "",
           g->constraint ? g->constraint->name : "", g->constraint && g->solver ? ", " : "",
           g->solver ? "solver " : "", g->solver ? g->solver->name : "");
}

/* One assignment PATH=VALUE of --set (or a sweep's set): when PATH is method.KEY or
 * method.GROUP.KEY and no module the scene selects reads it, the loader dropped it
 * (drop_unselected, vbc_scene_load_method), and a value the user chose would silently do
 * nothing: bad input naming the modules that would read it. Whole objects (method, method.fluid)
 * and the module choices themselves are not such keys. */
static int check_set(vbc_jctx *c, const vbc_scene *s, const char *set) {
  char path[160];
  const char *eq = strchr(set, '=');
  const size_t len = eq ? (size_t)(eq - set) : strlen(set);
  if (len >= sizeof path || strncmp(set, "method.", 7) != 0 || (eq && strcmp(eq + 1, "null") == 0))
    return VBC_OK; /* KEY=null: removed (vbc_scene_unset_nulls) */
  memcpy(path, set, len);
  path[len] = '\0';
  char *first = path + 7, *second = strchr(first, '.');
  if (second) *second++ = '\0';
  if (second && strchr(second, '.')) return VBC_OK; /* deeper: a module's object parameter */
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(s->resolved, "method");
  const vbc_group_spec *gs = vbc_coupler_group(s->coupler, first);
  char readers[512], chosen[160];
  if (second == NULL) {
    if (gs || strcmp(first, "coupler") == 0 || cJSON_GetObjectItemCaseSensitive(method, first))
      return VBC_OK;
    readers_of(s->registry, VBC_BLOCK_NONE, 0, first, readers, sizeof readers);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.%s: coupler \"%s\" does not read this key, so the value set "
                         "would do nothing; it is read under: %s", c->file, first,
                         s->coupler->name, readers);
  }
  if (gs == NULL) {
    readers_of(s->registry, VBC_BLOCK_NONE, 0, first, readers, sizeof readers);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.%s.%s: coupler \"%s\" has no group %s, so the value set would "
                         "do nothing; couplers with it: %s", c->file, first, second,
                         s->coupler->name, first, readers);
  }
  const cJSON *obj = cJSON_GetObjectItemCaseSensitive(method, first);
  if (strcmp(second, "constraint") == 0 || strcmp(second, "solver") == 0 ||
      cJSON_GetObjectItemCaseSensitive(obj, second))
    return VBC_OK;
  const vbc_method_group *g = NULL;
  for (size_t k = 0; k < s->ngroups && g == NULL; ++k)
    if (strcmp(s->groups[k].key, first) == 0) g = &s->groups[k];
  readers_of(s->registry, gs->constraint_kind, gs->solver_default != NULL, second, readers,
             sizeof readers);
  selected_of(g, chosen, sizeof chosen);
  return vbc_error_set(c->err, VBC_EXIT_INPUT,
                       "%s: method.%s.%s: no module selected for method.%s reads this key (%s), "
                       "so the value set would do nothing; it is read by: %s", c->file, first,
                       second, first, chosen, readers);
}

int vbc_scene_check_sets(vbc_jctx *c, const vbc_scene *s, const char *const *sets, int nsets) {
  for (int i = 0; i < nsets; ++i)
    if (check_set(c, s, sets[i]) != VBC_OK) return c->err->code;
  return VBC_OK;
}

void vbc_scene_unset_nulls(cJSON *root, const char *const *sets, int nsets) {
  for (int i = 0; i < nsets; ++i) {
    const char *eq = strchr(sets[i], '=');
    char path[160];
    if (eq == NULL || strcmp(eq + 1, "null") != 0 || strncmp(sets[i], "method.", 7) != 0 ||
        (size_t)(eq - sets[i]) >= sizeof path)
      continue;
    memcpy(path, sets[i], (size_t)(eq - sets[i]));
    path[eq - sets[i]] = '\0';
    cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "method");
    char *key = path + 7, *dot;
    while (obj && (dot = strchr(key, '.')) != NULL) {
      *dot = '\0';
      obj = cJSON_GetObjectItemCaseSensitive(obj, key);
      key = dot + 1;
    }
    if (cJSON_IsObject(obj)) cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  }
}
