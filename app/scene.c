/* scene.c — scene validation and defaults; see scene.h and docs/scene-format.md. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/benchmark.h"
#include "app/json_file.h"
#include "core/json_util.h"
#include "app/registry.h"
#include "app/scene.h"
#include "app/scene_parts.h"


static const char *const top_keys[] = {"name",     "description", "dim",    "spacing",
                                       "time",     "gravity",     "fluid",  "geometry",
                                       "bodies",   "domain",      "method", "output",
                                       "benchmark", NULL};

int vbc_scene_name_ok(const char *name) {
  int ok = name[0] != '\0' && name[0] != '.';
  for (const char *ch = name; *ch && ok; ++ch)
    ok = isalnum((unsigned char)*ch) || *ch == '_' || *ch == '-' || *ch == '.';
  return ok;
}

int vbc_scene_check_extent(vbc_jctx *c, const vbc_scene *s, const char *path, vbc_vec min,
                           vbc_vec max) {
  char p[256];
  for (int a = 0; a < s->dim; ++a) {
    double extent = vbc_vec_get(max, a) - vbc_vec_get(min, a);
    if (extent < s->spacing)
      return vbc_error_set(c->err, VBC_EXIT_INPUT,
                           "%s: %s: expected max - min >= spacing (%g) on every axis, got %g "
                           "on axis %d",
                           c->file, vbc_path_join(p, sizeof p, path, "max"), s->spacing, extent,
                           a);
  }
  return VBC_OK;
}

static int load_time(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"dt", "end", "output_interval", NULL};
  cJSON *t = vbc_json_object(c, root, "", "time", 1);
  if (t == NULL || vbc_json_check_keys(c, t, "time", keys)) return c->err->code;
  if (vbc_json_number(c, t, "time", "dt", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &s->dt) ||
      vbc_json_number(c, t, "time", "end", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &s->t_end) ||
      vbc_json_number(c, t, "time", "output_interval", fmax(s->t_end / 100.0, s->dt), 0.0, 1,
                      INFINITY, &s->output_interval))
    return c->err->code;
  return VBC_OK;
}

static int load_fluid(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"density", "viscosity", "re_over_l", "sph_support_over_l",
                                     "sph_kernel", "xsph", "viscosity_model", NULL};
  cJSON *f = vbc_json_object(c, root, "", "fluid", 0);
  const char *model, *kernel;
  if (f == NULL || vbc_json_check_keys(c, f, "fluid", keys)) return c->err->code;
  if (vbc_json_number(c, f, "fluid", "density", 1000.0, 0.0, 1, INFINITY, &s->density) ||
      vbc_json_number(c, f, "fluid", "viscosity", 0.0, 0.0, 0, INFINITY, &s->viscosity) ||
      vbc_json_number(c, f, "fluid", "re_over_l", 2.1, 1.0, 0, 10.0, &s->re_over_l) ||
      vbc_json_number(c, f, "fluid", "sph_support_over_l", 2.0, 1.0, 0, 4.0,
                      &s->sph_support_over_l) ||
      vbc_json_number(c, f, "fluid", "xsph", 0.0, 0.0, 0, 1.0, &s->xsph) ||
      vbc_json_string(c, f, "fluid", "viscosity_model", "mps", &model) ||
      vbc_json_string(c, f, "fluid", "sph_kernel", "cubic_spline", &kernel))
    return c->err->code;
  const int k = vbc_sph_kernel_parse(kernel);
  if (k < 0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: fluid.sph_kernel: expected one of \"cubic_spline\", \"wendland_c2\", "
                         "got \"%s\"", c->file, kernel);
  s->sph_kernel = (vbc_sph_kernel_type)k;
  if (strcmp(model, "mps") == 0) {
    s->viscosity_model = VBC_VISCOSITY_MPS;
  } else if (strcmp(model, "sph") == 0) {
    s->viscosity_model = VBC_VISCOSITY_SPH;
  } else {
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: fluid.viscosity_model: expected one of \"mps\", \"sph\", got "
                         "\"%s\"",
                         c->file, model);
  }
  return VBC_OK;
}

int vbc_scene_typed_object(vbc_jctx *c, cJSON *item, const char *path, const char **type) {
  if (!cJSON_IsObject(item)) {
    char got[96];
    vbc_json_describe(item, got, sizeof got);
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected an object, got %s", c->file,
                         path, got);
  }
  return vbc_json_string(c, item, path, "type", NULL, type);
}

static int load_shape(vbc_jctx *c, vbc_scene *s, cJSON *item, const char *path,
                      vbc_shape *sh) {
  static const char *const box_keys[] = {"type", "min", "max", "velocity", "strain_rate", NULL};
  static const char *const disk_keys[] = {"type",     "center",      "radius",
                                          "velocity", "strain_rate", NULL};
  static const char *const tank_keys[] = {"type", "min", "max", "layers", NULL};
  const char *type;
  if (vbc_scene_typed_object(c, item, path, &type)) return c->err->code;
  memset(sh, 0, sizeof *sh);
  const vbc_vec zero = vbc_vec_zero();
  char p[256];
  if (strcmp(type, "fluid_box") == 0 || strcmp(type, "tank") == 0) {
    int tank = type[0] == 't';
    sh->type = tank ? VBC_SHAPE_TANK : VBC_SHAPE_FLUID_BOX;
    if (vbc_json_check_keys(c, item, path, tank ? tank_keys : box_keys) ||
        vbc_json_vec(c, item, path, "min", s->dim, NULL, &sh->min) ||
        vbc_json_vec(c, item, path, "max", s->dim, NULL, &sh->max) ||
        vbc_scene_check_extent(c, s, path, sh->min, sh->max))
      return c->err->code;
    sh->center = vbc_vec_scale(vbc_vec_add(sh->min, sh->max), 0.5);
    if (tank) {
      long def = (long)ceil(s->re_over_l);
      return vbc_json_integer(c, item, path, "layers", def, 1, 20, &sh->layers);
    }
  } else if (strcmp(type, "fluid_disk") == 0) {
    sh->type = VBC_SHAPE_FLUID_DISK;
    if (vbc_json_check_keys(c, item, path, disk_keys) ||
        vbc_json_vec(c, item, path, "center", s->dim, NULL, &sh->center) ||
        vbc_json_number(c, item, path, "radius", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &sh->radius))
      return c->err->code;
  } else {
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected one of \"fluid_box\", \"fluid_disk\", \"tank\", got "
                         "\"%s\"",
                         c->file, vbc_path_join(p, sizeof p, path, "type"), type);
  }
  if (vbc_json_vec(c, item, path, "velocity", s->dim, &zero, &sh->velocity) ||
      vbc_json_number(c, item, path, "strain_rate", 0.0, -INFINITY, 0, INFINITY,
                      &sh->strain_rate))
    return c->err->code;
  if (sh->strain_rate != 0.0 && s->dim != 2)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected 0 in 3D (the strain field "
                         "u = A0 (x, -y) is defined for 2D scenes), got %g",
                         c->file, vbc_path_join(p, sizeof p, path, "strain_rate"),
                         sh->strain_rate);
  return VBC_OK;
}

/* Whether `bodies` is a non-empty array: such a scene may have no fluid (a pile of boxes on a
 * fixed floor), so geometry may then be empty or hold only tanks. */
static int has_bodies(const cJSON *root) {
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "bodies");
  return cJSON_IsArray(b) && cJSON_GetArraySize(b) > 0;
}

static int load_geometry(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  cJSON *g = cJSON_GetObjectItemCaseSensitive(root, "geometry");
  const int bodies = has_bodies(root);
  if (!cJSON_IsArray(g) || (cJSON_GetArraySize(g) == 0 && !bodies)) {
    char got[96];
    vbc_json_describe(g, got, sizeof got);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: geometry: expected a non-empty array of shapes (or [] in a scene "
                         "with bodies), got %s",
                         c->file, got);
  }
  s->nshapes = (size_t)cJSON_GetArraySize(g);
  s->shapes = vbc_calloc(s->nshapes, sizeof *s->shapes, c->err);
  if (s->shapes == NULL) return c->err->code;
  int any_fluid = 0; /* whether the shapes hold any particle is checked after generation */
  for (size_t i = 0; i < s->nshapes; ++i) {
    char path[64];
    vbc_path_index(path, sizeof path, "geometry", (int)i);
    if (load_shape(c, s, cJSON_GetArrayItem(g, (int)i), path, &s->shapes[i])) return c->err->code;
    const vbc_shape *sh = &s->shapes[i];
    if (sh->type != VBC_SHAPE_TANK) any_fluid = 1;
  }
  if (!any_fluid && !bodies)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: geometry: expected at least one fluid shape (fluid_box or "
                         "fluid_disk): the fluid is empty",
                         c->file);
  return VBC_OK;
}

static int load_domain(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"min", "max", NULL};
  cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "domain");
  if (d == NULL) return VBC_OK;
  if ((d = vbc_json_object(c, root, "", "domain", 1)) == NULL) return c->err->code;
  if (vbc_json_check_keys(c, d, "domain", keys) ||
      vbc_json_vec(c, d, "domain", "min", s->dim, NULL, &s->domain_min) ||
      vbc_json_vec(c, d, "domain", "max", s->dim, NULL, &s->domain_max))
    return c->err->code;
  for (int a = 0; a < s->dim; ++a)
    if (vbc_vec_get(s->domain_max, a) <= vbc_vec_get(s->domain_min, a))
      return vbc_error_set(c->err, VBC_EXIT_INPUT,
                           "%s: domain.max: expected every component > domain.min, got %g <= %g "
                           "on axis %d",
                           c->file, vbc_vec_get(s->domain_max, a), vbc_vec_get(s->domain_min, a),
                           a);
  s->has_domain = 1;
  return VBC_OK;
}

/* An object holding module parameters: its keys must be the `fixed` ones (the module names) or
 * keys of the parameter tables, and every table's values are checked and defaulted. */
static int load_module_params(vbc_jctx *c, cJSON *obj, const char *path,
                              const char *const *fixed, const vbc_param_spec *const *tables,
                              size_t ntables) {
  const char *allowed[96];
  size_t n = 0;
  for (const char *const *f = fixed; *f; ++f) allowed[n++] = *f;
  for (size_t t = 0; t < ntables; ++t)
    for (const vbc_param_spec *p = tables[t]; p && p->key; ++p) {
      if (n + 1 == sizeof allowed / sizeof *allowed)
        return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: too many parameters", c->file, path);
      allowed[n++] = p->key;
    }
  allowed[n] = NULL;
  if (vbc_json_check_keys(c, obj, path, allowed)) return c->err->code;
  for (size_t t = 0; t < ntables; ++t)
    if (vbc_params_resolve(obj, tables[t], c->file, path, c->err)) return c->err->code;
  return VBC_OK;
}

/* Drop from a module-parameter object (method.fluid, method.contact) the keys that a registered
 * module declares (`known`) but neither the `fixed` key names nor the selected modules' tables do
 * (alpha of mps under sph_density, ...): one scene then runs under every combination with --set,
 * and the resolved scene in summary.json shows only what was used. Keys no module declares stay
 * and are refused by load_module_params. */
static void drop_unselected_params(cJSON *obj, const char *const *fixed,
                                   const vbc_param_spec *const *tables, size_t ntables,
                                   int (*known)(const char *key)) {
  for (cJSON *item = obj->child, *next; item; item = next) {
    next = item->next;
    const char *k = item->string;
    int keep = !known(k);
    for (const char *const *f = fixed; *f && !keep; ++f) keep = strcmp(k, *f) == 0;
    for (size_t t = 0; t < ntables && !keep; ++t) keep = vbc_param_find(tables[t], k) != NULL;
    if (!keep) cJSON_Delete(cJSON_DetachItemViaPointer(obj, item));
  }
}

/* method.contact.solver, for a coupler that solves the contacts on their own (lemke_contacts):
 * the solver's parameters sit beside the contact block's in method.contact, so the two tables
 * must not share a key (one value cannot mean two things); a solver that declares one of the
 * contact block's keys is refused, naming it. Parameters of unselected solvers are dropped, as
 * in method.fluid. */
static int load_contact_solver(vbc_jctx *c, vbc_scene *s, cJSON *ct) {
  const char *name;
  char names[256];
  if (vbc_json_string(c, ct, "method.contact", "solver", "lemke", &name)) return c->err->code;
  if ((s->contact_solver = vbc_registry_solver(name)) == NULL) {
    vbc_registry_names("solver", names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.contact.solver: expected one of %s, got \"%s\"", c->file,
                         names, name);
  }
  const vbc_param_spec *contact = vbc_registry_contact_block()->params;
  for (const vbc_param_spec *p = s->contact_solver->params; p && p->key; ++p)
    if (vbc_param_find(contact, p->key))
      return vbc_error_set(c->err, VBC_EXIT_INPUT,
                           "%s: method.contact.solver: solver \"%s\" declares the parameter "
                           "\"%s\", which the contact block declares too (method.contact "
                           "cannot hold both)", c->file, name, p->key);
  static const char *const fixed[] = {"solver", NULL};
  const vbc_param_spec *tables[] = {contact, s->contact_solver->params};
  drop_unselected_params(ct, fixed, tables, 2, vbc_registry_solver_param_known);
  return VBC_OK;
}

/* method.contact: the contact block's parameters (and the pin block's alpha); under
 * lemke_contacts also the contact solver and its parameters. */
static int load_contact(vbc_jctx *c, vbc_scene *s, cJSON *m) {
  static const char *const no_keys[] = {NULL}, *const solver_key[] = {"solver", NULL};
  cJSON *ct = vbc_json_object(c, m, "method", "contact", 0);
  if (ct == NULL) return c->err->code;
  const int own = s->coupler->contact_solver;
  const cJSON *solver = cJSON_GetObjectItemCaseSensitive(ct, "solver");
  if (!own && solver != NULL) {
    char got[96];
    vbc_json_describe(solver, got, sizeof got);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.contact.solver: expected no solver for coupler \"%s\" "
                         "(only lemke_contacts solves the contacts on their own; the others use "
                         "method.fluid.solver), got %s", c->file, s->coupler->name, got);
  }
  if (own && load_contact_solver(c, s, ct) != VBC_OK) return c->err->code;
  const vbc_param_spec *tables[] = {vbc_registry_contact_block()->params,
                                    own ? s->contact_solver->params : NULL};
  if (load_module_params(c, ct, "method.contact", own ? solver_key : no_keys, tables, own ? 2 : 1))
    return c->err->code;
  const cJSON *lo = cJSON_GetObjectItemCaseSensitive(ct, "min_iterations");
  const cJSON *hi = cJSON_GetObjectItemCaseSensitive(ct, "max_iterations");
  if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi) && lo->valuedouble > hi->valuedouble)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.contact.min_iterations: expected at most max_iterations "
                         "(%g), got %g", c->file, hi->valuedouble, lo->valuedouble);
  s->contact_params = ct;
  return VBC_OK;
}

/* method.fluid holds the constraint's and the solver's parameters side by side. */
static int load_method(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"coupler", "fluid", "contact", NULL};
  cJSON *m = vbc_json_object(c, root, "", "method", 0);
  if (m == NULL || vbc_json_check_keys(c, m, "method", keys)) return c->err->code;
  const char *name;
  char names[256];
  if (vbc_json_string(c, m, "method", "coupler", "strong", &name)) return c->err->code;
  if ((s->coupler = vbc_registry_coupler(name)) == NULL) {
    vbc_registry_names("coupler", names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.coupler: expected one of %s, got \"%s\"", c->file, names,
                         name);
  }
  cJSON *f = vbc_json_object(c, m, "method", "fluid", 0);
  if (f == NULL) return c->err->code;
  if (vbc_json_string(c, f, "method.fluid", "constraint", "mps", &name)) return c->err->code;
  if ((s->fluid_constraint = vbc_registry_fluid_constraint(name)) == NULL) {
    vbc_registry_names("fluid_constraint", names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.fluid.constraint: expected one of %s, got \"%s\"", c->file,
                         names, name);
  }
  if (vbc_json_string(c, f, "method.fluid", "solver", "pgs", &name)) return c->err->code;
  if ((s->fluid_solver = vbc_registry_solver(name)) == NULL) {
    vbc_registry_names("solver", names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.fluid.solver: expected one of %s, got \"%s\"", c->file,
                         names, name);
  }
  static const char *const fluid_keys[] = {"constraint", "solver", NULL};
  const vbc_param_spec *fluid_tables[] = {s->fluid_constraint->params, s->fluid_solver->params};
  drop_unselected_params(f, fluid_keys, fluid_tables, 2, vbc_registry_fluid_param_known);
  if (load_module_params(c, f, "method.fluid", fluid_keys, fluid_tables, 2))
    return c->err->code;
  const cJSON *lo = cJSON_GetObjectItemCaseSensitive(f, "min_iterations");
  const cJSON *hi = cJSON_GetObjectItemCaseSensitive(f, "max_iterations");
  if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi) && lo->valuedouble > hi->valuedouble)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: method.fluid.min_iterations: expected at most max_iterations (%g), "
                         "got %g",
                         c->file, hi->valuedouble, lo->valuedouble);
  s->fluid_params = f;
  return load_contact(c, s, m);
}

static int load_output(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"frames", "frame_interval", "convergence_every", NULL};
  cJSON *o = vbc_json_object(c, root, "", "output", 0);
  if (o == NULL || vbc_json_check_keys(c, o, "output", keys)) return c->err->code;
  long steps_per_output = lround(s->output_interval / s->dt);
  if (steps_per_output < 1) steps_per_output = 1;
  if (vbc_json_bool(c, o, "output", "frames", 0, &s->frames) ||
      vbc_json_number(c, o, "output", "frame_interval", s->output_interval, 0.0, 1, INFINITY,
                      &s->frame_interval) ||
      vbc_json_integer(c, o, "output", "convergence_every", steps_per_output, 0, 1000000000L,
                       &s->convergence_every))
    return c->err->code;
  return VBC_OK;
}

static int load_benchmark(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "benchmark");
  if (b == NULL) return VBC_OK;
  if ((b = vbc_json_object(c, root, "", "benchmark", 1)) == NULL) return c->err->code;
  const char *name;
  if (vbc_json_string(c, b, "benchmark", "type", NULL, &name)) return c->err->code;
  if ((s->benchmark = vbc_registry_benchmark(name)) == NULL) {
    char names[256];
    vbc_registry_names("benchmark", names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: benchmark.type: expected one of %s, got \"%s\"", c->file, names,
                         name);
  }
  static const char *const type_key[] = {"type", NULL};
  const vbc_param_spec *table[] = {s->benchmark->params};
  if (load_module_params(c, b, "benchmark", type_key, table, 1)) return c->err->code;
  s->benchmark_params = b;
  return VBC_OK;
}

static int load_top(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  if (vbc_json_check_keys(c, root, "", top_keys)) return c->err->code;
  const char *base = strrchr(s->file, '/');
  base = base ? base + 1 : s->file;
  char stem[256];
  snprintf(stem, sizeof stem, "%.200s", base);
  char *dot = strrchr(stem, '.');
  if (dot) *dot = '\0';
  const char *desc;
  if (vbc_json_string(c, root, "", "name", stem, &s->name) ||
      vbc_json_string(c, root, "", "description", "", &desc))
    return c->err->code;
  /* the name becomes the default output directory results/<name> */
  if (!vbc_scene_name_ok(s->name))
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: name: expected letters, digits, '_', '-' or '.' (not first), got "
                         "\"%.60s\"",
                         c->file, s->name);
  long dim;
  if (vbc_json_integer(c, root, "", "dim", LONG_MIN, 2, 3, &dim)) return c->err->code;
  s->dim = (int)dim;
  if (vbc_json_number(c, root, "", "spacing", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &s->spacing))
    return c->err->code;
  vbc_vec g = vbc_vec_make(0.0, -9.80665, 0.0);
  return vbc_json_vec(c, root, "", "gravity", s->dim, &g, &s->gravity);
}

int vbc_scene_load(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                   vbc_error *err) {
  memset(s, 0, sizeof *s);
  snprintf(s->file, sizeof s->file, "%s", path);
  cJSON *root = vbc_json_load_file(path, err);
  if (root == NULL) return err->code;
  s->resolved = root;
  for (int i = 0; i < nsets; ++i)
    if (vbc_json_set_path(root, path, sets[i], err) != VBC_OK) return err->code;
  vbc_jctx c = {s->file, err};
  if (load_top(&c, s, root) || load_time(&c, s, root) || load_fluid(&c, s, root) ||
      load_geometry(&c, s, root) || vbc_scene_load_bodies(&c, s, root) || load_domain(&c, s, root) ||
      load_method(&c, s, root) || load_output(&c, s, root) || load_benchmark(&c, s, root))
    return err->code;
  if (s->dt > s->t_end)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: time.dt: expected a number <= time.end (%g), got %g", s->file,
                         s->t_end, s->dt);
  return VBC_OK;
}

void vbc_scene_free(vbc_scene *s) {
  cJSON_Delete(s->resolved);
  free(s->shapes);
  for (size_t i = 0; i < s->nbodies; ++i) vbc_scene_free_body_shape(&s->bodies[i].shape);
  free(s->bodies);
  memset(s, 0, sizeof *s);
}
