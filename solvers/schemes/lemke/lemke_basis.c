/* lemke_basis.c — Lemke's method: the scaled problem and its state, products with the basis
 * inverse, the entering column and the lexicographic ratio test (lemke_basis.h; the method and
 * its choices are described in lemke.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/schemes/lemke/lemke_basis.h"

/* ------------------------------------------------------------------------------------------ */

void vbc_lk_csr_free(csr *a) {
  free(a->start);
  free(a->idx);
  free(a->val);
  memset(a, 0, sizeof *a);
}

int vbc_lk_csr_alloc(csr *a, size_t n, size_t nnz, vbc_error *err) {
  a->n = n;
  a->nnz = nnz;
  a->start = vbc_calloc(n + 1, sizeof *a->start, err);
  a->idx = vbc_calloc(nnz ? nnz : 1, sizeof *a->idx, err);
  a->val = vbc_calloc(nnz ? nnz : 1, sizeof *a->val, err);
  return a->start && a->idx && a->val ? VBC_OK : err->code;
}

int vbc_lk_csr_transpose(const csr *a, csr *t, vbc_error *err) {
  if (vbc_lk_csr_alloc(t, a->n, a->nnz, err) != VBC_OK) return err->code;
  for (size_t k = 0; k < a->nnz; ++k) t->start[a->idx[k] + 1]++;
  for (size_t i = 0; i < a->n; ++i) t->start[i + 1] += t->start[i];
  size_t *next = vbc_calloc(a->n + 1, sizeof *next, err);
  if (next == NULL) return err->code;
  memcpy(next, t->start, (a->n + 1) * sizeof *next);
  for (size_t i = 0; i < a->n; ++i)
    for (size_t k = a->start[i]; k < a->start[i + 1]; ++k) {
      size_t e = next[a->idx[k]]++;
      t->idx[e] = i;
      t->val[e] = a->val[k];
    }
  free(next);
  return VBC_OK;
}

/* y = M z + q from the caller's CSR matrix. */
void vbc_lk_csr_affine(const vbc_sparse *M, const double *z, const double *q, double *w) {
  for (size_t i = 0; i < M->nrows; ++i) {
    double acc = q[i];
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k) acc += M->val[k] * z[M->col[k]];
    w[i] = acc;
  }
}

/* ------------------------------------------------------------------------------------------ */

void vbc_lk_free(lk *s) {
  vbc_lk_defer_free(s);
  vbc_lk_csr_free(&s->R);
  vbc_lk_csr_free(&s->C);
  void *p[] = {s->D,  s->q,  s->d, s->Ainv, s->eqpos, s->req,   s->zpos,  s->cvar, s->xw,
               s->xz, s->y,  s->aw, s->t,   s->g,     s->r,     s->cand,  s->cabar, s->cval,
               s->candw, s->regd, s->rowp, s->rowv};
  for (size_t k = 0; k < sizeof p / sizeof *p; ++k) free(p[k]);
  memset(s, 0, sizeof *s);
}

/* Grow A^-1's storage to hold m x m with m = need. */
int vbc_lk_reserve(lk *s, size_t need, vbc_error *err) {
  if (need <= s->cap) return VBC_OK;
  vbc_lk_flush(s); /* the columns are copied below */
  size_t cap = s->cap ? s->cap : 32;
  while (cap < need) cap *= 2;
  if (cap > s->n + 1) cap = s->n + 1;
  double *A = vbc_calloc(cap * cap, sizeof *A, err);
  double *y = vbc_realloc(s->y, cap, sizeof *y, err);
  if (y) s->y = y;
  double *g = vbc_realloc(s->g, cap, sizeof *g, err);
  if (g) s->g = g;
  double *r = vbc_realloc(s->r, cap, sizeof *r, err);
  if (r) s->r = r;
  double *xz = vbc_realloc(s->xz, cap, sizeof *xz, err);
  if (xz) s->xz = xz;
  size_t *cv = vbc_realloc(s->cvar, cap, sizeof *cv, err);
  if (cv) s->cvar = cv;
  size_t *rq = vbc_realloc(s->req, cap, sizeof *rq, err);
  if (rq) s->req = rq;
  size_t *ver = vbc_realloc(s->ver, cap, sizeof *ver, err);
  if (ver) s->ver = ver;
  if (!A || !y || !g || !r || !xz || !cv || !rq || !ver) {
    free(A);
    return err->code;
  }
  for (size_t a = 0; a < s->m; ++a) memcpy(A + a * cap, s->Ainv + a * s->cap, s->m * sizeof *A);
  free(s->Ainv);
  s->Ainv = A;
  s->cap = cap;
  return VBC_OK;
}

/* Scale and copy the problem; M is the caller's CSR. */
int vbc_lk_init(lk *s, const vbc_sparse *M, const double *q, const vbc_lemke_options *opt,
                double reg, vbc_error *err) {
  const double *cover = opt->cover;
  const size_t n = M->nrows;
  memset(s, 0, sizeof *s);
  s->n = n;
  s->tie = opt->tie_tolerance;
  s->piv = opt->pivot_tolerance;
  if (vbc_lk_defer_init(s, opt->deferred_updates, err) != VBC_OK) return err->code;
  s->D = vbc_calloc(n, sizeof *s->D, err);
  s->q = vbc_calloc(n, sizeof *s->q, err);
  s->d = vbc_calloc(n, sizeof *s->d, err);
  s->eqpos = vbc_calloc(n, sizeof *s->eqpos, err);
  s->zpos = vbc_calloc(n + 1, sizeof *s->zpos, err);
  s->xw = vbc_calloc(n, sizeof *s->xw, err);
  s->aw = vbc_calloc(n, sizeof *s->aw, err);
  s->t = vbc_calloc(n, sizeof *s->t, err);
  s->cand = vbc_calloc(n + 1, sizeof *s->cand, err);
  s->cabar = vbc_calloc(n + 1, sizeof *s->cabar, err);
  s->cval = vbc_calloc(n + 1, sizeof *s->cval, err);
  s->candw = vbc_calloc(n, sizeof *s->candw, err);
  s->rowp = vbc_calloc(n + 1, sizeof *s->rowp, err);
  s->rowv = vbc_calloc(n + 1, sizeof *s->rowv, err);
  if (!s->D || !s->q || !s->d || !s->eqpos || !s->zpos || !s->xw || !s->aw || !s->t ||
      !s->cand || !s->cabar || !s->cval || !s->candw || !s->rowp || !s->rowv)
    return err->code;
  if (vbc_lk_csr_alloc(&s->R, n, M->start[n], err) != VBC_OK) return err->code;
  for (size_t i = 0; i < n; ++i) {
    double diag = 0.0;
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k)
      if (M->col[k] == i) diag += M->val[k];
    s->D[i] = diag > 0.0 ? 1.0 / sqrt(diag) : 1.0;
  }
  double qs = 0.0;
  for (size_t i = 0; i < n; ++i) qs = fmax(qs, fabs(s->D[i] * q[i]));
  s->qs = qs;
  for (size_t i = 0; i < n; ++i) {
    s->q[i] = s->D[i] * q[i] / qs;
    s->d[i] = s->D[i] * (cover ? cover[i] : 1.0);
    s->eqpos[i] = -1;
    s->zpos[i] = -1;
    s->xw[i] = s->q[i];
    s->R.start[i + 1] = M->start[i + 1];
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k) {
      s->R.idx[k] = M->col[k];
      s->R.val[k] = s->D[i] * M->val[k] * s->D[M->col[k]];
    }
  }
  s->zpos[n] = -1;
  s->reg = reg;
  if (s->reg > 0.0) {
    s->regd = vbc_calloc(n, 1, err);
    if (s->regd == NULL) return err->code;
    for (size_t i = 0; i < n; ++i)
      for (size_t k = s->R.start[i]; k < s->R.start[i + 1] && !s->regd[i]; ++k)
        if (s->R.idx[k] == i && s->R.val[k] > 0.0) {
          s->R.val[k] += s->reg;
          s->regd[i] = 1;
        }
  }
  if (vbc_lk_csr_transpose(&s->R, &s->C, err) != VBC_OK) return err->code;
  return vbc_lk_reserve(s, n + 1 < 64 ? n + 1 : 64, err);
}


/* t = M_:Z x_Z + d x_0 over every equation. */
void vbc_lk_basic_times(const lk *s, const double *x, double *t) {
  memset(t, 0, s->n * sizeof *t);
  for (size_t p = 0; p < s->m; ++p) {
    const double xp = x[p];
    if (xp == 0.0) continue;
    const size_t j = s->cvar[p];
    if (j == s->n) {
      for (size_t i = 0; i < s->n; ++i) t[i] += s->d[i] * xp;
    } else {
      for (size_t k = s->C.start[j]; k < s->C.start[j + 1]; ++k) t[s->C.idx[k]] += s->C.val[k] * xp;
    }
  }
}

/* out = A^-1 v (v indexed by rows a of A). */
void vbc_lk_ainv_times(lk *s, const double *v, double *out) {
  vbc_lk_flush(s);
  memset(out, 0, s->m * sizeof *out);
  for (size_t a = 0; a < s->m; ++a) {
    const double f = v[a];
    if (f == 0.0) continue;
    const double *c = col(s, a);
    for (size_t p = 0; p < s->m; ++p) out[p] += f * c[p];
  }
}

/* The W part of the entering column from y: abar_W = a_W + (M_:Z y_Z + d y_0)_W. Returns the
 * relative residual of A y = a_R, max_a |a_a + t_a| / max(1, |y|_inf), which it leaves in r. */
static double column_rest(lk *s, size_t e, int is_w) {
  const size_t m = s->m;
  vbc_lk_basic_times(s, s->y, s->t);
  for (size_t i = 0; i < s->n; ++i) s->aw[i] = s->eqpos[i] < 0 ? s->t[i] : 0.0;
  for (size_t a = 0; a < m; ++a) s->r[a] = s->t[s->req[a]];
  if (is_w) {
    s->r[s->eqpos[e]] += 1.0;
  } else {
    for (size_t k = s->C.start[e]; k < s->C.start[e + 1]; ++k) {
      const long a = s->eqpos[s->C.idx[k]];
      if (a < 0) s->aw[s->C.idx[k]] -= s->C.val[k];
      else s->r[a] -= s->C.val[k];
    }
  }
  double res = 0.0, ymax = 1.0;
  for (size_t a = 0; a < m; ++a) res = fmax(res, fabs(s->r[a]));
  for (size_t p = 0; p < m; ++p) ymax = fmax(ymax, fabs(s->y[p]));
  return res / ymax;
}

/* The entering column of z_e (is_w = 0) or w_e (is_w = 1) in the current basis; returns the
 * relative residual of its A part (column_rest). */
double vbc_lk_entering_column(lk *s, size_t e, int is_w) {
  const size_t m = s->m;
  if (is_w) {
    memcpy(s->y, vbc_lk_col(s, (size_t)s->eqpos[e]), m * sizeof *s->y);
  } else {
    memset(s->y, 0, m * sizeof *s->y);
    for (size_t k = s->C.start[e]; k < s->C.start[e + 1]; ++k) {
      long a = s->eqpos[s->C.idx[k]];
      if (a < 0) continue;
      const double f = -s->C.val[k];
      const double *c = vbc_lk_col(s, (size_t)a);
      for (size_t p = 0; p < m; ++p) s->y[p] += f * c[p];
    }
  }
  double res = column_rest(s, e, is_w);
  if (res > REFINE_AT) { /* one step of iterative refinement: y += A^-1 (a_R - A y) */
    vbc_lk_ainv_times(s, s->r, s->g);
    for (size_t p = 0; p < m; ++p) s->y[p] += s->g[p];
    res = column_rest(s, e, is_w);
  }
  return res;
}

/* Entry of B^-1 in the row of basic variable v (ids as in cand) and the column of equation c. */
static double binv_entry(lk *s, size_t v, size_t c) {
  const long a = s->eqpos[c];
  if (v <= s->n) return a < 0 ? 0.0 : vbc_lk_col(s, (size_t)a)[s->zpos[v]];
  const size_t i = v - s->n - 1;
  if (a < 0) return i == c ? 1.0 : 0.0;
  const double *ca = vbc_lk_col(s, (size_t)a);
  double acc = s->zpos[s->n] >= 0 ? s->d[i] * ca[s->zpos[s->n]] : 0.0;
  for (size_t k = s->R.start[i]; k < s->R.start[i + 1]; ++k) {
    long p = s->zpos[s->R.idx[k]];
    if (p >= 0) acc += s->R.val[k] * ca[p];
  }
  return acc;
}

/* Lexicographic minimum among the nc tied candidates; returns its index in cand. */
static size_t lex_min(lk *s, size_t nc) {
  for (size_t k = 0; k < nc; ++k)
    if (s->cand[k] > s->n) s->candw[s->cand[k] - s->n - 1] = 1;
  for (size_t c = 0; c < s->n && nc > 1; ++c) {
    if (s->eqpos[c] < 0 && !s->candw[c]) continue; /* a zero column for every candidate */
    double lo = INFINITY;
    for (size_t k = 0; k < nc; ++k) {
      s->cval[k] = binv_entry(s, s->cand[k], c) / s->cabar[k];
      lo = fmin(lo, s->cval[k]);
    }
    const double lim = lo + LEX_TOLERANCE * fmax(1.0, fabs(lo));
    size_t keep = 0;
    for (size_t k = 0; k < nc; ++k)
      if (s->cval[k] <= lim) {
        s->cand[keep] = s->cand[k];
        s->cabar[keep++] = s->cabar[k];
      } else if (s->cand[k] > s->n) {
        s->candw[s->cand[k] - s->n - 1] = 0;
      }
    nc = keep;
  }
  size_t best = 0; /* rows equal to round-off: the largest pivot */
  for (size_t k = 1; k < nc; ++k)
    if (s->cabar[k] > s->cabar[best]) best = k;
  for (size_t k = 0; k < nc; ++k)
    if (s->cand[k] > s->n) s->candw[s->cand[k] - s->n - 1] = 0;
  return best;
}

/* Ratio test for the current entering column: the leaving variable id (w_i as n + 1 + i), or
 * (size_t)-1 for a ray. *theta gets the step. */
size_t vbc_lk_ratio_test(lk *s, double *theta) {
  const size_t n = s->n, m = s->m;
  double amax = 0.0;
  for (size_t p = 0; p < m; ++p) amax = fmax(amax, fabs(s->y[p]));
  for (size_t i = 0; i < n; ++i) amax = fmax(amax, fabs(s->aw[i]));
  const double thr = s->piv * fmax(1.0, amax);
  double best = INFINITY;
  for (size_t p = 0; p < m; ++p)
    if (s->y[p] > thr) best = fmin(best, fmax(s->xz[p], 0.0) / s->y[p]);
  for (size_t i = 0; i < n; ++i)
    if (s->eqpos[i] < 0 && s->aw[i] > thr) best = fmin(best, fmax(s->xw[i], 0.0) / s->aw[i]);
  if (best == INFINITY) return (size_t)-1;
  *theta = best;
  size_t nc = 0;
  for (size_t p = 0; p < m; ++p)
    if (s->y[p] > thr && fmax(s->xz[p], 0.0) - best * s->y[p] <= s->tie) {
      if (s->cvar[p] == n) return n; /* z0 ties: it leaves, the LCP is solved */
      s->cand[nc] = s->cvar[p];
      s->cabar[nc++] = s->y[p];
    }
  for (size_t i = 0; i < n; ++i)
    if (s->eqpos[i] < 0 && s->aw[i] > thr && fmax(s->xw[i], 0.0) - best * s->aw[i] <= s->tie) {
      s->cand[nc] = n + 1 + i;
      s->cabar[nc++] = s->aw[i];
    }
  return s->cand[nc == 1 ? 0 : lex_min(s, nc)];
}

/* Row r of C, the coefficients of A's variables in equation r, as (column p, value) pairs. */
