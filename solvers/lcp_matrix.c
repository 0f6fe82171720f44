/* lcp_matrix.c — see lcp_matrix.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/lcp_matrix.h"
#include "solvers/solvers.h"

typedef struct lcp_state {
  size_t n;
  double *M, *q, *y; /* y = M z */
} lcp_state;

static void *lcp_alloc(const cJSON *params, const vbc_system *sys, double *support,
                       vbc_error *err) {
  (void)params, (void)sys, (void)support;
  vbc_error_set(err, VBC_EXIT_INPUT, "lcp_matrix blocks are made from a matrix, not a scene");
  return NULL;
}

static void lcp_free(void *state) {
  lcp_state *s = state;
  free(s->M);
  free(s->q);
  free(s->y);
  free(s);
}

static int lcp_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  (void)sys;
  lcp_state *s = state;
  if (vbc_rows_resize(rows, s->n, err) != VBC_OK) return err->code;
  for (size_t k = 0; k < s->n; ++k) {
    rows->target[k] = -s->q[k];
    rows->lo[k] = 0.0;
    rows->hi[k] = INFINITY;
    rows->diag[k] = s->M[k * s->n + k];
    rows->impulse[k] = 0.0;
    s->y[k] = 0.0;
  }
  return VBC_OK;
}

static void lcp_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                         double *r) {
  (void)sys;
  const lcp_state *s = state;
  for (size_t k = 0; k < rows->n; ++k) r[k] = rows->target[k] - s->y[k];
}

static void lcp_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  (void)sys, (void)rows;
  lcp_state *s = state;
  for (size_t i = 0; i < s->n; ++i) {
    double acc = 0.0;
    for (size_t k = 0; k < s->n; ++k) acc += s->M[i * s->n + k] * d[k];
    s->y[i] += acc;
  }
}

static void lcp_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega) {
  (void)sys;
  lcp_state *s = state;
  for (size_t k = 0; k < s->n; ++k) {
    double a = rows->diag[k];
    if (a <= 0.0) continue;
    double lam = rows->impulse[k];
    double next = vbc_clamp(lam + omega * (rows->target[k] - s->y[k]) / a, rows->lo[k],
                            rows->hi[k]);
    double d = next - lam;
    rows->impulse[k] = next;
    for (size_t i = 0; i < s->n; ++i) s->y[i] += s->M[i * s->n + k] * d;
  }
}

static void lcp_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  (void)state, (void)sys, (void)rows;
}

const vbc_block_type vbc_block_lcp_matrix = {
    .name = "lcp_matrix",
    .summary = "an explicit LCP (M, q): rows (Mz)_k >= -q_k (tests and LCP files)",
    .params = NULL,
    .alloc = lcp_alloc,
    .free = lcp_free,
    .prepare = lcp_prepare,
    .residual = lcp_residual,
    .apply = lcp_apply,
    .sweep = lcp_sweep,
    .jacobian = NULL,
    .finish = lcp_finish,
};

int vbc_lcp_matrix_block_init(vbc_block *b, size_t n, const double *M, const double *q,
                              vbc_error *err) {
  memset(b, 0, sizeof *b);
  lcp_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return err->code;
  s->n = n;
  s->M = vbc_calloc(n * n, sizeof *s->M, err);
  s->q = vbc_calloc(n, sizeof *s->q, err);
  s->y = vbc_calloc(n, sizeof *s->y, err);
  if (!s->M || !s->q || !s->y) {
    lcp_free(s);
    return err->code;
  }
  memcpy(s->M, M, n * n * sizeof *M);
  memcpy(s->q, q, n * sizeof *q);
  b->type = &vbc_block_lcp_matrix;
  b->state = s;
  b->label = "lcp";
  return VBC_OK;
}

void vbc_lcp_matrix_w(const vbc_block *b, double *w) {
  const lcp_state *s = b->state;
  for (size_t i = 0; i < s->n; ++i) {
    double acc = s->q[i];
    for (size_t k = 0; k < s->n; ++k) acc += s->M[i * s->n + k] * b->rows.impulse[k];
    w[i] = acc;
  }
}
