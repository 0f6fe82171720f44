/* scene_wedge_lock.c — two parts of the `bodies` key (docs/scene-format.md#bodies): the body
 * shape `wedge` and the motion option `lock`. Part of the scene loader (scene/scene_bodies.c).
 *
 * wedge: the 2D section of a symmetric wedge pointing down, as dropped in water-entry
 * experiments (Zhao, Faltinsen & Aarsnes 1996; He et al. 2012 §7.2, Fig. 11). From the apex the
 * two bottom faces rise at the deadrise angle beta above the horizontal to the chines at
 * apex + (+-B/2, (B/2) tan beta); above the chines the sides are vertical up to apex.y + height
 * (default: the chine height, a triangle). It is stored as the convex polygon of those vertices,
 * so its particles follow the polygon's lattice rule (scene/body_shape.h). In 3D the section is
 * extruded along z over `length`, centred on apex.z: the drop-test model itself (1 m long in
 * Zhao et al.'s experiment, whose force was measured on a 0.2 m section in its middle).
 *
 * lock: the world axes along which a free body cannot move (core/body.h: zero inverse mass or
 * inverse inertia there): an array of distinct names "x", "y", "z" (translation; "z" 3D only),
 * "rotation_x", "rotation_y" (3D only), "rotation_z" and "rotation" (every rotation). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene_parts.h"

int vbc_scene_load_body_wedge(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                              vbc_body_shape *sh) {
  static const char *const keys2[] = {"type", "apex", "deadrise_deg", "breadth", "height", NULL};
  static const char *const keys3[] = {"type",   "apex",   "deadrise_deg", "breadth",
                                      "height", "length", NULL};
  char p[256];
  vbc_vec apex;
  double beta, breadth, height, length = 0.0;
  if (vbc_json_check_keys(c, item, path, s->dim == 3 ? keys3 : keys2) ||
      vbc_json_vec(c, item, path, "apex", s->dim, NULL, &apex) ||
      vbc_json_number(c, item, path, "deadrise_deg", VBC_SCENE_NO_DEFAULT, 0.0, 1, 90.0, &beta) ||
      vbc_json_number(c, item, path, "breadth", VBC_SCENE_NO_DEFAULT, 0.0, 1, INFINITY, &breadth) ||
      (s->dim == 3 && vbc_json_number(c, item, path, "length", VBC_SCENE_NO_DEFAULT, 0.0, 1,
                                      INFINITY, &length)))
    return c->err->code;
  if (beta >= 90.0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected a number in (0, 90), got %g",
                         c->file, vbc_path_join(p, sizeof p, path, "deadrise_deg"), beta);
  const double half = 0.5 * breadth, chine = half * tan(beta * M_PI / 180.0);
  /* a height equal to the chine height up to round-off still means the triangle */
  if (vbc_json_number(c, item, path, "height", chine, chine * (1.0 - 1e-9), 0, INFINITY,
                      &height))
    return c->err->code;
  const int triangle = height <= chine * (1.0 + 1e-9);
  sh->type = VBC_BODY_POLYGON;
  sh->nvertices = triangle ? 3 : 5;
  if ((sh->vertices = vbc_calloc(sh->nvertices, sizeof *sh->vertices, c->err)) == NULL)
    return c->err->code;
  size_t k = 0; /* counter-clockwise from the apex */
  sh->vertices[k++] = apex;
  sh->vertices[k++] = vbc_vec_make(apex.x + half, apex.y + chine, 0.0);
  if (!triangle) {
    sh->vertices[k++] = vbc_vec_make(apex.x + half, apex.y + height, 0.0);
    sh->vertices[k++] = vbc_vec_make(apex.x - half, apex.y + height, 0.0);
  }
  sh->vertices[k++] = vbc_vec_make(apex.x - half, apex.y + chine, 0.0);
  if (s->dim == 3) /* the extrusion's ends (vertices keep z = 0) */
    sh->min.z = apex.z - 0.5 * length, sh->max.z = apex.z + 0.5 * length;
  return VBC_OK;
}

/* One lock name: its bits, or 0 if it is not a name of this dimension. */
static unsigned lock_bits(const char *name, int dim) {
  static const struct { const char *name; unsigned bits; int dim3; } names[] = {
      {"x", VBC_LOCK_X, 0},
      {"y", VBC_LOCK_Y, 0},
      {"z", VBC_LOCK_Z, 1},
      {"rotation_x", VBC_LOCK_ROT_X, 1},
      {"rotation_y", VBC_LOCK_ROT_Y, 1},
      {"rotation_z", VBC_LOCK_ROT_Z, 0},
      {"rotation", VBC_LOCK_ROT_X | VBC_LOCK_ROT_Y | VBC_LOCK_ROT_Z, 0},
  };
  for (size_t k = 0; k < sizeof names / sizeof *names; ++k)
    if (strcmp(name, names[k].name) == 0 && (dim == 3 || !names[k].dim3))
      return dim == 2 ? names[k].bits & (VBC_LOCK_X | VBC_LOCK_Y | VBC_LOCK_ROT_Z) : names[k].bits;
  return 0;
}

int vbc_scene_load_body_lock(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                             vbc_body_spec *b) {
  const cJSON *lock = cJSON_GetObjectItemCaseSensitive(item, "lock");
  if (lock == NULL) return VBC_OK;
  char p[256], ep[256], got[96];
  vbc_path_join(p, sizeof p, path, "lock");
  vbc_json_describe(lock, got, sizeof got);
  if (b->motion != VBC_MOTION_FREE)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected no lock on a %s body (only \"free\" bodies have "
                         "locks), got %s",
                         c->file, p, vbc_motion_name(b->motion), got);
  const char *names = s->dim == 2 ? "\"x\", \"y\", \"rotation_z\", \"rotation\""
                                  : "\"x\", \"y\", \"z\", \"rotation_x\", \"rotation_y\", "
                                    "\"rotation_z\", \"rotation\"";
  if (!cJSON_IsArray(lock))
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected an array of distinct names among %s, got %s", c->file,
                         p, names, got);
  for (int k = 0; k < cJSON_GetArraySize(lock); ++k) {
    const cJSON *e = cJSON_GetArrayItem(lock, k);
    const unsigned bits = cJSON_IsString(e) ? lock_bits(e->valuestring, s->dim) : 0;
    vbc_path_index(ep, sizeof ep, p, k);
    vbc_json_describe(e, got, sizeof got);
    if (bits == 0)
      return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected one of %s (%dD), got %s",
                           c->file, ep, names, s->dim, got);
    if (b->lock & bits)
      return vbc_error_set(c->err, VBC_EXIT_INPUT,
                           "%s: %s: expected a name not locked before in the array, got %s",
                           c->file, ep, got);
    b->lock |= bits;
  }
  /* the locked components of the initial velocity must be zero (they would stay forever) */
  const vbc_vec v = b->velocity, w = b->angular_velocity;
  const double lin[3] = {v.x, v.y, v.z}, ang[3] = {w.x, w.y, w.z};
  static const char *const axis_name[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const char *key = (b->lock & (VBC_LOCK_X << a)) && lin[a] != 0.0 ? "velocity"
                      : (b->lock & (VBC_LOCK_ROT_X << a)) && ang[a] != 0.0 ? "angular_velocity"
                                                                            : NULL;
    if (key)
      return vbc_error_set(c->err, VBC_EXIT_INPUT,
                           "%s: %s: expected a %s component of zero (%s %s is locked), got %g",
                           c->file, vbc_path_join(p, sizeof p, path, key), axis_name[a],
                           key[0] == 'v' ? "translation along" : "rotation about", axis_name[a],
                           key[0] == 'v' ? lin[a] : ang[a]);
  }
  return VBC_OK;
}
