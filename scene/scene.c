/* scene.c — scene validation and defaults; see scene.h and docs/scene-format.md. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "registry/benchmark.h"
#include "scene/relaxation_check.h"
#include "io/json_file.h"
#include "core/json_util.h"
#include "scene/scene.h"
#include "scene/scene_parts.h"


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
  static const char *const keys[] = {"dt", "end", "output_interval", "cfl", "dt_max", "dt_min",
                                     NULL};
  cJSON *t = vbc_json_object(c, root, "", "time", 1);
  if (t == NULL || vbc_json_check_keys(c, t, "time", keys)) return c->err->code;
  /* before the getters fill in the defaults */
  const char *bound = cJSON_GetObjectItemCaseSensitive(t, "dt_max")   ? "dt_max"
                      : cJSON_GetObjectItemCaseSensitive(t, "dt_min") ? "dt_min"
                                                                      : NULL;
  if (vbc_json_number(c, t, "time", "dt", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &s->dt) ||
      vbc_json_number(c, t, "time", "end", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &s->t_end) ||
      vbc_json_number(c, t, "time", "output_interval", fmax(s->t_end / 100.0, s->dt), 0.0, 1,
                      INFINITY, &s->output_interval) ||
      vbc_json_number(c, t, "time", "cfl", 0.0, 0.0, 0, 1.0, &s->cfl) ||
      vbc_json_number(c, t, "time", "dt_max", s->dt, 0.0, 1, INFINITY, &s->dt_max) ||
      vbc_json_number(c, t, "time", "dt_min", s->dt_max * 1e-3, 0.0, 1, INFINITY, &s->dt_min))
    return c->err->code;
  if (s->cfl == 0.0 && bound)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: time.%s: expected only with time.cfl > 0 "
                         "(adaptive time steps); with fixed steps every step is time.dt",
                         c->file, bound);
  if (s->cfl > 0.0 && s->dt_min > s->dt_max)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: time.dt_min: expected a number <= "
                         "time.dt_max (%g), got %g", c->file, s->dt_max, s->dt_min);
  return VBC_OK;
}

/* fluid.wall_viscosity: "no_slip" (1, default), "free_slip" (0) or a factor >= 0 on the wall and
 * body terms of the viscous Laplacian (core/viscosity.h). */
static int load_wall_viscosity(vbc_jctx *c, cJSON *f, double *factor) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "wall_viscosity");
  *factor = 1.0;
  if (v == NULL || (cJSON_IsString(v) && strcmp(v->valuestring, "no_slip") == 0)) return VBC_OK;
  if (cJSON_IsString(v) && strcmp(v->valuestring, "free_slip") == 0) return *factor = 0.0, VBC_OK;
  if (cJSON_IsNumber(v) && v->valuedouble >= 0.0 && isfinite(v->valuedouble))
    return *factor = v->valuedouble, VBC_OK;
  char got[96];
  vbc_json_describe(v, got, sizeof got);
  return vbc_error_set(c->err, VBC_EXIT_INPUT,
                       "%s: fluid.wall_viscosity: expected \"no_slip\", \"free_slip\" or a "
                       "number >= 0, got %s", c->file, got);
}

static int load_fluid(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"density", "viscosity", "re_over_l", "sph_support_over_l",
                                     "sph_kernel", "xsph", "viscosity_model", "wall_viscosity",
                                     "wall_viscosity_tangential", "agitation", NULL};
  cJSON *f = vbc_json_object(c, root, "", "fluid", 0);
  const char *model, *kernel;
  if (f == NULL || vbc_json_check_keys(c, f, "fluid", keys)) return c->err->code;
  if (vbc_json_number(c, f, "fluid", "density", 1000.0, 0.0, 1, INFINITY, &s->density) ||
      vbc_json_number(c, f, "fluid", "viscosity", 0.0, 0.0, 0, INFINITY, &s->viscosity) ||
      vbc_json_number(c, f, "fluid", "re_over_l", 2.1, 1.0, 0, 10.0, &s->re_over_l) ||
      vbc_json_number(c, f, "fluid", "sph_support_over_l", 2.0, 1.0, 0, 4.0,
                      &s->sph_support_over_l) ||
      vbc_json_number(c, f, "fluid", "xsph", 0.0, 0.0, 0, 1.0, &s->xsph) ||
      vbc_json_number(c, f, "fluid", "agitation", 0.0, 0.0, 0, 0.5, &s->agitation) ||
      vbc_json_string(c, f, "fluid", "viscosity_model", "mps", &model) ||
      vbc_json_string(c, f, "fluid", "sph_kernel", "cubic_spline", &kernel) ||
      load_wall_viscosity(c, f, &s->wall_viscosity) ||
      vbc_json_bool(c, f, "fluid", "wall_viscosity_tangential", 0,
                    &s->wall_viscosity_tangential))
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
      /* a full support of wall for the widest kernel: r_e, and the SPH support H */
      long def = (long)ceil(fmax(s->re_over_l, s->sph_support_over_l));
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

static int load_output(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"frames", "compress_frames", "frame_interval",
                                     "convergence_every", "strict", NULL};
  cJSON *o = vbc_json_object(c, root, "", "output", 0);
  if (o == NULL || vbc_json_check_keys(c, o, "output", keys)) return c->err->code;
  long steps_per_output = lround(s->output_interval / s->dt);
  if (steps_per_output < 1) steps_per_output = 1;
  if (vbc_json_bool(c, o, "output", "frames", 0, &s->frames) ||
      vbc_json_number(c, o, "output", "frame_interval", s->output_interval, 0.0, 1, INFINITY,
                      &s->frame_interval) ||
      vbc_json_integer(c, o, "output", "convergence_every", steps_per_output, 0, 1000000000L,
                       &s->convergence_every) ||
      vbc_json_bool(c, o, "output", "compress_frames", 0, &s->compress_frames))
    return c->err->code;
  /* read only when given: a default written into the resolved scene would change every sweep's
   * case ids */
  if (cJSON_GetObjectItemCaseSensitive(o, "strict") &&
      vbc_json_bool(c, o, "output", "strict", 0, &s->strict))
    return c->err->code;
  return VBC_OK;
}

static int load_benchmark(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "benchmark");
  if (b == NULL) return VBC_OK;
  if ((b = vbc_json_object(c, root, "", "benchmark", 1)) == NULL) return c->err->code;
  const char *name;
  if (vbc_json_string(c, b, "benchmark", "type", NULL, &name)) return c->err->code;
  if ((s->benchmark = vbc_registry_benchmark(s->registry, name)) == NULL) {
    char names[512];
    vbc_registry_benchmark_names(s->registry, names, sizeof names);
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: benchmark.type: expected one of %s, got \"%s\"", c->file, names,
                         name);
  }
  static const char *const type_key[] = {"type", NULL};
  const vbc_param_spec *table[] = {s->benchmark->params};
  if (vbc_scene_module_params(c, b, "benchmark", type_key, table, 1)) return c->err->code;
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

static int load(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                const vbc_registry *registry, double max_particles, vbc_error *err) {
  memset(s, 0, sizeof *s);
  s->max_particles = max_particles;
  snprintf(s->file, sizeof s->file, "%s", path);
  s->registry = registry;
  cJSON *root = vbc_json_load_file(path, err);
  if (root == NULL) return err->code;
  s->resolved = root;
  /* the method as the scene states it: the file's, or a whole-method assignment's (a preset) */
  const cJSON *file_method = cJSON_GetObjectItemCaseSensitive(root, "method");
  cJSON *stated = file_method ? cJSON_Duplicate(file_method, 1) : cJSON_CreateObject();
  for (int i = 0; i < nsets; ++i) {
    if (vbc_json_set_path(root, path, sets[i], err) != VBC_OK)
      return cJSON_Delete(stated), err->code;
    if (strncmp(sets[i], "method=", 7) == 0) {
      cJSON_Delete(stated);
      stated = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(root, "method"), 1);
    }
  }
  vbc_scene_unset_nulls(root, sets, nsets);
  vbc_jctx c = {s->file, err};
  if (load_top(&c, s, root) || load_time(&c, s, root) || load_fluid(&c, s, root) ||
      load_geometry(&c, s, root) || vbc_scene_load_bodies(&c, s, root) || load_domain(&c, s, root) ||
      vbc_scene_load_method(&c, s, root, stated) || vbc_scene_check_sets(&c, s, sets, nsets) ||
      load_output(&c, s, root) || load_benchmark(&c, s, root))
    return cJSON_Delete(stated), err->code;
  cJSON_Delete(stated);
  if (s->dt > s->t_end)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: time.dt: expected a number <= time.end (%g), got %g", s->file,
                         s->t_end, s->dt);
  return vbc_scene_check_relaxation(s, err);
}

int vbc_scene_load_within(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                          const vbc_registry *registry, double max_particles, vbc_error *err) {
  const int rc = load(s, path, sets, nsets, registry, max_particles, err);
  if (rc != VBC_OK) vbc_scene_free(s); /* a library caller has nothing to clean up */
  return rc;
}

int vbc_scene_load(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                   const vbc_registry *registry, vbc_error *err) {
  return vbc_scene_load_within(s, path, sets, nsets, registry, 0.0, err);
}

void vbc_scene_free(vbc_scene *s) {
  cJSON_Delete(s->resolved);
  free(s->shapes);
  for (size_t i = 0; i < s->nbodies; ++i) vbc_scene_free_body_shape(&s->bodies[i].shape);
  free(s->bodies);
  memset(s, 0, sizeof *s);
}
