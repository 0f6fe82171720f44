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
 * at n = 2000 contacts of the benchmark (docs/notes/bench-journal.md) m stays below 1700 (simple-cubic
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
 * never `solved` (Siconos 4.4 reported rays as success and returned a negative z
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

#include "solvers/schemes/lemke/lemke_basis.h"

static double finish_point(const lk *s, const vbc_sparse *M, const double *q, double *z,
                           double *w) {
  memset(z, 0, s->n * sizeof *z);
  for (size_t p = 0; p < s->m; ++p)
    if (s->cvar[p] < s->n) z[s->cvar[p]] = s->qs * s->D[s->cvar[p]] * s->xz[p];
  vbc_lk_csr_affine(M, z, q, w);
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
                           .regularization = -1.0,
                           .deferred_updates = VBC_LEMKE_DEFERRED_UPDATES};
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
  vbc_lk_ainv_times(s, s->r, s->xz);
  double prev = INFINITY;
  for (int it = 0; it < POLISH_STEPS; ++it) {
    vbc_lk_true_times(s, s->xz, s->t);
    double rn = 0.0, xn = 1.0;
    for (size_t a = 0; a < m; ++a) {
      s->r[a] = s->q[s->req[a]] + s->t[s->req[a]];
      rn = fmax(rn, fabs(s->r[a]));
    }
    for (size_t p = 0; p < m; ++p) xn = fmax(xn, fabs(s->xz[p]));
    if (rn <= 1e-16 * xn || rn >= prev) break; /* converged, or no progress */
    prev = rn;
    vbc_lk_ainv_times(s, s->r, s->g);
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
  if (vbc_lk_init(s, M, q, opt, reg, err) != VBC_OK) {
    vbc_lk_free(s);
    return err->code;
  }
  size_t enter = vbc_lk_first_pivot(s); /* z_r, r the row that left; not counted */
  long pivots = 0;
  int solved = 0;
  res->status = VBC_LEMKE_MAX_PIVOTS;
  while (pivots < max) {
    const size_t e = enter > n ? enter - n - 1 : enter;
    if (vbc_lk_entering_column(s, e, enter > n) > REFACTOR_AT && vbc_lk_refactor(s, err)) {
      ++res->refactors;
      vbc_lk_entering_column(s, e, enter > n);
    }
    if (err->code) break;
    double theta = 0.0;
    const size_t leave = vbc_lk_ratio_test(s, &theta);
    if (leave == (size_t)-1) {
      res->status = VBC_LEMKE_RAY;
      break;
    }
    if (vbc_lk_pivot(s, enter, leave, theta, err) != VBC_OK) break;
    ++pivots;
    if (leave == n) {
      solved = 1;
      break;
    }
    enter = leave > n ? leave - n - 1 : n + 1 + leave; /* the complement */
    if (pivots % REFRESH_EVERY == 0) vbc_lk_refresh(s, 1);
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
      if (!(res->error <= opt->tolerance) && vbc_lk_refactor(s, err)) {
        ++res->refactors;
        res->error = final_point(s, M, q, z, w);
      }
      res->status = res->error <= opt->tolerance ? VBC_LEMKE_SOLVED : VBC_LEMKE_INACCURATE;
    }
  }
  vbc_lk_free(s);
  return err->code;
}

/* Symmetric with a positive diagonal: the shape of every contact matrix J W J^T. */
static int contact_like(const vbc_sparse *M, vbc_error *err) {
  const size_t n = M->nrows;
  double *row = vbc_calloc(n, sizeof *row, err);
  csr A = {0}, T = {0};
  int ok = row && vbc_lk_csr_alloc(&A, n, M->start[n], err) == VBC_OK;
  if (ok) {
    memcpy(A.start, M->start, (n + 1) * sizeof *A.start);
    memcpy(A.idx, M->col, M->start[n] * sizeof *A.idx);
    memcpy(A.val, M->val, M->start[n] * sizeof *A.val);
    ok = vbc_lk_csr_transpose(&A, &T, err) == VBC_OK;
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
  vbc_lk_csr_free(&A);
  vbc_lk_csr_free(&T);
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
    const int psd_like = !opt.plain_first && contact_like(M, err);
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
