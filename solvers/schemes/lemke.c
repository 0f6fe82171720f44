/* lemke.c — Lemke's complementary pivoting with a lexicographic ratio test (Kurose & Takahashi
 * §4.2.2, eq. 7-12; Lemke 1965; the lexicographic rule and ray termination as in Cottle, Pang &
 * Stone, "The Linear Complementarity Problem", §4.4). See lemke.h for the API and the sign
 * mapping from vbc's rows to the LCP.
 *
 * The system. w - M z - d z0 = q with the covering vector d > 0. Start: every w basic; if q >= 0
 * the answer is z = 0 (no pivot). Otherwise z0 enters at z0 = max_i(-q_i / d_i) and w_r leaves;
 * then the complement of the variable that left enters, the ratio test picks the variable that
 * leaves, and so on until z0 leaves (solution) or no basic variable blocks the entering column
 * (ray). Pivots are the complementary pivots after that start (Cottle, Pang & Stone's
 * Algorithm 4.4.1 counts its step 0, z0 entering, as initialisation), the last one (z0 leaves)
 * included: 2 for a 2 x 2 problem with both rows active, 2^n - 1 for Murty's example.
 *
 * What we store (the choice, and why). The textbook and Siconos' lcp_lexicolemke keep the whole
 * tableau, n x (2n + 2) doubles, and update all of it at every pivot: 4 n^2 flops and 32 n^2 bytes
 * of memory traffic per pivot, whatever the sparsity of M. We use a revised method instead. With
 * W the equations whose w is basic and R the others, the basic variables are those w_i (i in W),
 * the basic z_j (set Z) and z0, and |R| = |Z| + 1 while z0 is basic. Ordering rows R, W and
 * columns (Z, z0), W, the basis is
 *       B = [ A  0 ]      A = -[M_RZ  d_R]  (m x m, m = |Z| + 1),   C = -[M_WZ  d_W],
 *           [ C  I ]      B^-1 = [ A^-1 0 ; -C A^-1  I ].
 * Only A^-1 is kept, dense and column-major (column a = equation R[a], contiguous over the basic
 * variables), so every update below is a rank-1 update in contiguous loops; everything involving
 * the W rows goes through the sparse M (CSR and CSC copies) in O(nnz) per pivot:
 *   entering z_e:  y = A^-1 a_R with a = -M_:e (a sparse combination of columns of A^-1), and
 *                  abar_W = a_W - C y = -M_We + (M_:Z y_Z + d y_0)_W;
 *   entering w_e:  y = the column of A^-1 of equation e, abar_W = (M_:Z y_Z + d y_0)_W;
 *   basis change:  w_r leaves, z_e enters: A grows by a row and a column (bordering, Schur
 *                  complement = the pivot); w_r leaves, w_e enters: a row of A is replaced;
 *                  z_j leaves, z_e enters: a column is replaced; z_j leaves, w_e enters: A
 *                  loses a row and a column. Each is O(m^2), and m is the number of active
 *                  contacts, not n. The row of B^-1 that a w_r row needs (v^T A^-1 with v the
 *                  sparse row r of C) is gathered column by column inside the same pass.
 * So a pivot costs O(m^2 + nnz(M_:Z) + n) instead of O(n^2), and m is what the problem needs:
 * at n = 2000 contacts of the benchmark (bench/README.md) m stays below 1700 (simple-cubic
 * stack) and 1800 (FCC), and on the SPD stacks Lemke takes the same pivots as Siconos' tableau
 * code 8x (n = 1000) and 15x (n = 2000) faster. A sparse LU of A with Forrest-Tomlin updates would exploit sparsity
 * further, but A^-1 of a stack's contact matrix is dense anyway, and the explicit inverse keeps
 * the code short; its accuracy is watched as below.
 *
 * Scaling and accuracy. The solver works on D M D, D q / s and D d with D_ii = M_ii^-1/2 (1 where
 * M_ii <= 0) and s = ||D q||_inf, so that tolerances are dimensionless; this changes neither the
 * LCP nor (up to ties) the pivot sequence. Every entering column is checked against M: the
 * residual of A y = a_R costs nothing extra (the same sparse product gives abar_W); above 1e-11
 * (relative) y gets one step of iterative refinement, above 1e-10 after it A^-1 is factorised
 * afresh (dense LU with partial pivoting, O(m^3), counted in `refactors`). Every 64 pivots the
 * basic values are recomputed from A^-1 with a refinement step (they are otherwise updated
 * incrementally). At the end z comes from the final basis by A^-1 and refinement steps against M
 * while the residual falls (at most 60); w = M z + q is then recomputed from the caller's M and q and
 * the error max_i max(-z_i, -w_i, |z_i w_i|) / max(1, ||q||_inf) is checked: above the tolerance
 * A is factorised afresh and z recomputed; if it is still too large the status is `inaccurate`,
 * never `solved` (DESIGN.md §6: Siconos 4.4 reported rays as success and returned a negative z
 * for n = 1; on the benchmark's FCC stacks its lcp_lexicolemke returns info = 0 with an error of
 * 1e17 at n = 50 and runs into its iteration limit from n = 400 on).
 *
 * Singular PSD matrices (redundant contacts). With M = J W J^T of rank r < n, Lemke's bases grow
 * to m = r + 1 columns and become nearly singular: in floating point the method then takes
 * round-off for pivots (we measured pivots of 1e-10 on a 400-contact FCC stack) and ends
 * inaccurate. So, when M looks like a contact matrix (symmetric, positive diagonal), the first
 * run solves LCP(M + eps I, q) in the scaled problem, eps = 1e-5: a P-matrix, whose Lemke path
 * is monotone in z0 and whose bases stay invertible. In the final basis the regularization is
 * then removed by proximal-point steps x <- x + (A + eps)^-1 (q_R - A x) (Rockafellar's proximal
 * point method, the perturbation PATH uses for the same reason), which converge to an exact
 * solution of the original LCP with the same active set; the verification above decides. If that
 * run ends inaccurate (e.g. an infeasible PSD problem: LCP(M + eps I, q) always has a solution,
 * a huge one), the plain method runs from scratch and gives the verdict, e.g. a ray. Any other
 * matrix runs plain first and regularized second. A ray of the regularized problem is a ray of
 * the original too (if M z + q >= 0 with z >= 0, then (M + eps I) z + q >= 0). Pivots and
 * refactorisations of both runs are counted; `regularization` tells which run answered.
 * vbc_lemke_options.regularization = 0 or > 0 forces one plain or one regularized run.
 *
 * Tolerances (scaled problem). A row blocks the entering column if abar_i > pivot_tolerance *
 * max(1, ||abar||_inf) (default 1e-9: a smaller pivot is round-off of a zero; ignoring a real
 * one lets that basic variable dip below zero by at most 1e-9 times the step). Ratios use
 * max(x_i, 0) / abar_i, so round-off below zero counts as a zero. With theta the minimum ratio,
 * row i ties when x_i - theta abar_i <= tie_tolerance (default 1e-12): it would also reach zero.
 * If z0 ties it leaves (the solution); otherwise ties are broken lexicographically: the rows of
 * B^-1 divided by abar_i are compared column by column, equations in index order, equal within
 * 1e-9 relative, until one row is smallest (rows equal to round-off: the largest pivot). The
 * starting tableau [q | I] orders equations so that the first pivot (z0 enters) must pick the
 * largest index among tied rows; the lexicographic rule then keeps every row of [x | B^-1]
 * lexicographically positive, so no basis repeats and the method cannot cycle on degenerate
 * problems (q with zeros, duplicated contacts). Only tied rows' entries are computed, so the
 * rule costs nothing on nondegenerate pivots.
 *
 * Statuses and limits: solved, ray, max_pivots (default max(100 n, 2^min(n,20)): Murty's example
 * takes 2^n - 1 pivots), inaccurate. No OpenMP: a pivot's loops are memory-bound and short, and
 * a thread barrier per pivot made 2 threads 10x slower on the loaded 2-core test machine. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/schemes/lemke.h"

#define LEX_TOLERANCE 1e-9
#define REFRESH_EVERY 64
#define POLISH_STEPS 60     /* at most, in the final basis (final_point) */
#define REGULARIZATION 1e-5 /* eps of the first run on contact-like matrices (head comment) */
#define REFINE_AT 1e-11   /* relative residual of an entering column worth one refinement step */
#define REFACTOR_AT 1e-10 /* ... that after it makes us factorise the basis afresh */

/* ------------------------------------------------------------------------------------------ */
/* Compressed sparse rows (also used for columns: the CSR of the transpose). */

typedef struct csr {
  size_t n, nnz;
  size_t *start, *idx;
  double *val;
} csr;

static void csr_free(csr *a) {
  free(a->start);
  free(a->idx);
  free(a->val);
  memset(a, 0, sizeof *a);
}

static int csr_alloc(csr *a, size_t n, size_t nnz, vbc_error *err) {
  a->n = n;
  a->nnz = nnz;
  a->start = vbc_calloc(n + 1, sizeof *a->start, err);
  a->idx = vbc_calloc(nnz ? nnz : 1, sizeof *a->idx, err);
  a->val = vbc_calloc(nnz ? nnz : 1, sizeof *a->val, err);
  return a->start && a->idx && a->val ? VBC_OK : err->code;
}

static int csr_transpose(const csr *a, csr *t, vbc_error *err) {
  if (csr_alloc(t, a->n, a->nnz, err) != VBC_OK) return err->code;
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
static void csr_affine(const vbc_sparse *M, const double *z, const double *q, double *w) {
  for (size_t i = 0; i < M->nrows; ++i) {
    double acc = q[i];
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k) acc += M->val[k] * z[M->col[k]];
    w[i] = acc;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The solver's state. Variables: z_j is j (j < n), z0 is n. */

typedef struct lk {
  size_t n;
  csr R, C;          /* scaled M by rows and by columns */
  double *D, *q, *d; /* scaling, scaled q and covering vector */
  double qs;         /* q scale s */
  double reg;        /* regularization eps added to the scaled diagonal (0: none) */
  unsigned char *regd; /* row j's diagonal carries reg */
  double tie, piv;
  size_t m, cap;     /* A is m x m, stored in cap x cap (column-major) */
  double *Ainv;      /* Ainv[a * cap + p] = (A^-1)_{p a} */
  long *eqpos;       /* equation i -> its row a of A, or -1 if w_i is basic */
  size_t *req;       /* row a of A -> equation */
  long *zpos;        /* z_j (j <= n, z0 = n) -> its column p of A, or -1 if nonbasic */
  size_t *cvar;      /* column p of A -> variable */
  double *xw, *xz;   /* values of the basic w_i (by i) and of A's variables (by p) */
  double *y, *aw;    /* the entering column: A part (by p), W part (by i) */
  double *t, *g, *r; /* scratch: n, cap, cap */
  size_t *cand;      /* ratio-test ties: variable ids, w_i as n + 1 + i */
  double *cabar, *cval;
  unsigned char *candw; /* equation i's w is a tied candidate */
  size_t *rowp;      /* gather_row: positions and values, nrow of them */
  double *rowv;
  size_t nrow;
  size_t basis_max;
} lk;

static void lk_free(lk *s) {
  csr_free(&s->R);
  csr_free(&s->C);
  void *p[] = {s->D,  s->q,  s->d, s->Ainv, s->eqpos, s->req,   s->zpos,  s->cvar, s->xw,
               s->xz, s->y,  s->aw, s->t,   s->g,     s->r,     s->cand,  s->cabar, s->cval,
               s->candw, s->regd, s->rowp, s->rowv};
  for (size_t k = 0; k < sizeof p / sizeof *p; ++k) free(p[k]);
  memset(s, 0, sizeof *s);
}

/* Grow A^-1's storage to hold m x m with m = need. */
static int lk_reserve(lk *s, size_t need, vbc_error *err) {
  if (need <= s->cap) return VBC_OK;
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
  if (!A || !y || !g || !r || !xz || !cv || !rq) {
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
static int lk_init(lk *s, const vbc_sparse *M, const double *q, const vbc_lemke_options *opt,
                   double reg, vbc_error *err) {
  const double *cover = opt->cover;
  const size_t n = M->nrows;
  memset(s, 0, sizeof *s);
  s->n = n;
  s->tie = opt->tie_tolerance;
  s->piv = opt->pivot_tolerance;
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
  if (csr_alloc(&s->R, n, M->start[n], err) != VBC_OK) return err->code;
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
  if (csr_transpose(&s->R, &s->C, err) != VBC_OK) return err->code;
  return lk_reserve(s, n + 1 < 64 ? n + 1 : 64, err);
}

static double *col(const lk *s, size_t a) { return s->Ainv + a * s->cap; }

/* t = M_:Z x_Z + d x_0 over every equation. */
static void basic_times(const lk *s, const double *x, double *t) {
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
static void ainv_times(const lk *s, const double *v, double *out) {
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
  basic_times(s, s->y, s->t);
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
static double entering_column(lk *s, size_t e, int is_w) {
  const size_t m = s->m;
  if (is_w) {
    memcpy(s->y, col(s, (size_t)s->eqpos[e]), m * sizeof *s->y);
  } else {
    memset(s->y, 0, m * sizeof *s->y);
    for (size_t k = s->C.start[e]; k < s->C.start[e + 1]; ++k) {
      long a = s->eqpos[s->C.idx[k]];
      if (a < 0) continue;
      const double f = -s->C.val[k];
      const double *c = col(s, (size_t)a);
      for (size_t p = 0; p < m; ++p) s->y[p] += f * c[p];
    }
  }
  double res = column_rest(s, e, is_w);
  if (res > REFINE_AT) { /* one step of iterative refinement: y += A^-1 (a_R - A y) */
    ainv_times(s, s->r, s->g);
    for (size_t p = 0; p < m; ++p) s->y[p] += s->g[p];
    res = column_rest(s, e, is_w);
  }
  return res;
}

/* Entry of B^-1 in the row of basic variable v (ids as in cand) and the column of equation c. */
static double binv_entry(const lk *s, size_t v, size_t c) {
  const long a = s->eqpos[c];
  if (v <= s->n) return a < 0 ? 0.0 : col(s, (size_t)a)[s->zpos[v]];
  const size_t i = v - s->n - 1;
  if (a < 0) return i == c ? 1.0 : 0.0;
  const double *ca = col(s, (size_t)a);
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
static size_t ratio_test(lk *s, double *theta) {
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
  double acc = 0.0;
  for (size_t k = 0; k < s->nrow; ++k) acc += s->rowv[k] * ca[s->rowp[k]];
  return acc;
}

/* w_r leaves, z_e enters: A gets row r and column z_e (bordering; pivot s = aw[r]). */
static int border(lk *s, size_t r, size_t e, vbc_error *err) {
  if (lk_reserve(s, s->m + 1, err) != VBC_OK) return err->code;
  const size_t m = s->m;
  const double piv = s->aw[r], *y = s->y;
  gather_row(s, r);
  for (size_t a = 0; a < m; ++a) {
    double *c = col(s, a);
    const double f = row_times_col(s, c) / piv;
    for (size_t p = 0; p < m; ++p) c[p] += f * y[p];
    c[m] = -f;
  }
  double *c = col(s, m);
  for (size_t p = 0; p < m; ++p) c[p] = -y[p] / piv;
  c[m] = 1.0 / piv;
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
static void true_times(const lk *s, const double *x, double *t) {
  basic_times(s, x, t);
  if (s->reg > 0.0)
    for (size_t p = 0; p < s->m; ++p)
      if (s->cvar[p] < s->n && s->regd[s->cvar[p]]) t[s->cvar[p]] -= s->reg * x[p];
}

/* Basic values from A^-1 and the (regularized) M: x = A^-1 q_R, `steps` refinement steps, then
 * w_W. */
static void refresh(lk *s, int steps) {
  const size_t m = s->m;
  for (size_t a = 0; a < m; ++a) s->r[a] = s->q[s->req[a]];
  ainv_times(s, s->r, s->xz);
  for (int it = 0; it <= steps; ++it) {
    basic_times(s, s->xz, s->t);
    if (it == steps) break;
    for (size_t a = 0; a < m; ++a) s->r[a] = s->q[s->req[a]] + s->t[s->req[a]];
    ainv_times(s, s->r, s->g);
    for (size_t p = 0; p < m; ++p) s->xz[p] += s->g[p];
  }
  for (size_t i = 0; i < s->n; ++i)
    if (s->eqpos[i] < 0) s->xw[i] = s->q[i] + s->t[i];
}

/* One basis change: `enter` (z_j as j, w_i as n + 1 + i) for `leave`, step theta. */
static int pivot(lk *s, size_t enter, size_t leave, double theta, vbc_error *err) {
  const size_t n = s->n;
  for (size_t p = 0; p < s->m; ++p) s->xz[p] -= theta * s->y[p];
  for (size_t i = 0; i < n; ++i)
    if (s->eqpos[i] < 0) s->xw[i] -= theta * s->aw[i];
  const int enter_w = enter > n;
  const size_t e = enter_w ? enter - n - 1 : enter;
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
static size_t first_pivot(lk *s) {
  const size_t n = s->n;
  double theta = -INFINITY;
  for (size_t i = 0; i < n; ++i) theta = fmax(theta, -s->q[i] / s->d[i]);
  size_t r = 0;
  for (size_t i = 0; i < n; ++i)
    if (s->q[i] + theta * s->d[i] <= s->tie) r = i;
  for (size_t i = 0; i < n; ++i) s->xw[i] = s->q[i] + theta * s->d[i];
  s->Ainv[0] = -1.0 / s->d[r];
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
static int refactor(lk *s, vbc_error *err) {
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
  for (size_t a = 0; ok && a < m; ++a) {
    memset(b, 0, m * sizeof *b);
    b[a] = 1.0;
    lu_solve(LU, m, perm, b);
    memcpy(col(s, a), b, m * sizeof *b);
  }
  if (ok) refresh(s, 1);
  free(LU);
  free(b);
  free(perm);
  return ok;
}

/* z of the caller's problem from the basic values, then w = M z + q and the error. */
static double finish_point(const lk *s, const vbc_sparse *M, const double *q, double *z,
                           double *w) {
  memset(z, 0, s->n * sizeof *z);
  for (size_t p = 0; p < s->m; ++p)
    if (s->cvar[p] < s->n) z[s->cvar[p]] = s->qs * s->D[s->cvar[p]] * s->xz[p];
  csr_affine(M, z, q, w);
  return vbc_lcp_error(s->n, q, z, w);
}

double vbc_lcp_error(size_t n, const double *q, const double *z, const double *w) {
  double e = 0.0, qn = 1.0;
  for (size_t i = 0; i < n; ++i) {
    qn = fmax(qn, fabs(q[i]));
    e = fmax(e, fmax(fmax(-z[i], -w[i]), fabs(z[i] * w[i])));
    if (isnan(z[i]) || isnan(w[i])) e = INFINITY;
  }
  return e / qn;
}

const char *vbc_lemke_status_name(vbc_lemke_status s) {
  switch (s) {
    case VBC_LEMKE_SOLVED: return "solved";
    case VBC_LEMKE_RAY: return "ray";
    case VBC_LEMKE_MAX_PIVOTS: return "max_pivots";
    case VBC_LEMKE_INACCURATE: return "inaccurate";
  }
  return "?";
}

void vbc_lemke_options_default(vbc_lemke_options *o) {
  *o = (vbc_lemke_options){.max_pivots = 0,
                           .tolerance = VBC_LEMKE_TOLERANCE,
                           .tie_tolerance = VBC_LEMKE_TIE_TOLERANCE,
                           .pivot_tolerance = VBC_LEMKE_PIVOT_TOLERANCE,
                           .cover = NULL,
                           .regularization = -1.0};
}

long vbc_lemke_default_max_pivots(size_t n) {
  const long lin = 100 * (long)n, expo = 1L << (n < 20 ? n : 20);
  return lin > expo ? lin : expo;
}

/* The final basis: basic values by A^-1 and proximal / refinement steps against the
 * unregularized M until the residual of the R rows stops falling, then the caller's z, w, error. */
static double final_point(lk *s, const vbc_sparse *M, const double *q, double *z, double *w) {
  const size_t m = s->m;
  for (size_t a = 0; a < m; ++a) s->r[a] = s->q[s->req[a]];
  ainv_times(s, s->r, s->xz);
  double prev = INFINITY;
  for (int it = 0; it < POLISH_STEPS; ++it) {
    true_times(s, s->xz, s->t);
    double rn = 0.0, xn = 1.0;
    for (size_t a = 0; a < m; ++a) {
      s->r[a] = s->q[s->req[a]] + s->t[s->req[a]];
      rn = fmax(rn, fabs(s->r[a]));
    }
    for (size_t p = 0; p < m; ++p) xn = fmax(xn, fabs(s->xz[p]));
    if (rn <= 1e-16 * xn || rn >= prev) break; /* converged, or no progress */
    prev = rn;
    ainv_times(s, s->r, s->g);
    for (size_t p = 0; p < m; ++p) s->xz[p] += s->g[p];
  }
  return finish_point(s, M, q, z, w);
}

/* One run of the pivoting on a validated problem with some q_i < 0, regularized by reg. */
static int lemke_attempt(const vbc_sparse *M, const double *q, const vbc_lemke_options *opt,
                         double reg, long max, double *z, double *w, vbc_lemke_result *res,
                         vbc_error *err) {
  const size_t n = M->nrows;
  lk st, *s = &st;
  memset(res, 0, sizeof *res);
  res->regularization = reg;
  if (lk_init(s, M, q, opt, reg, err) != VBC_OK) {
    lk_free(s);
    return err->code;
  }
  size_t enter = first_pivot(s); /* z_r, r the row that left; not counted */
  long pivots = 0;
  int solved = 0;
  res->status = VBC_LEMKE_MAX_PIVOTS;
  while (pivots < max) {
    const size_t e = enter > n ? enter - n - 1 : enter;
    if (entering_column(s, e, enter > n) > REFACTOR_AT && refactor(s, err)) {
      ++res->refactors;
      entering_column(s, e, enter > n);
    }
    if (err->code) break;
    double theta = 0.0;
    const size_t leave = ratio_test(s, &theta);
    if (leave == (size_t)-1) {
      res->status = VBC_LEMKE_RAY;
      break;
    }
    if (pivot(s, enter, leave, theta, err) != VBC_OK) break;
    ++pivots;
    if (leave == n) {
      solved = 1;
      break;
    }
    enter = leave > n ? leave - n - 1 : n + 1 + leave; /* the complement */
    if (pivots % REFRESH_EVERY == 0) refresh(s, 1);
  }
  res->pivots = pivots;
  res->basis_max = s->basis_max;
  if (err->code == VBC_OK) {
    if (!solved) {
      memset(z, 0, n * sizeof *z);
      memcpy(w, q, n * sizeof *w);
      res->error = vbc_lcp_error(n, q, z, w);
    } else {
      res->error = final_point(s, M, q, z, w);
      if (!(res->error <= opt->tolerance) && refactor(s, err)) {
        ++res->refactors;
        res->error = final_point(s, M, q, z, w);
      }
      res->status = res->error <= opt->tolerance ? VBC_LEMKE_SOLVED : VBC_LEMKE_INACCURATE;
    }
  }
  lk_free(s);
  return err->code;
}

/* Symmetric with a positive diagonal: the shape of every contact matrix J W J^T. */
static int contact_like(const vbc_sparse *M, vbc_error *err) {
  const size_t n = M->nrows;
  double *row = vbc_calloc(n, sizeof *row, err);
  csr A = {0}, T = {0};
  int ok = row && csr_alloc(&A, n, M->start[n], err) == VBC_OK;
  if (ok) {
    memcpy(A.start, M->start, (n + 1) * sizeof *A.start);
    memcpy(A.idx, M->col, M->start[n] * sizeof *A.idx);
    memcpy(A.val, M->val, M->start[n] * sizeof *A.val);
    ok = csr_transpose(&A, &T, err) == VBC_OK;
  }
  for (size_t i = 0; ok && i < n; ++i) { /* row i of M minus row i of M^T must vanish */
    double scale = 0.0;
    for (size_t k = A.start[i]; k < A.start[i + 1]; ++k) {
      row[A.idx[k]] += A.val[k];
      scale = fmax(scale, fabs(A.val[k]));
    }
    ok = row[i] > 0.0;
    for (size_t k = T.start[i]; k < T.start[i + 1]; ++k) row[T.idx[k]] -= T.val[k];
    for (size_t k = A.start[i]; k < A.start[i + 1]; ++k) {
      if (fabs(row[A.idx[k]]) > 1e-12 * scale) ok = 0;
      row[A.idx[k]] = 0.0;
    }
    for (size_t k = T.start[i]; k < T.start[i + 1]; ++k) {
      if (fabs(row[T.idx[k]]) > 1e-12 * scale) ok = 0;
      row[T.idx[k]] = 0.0;
    }
  }
  free(row);
  csr_free(&A);
  csr_free(&T);
  return ok;
}

static int check_input(const vbc_sparse *M, const double *q, const vbc_lemke_options *opt,
                       vbc_error *err) {
  const size_t n = M->nrows;
  if (n == 0 || M->ndofs != n)
    return vbc_error_set(err, VBC_EXIT_INPUT, "lemke: M must be square with n >= 1 (got %zu x %zu)",
                         M->nrows, M->ndofs);
  for (size_t i = 0; i < n; ++i) {
    if (!isfinite(q[i])) return vbc_error_set(err, VBC_EXIT_INPUT, "lemke: q[%zu] is not finite", i);
    if (opt->cover && !(opt->cover[i] > 0.0 && isfinite(opt->cover[i])))
      return vbc_error_set(err, VBC_EXIT_INPUT, "lemke: the covering vector must be > 0 (d[%zu])", i);
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k)
      if (M->col[k] >= n || !isfinite(M->val[k]))
        return vbc_error_set(err, VBC_EXIT_INPUT, "lemke: bad entry in row %zu of M", i);
  }
  return VBC_OK;
}

int vbc_lemke_sparse(const vbc_sparse *M, const double *q, const vbc_lemke_options *opt_in,
                     double *z, double *w, vbc_lemke_result *res, vbc_error *err) {
  vbc_lemke_options opt;
  if (opt_in) opt = *opt_in;
  else vbc_lemke_options_default(&opt);
  memset(res, 0, sizeof *res);
  if (check_input(M, q, &opt, err) != VBC_OK) return err->code;
  const size_t n = M->nrows;
  double qmin = INFINITY;
  for (size_t i = 0; i < n; ++i) qmin = fmin(qmin, q[i]);
  if (qmin >= 0.0) { /* z = 0 is the solution */
    memset(z, 0, n * sizeof *z);
    memcpy(w, q, n * sizeof *w);
    res->status = VBC_LEMKE_SOLVED;
    return VBC_OK;
  }
  /* The runs to try, each from scratch, until one solves (lemke.c head comment). */
  double plan[3];
  size_t nplan = 0;
  if (opt.regularization > 0.0) {
    plan[nplan++] = opt.regularization;
  } else if (opt.regularization == 0.0) {
    plan[nplan++] = 0.0;
  } else {
    const int psd_like = contact_like(M, err);
    if (err->code) return err->code;
    if (psd_like) plan[nplan++] = REGULARIZATION;
    plan[nplan++] = 0.0;
    if (!psd_like) plan[nplan++] = REGULARIZATION;
  }
  const long max = opt.max_pivots > 0 ? opt.max_pivots : vbc_lemke_default_max_pivots(n);
  long total = 0, refactors = 0;
  for (size_t k = 0; k < nplan; ++k) {
    if (lemke_attempt(M, q, &opt, plan[k], max - total, z, w, res, err) != VBC_OK)
      return err->code;
    total += res->pivots;
    refactors += res->refactors;
    res->pivots = total;
    res->refactors = refactors;
    res->attempts = (int)k + 1;
    if (res->status != VBC_LEMKE_INACCURATE || total >= max) break;
  }
  return VBC_OK;
}

int vbc_lemke_dense(size_t n, const double *M, const double *q, const vbc_lemke_options *opt,
                    double *z, double *w, vbc_lemke_result *res, vbc_error *err) {
  if (n == 0) return vbc_error_set(err, VBC_EXIT_INPUT, "lemke: n must be >= 1");
  size_t nnz = 0;
  for (size_t k = 0; k < n * n; ++k) {
    if (!isfinite(M[k]))
      return vbc_error_set(err, VBC_EXIT_INPUT, "lemke: M[%zu][%zu] is not finite", k / n, k % n);
    nnz += M[k] != 0.0;
  }
  vbc_sparse S = {0};
  if (vbc_sparse_reserve(&S, n, nnz ? nnz : 1, err) != VBC_OK) return err->code;
  S.nrows = S.ndofs = n;
  size_t e = 0;
  for (size_t i = 0; i < n; ++i) {
    S.start[i] = e;
    for (size_t j = 0; j < n; ++j)
      if (M[i * n + j] != 0.0) {
        S.col[e] = j;
        S.val[e++] = M[i * n + j];
      }
  }
  S.start[n] = e;
  S.nnz = e;
  int rc = vbc_lemke_sparse(&S, q, opt, z, w, res, err);
  vbc_sparse_free(&S);
  return rc;
}
