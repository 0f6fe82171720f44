/* scene.c — scene validation and defaults; see scene.h and docs/scene-format.md. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/benchmark.h"
#include "core/json_util.h"
#include "core/registry.h"
#include "core/scene.h"

#define NO_DEFAULT NAN

static const char *const top_keys[] = {"name",     "description", "dim",    "spacing",
                                       "time",     "gravity",     "fluid",  "geometry",
                                       "bodies",   "domain",      "method", "output",
                                       "benchmark", NULL};

/* Names become file names (the scene's: results/<name>; a body's may label output), so both
 * follow one rule: letters, digits, '_', '-', '.', not empty, not starting with '.'. */
static int name_ok(const char *name) {
  int ok = name[0] != '\0' && name[0] != '.';
  for (const char *ch = name; *ch && ok; ++ch)
    ok = isalnum((unsigned char)*ch) || *ch == '_' || *ch == '-' || *ch == '.';
  return ok;
}

/* Boxes (fluid_box, tank, body boxes) must hold at least one lattice cell per axis. */
static int check_extent(vbc_jctx *c, const vbc_scene *s, const char *path, vbc_vec min,
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
  if (vbc_json_number(c, t, "time", "dt", NO_DEFAULT, 0.0, 1, INFINITY, &s->dt) ||
      vbc_json_number(c, t, "time", "end", NO_DEFAULT, 0.0, 1, INFINITY, &s->t_end) ||
      vbc_json_number(c, t, "time", "output_interval", fmax(s->t_end / 100.0, s->dt), 0.0, 1,
                      INFINITY, &s->output_interval))
    return c->err->code;
  return VBC_OK;
}

static int load_fluid(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  static const char *const keys[] = {"density", "viscosity", "re_over_l", NULL};
  cJSON *f = vbc_json_object(c, root, "", "fluid", 0);
  if (f == NULL || vbc_json_check_keys(c, f, "fluid", keys)) return c->err->code;
  if (vbc_json_number(c, f, "fluid", "density", 1000.0, 0.0, 1, INFINITY, &s->density) ||
      vbc_json_number(c, f, "fluid", "viscosity", 0.0, 0.0, 0, INFINITY, &s->viscosity) ||
      vbc_json_number(c, f, "fluid", "re_over_l", 2.1, 1.0, 0, 10.0, &s->re_over_l))
    return c->err->code;
  return VBC_OK;
}

/* An array entry that must be an object with a string `type` (shapes of geometry and bodies). */
static int typed_object(vbc_jctx *c, cJSON *item, const char *path, const char **type) {
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
  if (typed_object(c, item, path, &type)) return c->err->code;
  memset(sh, 0, sizeof *sh);
  const vbc_vec zero = vbc_vec_zero();
  char p[256];
  if (strcmp(type, "fluid_box") == 0 || strcmp(type, "tank") == 0) {
    int tank = type[0] == 't';
    sh->type = tank ? VBC_SHAPE_TANK : VBC_SHAPE_FLUID_BOX;
    if (vbc_json_check_keys(c, item, path, tank ? tank_keys : box_keys) ||
        vbc_json_vec(c, item, path, "min", s->dim, NULL, &sh->min) ||
        vbc_json_vec(c, item, path, "max", s->dim, NULL, &sh->max) ||
        check_extent(c, s, path, sh->min, sh->max))
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
        vbc_json_number(c, item, path, "radius", NO_DEFAULT, 0.0, 1, INFINITY, &sh->radius))
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

/* ---- bodies (docs/scene-format.md#bodies) ---- */

#define MAX_SHAPE_DEPTH 16 /* unions of unions: sanity only, keeps the recursion bounded */

/* In vbc_motion order (core/body.h), so that motion_names[m] names motion m. */
static const char *const motion_names[] = {"free", "fixed", "pinned", "scripted", NULL};

static void free_body_shape(vbc_body_shape *sh) {
  free(sh->vertices);
  for (size_t k = 0; k < sh->nparts; ++k) free_body_shape(&sh->parts[k]);
  free(sh->parts);
  memset(sh, 0, sizeof *sh);
}

static int load_body_shape(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                           int depth, vbc_body_shape *sh);

static int load_body_box(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                         vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "min", "max", NULL};
  if (vbc_json_check_keys(c, item, path, keys) ||
      vbc_json_vec(c, item, path, "min", s->dim, NULL, &sh->min) ||
      vbc_json_vec(c, item, path, "max", s->dim, NULL, &sh->max) ||
      check_extent(c, s, path, sh->min, sh->max))
    return c->err->code;
  return VBC_OK;
}

static int load_body_disk(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                          vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "center", "radius", NULL};
  if (vbc_json_check_keys(c, item, path, keys) ||
      vbc_json_vec(c, item, path, "center", s->dim, NULL, &sh->center) ||
      vbc_json_number(c, item, path, "radius", NO_DEFAULT, 0.0, 1, INFINITY, &sh->radius))
    return c->err->code;
  return VBC_OK;
}

static int load_body_cross(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                           vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "center", "length", "width", "angle", NULL};
  if (vbc_json_check_keys(c, item, path, keys) ||
      vbc_json_vec(c, item, path, "center", s->dim, NULL, &sh->center) ||
      vbc_json_number(c, item, path, "length", NO_DEFAULT, 0.0, 1, INFINITY, &sh->length) ||
      vbc_json_number(c, item, path, "width", NO_DEFAULT, 0.0, 1, INFINITY, &sh->width) ||
      vbc_json_number(c, item, path, "angle", 0.0, -INFINITY, 0, INFINITY, &sh->angle))
    return c->err->code;
  char p[256];
  if (sh->width > sh->length)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected a number <= length (%g), got %g", c->file,
                         vbc_path_join(p, sizeof p, path, "width"), sh->length, sh->width);
  return VBC_OK;
}

/* Why the vertices do not make a convex polygon (written after "got "), or NULL if they do.
 * Collinear neighbours are allowed; every real turn must have the same sign, and the turns must
 * add up to one full turn (a pentagram turns one way too, but twice around). */
static const char *polygon_problem(const vbc_vec *v, size_t n, size_t *at, char *buf,
                                   size_t size) {
  double turn = 0.0;
  int sign = 0;
  for (size_t k = 0; k < n; ++k) {
    const vbc_vec a = v[(k + n - 1) % n], b = v[k], d = v[(k + 1) % n];
    const double e1x = b.x - a.x, e1y = b.y - a.y, e2x = d.x - b.x, e2y = d.y - b.y;
    const double cr = e1x * e2y - e1y * e2x, dt = e1x * e2x + e1y * e2y;
    *at = k;
    if (e1x == 0.0 && e1y == 0.0)
      return snprintf(buf, size, "vertex %zu equal to the one before it", k), buf;
    if (fabs(cr) <= 1e-12 * hypot(e1x, e1y) * hypot(e2x, e2y)) {
      if (dt < 0.0) return snprintf(buf, size, "a polygon that doubles back at vertex %zu", k), buf;
      continue;
    }
    const int sg = cr > 0.0 ? 1 : -1;
    if (sign != 0 && sg != sign)
      return snprintf(buf, size, "a non-convex polygon: it turns the other way at vertex %zu",
                      k), buf;
    sign = sg;
    turn += atan2(cr, dt);
  }
  *at = n;
  if (sign == 0) return snprintf(buf, size, "vertices on one line (no area)"), buf;
  if (fabs(fabs(turn) - 2.0 * M_PI) > 1e-6)
    return snprintf(buf, size, "a polygon whose edges cross (it winds %.0f times around)",
                    fabs(turn) / (2.0 * M_PI)), buf;
  return NULL;
}

/* One array element that must be a point of dim finite numbers. */
static int load_point(vbc_jctx *c, const cJSON *e, const char *path, int dim, vbc_vec *out) {
  int ok = cJSON_IsArray(e) && cJSON_GetArraySize(e) == dim;
  *out = vbc_vec_zero();
  for (int a = 0; ok && a < dim; ++a) {
    const cJSON *x = cJSON_GetArrayItem(e, a);
    ok = cJSON_IsNumber(x) && isfinite(x->valuedouble);
    if (ok) vbc_vec_set(out, a, x->valuedouble);
  }
  if (ok) return VBC_OK;
  char got[96];
  vbc_json_describe(e, got, sizeof got);
  return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected an array of %d numbers, got %s",
                       c->file, path, dim, got);
}

static int load_body_polygon(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                             vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "vertices", NULL};
  char p[256], vp[256], got[96];
  if (s->dim != 2)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected \"box\", \"disk\", \"cross\" or \"union\" in 3D "
                         "(polygon is 2D only), got \"polygon\"",
                         c->file, vbc_path_join(p, sizeof p, path, "type"));
  if (vbc_json_check_keys(c, item, path, keys)) return c->err->code;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, "vertices");
  vbc_path_join(vp, sizeof vp, path, "vertices");
  vbc_json_describe(v, got, sizeof got);
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 3)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected an array of at least 3 points, got %s", c->file, vp,
                         got);
  sh->nvertices = (size_t)cJSON_GetArraySize(v);
  if ((sh->vertices = vbc_calloc(sh->nvertices, sizeof *sh->vertices, c->err)) == NULL)
    return c->err->code;
  for (size_t k = 0; k < sh->nvertices; ++k)
    if (load_point(c, cJSON_GetArrayItem(v, (int)k), vbc_path_index(p, sizeof p, vp, (int)k),
                   2, &sh->vertices[k]))
      return c->err->code;
  size_t at;
  char why[128];
  if (polygon_problem(sh->vertices, sh->nvertices, &at, why, sizeof why) == NULL) return VBC_OK;
  if (at < sh->nvertices) vbc_path_index(vp, sizeof vp, vbc_path_join(p, sizeof p, path,
                                                                       "vertices"), (int)at);
  return vbc_error_set(c->err, VBC_EXIT_INPUT,
                       "%s: %s: expected the vertices of a convex polygon (either orientation), "
                       "got %s",
                       c->file, vp, why);
}

static int load_body_union(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                           int depth, vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "parts", NULL};
  char p[256], pp[256], got[96];
  if (vbc_json_check_keys(c, item, path, keys)) return c->err->code;
  cJSON *parts = cJSON_GetObjectItemCaseSensitive(item, "parts");
  vbc_path_join(pp, sizeof pp, path, "parts");
  vbc_json_describe(parts, got, sizeof got);
  if (!cJSON_IsArray(parts) || cJSON_GetArraySize(parts) == 0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected a non-empty array of shapes, got %s", c->file, pp, got);
  if (depth >= MAX_SHAPE_DEPTH)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected unions nested at most %d deep", c->file, pp,
                         MAX_SHAPE_DEPTH);
  size_t n = (size_t)cJSON_GetArraySize(parts);
  if ((sh->parts = vbc_calloc(n, sizeof *sh->parts, c->err)) == NULL) return c->err->code;
  sh->nparts = n; /* set at once so that vbc_scene_free frees what was loaded */
  for (size_t k = 0; k < n; ++k)
    if (load_body_shape(c, s, cJSON_GetArrayItem(parts, (int)k),
                        vbc_path_index(p, sizeof p, pp, (int)k), depth + 1, &sh->parts[k]))
      return c->err->code;
  return VBC_OK;
}

static int load_body_shape(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                           int depth, vbc_body_shape *sh) {
  char p[256];
  const char *type;
  if (typed_object(c, item, path, &type)) return c->err->code;
  if (strcmp(type, "box") == 0) sh->type = VBC_BODY_BOX;
  else if (strcmp(type, "disk") == 0) sh->type = VBC_BODY_DISK;
  else if (strcmp(type, "cross") == 0) sh->type = VBC_BODY_CROSS;
  else if (strcmp(type, "polygon") == 0) sh->type = VBC_BODY_POLYGON;
  else if (strcmp(type, "union") == 0) sh->type = VBC_BODY_UNION;
  else
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected one of \"box\", \"disk\", \"cross\", \"polygon\", "
                         "\"union\", got \"%.60s\"",
                         c->file, vbc_path_join(p, sizeof p, path, "type"), type);
  switch (sh->type) {
    case VBC_BODY_BOX: return load_body_box(c, s, item, path, sh);
    case VBC_BODY_DISK: return load_body_disk(c, s, item, path, sh);
    case VBC_BODY_CROSS: return load_body_cross(c, s, item, path, sh);
    case VBC_BODY_POLYGON: return load_body_polygon(c, s, item, path, sh);
    case VBC_BODY_UNION: return load_body_union(c, s, item, path, depth, sh);
  }
  return VBC_OK;
}

static int load_body_name(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                          size_t index, vbc_body_spec *b) {
  char def[32], p[256];
  snprintf(def, sizeof def, "body%zu", index);
  if (vbc_json_string(c, item, path, "name", def, &b->name)) return c->err->code;
  vbc_path_join(p, sizeof p, path, "name");
  if (!name_ok(b->name))
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected letters, digits, '_', '-' or '.' (not first), got "
                         "\"%.60s\"",
                         c->file, p, b->name);
  /* names label the bodies in messages and output, so they must tell them apart */
  for (size_t k = 0; k < index; ++k)
    if (strcmp(s->bodies[k].name, b->name) == 0)
      return vbc_error_set(c->err, VBC_EXIT_INPUT,
                           "%s: %s: expected a name no other body has, got \"%.60s\" (the name "
                           "of bodies.%zu)",
                           c->file, p, b->name, k);
  return VBC_OK;
}

static int load_body_motion(vbc_jctx *c, cJSON *item, const char *path, vbc_body_spec *b) {
  const char *name;
  char p[256];
  if (vbc_json_string(c, item, path, "motion", "free", &name)) return c->err->code;
  for (int k = 0; motion_names[k]; ++k)
    if (strcmp(name, motion_names[k]) == 0) {
      b->motion = (vbc_motion)k;
      return VBC_OK;
    }
  return vbc_error_set(c->err, VBC_EXIT_INPUT,
                       "%s: %s: expected one of \"free\", \"fixed\", \"pinned\", \"scripted\", "
                       "got \"%.60s\"",
                       c->file, vbc_path_join(p, sizeof p, path, "motion"), name);
}

static int infinite_mass(vbc_motion m) {
  return m == VBC_MOTION_FIXED || m == VBC_MOTION_SCRIPTED;
}

/* A key that this motion type does not allow; `why` ends the message. */
static int not_allowed(vbc_jctx *c, const cJSON *item, const char *path, const char *key,
                       const char *why) {
  char p[256], got[96];
  vbc_json_describe(cJSON_GetObjectItemCaseSensitive(item, key), got, sizeof got);
  return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected no %s %s, got %s", c->file,
                       vbc_path_join(p, sizeof p, path, key), key, why, got);
}

/* Exactly one of density_ratio, density, mass for free and pinned bodies; none for fixed and
 * scripted ones, whose mass is infinite. */
static int load_body_mass(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                          vbc_body_spec *b) {
  static const char *const keys[] = {"density_ratio", "density", "mass"};
  const char *motion = motion_names[b->motion];
  int first = -1, second = -1;
  for (int k = 0; k < 3; ++k)
    if (cJSON_GetObjectItemCaseSensitive(item, keys[k])) {
      if (first < 0) first = k;
      else if (second < 0) second = k;
    }
  char p[256], why[160];
  if (infinite_mass(b->motion)) {
    snprintf(why, sizeof why, "on a %s body (its mass is infinite: gravity and impulses do not "
             "move it)", motion);
    return first < 0 ? VBC_OK : not_allowed(c, item, path, keys[first], why);
  }
  if (first < 0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected exactly one of density_ratio, density, mass for a %s "
                         "body, got none",
                         c->file, path, motion);
  if (second >= 0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected exactly one of density_ratio, density, mass, got both "
                         "%s and %s",
                         c->file, vbc_path_join(p, sizeof p, path, keys[second]), keys[first],
                         keys[second]);
  double v;
  if (vbc_json_number(c, item, path, keys[first], NO_DEFAULT, 0.0, 1, INFINITY, &v))
    return c->err->code;
  if (first == 0) b->density = v * s->density;
  else if (first == 1) b->density = v;
  else b->mass = v;
  return VBC_OK;
}

/* Pinned bodies only; without `pin` the simulation pins the centre of mass (has_pin = 0), which
 * is not known before the particles exist, so no default is written. */
static int load_body_pin(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                         vbc_body_spec *b) {
  if (cJSON_GetObjectItemCaseSensitive(item, "pin") == NULL) return VBC_OK;
  if (b->motion != VBC_MOTION_PINNED) {
    char why[160];
    snprintf(why, sizeof why, "on a %s body (only \"pinned\" bodies have a pin)",
             motion_names[b->motion]);
    return not_allowed(c, item, path, "pin", why);
  }
  if (vbc_json_vec(c, item, path, "pin", s->dim, NULL, &b->pin)) return c->err->code;
  b->has_pin = 1;
  return VBC_OK;
}

/* velocity and angular_velocity (a number about z in 2D, 3 numbers in 3D): initial for free and
 * pinned bodies, prescribed for scripted ones, not allowed for fixed ones. */
static int load_body_velocity(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                              vbc_body_spec *b) {
  const vbc_vec zero = vbc_vec_zero();
  if (b->motion == VBC_MOTION_FIXED) {
    const char *why = "on a fixed body (it never moves; \"scripted\" bodies move with a "
                      "prescribed velocity)";
    if (cJSON_GetObjectItemCaseSensitive(item, "velocity"))
      return not_allowed(c, item, path, "velocity", why);
    if (cJSON_GetObjectItemCaseSensitive(item, "angular_velocity"))
      return not_allowed(c, item, path, "angular_velocity", why);
    return VBC_OK;
  }
  if (vbc_json_vec(c, item, path, "velocity", s->dim, &zero, &b->velocity)) return c->err->code;
  if (s->dim == 3)
    return vbc_json_vec(c, item, path, "angular_velocity", 3, &zero, &b->angular_velocity);
  return vbc_json_number(c, item, path, "angular_velocity", 0.0, -INFINITY, 0, INFINITY,
                         &b->angular_velocity.z);
}

static int load_body(vbc_jctx *c, vbc_scene *s, cJSON *item, const char *path, size_t index) {
  static const char *const keys[] = {"name",     "shape",    "motion", "density_ratio",
                                     "density",  "mass",     "pin",    "velocity",
                                     "angular_velocity",   NULL};
  vbc_body_spec *b = &s->bodies[index];
  char got[96], p[256];
  vbc_json_describe(item, got, sizeof got);
  if (!cJSON_IsObject(item))
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected an object, got %s", c->file,
                         path, got);
  if (vbc_json_check_keys(c, item, path, keys) || load_body_name(c, s, item, path, index, b))
    return c->err->code;
  cJSON *shape = vbc_json_object(c, item, path, "shape", 1);
  if (shape == NULL ||
      load_body_shape(c, s, shape, vbc_path_join(p, sizeof p, path, "shape"), 0, &b->shape) ||
      load_body_motion(c, item, path, b) || load_body_mass(c, s, item, path, b) ||
      load_body_pin(c, s, item, path, b) || load_body_velocity(c, s, item, path, b))
    return c->err->code;
  return VBC_OK;
}

static int load_bodies(vbc_jctx *c, vbc_scene *s, cJSON *root) {
  cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "bodies");
  if (arr == NULL) return VBC_OK;
  if (!cJSON_IsArray(arr)) {
    char got[96];
    vbc_json_describe(arr, got, sizeof got);
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: bodies: expected an array of bodies, got %s",
                         c->file, got);
  }
  size_t n = (size_t)cJSON_GetArraySize(arr);
  if (n == 0) return VBC_OK;
  if ((s->bodies = vbc_calloc(n, sizeof *s->bodies, c->err)) == NULL) return c->err->code;
  s->nbodies = n; /* set at once so that vbc_scene_free frees what was loaded */
  for (size_t i = 0; i < n; ++i) {
    char path[64];
    vbc_path_index(path, sizeof path, "bodies", (int)i);
    if (load_body(c, s, cJSON_GetArrayItem(arr, (int)i), path, i)) return c->err->code;
  }
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
  static const char *const no_keys[] = {NULL};
  const vbc_param_spec *contact_table[] = {vbc_registry_contact_block()->params};
  cJSON *ct = vbc_json_object(c, m, "method", "contact", 0);
  if (ct == NULL || load_module_params(c, ct, "method.contact", no_keys, contact_table, 1))
    return c->err->code;
  s->contact_params = ct;
  return VBC_OK;
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
  if (!name_ok(s->name))
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: name: expected letters, digits, '_', '-' or '.' (not first), got "
                         "\"%.60s\"",
                         c->file, s->name);
  long dim;
  if (vbc_json_integer(c, root, "", "dim", LONG_MIN, 2, 3, &dim)) return c->err->code;
  s->dim = (int)dim;
  if (vbc_json_number(c, root, "", "spacing", NO_DEFAULT, 0.0, 1, INFINITY, &s->spacing))
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
      load_geometry(&c, s, root) || load_bodies(&c, s, root) || load_domain(&c, s, root) ||
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
  for (size_t i = 0; i < s->nbodies; ++i) free_body_shape(&s->bodies[i].shape);
  free(s->bodies);
  memset(s, 0, sizeof *s);
}
