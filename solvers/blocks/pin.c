/* pin.c — pin joints as a constraint block (Miyamoto & Koshizuka §5.6-5.7: "pinned at and can
 * only rotate around" a point).
 *
 * A pinned body B keeps its material pin point p = x_B + R r_pin on the world pin P. Its velocity
 * there must vanish, one bilateral row per axis a (2D: x, y; 3D: x, y, z):
 *     J u = e_a . (v_B + w_B x (p - x_B)),   b = -(alpha/h) e_a . (p - P),   lo = -inf, hi = inf,
 *     A   = 1/m_B + |(p - x_B) x e_a|^2_{I_B^-1}     (eq. 60 with one body and n = e_a).
 * The position term plays the part of eq. 64's: it pulls a pin that drifted (round-off, or an
 * inexact solve) back at rate alpha/h, so the error cannot accumulate. The impulse is a free
 * reaction force on the body at p. The rows of one body are coupled when p is not the centre of
 * mass; PGS (row by row) and Jacobi handle that like any other coupling.
 *
 * Choice left open by the paper: the pin is a velocity-level joint like the contacts, iterated in
 * the same loop (strong coupling), not a reduced coordinate. */
#include <math.h>
#include <stdlib.h>

#include "solvers/blocks/blocks.h"

typedef struct pin_state {
  double alpha;
  size_t n, cap;
  size_t *body;   /* per row */
  int *axis;      /* per row */
  vbc_vec *point; /* per row: the material pin point, fixed while the step's solve runs */
} pin_state;

/* The pin reads `alpha` from method.contact: one position-mixing constant for contacts and
 * joints, as in the paper's rigid-body solver. */
static const vbc_param_spec pin_params[] = {
    {"alpha", VBC_PARAM_NUMBER, 0.05, 0.0, 1.0, 0,
     "mixing of the pin's position error into the target, like eq. 64"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *pin_alloc(const cJSON *params, const vbc_system *sys, double *support,
                       vbc_error *err) {
  (void)sys;
  pin_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->alpha = vbc_param_number(params, pin_params, "alpha");
  *support = 0.0;
  return s;
}

static void pin_free(void *state) {
  pin_state *s = state;
  free(s->body);
  free(s->axis);
  free(s->point);
  free(s);
}

static vbc_vec unit(int axis) {
  vbc_vec e = vbc_vec_zero();
  vbc_vec_set(&e, axis, 1.0);
  return e;
}


static inline double row_velocity(const pin_state *s, const vbc_system *sys, size_t k) {
  return vbc_vec_get(vbc_body_point_velocity(&sys->bodies[s->body[k]], s->point[k]), s->axis[k]);
}

static int pin_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  pin_state *s = state;
  size_t n = 0;
  for (size_t b = 0; b < sys->nbodies; ++b)
    if (sys->bodies[b].motion == VBC_MOTION_PINNED) n += (size_t)sys->dim;
  void *const arrays[] = {&s->body, &s->axis, &s->point};
  const size_t sizes[] = {sizeof *s->body, sizeof *s->axis, sizeof *s->point};
  if (vbc_grow(&s->cap, n, arrays, sizes, 3, err) != VBC_OK ||
      vbc_rows_resize(rows, n, err) != VBC_OK)
    return err->code;
  s->n = 0;
  for (size_t b = 0; b < sys->nbodies; ++b) {
    const vbc_body *body = &sys->bodies[b];
    if (body->motion != VBC_MOTION_PINNED) continue;
    vbc_vec p = vbc_body_pin_point(body);
    for (int a = 0; a < sys->dim; ++a) {
      size_t k = s->n++;
      s->body[k] = b;
      s->axis[k] = a;
      s->point[k] = p;
      rows->target[k] = -s->alpha / sys->dt * (vbc_vec_get(p, a) - vbc_vec_get(body->pin, a));
      rows->lo[k] = -INFINITY;
      rows->hi[k] = INFINITY;
      rows->diag[k] = vbc_body_inv_mass_along(body, p, unit(a));
      rows->impulse[k] = 0.0;
    }
  }
  return VBC_OK;
}

static void pin_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                         double *r) {
  const pin_state *s = state;
  for (size_t k = 0; k < rows->n; ++k) r[k] = rows->target[k] - row_velocity(s, sys, k);
}

static inline void apply_one(const pin_state *s, vbc_system *sys, size_t k, double d) {
  vbc_body_push(&sys->bodies[s->body[k]], s->point[k], vbc_vec_scale(unit(s->axis[k]), d));
}

static void pin_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const pin_state *s = state;
  for (size_t k = 0; k < rows->n; ++k)
    if (d[k] != 0.0) apply_one(s, sys, k, d[k]);
}

/* Bilateral rows: the projection onto (-inf, inf) leaves the update as it is. */
static void pin_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                      vbc_sweep_order order) {
  const pin_state *s = state;
  for (size_t q = 0; q < rows->n; ++q) {
    const size_t k = order == VBC_SWEEP_FORWARD ? q : rows->n - 1 - q;
    if (rows->diag[k] <= 0.0) continue;
    apply_one(s, sys, k, vbc_pgs_row(rows, k, row_velocity(s, sys, k), omega));
  }
}

static int pin_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                        vbc_error *err) {
  const pin_state *s = state;
  const size_t nrot = vbc_system_nrot(sys), per = (size_t)sys->dim + nrot;
  if (vbc_sparse_reserve(J, s->n, per * s->n, err) != VBC_OK) return err->code;
  J->nrows = s->n;
  J->ndofs = vbc_system_ndofs(sys);
  size_t e = 0;
  for (size_t k = 0; k < s->n; ++k) {
    size_t base = vbc_system_body_dof(sys, s->body[k]);
    vbc_vec rn = vbc_vec_cross(vbc_vec_sub(s->point[k], sys->bodies[s->body[k]].x),
                               unit(s->axis[k]));
    J->start[k] = e;
    for (int a = 0; a < sys->dim; ++a, ++e) {
      J->col[e] = base + (size_t)a;
      J->val[e] = a == s->axis[k] ? 1.0 : 0.0;
    }
    for (size_t a = 0; a < nrot; ++a, ++e) {
      J->col[e] = base + (size_t)sys->dim + a;
      J->val[e] = nrot == 1 ? rn.z : vbc_vec_get(rn, (int)a);
    }
  }
  J->start[s->n] = e;
  J->nnz = e;
  return VBC_OK;
}

static void pin_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  (void)state, (void)sys, (void)rows;
}

static unsigned pin_traits(const void *state) {
  (void)state;
  return VBC_ROWS_BILATERAL;
}

static double pin_list_reach(const void *state, const vbc_system *sys) { /* reads no lists */
  (void)state, (void)sys;
  return 0.0;
}

const vbc_block_type vbc_block_pin = {
    .name = "pin",
    .kind = VBC_BLOCK_JOINT,
    .summary = "pin joints: the pin point of a pinned body keeps still (bilateral rows)",
    .params = pin_params,
    .alloc = pin_alloc,
    .free = pin_free,
    .prepare = pin_prepare,
    .residual = pin_residual,
    .apply = pin_apply,
    .sweep = pin_sweep,
    .jacobian = pin_jacobian,
    .finish = pin_finish,
    .traits = pin_traits,
    .list_reach = pin_list_reach,
};
