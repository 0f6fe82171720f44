/* contact.c — particle contacts as a constraint block (Miyamoto & Koshizuka §3.2, §4.1-4.2).
 *
 * Particles of different bodies closer than l touch: each is a sphere of radius l/2, the contact
 * point p is the midpoint, the normal n points from particle B to particle A along their offset
 * and the depth is d = l - r (§4.1). A fluid particle takes part as a sphere body of mass rho l^d
 * that shares the particle's velocity (§4.2); a wall particle is a fixed body; a rigid particle
 * stands for its body, with r_A = p - x_A. One row per touching pair:
 *     J u = n . (v_A(p) - v_B(p))          relative normal velocity at p (eq. 50)
 *     b   = max(-e v_n, (alpha/h) d)       eq. 64, v_n = J u* fixed before any impulse
 *     A   = 1/m_n = 1/m_A + 1/m_B + |r_A x n|^2_{I_A^-1} + |r_B x n|^2_{I_B^-1}   eq. 60
 *     impulse N >= 0, applied as +N n to A and -N n to B at p (eq. 46-49, 69-72).
 *
 * Speculative contacts (not in the paper; `margin`, default 0.5): pairs of two bodies (rigid or
 * wall, no fluid) get a row already at l <= r < (1 + margin) l, with the gap g = r - l as
 * negative depth and the target b = -g/h: they may close the gap within this step but not
 * overlap. Without it a pair is first seen when it already overlaps by up to |v_n| h — 0.4 l for
 * a box dropped 0.3 m at the pile's h = 0.005 s — and eq. 64 only pushes that out at rate
 * alpha/h afterwards. The price: a pair caught this way arrives at v_n = 0, so restitution acts
 * only on pairs that already touch. margin = 0 is the paper's scheme.
 *
 * Detection at r = l (`inclusive`, default false): vbc's pairs touch at r < l; Kurose & Takahashi
 * detect a collision at ||X_f - X_r|| <= r_f + r_r (their eq. 2), which on a lattice also catches
 * every pair exactly l apart (a fluid particle resting on a wall or a body). With inclusive,
 * r <= l (1 + 1e-9) touches (the slack absorbs the round-off of lattice positions) with depth
 * max(0, l - r). The figure speculative_contacts counts the rows with a gap (depth < 0).
 *
 * Pairs: fluid-wall, fluid-rigid, rigid-wall and rigid-rigid of different bodies (`pairs` =
 * "bodies": the last two only, for fluid blocks that hold the fluid off the bodies themselves).
 * Fluid-fluid pairs are the incompressibility block's business, and pairs of two infinite masses
 * (a fixed body on a wall) would be inert rows, so neither is generated. The broad phase is the
 * step's neighbour list (r_e >= l). Contacts couple through shared bodies, so the sweep and the
 * apply pass are serial, in pair order (deterministic); the residual pass is parallel.
 *
 * Choices the paper leaves open: one restitution e and one alpha for every pair (the paper uses
 * one e per scene, §5.1); the depth statistics (vbc_system.max_depth_*) measure penetration at
 * the start of the step, where the rows are built. */
#include <math.h>
#include <stdlib.h>

#include "core/parallel.h"
#include "solvers/blocks/contact.h"

/* Which pairs get rows (vbc_contact_fluid_pairs, vbc_contact_body_pairs). */
typedef enum contact_pairs { PAIRS_ALL, PAIRS_FLUID, PAIRS_BODIES } contact_pairs;

/* One side of a contact: a fluid particle (body -1), a wall particle (body -2) or a rigid body. */
enum { SIDE_FLUID = -1, SIDE_WALL = -2 };

typedef struct contact_pair {
  uint32_t a, b;   /* particles A and B */
  int body_a, body_b;
  vbc_vec p, n;    /* contact point (midpoint), normal from B to A */
  double depth;    /* l - r (negative: a speculative contact's gap) */
} contact_pair;

typedef struct contact_state {
  double restitution, alpha, margin;
  int inclusive;
  contact_pairs pairs;
  size_t n, cap;
  contact_pair *pair;
  /* this step's pairs and largest depth l - r between bodies (rigid and wall particles) and
   * between fluid and bodies, and the rows with a gap (r > l: speculative) */
  size_t contacts_body, contacts_fluid, speculative;
  double depth_body, depth_fluid;
} contact_state;

static const char *const pairs_choices[] = {"all", "bodies", NULL};

static const vbc_param_spec contact_params[] = {
    {"restitution", VBC_PARAM_NUMBER, 0.0, 0.0, 1.0, 0,
     "coefficient of restitution e of eq. 64, every pair"},
    {"alpha", VBC_PARAM_NUMBER, 0.05, 0.0, 1.0, 0,
     "mixing of the penetration depth into the target, eq. 64"},
    {"margin", VBC_PARAM_NUMBER, 0.5, 0.0, 1.0, 0,
     "speculative contacts between bodies from r < (1 + margin) l (0: the paper's r < l)"},
    {"inclusive", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "pairs exactly l apart touch too: r <= l (1 + 1e-9), Kurose & Takahashi eq. 2 (default: "
     "r < l)"},
    {"pairs", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "all: fluid-body and body-body pairs; bodies: rigid-rigid and rigid-wall only (the fluid "
     "meets bodies through its own block, as He et al. 2012 avoid explicit fluid-solid collisions)",
     pairs_choices},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *contact_alloc(const cJSON *params, const vbc_system *sys, double *support,
                           vbc_error *err) {
  contact_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->restitution = vbc_param_number(params, contact_params, "restitution");
  s->alpha = vbc_param_number(params, contact_params, "alpha");
  s->margin = vbc_param_number(params, contact_params, "margin");
  s->inclusive = vbc_param_bool(params, contact_params, "inclusive");
  if (vbc_param_choice(params, contact_params, "pairs") == 1) s->pairs = PAIRS_BODIES;
  *support = (1.0 + s->margin) * sys->spacing;
  return s;
}

static void contact_free(void *state) {
  contact_state *s = state;
  free(s->pair);
  free(s);
}

static int side_of(const vbc_system *sys, size_t i) {
  unsigned char k = sys->particles->kind[i];
  return k == VBC_FLUID ? SIDE_FLUID : (k == VBC_WALL ? SIDE_WALL : sys->particles->body[i]);
}

static inline vbc_vec side_velocity(const vbc_system *sys, int body, uint32_t i, vbc_vec p) {
  return body >= 0 ? vbc_body_point_velocity(&sys->bodies[body], p) : sys->particles->vel[i];
}

static inline double side_inv_mass(const vbc_system *sys, int body, uint32_t i, vbc_vec p,
                                   vbc_vec n) {
  if (body >= 0) return vbc_body_inv_mass_along(&sys->bodies[body], p, n);
  return vbc_system_inv_mass(sys, i); /* fluid: rho l^d (or its body's share, couplers/pms.c) */
}

static inline void side_push(vbc_system *sys, int body, uint32_t i, vbc_vec p, vbc_vec P) {
  if (body >= 0)
    vbc_body_push(&sys->bodies[body], p, P);
  else if (body == SIDE_FLUID)
    sys->particles->vel[i] = vbc_vec_axpy(sys->particles->vel[i], vbc_system_inv_mass(sys, i), P);
}

static int touching(const vbc_system *sys, int sa, int sb) {
  if (sa == SIDE_FLUID && sb == SIDE_FLUID) return 0;
  if (sa == sb && sa != SIDE_FLUID) return 0; /* one body, or two wall particles */
  double ma = sa >= 0 ? sys->bodies[sa].inv_mass : (sa == SIDE_FLUID ? 1.0 : 0.0);
  double mb = sb >= 0 ? sys->bodies[sb].inv_mass : (sb == SIDE_FLUID ? 1.0 : 0.0);
  return ma > 0.0 || mb > 0.0; /* not two infinite masses (a fixed body on a wall) */
}

static int push_pair(contact_state *s, const contact_pair *c, vbc_error *err) {
  if (vbc_grow(&s->cap, s->n + 1, (void *[]){&s->pair}, (size_t[]){sizeof *s->pair}, 1, err) !=
      VBC_OK)
    return err->code;
  s->pair[s->n++] = *c;
  return VBC_OK;
}

static inline double normal_velocity(const vbc_system *sys, const contact_pair *c) {
  vbc_vec va = side_velocity(sys, c->body_a, c->a, c->p);
  vbc_vec vb = side_velocity(sys, c->body_b, c->b, c->p);
  return vbc_vec_dot(c->n, vbc_vec_sub(va, vb));
}

/* Relative slack of the inclusive test r <= l: lattice positions are sums of multiples of l. */
#define INCLUSIVE_SLACK 1e-9

/* Whether a pair r apart is within `reach`: r < reach, or with inclusive r <= reach (1 + slack)
 * when reach is l itself (fluid pairs, and body pairs without speculative margin). */
static inline int within(const contact_state *s, double r, double reach, double l) {
  if (s->inclusive && reach == l) return r <= l * (1.0 + INCLUSIVE_SLACK);
  return r < reach;
}

/* Every touching pair once (i < j), in particle order. */
static int find_pairs(contact_state *s, vbc_system *sys, vbc_error *err) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double l = sys->spacing;
  const int fluid = s->pairs != PAIRS_BODIES, bodies = s->pairs != PAIRS_FLUID;
  s->n = 0;
  s->contacts_fluid = 0, s->depth_fluid = 0.0;
  s->contacts_body = 0, s->depth_body = 0.0, s->speculative = 0;
  for (size_t i = 0; i < p->n; ++i) {
    int si = side_of(sys, i);
    if (si == SIDE_WALL) continue; /* wall-first pairs are found from the other side */
    if (si == SIDE_FLUID && !fluid) continue; /* all its pairs have a fluid side */
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      uint32_t j = nb->index[q];
      double r = nb->dist[q];
      int sj = side_of(sys, j);
      int with_fluid = si == SIDE_FLUID || sj == SIDE_FLUID;
      if (with_fluid ? !fluid : !bodies) continue;
      double reach = with_fluid ? l : (1.0 + s->margin) * l;
      if (!within(s, r, reach, l) || r == 0.0 || (j < i && sj != SIDE_WALL) ||
          !touching(sys, si, sj))
        continue;
      const int touches = s->inclusive && r <= l * (1.0 + INCLUSIVE_SLACK);
      contact_pair c = {(uint32_t)i, j, si, sj,
                        vbc_vec_scale(vbc_vec_add(p->pos[i], p->pos[j]), 0.5),
                        vbc_vec_scale(vbc_vec_sub(p->pos[i], p->pos[j]), 1.0 / r),
                        touches ? fmax(0.0, l - r) : l - r};
      if (push_pair(s, &c, err) != VBC_OK) return err->code;
      if (c.depth < 0.0) ++s->speculative;
      if (with_fluid) {
        ++s->contacts_fluid;
        s->depth_fluid = fmax(s->depth_fluid, c.depth);
      } else {
        ++s->contacts_body;
        s->depth_body = fmax(s->depth_body, c.depth);
      }
    }
  }
  return VBC_OK;
}

static int contact_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  contact_state *s = state;
  if (find_pairs(s, sys, err) != VBC_OK || vbc_rows_resize(rows, s->n, err) != VBC_OK)
    return err->code;
  for (size_t k = 0; k < s->n; ++k) {
    const contact_pair *c = &s->pair[k];
    double vn = normal_velocity(sys, c); /* v_n before any impulse (eq. 64) */
    rows->target[k] = c->depth >= 0.0 ? fmax(-s->restitution * vn, s->alpha / sys->dt * c->depth)
                                      : c->depth / sys->dt; /* speculative: close the gap only */
    rows->lo[k] = 0.0;
    rows->hi[k] = INFINITY;
    rows->diag[k] = side_inv_mass(sys, c->body_a, c->a, c->p, c->n) +
                    side_inv_mass(sys, c->body_b, c->b, c->p, c->n); /* eq. 60 */
    rows->impulse[k] = 0.0;
  }
  return VBC_OK;
}

static void contact_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                             double *r) {
  const contact_state *s = state;
#pragma omp parallel for schedule(static) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t k = 0; k < rows->n; ++k) r[k] = rows->target[k] - normal_velocity(sys, &s->pair[k]);
}

static inline void apply_one(vbc_system *sys, const contact_pair *c, double dN) {
  side_push(sys, c->body_a, c->a, c->p, vbc_vec_scale(c->n, dN));
  side_push(sys, c->body_b, c->b, c->p, vbc_vec_scale(c->n, -dN));
}

static void contact_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const contact_state *s = state;
  for (size_t k = 0; k < rows->n; ++k)
    if (d[k] != 0.0) apply_one(sys, &s->pair[k], d[k]);
}

/* Eq. 65-72 for every contact in turn (in reverse for a backward sweep). */
static void contact_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                          vbc_sweep_order order) {
  const contact_state *s = state;
  rows->swept_residual = 1;
  for (size_t q = 0; q < rows->n; ++q) {
    const size_t k = order == VBC_SWEEP_FORWARD ? q : rows->n - 1 - q;
    if (rows->diag[k] <= 0.0) continue;
    const double jv = normal_velocity(sys, &s->pair[k]);
    rows->residual[k] = rows->target[k] - jv; /* the delta of eq. 65, for vbc_solve */
    const double d = vbc_pgs_row(rows, k, jv, omega);
    if (d != 0.0) apply_one(sys, &s->pair[k], d);
  }
}

/* Columns of one side: a fluid particle's dim linear DOFs, or its body's linear and angular
 * ones (n and r x n). Walls have none. */
static size_t put_side(const vbc_system *sys, int body, uint32_t i, vbc_vec p, vbc_vec n,
                       double sign, vbc_sparse *J, size_t e) {
  const int dim = sys->dim;
  if (body == SIDE_WALL) return e;
  size_t base = body >= 0 ? vbc_system_body_dof(sys, (size_t)body) : (size_t)dim * i;
  for (int a = 0; a < dim; ++a, ++e) {
    J->col[e] = base + (size_t)a;
    J->val[e] = sign * vbc_vec_get(n, a);
  }
  if (body < 0) return e;
  vbc_vec rn = vbc_vec_cross(vbc_vec_sub(p, sys->bodies[body].x), n);
  for (size_t a = 0; a < vbc_system_nrot(sys); ++a, ++e) {
    J->col[e] = base + (size_t)dim + a;
    J->val[e] = sign * (dim == 2 ? rn.z : vbc_vec_get(rn, (int)a));
  }
  return e;
}

static int contact_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                            vbc_error *err) {
  const contact_state *s = state;
  const size_t per_side = (size_t)sys->dim + vbc_system_nrot(sys);
  if (vbc_sparse_reserve(J, s->n, 2 * per_side * s->n, err) != VBC_OK) return err->code;
  J->nrows = s->n;
  J->ndofs = vbc_system_ndofs(sys);
  size_t e = 0;
  for (size_t k = 0; k < s->n; ++k) {
    const contact_pair *c = &s->pair[k];
    J->start[k] = e;
    e = put_side(sys, c->body_a, c->a, c->p, c->n, 1.0, J, e);
    e = put_side(sys, c->body_b, c->b, c->p, c->n, -1.0, J, e);
  }
  J->start[s->n] = e;
  J->nnz = e;
  return VBC_OK;
}

static void contact_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  (void)state, (void)sys, (void)rows;
}

void vbc_contact_fluid_pairs(vbc_block *b) {
  if (b->type == &vbc_block_contact) ((contact_state *)b->state)->pairs = PAIRS_FLUID;
}

void vbc_contact_body_pairs(vbc_block *b) {
  if (b->type == &vbc_block_contact) ((contact_state *)b->state)->pairs = PAIRS_BODIES;
}

/* find_pairs reads the lists of fluid and rigid particles only (wall-first pairs are found from
 * the other side). */
static double contact_list_reach(const void *state, const vbc_system *sys) {
  (void)state, (void)sys;
  return 0.0;
}

/* The pairs this block finds: a block given only fluid pairs (or only body pairs) reports only
 * those figures, so that another block can report the rest. Only body pairs can be speculative. */
static int contact_figures(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const contact_state *s = state;
  if (s->pairs != PAIRS_BODIES &&
      (vbc_solve_stats_add(out, "contacts_fluid", (double)s->contacts_fluid, VBC_FIGURE_MEAN_MAX,
                           err) != VBC_OK ||
       vbc_solve_stats_add(out, "depth_fluid", s->depth_fluid, VBC_FIGURE_MAX, err) != VBC_OK))
    return err->code;
  if (s->pairs != PAIRS_FLUID &&
      (vbc_solve_stats_add(out, "contacts_body", (double)s->contacts_body, VBC_FIGURE_MEAN_MAX,
                           err) != VBC_OK ||
       vbc_solve_stats_add(out, "depth_body", s->depth_body, VBC_FIGURE_MAX, err) != VBC_OK ||
       vbc_solve_stats_add(out, "speculative_contacts", (double)s->speculative, VBC_FIGURE_MAX,
                           err) != VBC_OK))
    return err->code;
  return VBC_OK;
}

const vbc_block_type vbc_block_contact = {
    .name = "contact",
    .kind = VBC_BLOCK_CONTACT,
    .summary = "particle contacts between fluid, walls and rigid bodies (Miyamoto & Koshizuka "
               "eq. 60-72, §4.1-4.2)",
    .params = contact_params,
    .alloc = contact_alloc,
    .free = contact_free,
    .prepare = contact_prepare,
    .residual = contact_residual,
    .apply = contact_apply,
    .sweep = contact_sweep,
    .jacobian = contact_jacobian,
    .finish = contact_finish,
    .list_reach = contact_list_reach,
    .figures = contact_figures,
};
