/* jacobian_rows.c — see jacobian_rows.h. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/jacobian_rows.h"

typedef struct rows_state {
  size_t n, m;
  double *J, *b; /* n x m, n */
  int bilateral;
} rows_state;

static double vel_dof(const vbc_system *sys, size_t c) {
  return vbc_vec_get(sys->particles->vel[c / 2], (int)(c % 2));
}

static double row_velocity(const rows_state *s, const vbc_system *sys, size_t k) {
  double jv = 0.0;
  for (size_t c = 0; c < s->m; ++c) jv += s->J[k * s->m + c] * vel_dof(sys, c);
  return jv;
}

/* v += W J_k^T d */
static void push_row(const rows_state *s, vbc_system *sys, size_t k, double d) {
  for (size_t c = 0; c < s->m; ++c) {
    vbc_vec *v = &sys->particles->vel[c / 2];
    const double dv = vbc_system_inv_mass(sys, c / 2) * s->J[k * s->m + c] * d;
    vbc_vec_set(v, (int)(c % 2), vbc_vec_get(*v, (int)(c % 2)) + dv);
  }
}

static void *rows_alloc(const cJSON *params, const vbc_system *sys, double *support,
                        vbc_error *err) {
  (void)params, (void)sys, (void)support;
  vbc_error_set(err, VBC_EXIT_INPUT, "jacobian rows are made from a matrix, not a scene");
  return NULL;
}

static void rows_free(void *state) {
  rows_state *s = state;
  free(s->J), free(s->b), free(s);
}

static int rows_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  const rows_state *s = state;
  if (vbc_rows_resize(rows, s->n, err) != VBC_OK) return err->code;
  for (size_t k = 0; k < s->n; ++k) {
    double a = 0.0;
    for (size_t c = 0; c < s->m; ++c)
      a += vbc_system_inv_mass(sys, c / 2) * s->J[k * s->m + c] * s->J[k * s->m + c];
    rows->target[k] = s->b[k];
    rows->lo[k] = s->bilateral ? -INFINITY : 0.0;
    rows->hi[k] = INFINITY;
    rows->diag[k] = a;
    rows->impulse[k] = 0.0;
  }
  return VBC_OK;
}

static void rows_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                          double *r) {
  const rows_state *s = state;
  for (size_t k = 0; k < rows->n; ++k) r[k] = rows->target[k] - row_velocity(s, sys, k);
}

static void rows_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const rows_state *s = state;
  for (size_t k = 0; k < rows->n; ++k)
    if (d[k] != 0.0) push_row(s, sys, k, d[k]);
}

static void rows_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                       vbc_sweep_order order) {
  const rows_state *s = state;
  for (size_t q = 0; q < rows->n; ++q) {
    const size_t k = order == VBC_SWEEP_FORWARD ? q : rows->n - 1 - q;
    if (rows->diag[k] <= 0.0) continue;
    const double d = vbc_pgs_row(rows, k, row_velocity(s, sys, k), omega);
    if (d != 0.0) push_row(s, sys, k, d);
  }
}

static int rows_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                         vbc_error *err) {
  const rows_state *s = state;
  if (vbc_sparse_reserve(J, s->n, s->n * s->m, err) != VBC_OK) return err->code;
  size_t e = 0;
  for (size_t k = 0; k < s->n; ++k) {
    J->start[k] = e;
    for (size_t c = 0; c < s->m; ++c)
      if (s->J[k * s->m + c] != 0.0) J->col[e] = c, J->val[e++] = s->J[k * s->m + c];
  }
  J->start[s->n] = e;
  J->nnz = e;
  J->nrows = s->n;
  J->ndofs = vbc_system_ndofs(sys);
  return VBC_OK;
}

static void rows_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  (void)state, (void)sys, (void)rows;
}

static unsigned rows_traits(const void *state) {
  return ((const rows_state *)state)->bilateral ? VBC_ROWS_BILATERAL : 0u;
}

static const vbc_block_type jacobian_rows_type = {
    .name = "jacobian_rows",
    .kind = VBC_BLOCK_MATRIX,
    .summary = "explicit Jacobian rows over point masses (tests)",
    .alloc = rows_alloc,
    .free = rows_free,
    .prepare = rows_prepare,
    .residual = rows_residual,
    .apply = rows_apply,
    .sweep = rows_sweep,
    .jacobian = rows_jacobian,
    .finish = rows_finish,
    .traits = rows_traits,
};

void jacobian_lcp_init(jacobian_lcp *L, size_t n, size_t m, const double *J, const double *w,
                       const double *q, int bilateral) {
  vbc_error err = {0};
  memset(L, 0, sizeof *L);
  cr_assert_eq(m % 2, 0);
  for (size_t i = 0; i < m / 2; ++i)
    cr_assert_geq(vbc_particles_add(&L->p, vbc_vec_zero(), vbc_vec_zero(), VBC_FLUID, -1, &err),
                  0);
  L->inv_mass = calloc(m / 2, sizeof *L->inv_mass);
  rows_state *s = calloc(1, sizeof *s);
  cr_assert(L->inv_mass && s);
  memcpy(L->inv_mass, w, m / 2 * sizeof *w);
  *s = (rows_state){n, m, calloc(n * m, sizeof(double)), calloc(n, sizeof(double)), bilateral};
  cr_assert(s->J && s->b);
  memcpy(s->J, J, n * m * sizeof *J);
  for (size_t k = 0; k < n; ++k) s->b[k] = -q[k];
  L->sys = (vbc_system){.dim = 2, .dt = 1.0, .spacing = 1.0, .density = 1.0, .fluid_mass = 1.0,
                        .particles = &L->p, .inv_mass_override = L->inv_mass};
  L->block = (vbc_block){.type = &jacobian_rows_type, .state = s, .label = "lcp"};
  cr_assert_eq(rows_prepare(s, &L->sys, &L->block.rows, &err), 0, "%s", err.message);
}

void jacobian_lcp_free(jacobian_lcp *L) {
  vbc_block_free(&L->block);
  vbc_particles_free(&L->p);
  free(L->inv_mass);
}
