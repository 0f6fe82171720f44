/* body_shape.c — see body_shape.h. */
#include <math.h>

#include "scene/body_shape.h"
#include "scene/mesh.h"

/* Relative tolerance of the boundary rule (body_shape.h). */
#define SHAPE_TOL 1e-9

static int box_contains(const vbc_body_shape *s, int dim, vbc_vec x) {
  double size = 0.0;
  for (int a = 0; a < dim; ++a)
    size = fmax(size, vbc_vec_get(s->max, a) - vbc_vec_get(s->min, a));
  const double tol = SHAPE_TOL * size;
  for (int a = 0; a < dim; ++a) {
    double v = vbc_vec_get(x, a);
    if (v <= vbc_vec_get(s->min, a) + tol || v >= vbc_vec_get(s->max, a) - tol) return 0;
  }
  return 1;
}

static int disk_contains(const vbc_body_shape *s, int dim, vbc_vec x) {
  vbc_vec d = vbc_vec_sub(x, s->center);
  if (dim == 2) d.z = 0.0;
  return vbc_vec_norm(d) < s->radius * (1.0 - SHAPE_TOL);
}

/* The two bars in the cross's own frame: u along the rotated x axis, v along the rotated y. */
static int cross_contains(const vbc_body_shape *s, int dim, vbc_vec x) {
  const double tol = SHAPE_TOL * s->length;
  const double half_l = 0.5 * s->length - tol, half_w = 0.5 * s->width - tol;
  vbc_vec d = vbc_vec_sub(x, s->center);
  if (dim == 3 && fabs(d.z) >= half_w) return 0;
  const double c = cos(s->angle), sn = sin(s->angle);
  const double u = c * d.x + sn * d.y, v = -sn * d.x + c * d.y;
  return (fabs(u) < half_l && fabs(v) < half_w) || (fabs(v) < half_l && fabs(u) < half_w);
}

/* Twice the signed area: > 0 for counter-clockwise vertices. */
static double polygon_area2(const vbc_body_shape *s) {
  double a2 = 0.0;
  for (size_t k = 0; k < s->nvertices; ++k) {
    vbc_vec p = s->vertices[k], q = s->vertices[(k + 1) % s->nvertices];
    a2 += p.x * q.y - q.x * p.y;
  }
  return a2;
}

double vbc_body_polygon_measure(const vbc_body_shape *s, int dim) {
  return 0.5 * fabs(polygon_area2(s)) * (dim == 3 ? s->max.z - s->min.z : 1.0);
}

/* Convex polygon in either orientation: inside iff more than tol on the inner side of every
 * edge (the inner side is the left one for counter-clockwise vertices). */
static int polygon_contains(const vbc_body_shape *s, int dim, vbc_vec x) {
  vbc_vec lo, hi;
  vbc_body_shape_bounds(s, dim, &lo, &hi);
  const double tol = SHAPE_TOL * fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z);
  if (dim == 3 && (x.z <= lo.z + tol || x.z >= hi.z - tol)) return 0; /* the extrusion's ends */
  const double orient = polygon_area2(s) >= 0.0 ? 1.0 : -1.0;
  for (size_t k = 0; k < s->nvertices; ++k) {
    vbc_vec a = s->vertices[k], b = s->vertices[(k + 1) % s->nvertices];
    double ex = b.x - a.x, ey = b.y - a.y, len = hypot(ex, ey);
    double side = orient * (ex * (x.y - a.y) - ey * (x.x - a.x));
    if (len == 0.0 || side <= tol * len) return 0;
  }
  return 1;
}

int vbc_body_shape_contains(const vbc_body_shape *s, int dim, vbc_vec x) {
  switch (s->type) {
    case VBC_BODY_BOX: return box_contains(s, dim, x);
    case VBC_BODY_DISK: return disk_contains(s, dim, x);
    case VBC_BODY_CROSS: return cross_contains(s, dim, x);
    case VBC_BODY_POLYGON: return polygon_contains(s, dim, x);
    case VBC_BODY_UNION:
      for (size_t k = 0; k < s->nparts; ++k)
        if (vbc_body_shape_contains(&s->parts[k], dim, x)) return 1;
      return 0;
    case VBC_BODY_MESH: return dim == 3 && vbc_mesh_contains(s->mesh, x);
  }
  return 0;
}

static void grow(vbc_vec *lo, vbc_vec *hi, vbc_vec a, vbc_vec b) {
  *lo = vbc_vec_make(fmin(lo->x, a.x), fmin(lo->y, a.y), fmin(lo->z, a.z));
  *hi = vbc_vec_make(fmax(hi->x, b.x), fmax(hi->y, b.y), fmax(hi->z, b.z));
}

/* A bar of half extents (a, b) rotated by the angle has half extents
 * (|cos| a + |sin| b, |sin| a + |cos| b); the cross is the union of two such bars. */
static void cross_bounds(const vbc_body_shape *s, int dim, vbc_vec *lo, vbc_vec *hi) {
  const double c = fabs(cos(s->angle)), sn = fabs(sin(s->angle));
  const double a = 0.5 * s->length, b = 0.5 * s->width;
  const double ex = fmax(c * a + sn * b, c * b + sn * a);
  const double ey = fmax(sn * a + c * b, sn * b + c * a);
  vbc_vec h = vbc_vec_make(ex, ey, dim == 3 ? b : 0.0);
  *lo = vbc_vec_sub(s->center, h);
  *hi = vbc_vec_add(s->center, h);
}

void vbc_body_shape_bounds(const vbc_body_shape *s, int dim, vbc_vec *lo, vbc_vec *hi) {
  const vbc_vec r = vbc_vec_make(s->radius, s->radius, s->radius);
  *lo = vbc_vec_make(INFINITY, INFINITY, INFINITY);
  *hi = vbc_vec_scale(*lo, -1.0);
  switch (s->type) {
    case VBC_BODY_BOX: *lo = s->min, *hi = s->max; break;
    case VBC_BODY_DISK: *lo = vbc_vec_sub(s->center, r), *hi = vbc_vec_add(s->center, r); break;
    case VBC_BODY_CROSS: cross_bounds(s, dim, lo, hi); break;
    case VBC_BODY_POLYGON:
      for (size_t k = 0; k < s->nvertices; ++k) grow(lo, hi, s->vertices[k], s->vertices[k]);
      lo->z = s->min.z, hi->z = s->max.z; /* 3D: along z from min.z to max.z */
      break;
    case VBC_BODY_UNION:
      for (size_t k = 0; k < s->nparts; ++k) {
        vbc_vec a, b;
        vbc_body_shape_bounds(&s->parts[k], dim, &a, &b);
        grow(lo, hi, a, b);
      }
      break;
    case VBC_BODY_MESH: *lo = s->mesh->lo, *hi = s->mesh->hi; break;
  }
  if (dim == 2) lo->z = hi->z = 0.0;
}
