/* generate.c — see generate.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/body_shape.h"
#include "scene/generate.h"
#include "scene/limits.h"
#include "scene/mesh.h"

double vbc_lattice_points(double extent, double l) { return floor(extent / l + 1e-6); }

static long lattice_count(double extent, double l) { return (long)vbc_lattice_points(extent, l); }

/* u = vel + A0 (x - xc, -(y - yc)): the strain field of the circular patch (Miyamoto eq. 73). */
static vbc_vec initial_velocity(vbc_vec x, vbc_vec centre, vbc_vec vel, double strain) {
  return vbc_vec_make(vel.x + strain * (x.x - centre.x), vel.y - strain * (x.y - centre.y),
                      vel.z);
}

int vbc_generate_fluid_box(vbc_particles *p, int dim, double l, vbc_vec min, vbc_vec max,
                           vbc_vec vel, double strain_rate, vbc_error *err) {
  long n[3] = {1, 1, 1};
  for (int a = 0; a < dim; ++a) n[a] = lattice_count(vbc_vec_get(max, a) - vbc_vec_get(min, a), l);
  vbc_vec centre = vbc_vec_scale(vbc_vec_add(min, max), 0.5);
  for (long k = 0; k < n[2]; ++k)
    for (long j = 0; j < n[1]; ++j)
      for (long i = 0; i < n[0]; ++i) {
        vbc_vec x = vbc_vec_make(min.x + (i + 0.5) * l, min.y + (j + 0.5) * l,
                                 dim == 3 ? min.z + (k + 0.5) * l : 0.0);
        vbc_vec u = initial_velocity(x, centre, vel, strain_rate);
        if (vbc_particles_add(p, x, u, VBC_FLUID, -1, err) < 0) return err->code;
      }
  return VBC_OK;
}

int vbc_generate_fluid_ball(vbc_particles *p, int dim, double l, vbc_vec c, double radius,
                            vbc_vec vel, double strain_rate, vbc_error *err) {
  long K = (long)ceil(radius / l) + 1;
  long kz = dim == 3 ? K : 0;
  for (long k = -kz; k <= kz; ++k)
    for (long j = -K; j <= K; ++j)
      for (long i = -K; i <= K; ++i) {
        vbc_vec d = vbc_vec_make((i + 0.5) * l, (j + 0.5) * l, dim == 3 ? (k + 0.5) * l : 0.0);
        if (dim == 2 && k != 0) continue;
        if (vbc_vec_norm(d) >= radius) continue;
        vbc_vec x = vbc_vec_add(c, d);
        if (vbc_particles_add(p, x, initial_velocity(x, c, vel, strain_rate), VBC_FLUID, -1,
                              err) < 0)
          return err->code;
      }
  return VBC_OK;
}

int vbc_generate_tank(vbc_particles *p, int dim, double l, vbc_vec min, vbc_vec max, long layers,
                      int body, vbc_error *err) {
  long n[3] = {1, 1, 1};
  for (int a = 0; a < dim; ++a) n[a] = lattice_count(vbc_vec_get(max, a) - vbc_vec_get(min, a), l);
  long lo[3] = {-layers, -layers, dim == 3 ? -layers : 0};
  long hi[3] = {n[0] + layers, n[1], dim == 3 ? n[2] + layers : 1}; /* open top: y ends at n */
  for (long k = lo[2]; k < hi[2]; ++k)
    for (long j = lo[1]; j < hi[1]; ++j)
      for (long i = lo[0]; i < hi[0]; ++i) {
        int inside = i >= 0 && i < n[0] && j >= 0 && (dim == 2 || (k >= 0 && k < n[2]));
        if (inside) continue;
        vbc_vec x = vbc_vec_make(min.x + (i + 0.5) * l, min.y + (j + 0.5) * l,
                                 dim == 3 ? min.z + (k + 0.5) * l : 0.0);
        if (vbc_particles_add(p, x, vbc_vec_zero(), VBC_WALL, body, err) < 0) return err->code;
      }
  return VBC_OK;
}

/* ---- rigid bodies ---- */

/* A body's bounding box may span at most VBC_MAX_BODY_CELLS lattice cells (generate.h) and lie
 * within this many spacings of the origin: sanity limits that keep a mistyped radius from
 * exhausting memory and keep lattice indices exact in a long. */
#define MAX_LATTICE_INDEX 1e12
/* A mesh body costs one solid angle per triangle and lattice point of its bounds (scene/mesh.h):
 * at most this many, about a minute of set-up. */
#define MAX_MESH_WORK 1e10

/* Index range lo[a] <= i_a <= hi[a] of the lattice points (i + 1/2) l in the shape's bounds;
 * returns their number, or INFINITY beyond MAX_LATTICE_INDEX. */
static double lattice_range(const vbc_body_shape *sh, int dim, double l, long lo[3],
                            long hi[3]) {
  vbc_vec a, b;
  vbc_body_shape_bounds(sh, dim, &a, &b);
  double count = 1.0;
  for (int ax = 0; ax < 3; ++ax) {
    lo[ax] = hi[ax] = 0;
    if (ax >= dim) continue;
    double f = ceil(vbc_vec_get(a, ax) / l - 0.5), g = floor(vbc_vec_get(b, ax) / l - 0.5);
    if (!(fabs(f) < MAX_LATTICE_INDEX && fabs(g) < MAX_LATTICE_INDEX)) return INFINITY;
    lo[ax] = (long)f;
    hi[ax] = (long)g;
    count *= g >= f ? g - f + 1.0 : 0.0;
  }
  return count;
}

double vbc_body_lattice_cells(const vbc_body_shape *shape, int dim, double l) {
  long lo[3], hi[3];
  return lattice_range(shape, dim, l, lo, hi);
}

int vbc_generate_body(vbc_particles *p, int dim, double l, const vbc_body_shape *sh, int body,
                      vbc_error *err) {
  long lo[3], hi[3];
  double cells = lattice_range(sh, dim, l, lo, hi);
  if (!(cells <= VBC_MAX_BODY_CELLS))
    return vbc_error_set(err, VBC_EXIT_INPUT, "body %d: expected a shape spanning at most %g "
                         "lattice cells, got %g", body, VBC_MAX_BODY_CELLS, cells);
  for (long k = lo[2]; k <= hi[2]; ++k)
    for (long j = lo[1]; j <= hi[1]; ++j)
      for (long i = lo[0]; i <= hi[0]; ++i) {
        vbc_vec x = vbc_vec_make((i + 0.5) * l, (j + 0.5) * l, dim == 3 ? (k + 0.5) * l : 0.0);
        if (!vbc_body_shape_contains(sh, dim, x)) continue;
        if (vbc_particles_add(p, x, vbc_vec_zero(), VBC_RIGID, body, err) < 0) return err->code;
      }
  return VBC_OK;
}

/* Open-addressing hash set of lattice indices, each mapped to a body particle. */
typedef struct lattice_set {
  size_t mask;      /* capacity - 1 (a power of 2, at least twice the entries) */
  long (*key)[3];
  size_t *value;    /* particle index + 1; 0: empty slot */
} lattice_set;

/* All body particles, body after body, and their lattice indices. */
typedef struct body_points {
  vbc_particles pts;
  size_t *start;     /* body k: pts[start[k] .. start[k + 1]) */
  lattice_set set;
  vbc_vec lo, hi;    /* bounds of pts, for a cheap "far from every body" test */
} body_points;

static void lattice_index(vbc_vec x, int dim, double l, long idx[3]) {
  for (int a = 0; a < 3; ++a) idx[a] = a < dim ? (long)floor(vbc_vec_get(x, a) / l) : 0;
}

static size_t lattice_hash(const long k[3]) {
  uint64_t h = (uint64_t)k[0] * 0x9E3779B97F4A7C15ull ^ (uint64_t)k[1] * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)k[2] * 0x165667B19E3779F9ull;
  return (size_t)(h ^ (h >> 31));
}

/* The slot of key k: the one holding it, or the empty one where it would go. */
static size_t set_slot(const lattice_set *s, const long k[3]) {
  size_t i = lattice_hash(k) & s->mask;
  while (s->value[i] != 0 && memcmp(s->key[i], k, sizeof s->key[i]) != 0) i = (i + 1) & s->mask;
  return i;
}

static int set_init(lattice_set *s, size_t n, vbc_error *err) {
  size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  s->mask = cap - 1;
  s->key = vbc_calloc(cap, sizeof *s->key, err);
  s->value = vbc_calloc(cap, sizeof *s->value, err);
  return s->key && s->value ? VBC_OK : err->code;
}

static void body_points_free(body_points *b) {
  vbc_particles_free(&b->pts);
  free(b->start);
  free(b->set.key);
  free(b->set.value);
}

static const char *point_text(char *buf, size_t size, vbc_vec x, int dim) {
  if (dim == 2) snprintf(buf, size, "(%g, %g)", x.x, x.y);
  else snprintf(buf, size, "(%g, %g, %g)", x.x, x.y, x.z);
  return buf;
}

/* Index of a particle of body `body` (-1: any body) within `radius` of x (max-norm if `box`,
 * else Euclidean), or -1. radius <= l, so only the 3^dim lattice points around the one nearest
 * to x can qualify; among them the first in lattice order wins (deterministic). */
static long find_near(const body_points *b, int dim, double l, vbc_vec x, double radius, int box,
                      int body) {
  for (int a = 0; a < dim; ++a) {
    double v = vbc_vec_get(x, a);
    if (!(v >= vbc_vec_get(b->lo, a) - l && v <= vbc_vec_get(b->hi, a) + l)) return -1;
  }
  long c[3], k[3];
  lattice_index(x, dim, l, c);
  const int r3 = dim == 3;
  for (long dz = -r3; dz <= r3; ++dz)
    for (long dy = -1; dy <= 1; ++dy)
      for (long dx = -1; dx <= 1; ++dx) {
        k[0] = c[0] + dx, k[1] = c[1] + dy, k[2] = c[2] + dz;
        size_t v = b->set.value[set_slot(&b->set, k)];
        if (v == 0 || (body >= 0 && b->pts.body[v - 1] != body)) continue;
        vbc_vec d = vbc_vec_sub(b->pts.pos[v - 1], x);
        double dist = box ? fmax(fmax(fabs(d.x), fabs(d.y)), fabs(d.z)) : vbc_vec_norm(d);
        if (dist < radius) return (long)(v - 1);
      }
  return -1;
}

/* " (the mesh in FILE)" for a mesh body, so that the messages below name the mesh file. */
static const char *mesh_note(char *buf, size_t size, const vbc_body_shape *sh) {
  if (sh->type == VBC_BODY_MESH) snprintf(buf, size, " (the mesh in %s)", sh->file);
  else buf[0] = '\0';
  return buf;
}

/* Every body's lattice points; a body without any is an error. */
static int collect_bodies(const vbc_scene *s, body_points *b, vbc_error *err) {
  const double l = s->spacing;
  char note[1100];
  if ((b->start = vbc_calloc(s->nbodies + 1, sizeof *b->start, err)) == NULL) return err->code;
  for (size_t k = 0; k < s->nbodies; ++k) {
    const vbc_body_shape *sh = &s->bodies[k].shape;
    long lo[3], hi[3];
    double cells = lattice_range(sh, s->dim, l, lo, hi);
    b->start[k] = b->pts.n;
    if (!(cells <= VBC_MAX_BODY_CELLS))
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: bodies.%zu.shape: expected a shape whose bounds span at most %g "
                           "lattice cells at spacing l = %g and lie within %g l of the origin, "
                           "got %g cells%s",
                           s->file, k, VBC_MAX_BODY_CELLS, l, MAX_LATTICE_INDEX, cells,
                           mesh_note(note, sizeof note, sh));
    if (sh->type == VBC_BODY_MESH && cells * (double)sh->mesh->ntriangles > MAX_MESH_WORK)
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: bodies.%zu.shape: expected a mesh whose lattice cells (of its "
                           "bounds at spacing l = %g) times triangles are at most %g, got %g x "
                           "%zu%s",
                           s->file, k, l, MAX_MESH_WORK, cells, sh->mesh->ntriangles,
                           mesh_note(note, sizeof note, sh));
    if (vbc_generate_body(&b->pts, s->dim, l, sh, (int)k, err)) return err->code;
    if (b->pts.n == b->start[k])
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: bodies.%zu.shape: expected a shape that holds at least one "
                           "lattice point ((i + 1/2) l on every axis) at spacing l = %g, got "
                           "none%s",
                           s->file, k, l, mesh_note(note, sizeof note, sh));
  }
  b->start[s->nbodies] = b->pts.n;
  return VBC_OK;
}

/* Hash every body particle by its lattice index. All bodies share one lattice, so two bodies
 * overlap exactly when they share a lattice point. */
static int index_bodies(const vbc_scene *s, body_points *b, vbc_error *err) {
  if (set_init(&b->set, b->pts.n, err)) return err->code;
  b->lo = b->hi = b->pts.n ? b->pts.pos[0] : vbc_vec_zero();
  for (size_t i = 0; i < b->pts.n; ++i) {
    const vbc_vec x = b->pts.pos[i];
    b->lo = vbc_vec_make(fmin(b->lo.x, x.x), fmin(b->lo.y, x.y), fmin(b->lo.z, x.z));
    b->hi = vbc_vec_make(fmax(b->hi.x, x.x), fmax(b->hi.y, x.y), fmax(b->hi.z, x.z));
    long key[3];
    lattice_index(x, s->dim, s->spacing, key);
    size_t slot = set_slot(&b->set, key);
    if (b->set.value[slot] != 0) {
      int k = b->pts.body[i], j = b->pts.body[b->set.value[slot] - 1];
      char pt[96];
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: bodies.%d: expected bodies that do not overlap, bodies.%d "
                           "(\"%s\") and bodies.%d (\"%s\") share the lattice point %s",
                           s->file, k, k, s->bodies[k].name, j, s->bodies[j].name,
                           point_text(pt, sizeof pt, x, s->dim));
    }
    memcpy(b->set.key[slot], key, sizeof key);
    b->set.value[slot] = i + 1;
  }
  return VBC_OK;
}

/* A pin must lie in the body: in the union of its particles' l-boxes. */
static int check_pins(const vbc_scene *s, const body_points *b, vbc_error *err) {
  const double l = s->spacing;
  for (size_t k = 0; k < s->nbodies; ++k) {
    const vbc_body_spec *sp = &s->bodies[k];
    if (sp->motion != VBC_MOTION_PINNED || !sp->has_pin) continue;
    if (find_near(b, s->dim, l, sp->pin, l * (0.5 + 1e-9), 1, (int)k) >= 0) continue;
    char pt[96];
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: bodies.%zu.pin: expected a point inside the body \"%s\" (within "
                         "l/2 = %g of one of its particles on every axis), got %s",
                         s->file, k, sp->name, 0.5 * l, point_text(pt, sizeof pt, sp->pin, s->dim));
  }
  return VBC_OK;
}

/* Initial velocity v + w x (x - c) about the centroid c of the body's particles (free, pinned:
 * initial; scripted: prescribed); fixed bodies stay at rest. */
static void set_body_velocities(const vbc_scene *s, body_points *b) {
  for (size_t k = 0; k < s->nbodies; ++k) {
    const vbc_body_spec *sp = &s->bodies[k];
    const size_t i0 = b->start[k], i1 = b->start[k + 1];
    if (sp->motion == VBC_MOTION_FIXED) continue;
    vbc_vec c = vbc_vec_zero();
    for (size_t i = i0; i < i1; ++i) c = vbc_vec_add(c, b->pts.pos[i]);
    c = vbc_vec_scale(c, 1.0 / (double)(i1 - i0));
    for (size_t i = i0; i < i1; ++i)
      b->pts.vel[i] = vbc_vec_add(sp->velocity,
                                  vbc_vec_cross(sp->angular_velocity,
                                                vbc_vec_sub(b->pts.pos[i], c)));
  }
}

static void copy_particle(vbc_particles *p, size_t to, size_t from) {
  p->pos[to] = p->pos[from];
  p->vel[to] = p->vel[from];
  p->kind[to] = p->kind[from];
  p->body[to] = p->body[from];
  p->pressure[to] = p->pressure[from];
  p->pressure_smoothed[to] = p->pressure_smoothed[from];
  p->number_density[to] = p->number_density[from];
}

/* Bodies displace fluid: drop fluid particles [first, n) closer than l (1 - 1e-6) to a body
 * particle (on a shared lattice: exactly those on the body's points; the 1e-6 keeps fluid l
 * away, i.e. touching, independent of round-off). */
static void displace_fluid(const vbc_scene *s, const body_points *b, vbc_particles *p,
                           size_t first) {
  if (b->pts.n == 0) return;
  const double l = s->spacing;
  size_t w = first;
  for (size_t i = first; i < p->n; ++i)
    if (find_near(b, s->dim, l, p->pos[i], l * (1.0 - 1e-6), 0, -1) < 0) copy_particle(p, w++, i);
  p->n = w;
}

static int generate_fluid(const vbc_scene *s, vbc_particles *p, vbc_error *err) {
  for (size_t i = 0; i < s->nshapes; ++i) {
    const vbc_shape *sh = &s->shapes[i];
    int rc = VBC_OK;
    if (sh->type == VBC_SHAPE_FLUID_BOX)
      rc = vbc_generate_fluid_box(p, s->dim, s->spacing, sh->min, sh->max, sh->velocity,
                                  sh->strain_rate, err);
    else if (sh->type == VBC_SHAPE_FLUID_DISK)
      rc = vbc_generate_fluid_ball(p, s->dim, s->spacing, sh->center, sh->radius, sh->velocity,
                                   sh->strain_rate, err);
    if (rc != VBC_OK) return rc;
  }
  return VBC_OK;
}

/* A body particle closer than l/2 to a wall particle of tank `shape` (walls [w0, n)) is an
 * overlap, with the same threshold as sim/sim.c's check of the shapes. */
static int check_walls(const vbc_scene *s, const body_points *b, const vbc_particles *p,
                       size_t w0, size_t shape, vbc_error *err) {
  const double l = s->spacing;
  for (size_t i = w0; i < p->n && b->pts.n; ++i) {
    long j = find_near(b, s->dim, l, p->pos[i], 0.5 * l * (1.0 + 1e-6), 0, -1);
    if (j < 0) continue;
    int k = b->pts.body[j];
    char pb[96], pw[96];
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: bodies.%d: expected bodies that do not overlap the walls, bodies.%d "
                         "(\"%s\") has a particle at %s closer than l/2 to the wall particle at "
                         "%s of geometry.%zu (a tank)",
                         s->file, k, k, s->bodies[k].name,
                         point_text(pb, sizeof pb, b->pts.pos[j], s->dim),
                         point_text(pw, sizeof pw, p->pos[i], s->dim), shape);
  }
  return VBC_OK;
}

static int generate_walls(const vbc_scene *s, const body_points *b, vbc_particles *p,
                          vbc_error *err) {
  int body = 0; /* walls are fixed bodies of infinite mass; one body per tank */
  for (size_t i = 0; i < s->nshapes; ++i) {
    const vbc_shape *sh = &s->shapes[i];
    if (sh->type != VBC_SHAPE_TANK) continue;
    size_t w0 = p->n;
    if (vbc_generate_tank(p, s->dim, s->spacing, sh->min, sh->max, sh->layers, body++, err) ||
        check_walls(s, b, p, w0, i, err))
      return err->code;
  }
  return VBC_OK;
}

static int append_bodies(const body_points *b, vbc_particles *p, vbc_error *err) {
  if (vbc_particles_reserve(p, p->n + b->pts.n, err)) return err->code;
  for (size_t i = 0; i < b->pts.n; ++i)
    if (vbc_particles_add(p, b->pts.pos[i], b->pts.vel[i], VBC_RIGID, b->pts.body[i], err) < 0)
      return err->code;
  return VBC_OK;
}

int vbc_generate(const vbc_scene *s, vbc_particles *p, vbc_error *err) {
  /* counted from the shapes before anything is allocated (scene/limits.h) */
  if (vbc_check_particle_limit(s, err) != VBC_OK) return err->code;
  body_points b;
  memset(&b, 0, sizeof b);
  const size_t first = p->n;
  int rc = collect_bodies(s, &b, err);
  if (rc == VBC_OK) rc = index_bodies(s, &b, err);
  if (rc == VBC_OK) rc = check_pins(s, &b, err);
  if (rc == VBC_OK) rc = generate_fluid(s, p, err);
  if (rc == VBC_OK) {
    displace_fluid(s, &b, p, first);
    set_body_velocities(s, &b);
    rc = generate_walls(s, &b, p, err);
  }
  if (rc == VBC_OK) rc = append_bodies(&b, p, err);
  body_points_free(&b);
  return rc;
}
