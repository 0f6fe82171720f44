/* mesh.c — see mesh.h. Checks, placement, winding number, volume integrals; the STL reader is
 * scene/mesh_stl.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/mesh.h"

#define MESH_TOL 1e-9        /* the boundary rule of scene/body_shape.h */
#define DEGENERATE_AREA 1e-12 /* |a x b| / 2 <= this x (longest edge)^2: no area */

void vbc_mesh_free(vbc_mesh *m) {
  free(m->v);
  free(m->normal);
  memset(m, 0, sizeof *m);
}

/* ---- checks ---- */

typedef struct corner { vbc_vec x; size_t at; } corner;
typedef struct edge { size_t a, b; int sign; } edge; /* a < b; sign +1 for a -> b */

static int cmp_corner(const void *pa, const void *pb) {
  const vbc_vec a = ((const corner *)pa)->x, b = ((const corner *)pb)->x;
  if (a.x != b.x) return a.x < b.x ? -1 : 1;
  if (a.y != b.y) return a.y < b.y ? -1 : 1;
  if (a.z != b.z) return a.z < b.z ? -1 : 1;
  return 0;
}

static int cmp_edge(const void *pa, const void *pb) {
  const edge *a = pa, *b = pb;
  if (a->a != b->a) return a->a < b->a ? -1 : 1;
  if (a->b != b->b) return a->b < b->b ? -1 : 1;
  return 0;
}

/* id[k]: the same number for corners with equal coordinates; rep[id]: one such corner. */
static int weld(const vbc_mesh *m, size_t *id, vbc_vec *rep, vbc_error *err) {
  const size_t n = 3 * m->ntriangles;
  corner *c = vbc_calloc(n, sizeof *c, err);
  if (c == NULL) return err->code;
  for (size_t k = 0; k < n; ++k) c[k] = (corner){m->v[k], k};
  qsort(c, n, sizeof *c, cmp_corner);
  size_t next = 0;
  for (size_t k = 0; k < n; ++k) {
    if (k > 0 && cmp_corner(&c[k - 1], &c[k]) != 0) ++next;
    id[c[k].at] = next;
    rep[next] = c[k].x;
  }
  free(c);
  return VBC_OK;
}

static int degenerate(const vbc_vec *t, const size_t *id) {
  if (id[0] == id[1] || id[1] == id[2] || id[2] == id[0]) return 1;
  const vbc_vec e0 = vbc_vec_sub(t[1], t[0]), e1 = vbc_vec_sub(t[2], t[1]),
                e2 = vbc_vec_sub(t[0], t[2]);
  const double longest = fmax(vbc_vec_norm2(e0), fmax(vbc_vec_norm2(e1), vbc_vec_norm2(e2)));
  return 0.5 * vbc_vec_norm(vbc_vec_cross(e0, e2)) <= DEGENERATE_AREA * longest;
}

/* Keep the triangles with area (compacting v and id); returns how many were kept. */
static size_t drop_degenerate(vbc_mesh *m, size_t *id) {
  size_t w = 0;
  for (size_t t = 0; t < m->ntriangles; ++t) {
    if (degenerate(&m->v[3 * t], &id[3 * t])) continue;
    memmove(&m->v[3 * w], &m->v[3 * t], 3 * sizeof *m->v);
    memmove(&id[3 * w], &id[3 * t], 3 * sizeof *id);
    ++w;
  }
  return w;
}

/* Every edge a -> b must be matched by one b -> a: per welded edge the signs add up to 0.
 * Counts the edges used once (holes) and the others that do not pair up (orientation). */
static int check_edges(const vbc_mesh *m, const size_t *id, const vbc_vec *rep, char *why,
                       size_t size, vbc_error *err) {
  const size_t n = 3 * m->ntriangles;
  edge *e = vbc_calloc(n, sizeof *e, err);
  if (e == NULL) return err->code;
  for (size_t t = 0; t < m->ntriangles; ++t)
    for (int k = 0; k < 3; ++k) {
      size_t a = id[3 * t + k], b = id[3 * t + (k + 1) % 3];
      e[3 * t + k] = a < b ? (edge){a, b, 1} : (edge){b, a, -1};
    }
  qsort(e, n, sizeof *e, cmp_edge);
  size_t open = 0, unpaired = 0;
  edge first_open = {0, 0, 0}, first_unpaired = {0, 0, 0};
  for (size_t i = 0; i < n;) {
    size_t j = i;
    int sum = 0;
    for (; j < n && cmp_edge(&e[i], &e[j]) == 0; ++j) sum += e[j].sign;
    if (j - i == 1) first_open = open++ ? first_open : e[i];
    else if (sum != 0) first_unpaired = unpaired++ ? first_unpaired : e[i];
    i = j;
  }
  free(e);
  if (open == 0 && unpaired == 0) return VBC_OK;
  const edge ex = open ? first_open : first_unpaired;
  const vbc_vec a = rep[ex.a], b = rep[ex.b];
  snprintf(why, size,
           open ? "an open mesh: %zu edges belong to one triangle only, e.g. (%g, %g, %g)-(%g, "
                  "%g, %g)"
                : "a mesh whose triangles are not consistently oriented: %zu edges are not "
                  "used once in each direction, e.g. (%g, %g, %g)-(%g, %g, %g)",
           open ? open : unpaired, a.x, a.y, a.z, b.x, b.y, b.z);
  return VBC_EXIT_INPUT;
}

static double signed_volume(const vbc_mesh *m) {
  double v6 = 0.0;
  for (size_t t = 0; t < m->ntriangles; ++t) {
    const vbc_vec *c = &m->v[3 * t];
    v6 += vbc_vec_dot(c[0], vbc_vec_cross(c[1], c[2]));
  }
  return v6 / 6.0;
}

static void bounds(vbc_mesh *m) {
  m->lo = vbc_vec_make(INFINITY, INFINITY, INFINITY);
  m->hi = vbc_vec_scale(m->lo, -1.0);
  for (size_t k = 0; k < 3 * m->ntriangles; ++k) {
    const vbc_vec x = m->v[k];
    m->lo = vbc_vec_make(fmin(m->lo.x, x.x), fmin(m->lo.y, x.y), fmin(m->lo.z, x.z));
    m->hi = vbc_vec_make(fmax(m->hi.x, x.x), fmax(m->hi.y, x.y), fmax(m->hi.z, x.z));
  }
  const vbc_vec d = vbc_vec_sub(m->hi, m->lo);
  m->tol = MESH_TOL * fmax(d.x, fmax(d.y, d.z));
}

static int volume_problem(vbc_mesh *m, char *why, size_t size) {
  bounds(m);
  const vbc_vec d = vbc_vec_sub(m->hi, m->lo);
  const double vol = signed_volume(m), box = d.x * d.y * d.z;
  if (!(fabs(vol) > DEGENERATE_AREA * box)) {
    snprintf(why, size, "a mesh that encloses no volume (%g, its bounding box %g)", vol, box);
    return VBC_EXIT_INPUT;
  }
  if (vol < 0.0) /* inside out: swap two corners of every triangle */
    for (size_t t = 0; t < m->ntriangles; ++t) {
      const vbc_vec s = m->v[3 * t + 1];
      m->v[3 * t + 1] = m->v[3 * t + 2];
      m->v[3 * t + 2] = s;
    }
  return VBC_OK;
}

int vbc_mesh_check(vbc_mesh *m, char *why, size_t size, vbc_error *err) {
  if (m->ntriangles == 0)
    return snprintf(why, size, "an empty mesh (no triangles)"), VBC_EXIT_INPUT;
  const size_t n = 3 * m->ntriangles, total = m->ntriangles;
  size_t *id = vbc_calloc(n, sizeof *id, err);
  vbc_vec *rep = id ? vbc_calloc(n, sizeof *rep, err) : NULL;
  int rc = rep ? weld(m, id, rep, err) : err->code;
  if (rc == VBC_OK) {
    m->ntriangles = drop_degenerate(m, id);
    if (m->ntriangles == 0) {
      snprintf(why, size, "only degenerate triangles (zero area): all %zu of them", total);
      rc = VBC_EXIT_INPUT;
    }
  }
  if (rc == VBC_OK) rc = check_edges(m, id, rep, why, size, err);
  if (rc == VBC_OK) rc = volume_problem(m, why, size);
  free(id);
  free(rep);
  return rc;
}

/* ---- placement ---- */

int vbc_mesh_place(vbc_mesh *m, double scale, vbc_vec rotate, vbc_vec translate,
                   vbc_error *err) {
  vbc_mat3 R;
  vbc_quat_to_mat3(vbc_quat_from_rotation(rotate), &R);
  for (size_t k = 0; k < 3 * m->ntriangles; ++k)
    m->v[k] = vbc_vec_add(translate, vbc_mat3_mul(&R, vbc_vec_scale(m->v[k], scale)));
  free(m->normal);
  if ((m->normal = vbc_calloc(m->ntriangles ? m->ntriangles : 1, sizeof *m->normal, err)) ==
      NULL)
    return err->code;
  for (size_t t = 0; t < m->ntriangles; ++t) {
    const vbc_vec *c = &m->v[3 * t];
    const vbc_vec n = vbc_vec_cross(vbc_vec_sub(c[1], c[0]), vbc_vec_sub(c[2], c[0]));
    const double len = vbc_vec_norm(n);
    m->normal[t] = len > 0.0 ? vbc_vec_scale(n, 1.0 / len) : vbc_vec_zero();
  }
  bounds(m);
  return VBC_OK;
}

/* ---- inside test ---- */

/* Signed solid angle of the triangle (a, b, c) seen from the origin (Van Oosterom & Strackee). */
static double solid_angle(vbc_vec a, vbc_vec b, vbc_vec c) {
  const double la = vbc_vec_norm(a), lb = vbc_vec_norm(b), lc = vbc_vec_norm(c);
  const double det = vbc_vec_dot(a, vbc_vec_cross(b, c));
  const double den = la * lb * lc + vbc_vec_dot(a, b) * lc + vbc_vec_dot(b, c) * la +
                     vbc_vec_dot(c, a) * lb;
  return 2.0 * atan2(det, den);
}

double vbc_mesh_winding(const vbc_mesh *m, vbc_vec p) {
  double sum = 0.0;
  for (size_t t = 0; t < m->ntriangles; ++t) {
    const vbc_vec *c = &m->v[3 * t];
    sum += solid_angle(vbc_vec_sub(c[0], p), vbc_vec_sub(c[1], p), vbc_vec_sub(c[2], p));
  }
  return sum / (4.0 * M_PI);
}

/* p within tol of triangle t: near its plane and, in the plane, at most tol outside every edge. */
static int near_triangle(const vbc_mesh *m, size_t t, vbc_vec p) {
  const vbc_vec *c = &m->v[3 * t], n = m->normal[t];
  if (fabs(vbc_vec_dot(n, vbc_vec_sub(p, c[0]))) > m->tol) return 0;
  for (int k = 0; k < 3; ++k) {
    const vbc_vec a = c[k], e = vbc_vec_sub(c[(k + 1) % 3], a);
    const double len = vbc_vec_norm(e);
    if (vbc_vec_dot(n, vbc_vec_cross(e, vbc_vec_sub(p, a))) < -m->tol * len) return 0;
  }
  return 1;
}

int vbc_mesh_contains(const vbc_mesh *m, vbc_vec p) {
  if (!(p.x > m->lo.x + m->tol && p.x < m->hi.x - m->tol && p.y > m->lo.y + m->tol &&
        p.y < m->hi.y - m->tol && p.z > m->lo.z + m->tol && p.z < m->hi.z - m->tol))
    return 0;
  if (!(vbc_mesh_winding(m, p) > 0.5)) return 0;
  for (size_t t = 0; t < m->ntriangles; ++t)
    if (near_triangle(m, t, p)) return 0;
  return 1;
}

/* ---- volume integrals ---- */

void vbc_mesh_mass(const vbc_mesh *m, double *volume, vbc_vec *centroid, vbc_mat3 *inertia) {
  double vol = 0.0, S[3][3] = {{0}};
  vbc_vec first = vbc_vec_zero();
  for (size_t t = 0; t < m->ntriangles; ++t) {
    const vbc_vec *c = &m->v[3 * t];
    const double vt = vbc_vec_dot(c[0], vbc_vec_cross(c[1], c[2])) / 6.0;
    const vbc_vec s = vbc_vec_add(c[0], vbc_vec_add(c[1], c[2]));
    vol += vt;
    first = vbc_vec_axpy(first, vt / 4.0, s);
    const vbc_vec pts[4] = {c[0], c[1], c[2], s};
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          S[i][j] += vt / 20.0 * vbc_vec_get(pts[k], i) * vbc_vec_get(pts[k], j);
  }
  const vbc_vec x = vbc_vec_scale(first, 1.0 / vol);
  /* inertia about the origin, tr(S) 1 - S, then moved to the centroid (parallel axes) */
  const double tr = S[0][0] + S[1][1] + S[2][2], x2 = vbc_vec_norm2(x);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      inertia->a[i][j] = (i == j ? tr : 0.0) - S[i][j] -
                         vol * ((i == j ? x2 : 0.0) - vbc_vec_get(x, i) * vbc_vec_get(x, j));
  *volume = vol;
  *centroid = x;
}
