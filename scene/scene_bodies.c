/* scene_bodies.c — the `bodies` key of a scene: shapes, motion, mass, pin and velocities, with
 * their checks (docs/scene-format.md#bodies). Part of the scene loader (scene/scene.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "scene/scene.h"
#include "scene/scene_parts.h"

#define MAX_SHAPE_DEPTH 16 /* unions of unions: sanity only, keeps the recursion bounded */

/* In vbc_motion order (core/body.h), so that motion_names[m] names motion m. */
static const char *const motion_names[] = {"free", "fixed", "pinned", "scripted", NULL};

void vbc_scene_free_body_shape(vbc_body_shape *sh) {
  free(sh->vertices);
  for (size_t k = 0; k < sh->nparts; ++k) vbc_scene_free_body_shape(&sh->parts[k]);
  free(sh->parts);
  vbc_scene_free_body_mesh(sh);
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
      vbc_scene_check_extent(c, s, path, sh->min, sh->max))
    return c->err->code;
  return VBC_OK;
}

static int load_body_disk(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                          vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "center", "radius", NULL};
  if (vbc_json_check_keys(c, item, path, keys) ||
      vbc_json_vec(c, item, path, "center", s->dim, NULL, &sh->center) ||
      vbc_json_number(c, item, path, "radius", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &sh->radius))
    return c->err->code;
  return VBC_OK;
}

static int load_body_cross(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                           vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "center", "length", "width", "angle", NULL};
  if (vbc_json_check_keys(c, item, path, keys) ||
      vbc_json_vec(c, item, path, "center", s->dim, NULL, &sh->center) ||
      vbc_json_number(c, item, path, "length", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &sh->length) ||
      vbc_json_number(c, item, path, "width", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &sh->width) ||
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
                         "%s: %s: expected \"box\", \"disk\", \"cross\", \"wedge\", \"mesh\" or "
                         "\"union\" in 3D (polygon is 2D only), got \"polygon\"",
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
  if (vbc_scene_typed_object(c, item, path, &type)) return c->err->code;
  if (strcmp(type, "box") == 0) sh->type = VBC_BODY_BOX;
  else if (strcmp(type, "disk") == 0) sh->type = VBC_BODY_DISK;
  else if (strcmp(type, "cross") == 0) sh->type = VBC_BODY_CROSS;
  else if (strcmp(type, "polygon") == 0) sh->type = VBC_BODY_POLYGON;
  else if (strcmp(type, "wedge") == 0) return vbc_scene_load_body_wedge(c, s, item, path, sh);
  else if (strcmp(type, "union") == 0) sh->type = VBC_BODY_UNION;
  else if (strcmp(type, "mesh") == 0) sh->type = VBC_BODY_MESH;
  else
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected one of \"box\", \"disk\", \"cross\", \"polygon\", "
                         "\"wedge\", \"union\", \"mesh\", got \"%.60s\"",
                         c->file, vbc_path_join(p, sizeof p, path, "type"), type);
  switch (sh->type) {
    case VBC_BODY_BOX: return load_body_box(c, s, item, path, sh);
    case VBC_BODY_DISK: return load_body_disk(c, s, item, path, sh);
    case VBC_BODY_CROSS: return load_body_cross(c, s, item, path, sh);
    case VBC_BODY_POLYGON: return load_body_polygon(c, s, item, path, sh);
    case VBC_BODY_UNION: return load_body_union(c, s, item, path, depth, sh);
    case VBC_BODY_MESH: return vbc_scene_load_body_mesh(c, s, item, path, sh);
  }
  return VBC_OK;
}

static int load_body_name(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                          size_t index, vbc_body_spec *b) {
  char def[32], p[256];
  snprintf(def, sizeof def, "body%zu", index);
  if (vbc_json_string(c, item, path, "name", def, &b->name)) return c->err->code;
  vbc_path_join(p, sizeof p, path, "name");
  if (!vbc_scene_name_ok(b->name))
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
  if (vbc_json_number(c, item, path, keys[first], VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &v))
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
                                     "angular_velocity", "lock", NULL};
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
      load_body_pin(c, s, item, path, b) || load_body_velocity(c, s, item, path, b) ||
      vbc_scene_load_body_lock(c, s, item, path, b))
    return c->err->code;
  return VBC_OK;
}

int vbc_scene_load_bodies(vbc_jctx *c, vbc_scene *s, cJSON *root) {
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
