/* lemke_defer.c — Lemke's method: borders of A^-1 held back and applied column by column
 * (lemke_basis.h, the fields from defer_max on).
 *
 * Bordering A (w_r leaves, z_e enters: lemke_pivot.c's border) changes every column a of A^-1 by
 *     f_a = (v^T A^-1)_a / s,   c_a += f_a y,   c_a[m] = -f_a,
 * with v the gathered row r, y the entering column and s its pivot. Each column's update reads
 * only that column, so the updates of one column can wait: the log keeps (v, y, s, m) of the
 * last borders, and a column takes the ones it has not taken, oldest first, when it is read.
 * Every entry then sees the same operations in the same order as under immediate updates (the
 * results are bit for bit those of defer_max = 0, which flushes each border at once;
 * tests/test_lemke.c), but a column stays in cache for all of them instead of A^-1 (5.5 MB at
 * n = 1000 and a basis of 827) being streamed from memory once per pivot. Only borders are
 * logged: the other basis changes (row or column replacement, shrinking) flush the log first
 * (lemke_pivot.c), as does every product with all of A^-1, and a flush takes four columns at a
 * time where it can (vbc_lk_flush). */
#include <stdlib.h>
#include <string.h>

#include "core/simd.h"
#include "solvers/schemes/lemke/lemke_basis.h"

/* The border loops also built for AVX2, chosen at load time where the processor has it (GCC's
 * target_clones; core/simd.h). Four doubles a step instead of two, each entry still one
 * multiplication and one addition, rounded as before, so the same bits: about 0.89 of the time
 * at n = 1000 (docs/notes/bench-journal.md). */
#if defined(VBC_X86_SIMD) && !defined(__clang__)
#define WIDE_VECTORS __attribute__((target_clones("avx2", "default")))
#else
#define WIDE_VECTORS
#endif

int vbc_lk_defer_init(lk *s, size_t defer_max, vbc_error *err) {
  s->defer_max = defer_max;
  s->nlog = 0;
  const size_t len = defer_max > 0 ? defer_max : 1; /* 0: one border, flushed at once */
  s->log_m = vbc_calloc(len, sizeof *s->log_m, err);
  s->log_piv = vbc_calloc(len, sizeof *s->log_piv, err);
  s->log_row = vbc_calloc(len + 1, sizeof *s->log_row, err);
  s->log_y = vbc_calloc(len + 1, sizeof *s->log_y, err);
  if (!s->log_m || !s->log_piv || !s->log_row || !s->log_y) return err->code;
  return VBC_OK;
}

void vbc_lk_defer_free(lk *s) {
  void *p[] = {s->ver, s->log_m, s->log_piv, s->log_row, s->log_rowp, s->log_rowv, s->log_y,
               s->log_yv};
  for (size_t k = 0; k < sizeof p / sizeof *p; ++k) free(p[k]);
}

/* Logged border k: m before it, its gathered row (nr entries at positions rp, values rv), its
 * entering column y and pivot. */
typedef struct border_op {
  size_t m, nr;
  const size_t *rp;
  const double *rv, *y;
  double piv;
} border_op;

static border_op logged(const lk *s, size_t k) {
  const size_t r0 = s->log_row[k];
  return (border_op){s->log_m[k], s->log_row[k + 1] - r0, s->log_rowp + r0, s->log_rowv + r0,
                     s->log_yv + s->log_y[k], s->log_piv[k]};
}

/* Column c's factor in border b: (v^T c) / s, the row's products summed in its order. */
static inline double factor(const border_op *b, const double *c) {
  return vbc_lk_row_dot(b->rp, b->rv, b->nr, c) / b->piv;
}

/* Logged border k on column c: c += f y, c[m] = -f. */
WIDE_VECTORS static void apply_border(const lk *s, size_t k, double *c) {
  const border_op b = logged(s, k);
  const double f = factor(&b, c);
  for (size_t p = 0; p < b.m; ++p) c[p] += f * b.y[p];
  c[b.m] = -f;
}

double *vbc_lk_col(lk *s, size_t a) {
  double *c = col(s, a);
  for (size_t k = s->ver[a]; k < s->nlog; ++k) apply_border(s, k, c);
  s->ver[a] = s->nlog;
  return c;
}

/* Logged borders k0.. on the four columns c[0..3], which have taken the same ones: each entry
 * sees apply_border's operations in its order, and each y is read once for the four. */
WIDE_VECTORS static void apply_borders4(const lk *s, size_t k0, double *const c[4]) {
  for (size_t k = k0; k < s->nlog; ++k) {
    const border_op b = logged(s, k);
    const double f[4] = {factor(&b, c[0]), factor(&b, c[1]), factor(&b, c[2]), factor(&b, c[3])};
    double *c0 = c[0], *c1 = c[1], *c2 = c[2], *c3 = c[3];
    for (size_t p = 0; p < b.m; ++p) {
      const double yp = b.y[p];
      c0[p] += f[0] * yp, c1[p] += f[1] * yp, c2[p] += f[2] * yp, c3[p] += f[3] * yp;
    }
    for (int j = 0; j < 4; ++j) c[j][b.m] = -f[j];
  }
}

/* Four columns at a time where they have taken the same borders: the logged y then come from
 * the cache once per four columns instead of once per column (n = 1000: 1.9e8 updates). */
void vbc_lk_flush(lk *s) {
  if (s->nlog == 0) return;
  size_t a = 0;
  while (a < s->m) {
    const size_t v = s->ver[a];
    if (a + 4 <= s->m && s->ver[a + 1] == v && s->ver[a + 2] == v && s->ver[a + 3] == v) {
      double *const c[4] = {col(s, a), col(s, a + 1), col(s, a + 2), col(s, a + 3)};
      apply_borders4(s, v, c);
      for (int b = 0; b < 4; ++b) s->ver[a++] = 0;
    } else {
      vbc_lk_col(s, a);
      s->ver[a++] = 0;
    }
  }
  s->nlog = 0;
}

void vbc_lk_log_clear(lk *s) {
  s->nlog = 0;
  memset(s->ver, 0, s->m * sizeof *s->ver);
}

/* Room for `need` entries in a log buffer of doubles and, with idx, one of indices. */
static int log_reserve(size_t need, size_t *cap, double **val, size_t **idx, vbc_error *err) {
  if (need <= *cap) return VBC_OK;
  const size_t c = need > 2 * *cap ? need : 2 * *cap;
  double *v = vbc_realloc(*val, c, sizeof *v, err);
  if (v == NULL) return err->code;
  *val = v;
  if (idx) {
    size_t *i = vbc_realloc(*idx, c, sizeof *i, err);
    if (i == NULL) return err->code;
    *idx = i;
  }
  *cap = c;
  return VBC_OK;
}

int vbc_lk_log_border(lk *s, double piv, vbc_error *err) {
  if (s->nlog == s->defer_max) vbc_lk_flush(s);
  const size_t k = s->nlog, r0 = s->log_row[k], y0 = s->log_y[k];
  if (log_reserve(r0 + s->nrow, &s->cap_logrow, &s->log_rowv, &s->log_rowp, err) != VBC_OK ||
      log_reserve(y0 + s->m, &s->cap_logy, &s->log_yv, NULL, err) != VBC_OK)
    return err->code;
  memcpy(s->log_rowp + r0, s->rowp, s->nrow * sizeof *s->rowp);
  memcpy(s->log_rowv + r0, s->rowv, s->nrow * sizeof *s->rowv);
  memcpy(s->log_yv + y0, s->y, s->m * sizeof *s->y);
  s->log_m[k] = s->m;
  s->log_piv[k] = piv;
  s->log_row[k + 1] = r0 + s->nrow;
  s->log_y[k + 1] = y0 + s->m;
  s->nlog = k + 1;
  return VBC_OK;
}
