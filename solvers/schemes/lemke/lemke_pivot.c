/* lemke_pivot.c — Lemke's method: basis changes of A^-1 (bordering, row and column
 * replacement, shrinking), the periodic refresh of the basic values and the dense LU
 * refactorisation (lemke_basis.h; the method and its choices are described in lemke.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/schemes/lemke/lemke_basis.h"

static void gather_row(lk *s, size_t r) {
  size_t k = 0;
  if (s->zpos[s->n] >= 0) {
    s->rowp[k] = (size_t)s->zpos[s->n];
    s->rowv[k++] = -s->d[r];
  }
  for (size_t e = s->R.start[r]; e < s->R.start[r + 1]; ++e) {
    const long p = s->zpos[s->R.idx[e]];
    if (p >= 0) {
      s->rowp[k] = (size_t)p;
      s->rowv[k++] = -s->R.val[e];
    }
  }
  s->nrow = k;
}

/* (v^T A^-1)_a for the gathered row v and ca the column a of A^-1. */
static double row_times_col(const lk *s, const double *ca) {
  return vbc_lk_row_dot(s->rowp, s->rowv, s->nrow, ca);
}

/* w_r leaves, z_e enters: A gets row r and column z_e (bordering; pivot s = aw[r]). */
static int border(lk *s, size_t r, size_t e, vbc_error *err) {
  if (vbc_lk_reserve(s, s->m + 1, err) != VBC_OK) return err->code;
  const size_t m = s->m;
  const double piv = s->aw[r], *y = s->y;
  gather_row(s, r);
  /* the other columns take it when read (lemke_defer.c); defer_max 0: all of them now */
  if (vbc_lk_log_border(s, piv, err) != VBC_OK) return err->code;
  if (s->defer_max == 0) vbc_lk_flush(s);
  double *c = col(s, m);
  for (size_t p = 0; p < m; ++p) c[p] = -y[p] / piv;
  c[m] = 1.0 / piv;
  s->ver[m] = s->nlog; /* made from y: it has every logged border */
  s->req[m] = r;
  s->eqpos[r] = (long)m;
  s->cvar[m] = e;
  s->zpos[e] = (long)m;
  s->m = m + 1;
  if (s->m > s->basis_max) s->basis_max = s->m;
  return VBC_OK;
}

/* w_r leaves, w_e enters: row eqpos[e] of A becomes equation r. */
static void replace_row(lk *s, size_t r, size_t e) {
  const size_t m = s->m, ae = (size_t)s->eqpos[e];
  const double *y = s->y; /* the old column ae */
  gather_row(s, r);
  const double gae = row_times_col(s, y);
  for (size_t a = 0; a < m; ++a) {
    double *c = col(s, a);
    const double f = (a == ae ? gae - 1.0 : row_times_col(s, c)) / gae;
    for (size_t p = 0; p < m; ++p) c[p] -= f * y[p];
  }
  s->req[ae] = r;
  s->eqpos[r] = (long)ae;
  s->eqpos[e] = -1;
}

/* The variable in column pl of A leaves, z_e enters there. */
static void replace_column(lk *s, size_t pl, size_t e) {
  const size_t m = s->m;
  const double *y = s->y, ypl = s->y[pl];
  for (size_t a = 0; a < m; ++a) {
    double *c = col(s, a);
    const double h = c[pl] / ypl;
    for (size_t p = 0; p < m; ++p) c[p] -= h * y[p];
    c[pl] = h;
  }
  s->zpos[s->cvar[pl]] = -1;
  s->cvar[pl] = e;
  s->zpos[e] = (long)pl;
}

/* The variable in column pl of A leaves, w_e enters: A loses column pl and row eqpos[e]. */
static void shrink(lk *s, size_t pl, size_t e) {
  const size_t m = s->m, ae = (size_t)s->eqpos[e], last = m - 1;
  const double *y = s->y, ypl = s->y[pl];
  for (size_t a = 0; a < m; ++a) {
    if (a == ae) continue;
    double *c = col(s, a);
    const double h = c[pl] / ypl;
    for (size_t p = 0; p < m; ++p) c[p] -= h * y[p];
    c[pl] = c[last]; /* row pl is gone: the last row takes its place */
  }
  if (ae != last) {
    memcpy(col(s, ae), col(s, last), m * sizeof(double));
    s->req[ae] = s->req[last];
    s->eqpos[s->req[ae]] = (long)ae;
  }
  s->eqpos[e] = -1;
  s->zpos[s->cvar[pl]] = -1;
  if (pl != last) {
    s->cvar[pl] = s->cvar[last];
    s->zpos[s->cvar[pl]] = (long)pl;
    s->xz[pl] = s->xz[last];
  }
  s->m = last;
}

/* t = (the unregularized M)_:Z x_Z + d x_0: basic_times without the regularization. */
void vbc_lk_true_times(const lk *s, const double *x, double *t) {
  vbc_lk_basic_times(s, x, t);
  if (s->reg > 0.0)
    for (size_t p = 0; p < s->m; ++p)
      if (s->cvar[p] < s->n && s->regd[s->cvar[p]]) t[s->cvar[p]] -= s->reg * x[p];
}

/* Basic values from A^-1 and the (regularized) M: x = A^-1 q_R, `steps` refinement steps, then
 * w_W. */
void vbc_lk_refresh(lk *s, int steps) {
  const size_t m = s->m;
  for (size_t a = 0; a < m; ++a) s->r[a] = s->q[s->req[a]];
  vbc_lk_ainv_times(s, s->r, s->xz);
  for (int it = 0; it <= steps; ++it) {
    vbc_lk_basic_times(s, s->xz, s->t);
    if (it == steps) break;
    for (size_t a = 0; a < m; ++a) s->r[a] = s->q[s->req[a]] + s->t[s->req[a]];
    vbc_lk_ainv_times(s, s->r, s->g);
    for (size_t p = 0; p < m; ++p) s->xz[p] += s->g[p];
  }
  for (size_t i = 0; i < s->n; ++i)
    if (s->eqpos[i] < 0) s->xw[i] = s->q[i] + s->t[i];
}

/* One basis change: `enter` (z_j as j, w_i as n + 1 + i) for `leave`, step theta. */
int vbc_lk_pivot(lk *s, size_t enter, size_t leave, double theta, vbc_error *err) {
  const size_t n = s->n;
  for (size_t p = 0; p < s->m; ++p) s->xz[p] -= theta * s->y[p];
  for (size_t i = 0; i < n; ++i)
    if (s->eqpos[i] < 0) s->xw[i] -= theta * s->aw[i];
  const int enter_w = enter > n;
  const size_t e = enter_w ? enter - n - 1 : enter;
  if (enter_w || leave <= n) vbc_lk_flush(s); /* not a border: only borders are logged */
  if (leave > n) { /* a w leaves */
    const size_t r = leave - n - 1;
    if (enter_w) {
      replace_row(s, r, e);
      s->xw[e] = theta;
    } else {
      if (border(s, r, e, err) != VBC_OK) return err->code;
      s->xz[s->m - 1] = theta;
    }
  } else {
    const size_t pl = (size_t)s->zpos[leave];
    if (enter_w) {
      shrink(s, pl, e);
      s->xw[e] = theta;
    } else {
      replace_column(s, pl, e);
      s->xz[pl] = theta;
    }
  }
  return VBC_OK;
}

/* The first pivot: z0 enters at max_i(-q_i / d_i); among ties the largest index leaves. */
size_t vbc_lk_first_pivot(lk *s) {
  const size_t n = s->n;
  double theta = -INFINITY;
  for (size_t i = 0; i < n; ++i) theta = fmax(theta, -s->q[i] / s->d[i]);
  size_t r = 0;
  for (size_t i = 0; i < n; ++i)
    if (s->q[i] + theta * s->d[i] <= s->tie) r = i;
  for (size_t i = 0; i < n; ++i) s->xw[i] = s->q[i] + theta * s->d[i];
  s->Ainv[0] = -1.0 / s->d[r];
  s->ver[0] = 0;
  s->req[0] = r;
  s->eqpos[r] = 0;
  s->cvar[0] = n;
  s->zpos[n] = 0;
  s->xz[0] = theta;
  s->m = 1;
  s->basis_max = 1;
  return r;
}

/* Dense LU with partial pivoting, in place, row-major; 0 if a pivot is exactly zero. */
static int lu_factor(double *LU, size_t m, size_t *perm) {
  for (size_t k = 0; k < m; ++k) {
    size_t piv = k;
    for (size_t i = k + 1; i < m; ++i)
      if (fabs(LU[i * m + k]) > fabs(LU[piv * m + k])) piv = i;
    perm[k] = piv;
    if (LU[piv * m + k] == 0.0) return 0;
    if (piv != k)
      for (size_t j = 0; j < m; ++j) {
        double tmp = LU[k * m + j];
        LU[k * m + j] = LU[piv * m + j];
        LU[piv * m + j] = tmp;
      }
    const double *rk = LU + k * m;
    for (size_t i = k + 1; i < m; ++i) {
      double *ri = LU + i * m;
      const double f = ri[k] /= rk[k];
      if (f != 0.0)
        for (size_t j = k + 1; j < m; ++j) ri[j] -= f * rk[j];
    }
  }
  return 1;
}

static void lu_solve(const double *LU, size_t m, const size_t *perm, double *b) {
  for (size_t k = 0; k < m; ++k) {
    double tmp = b[k];
    b[k] = b[perm[k]];
    b[perm[k]] = tmp;
  }
  for (size_t i = 0; i < m; ++i) {
    double acc = b[i];
    for (size_t j = 0; j < i; ++j) acc -= LU[i * m + j] * b[j];
    b[i] = acc;
  }
  for (size_t i = m; i-- > 0;) {
    double acc = b[i];
    for (size_t j = i + 1; j < m; ++j) acc -= LU[i * m + j] * b[j];
    b[i] = acc / LU[i * m + i];
  }
}

/* A^-1 afresh: A of the current basis factorised (dense LU), its inverse solved column by column,
 * then the basic values recomputed. Returns 0 (and leaves A^-1 alone) if A is singular to
 * working precision; err is set only when memory runs out. */
int vbc_lk_refactor(lk *s, vbc_error *err) {
  const size_t m = s->m;
  if (m == 0) return 1;
  double *LU = vbc_calloc(m * m, sizeof *LU, err), *b = vbc_calloc(m, sizeof *b, err);
  size_t *perm = vbc_calloc(m, sizeof *perm, err);
  int ok = LU && b && perm;
  for (size_t a = 0; ok && a < m; ++a) {
    const size_t i = s->req[a];
    for (size_t k = s->R.start[i]; k < s->R.start[i + 1]; ++k) {
      const long p = s->zpos[s->R.idx[k]];
      if (p >= 0) LU[a * m + (size_t)p] -= s->R.val[k];
    }
    if (s->zpos[s->n] >= 0) LU[a * m + (size_t)s->zpos[s->n]] -= s->d[i];
  }
  ok = ok && lu_factor(LU, m, perm);
  if (ok) vbc_lk_log_clear(s); /* every column is written afresh below */
  for (size_t a = 0; ok && a < m; ++a) {
    memset(b, 0, m * sizeof *b);
    b[a] = 1.0;
    lu_solve(LU, m, perm, b);
    memcpy(col(s, a), b, m * sizeof *b);
  }
  if (ok) vbc_lk_refresh(s, 1);
  free(LU);
  free(b);
  free(perm);
  return ok;
}

/* z of the caller's problem from the basic values, then w = M z + q and the error. */
