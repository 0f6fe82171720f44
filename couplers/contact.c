/* contact.c — particle contacts as a constraint block (Miyamoto & Koshizuka §3.2, §4.1-4.2).
 *
 * Particles of different bodies closer than l touch: each is a sphere of radius l/2, the contact
 * point is the midpoint, the normal n points from particle B to particle A along their offset and
 * the depth is d = l - r (§4.1). A fluid particle takes part as a sphere body of mass rho l^d that
 * shares the particle's velocity (§4.2). One row per touching pair:
 *     J u = n . (u_A - u_B)            relative normal velocity (eq. 50)
 *     b   = max(-e v_n, (alpha/h) d)   eq. 64, v_n = J u* fixed before any impulse
 *     A   = 1/m_n = 1/m_A + 1/m_B      eq. 60 (spheres: the normal passes through both centres)
 *     impulse N >= 0, applied as u_A += N n / m_A, u_B -= N n / m_B (eq. 69-72).
 *
 * Today the pairs are a fluid particle (A) and a wall particle (B, fixed, infinite mass); the
 * contacts between rigid bodies join when bodies do. Wall velocities are read, so a scripted wall
 * would push. Contacts are few (only next to walls) and are swept in order, serially. */
#include <math.h>
#include <stdlib.h>

#include "core/parallel.h"
#include "couplers/contact.h"

typedef struct contact_state {
  double restitution, alpha;
  size_t n, cap;   /* contacts of this step */
  uint32_t *a, *b; /* particles: A (fluid), B (wall) */
  vbc_vec *normal; /* from B to A */
  double *depth;   /* l - r */
} contact_state;

static const vbc_param_spec contact_params[] = {
    {"restitution", VBC_PARAM_NUMBER, 0.0, 0.0, 1.0, 0,
     "coefficient of restitution e of eq. 64 (fluid against walls)"},
    {"alpha", VBC_PARAM_NUMBER, 0.05, 0.0, 1.0, 0,
     "mixing of the penetration depth into the target, eq. 64"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *contact_alloc(const cJSON *params, const vbc_system *sys, double *support,
                           vbc_error *err) {
  contact_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->restitution = vbc_param_number(params, contact_params, "restitution");
  s->alpha = vbc_param_number(params, contact_params, "alpha");
  *support = sys->spacing;
  return s;
}

static void contact_free(void *state) {
  contact_state *s = state;
  free(s->a);
  free(s->b);
  free(s->normal);
  free(s->depth);
  free(s);
}

static int push_pair(contact_state *s, size_t k, uint32_t a, uint32_t b, vbc_vec n,
                     double depth, vbc_error *err) {
  if (k == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 256;
    uint32_t *pa = vbc_realloc(s->a, cap, sizeof *pa, err);
    if (pa == NULL) return err->code;
    s->a = pa;
    uint32_t *pb = vbc_realloc(s->b, cap, sizeof *pb, err);
    if (pb == NULL) return err->code;
    s->b = pb;
    vbc_vec *pn = vbc_realloc(s->normal, cap, sizeof *pn, err);
    if (pn == NULL) return err->code;
    s->normal = pn;
    double *pd = vbc_realloc(s->depth, cap, sizeof *pd, err);
    if (pd == NULL) return err->code;
    s->depth = pd;
    s->cap = cap;
  }
  s->a[k] = a;
  s->b[k] = b;
  s->normal[k] = n;
  s->depth[k] = depth;
  return VBC_OK;
}

static inline double normal_velocity(const contact_state *s, const vbc_particles *p, size_t k) {
  return vbc_vec_dot(s->normal[k], vbc_vec_sub(p->vel[s->a[k]], p->vel[s->b[k]]));
}

static int contact_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  contact_state *s = state;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double l = sys->spacing;
  size_t k = 0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      uint32_t w = nb->index[q];
      if (p->kind[w] != VBC_WALL) continue;
      double r = nb->dist[q];
      if (r >= l || r == 0.0) continue;
      vbc_vec n = vbc_vec_scale(vbc_vec_sub(p->pos[i], p->pos[w]), 1.0 / r);
      if (push_pair(s, k++, (uint32_t)i, w, n, l - r, err) != VBC_OK) return err->code;
    }
  }
  s->n = k;
  if (vbc_rows_resize(rows, k, err) != VBC_OK) return err->code;
  const double inv_m = 1.0 / sys->fluid_mass;
  for (size_t c = 0; c < k; ++c) {
    double vn = normal_velocity(s, p, c); /* v_n before any impulse (eq. 64) */
    rows->target[c] = fmax(-s->restitution * vn, s->alpha / sys->dt * s->depth[c]);
    rows->lo[c] = 0.0;
    rows->hi[c] = INFINITY;
    rows->diag[c] = inv_m;
    rows->impulse[c] = 0.0;
  }
  return VBC_OK;
}

static void contact_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                             double *r) {
  const contact_state *s = state;
#pragma omp parallel for schedule(static) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t c = 0; c < rows->n; ++c)
    r[c] = rows->target[c] - normal_velocity(s, sys->particles, c);
}

/* Only A (fluid) moves; several contacts of one particle add up, so this pass is serial. */
static void contact_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const contact_state *s = state;
  vbc_particles *p = sys->particles;
  const double inv_m = 1.0 / sys->fluid_mass;
  for (size_t c = 0; c < rows->n; ++c)
    p->vel[s->a[c]] = vbc_vec_axpy(p->vel[s->a[c]], inv_m * d[c], s->normal[c]);
}

/* Eq. 65-72 for every contact in turn. */
static void contact_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega) {
  const contact_state *s = state;
  vbc_particles *p = sys->particles;
  const double inv_m = 1.0 / sys->fluid_mass;
  for (size_t c = 0; c < rows->n; ++c) {
    double lam = rows->impulse[c];
    double delta = rows->target[c] - normal_velocity(s, p, c);
    double next = vbc_clamp(lam + omega * delta / rows->diag[c], rows->lo[c], rows->hi[c]);
    rows->impulse[c] = next;
    p->vel[s->a[c]] = vbc_vec_axpy(p->vel[s->a[c]], inv_m * (next - lam), s->normal[c]);
  }
}

static int contact_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                            vbc_error *err) {
  const contact_state *s = state;
  const size_t dim = (size_t)sys->dim;
  if (vbc_sparse_reserve(J, s->n, 2 * dim * s->n, err) != VBC_OK) return err->code;
  J->nrows = s->n;
  J->ndofs = dim * sys->particles->n;
  size_t e = 0;
  for (size_t c = 0; c < s->n; ++c) {
    J->start[c] = e;
    for (size_t ax = 0; ax < dim; ++ax, ++e) {
      J->col[e] = dim * s->a[c] + ax;
      J->val[e] = vbc_vec_get(s->normal[c], (int)ax);
    }
    for (size_t ax = 0; ax < dim; ++ax, ++e) {
      J->col[e] = dim * s->b[c] + ax;
      J->val[e] = -vbc_vec_get(s->normal[c], (int)ax);
    }
  }
  J->start[s->n] = e;
  J->nnz = e;
  return VBC_OK;
}

static void contact_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  (void)state, (void)sys, (void)rows;
}

const vbc_block_type vbc_block_contact = {
    .name = "contact",
    .summary = "particle contacts, fluid against walls (Miyamoto & Koshizuka eq. 60-72, §4.2)",
    .params = contact_params,
    .alloc = contact_alloc,
    .free = contact_free,
    .prepare = contact_prepare,
    .residual = contact_residual,
    .apply = contact_apply,
    .sweep = contact_sweep,
    .jacobian = contact_jacobian,
    .finish = contact_finish,
};
