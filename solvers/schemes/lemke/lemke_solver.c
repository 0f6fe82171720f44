/* lemke_solver.c — Lemke's method on constraint blocks: the LCP of a problem's rows, M = J W J^T
 * with W the inverse mass of the generalized velocities (Kurose & Takahashi eq. 12), and the
 * solver type `lemke`, whose one iteration solves that LCP exactly and applies the impulses. The
 * sign mapping from vbc's rows to the LCP is in lemke.h; the algorithm in lemke.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"
#include "solvers/schemes/lemke/lemke.h"
#include "solvers/schemes/solve_params.h"
#include "solvers/schemes/schemes.h"

/* ------------------------------------------------------------------------------------------ */
/* The LCP of constraint blocks: M = J W J^T, W the inverse mass of the generalized velocities. */

void vbc_lemke_lcp_free(vbc_lemke_lcp *lcp) {
  vbc_sparse_free(&lcp->M);
  free(lcp->q);
  free(lcp->block);
  free(lcp->row);
  free(lcp->sign);
  memset(lcp, 0, sizeof *lcp);
}

/* Which rows enter the LCP (counting split rows twice); refuses bounds Lemke cannot take. */
static int lcp_rows(vbc_problem *pb, vbc_lemke_lcp *lcp, vbc_error *err) {
  size_t n = 0;
  for (int pass = 0; pass < 2; ++pass) {
    n = 0;
    for (size_t b = 0; b < pb->nblocks; ++b) {
      const vbc_block *blk = pb->blocks[b];
      const vbc_rows *r = &blk->rows;
      if (r->n && blk->type->jacobian == NULL)
        return vbc_error_set(err, VBC_EXIT_INPUT,
                             "lemke: block %s (%s) gives no Jacobian rows, so its LCP cannot be "
                             "assembled", blk->type->name, blk->label ? blk->label : "?");
      for (size_t k = 0; k < r->n; ++k) {
        if (!(r->diag[k] > 0.0)) continue;
        int uni = r->lo[k] == 0.0 && r->hi[k] == INFINITY;
        int bil = r->lo[k] == -INFINITY && r->hi[k] == INFINITY;
        if (!uni && !bil)
          return vbc_error_set(err, VBC_EXIT_INPUT,
                               "lemke: block %s row %zu has impulse bounds [%g, %g]; Lemke takes "
                               "unilateral [0, inf) and bilateral (-inf, inf) rows only",
                               blk->type->name, k, r->lo[k], r->hi[k]);
        for (int s = 0; s < (bil ? 2 : 1); ++s, ++n)
          if (pass == 1) {
            lcp->block[n] = b;
            lcp->row[n] = k;
            lcp->sign[n] = s ? -1 : 1;
          }
      }
    }
    if (pass == 0 && n > lcp->cap) {
      size_t *bk = vbc_realloc(lcp->block, n, sizeof *bk, err);
      if (bk) lcp->block = bk;
      size_t *rw = vbc_realloc(lcp->row, n, sizeof *rw, err);
      if (rw) lcp->row = rw;
      signed char *sg = vbc_realloc(lcp->sign, n, sizeof *sg, err);
      if (sg) lcp->sign = sg;
      double *q = vbc_realloc(lcp->q, n, sizeof *q, err);
      if (q) lcp->q = q;
      if (!bk || !rw || !sg || !q) return err->code;
      lcp->cap = n;
    }
  }
  lcp->n = n;
  return VBC_OK;
}

int vbc_lemke_assemble(vbc_problem *pb, vbc_lemke_lcp *lcp, vbc_error *err) {
  if (lcp_rows(pb, lcp, err) != VBC_OK ||
      vbc_assemble_rows(pb, lcp->n, lcp->block, lcp->row, lcp->sign, &lcp->M, err) != VBC_OK)
    return err->code;
  const size_t n = lcp->n;
  /* q = -r - M lambda0, r = b - J v at the current v (which holds lambda0) */
  double *z0 = vbc_calloc(n, sizeof *z0, err);
  if (z0 == NULL) return err->code;
  int warm = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->residual(blk->state, pb->sys, &blk->rows, blk->rows.residual);
  }
  for (size_t i = 0; i < n; ++i) {
    const vbc_rows *r = &pb->blocks[lcp->block[i]]->rows;
    const double lam = r->impulse[lcp->row[i]];
    z0[i] = fmax(lcp->sign[i] * lam, 0.0);
    warm |= z0[i] != 0.0;
    lcp->q[i] = -lcp->sign[i] * r->residual[lcp->row[i]];
  }
  for (size_t i = 0; warm && i < n; ++i)
    for (size_t k = lcp->M.start[i]; k < lcp->M.start[i + 1]; ++k)
      lcp->q[i] -= lcp->M.val[k] * z0[lcp->M.col[k]];
  free(z0);
  return VBC_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* The solver type: one iteration = one exact solve. */

typedef struct lemke_state {
  vbc_lemke_options opt;
  vbc_lemke_lcp lcp;
  double *z, *w;
  size_t zcap;
  vbc_lemke_result last;
  size_t last_n;
  int solved;
} lemke_state;

static const char *const first_run_choices[] = {"regularized", "plain", NULL};

static const vbc_param_spec lemke_params[] = {
    {"max_pivots", VBC_PARAM_INTEGER, 0.0, 0.0, 1e12, 0,
     "pivot limit (0: max(100 n, 2^min(n,20)) for an LCP of n rows)"},
    {"lcp_tolerance", VBC_PARAM_NUMBER, VBC_LEMKE_TOLERANCE, 0.0, 1.0, 1,
     "largest complementarity error (max violation of z>=0, w>=0, |z_i w_i|, relative to "
     "max(1, |q|_inf)) accepted as solved"},
    {"tie_tolerance", VBC_PARAM_NUMBER, VBC_LEMKE_TIE_TOLERANCE, 0.0, 1e-3, 0,
     "ratio-test ties in the scaled problem, broken lexicographically"},
    {"first_run", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "on contact-like (PSD) matrices: regularized (M + eps I first, the plain run if that ends "
     "inaccurate) or plain (the plain run first, the regularized one if it fails)",
     first_run_choices},
    VBC_SOLVE_CONTROL_PARAMS(1e-9, 1, 0.0, 0),
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *lemke_alloc(const cJSON *params, vbc_error *err) {
  lemke_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  vbc_lemke_options_default(&s->opt);
  s->opt.max_pivots = (long)vbc_param_number(params, lemke_params, "max_pivots");
  s->opt.tolerance = vbc_param_number(params, lemke_params, "lcp_tolerance");
  s->opt.tie_tolerance = vbc_param_number(params, lemke_params, "tie_tolerance");
  s->opt.plain_first = vbc_param_choice(params, lemke_params, "first_run") == 1;
  return s;
}

static void lemke_free(void *state) {
  lemke_state *s = state;
  vbc_lemke_lcp_free(&s->lcp);
  free(s->z);
  free(s->w);
  free(s);
}

static int lemke_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  lemke_state *s = state;
  if (vbc_lemke_assemble(pb, &s->lcp, err) != VBC_OK) return err->code;
  const size_t n = s->lcp.n;
  if (n == 0) return VBC_OK;
  if (vbc_grow(&s->zcap, n, (void *[]){&s->z, &s->w}, (size_t[]){sizeof *s->z, sizeof *s->w}, 2,
               err) != VBC_OK)
    return err->code;
  if (vbc_lemke_sparse(&s->lcp.M, s->lcp.q, &s->opt, s->z, s->w, &s->last, err) != VBC_OK)
    return err->code;
  s->last_n = n;
  s->solved = 1;
  if (s->last.status != VBC_LEMKE_SOLVED)
    return vbc_error_set(err, VBC_EXIT_FAILED,
                         "lemke: %s after %ld pivots on an LCP of %zu rows (error %.3g)",
                         vbc_lemke_status_name(s->last.status), s->last.pivots, n, s->last.error);
  /* total impulses -> changes, applied block by block (rows.scratch is the solver's) */
  for (size_t b = 0; b < pb->nblocks; ++b)
    for (size_t k = 0; k < pb->blocks[b]->rows.n; ++k) pb->blocks[b]->rows.scratch[k] = 0.0;
  for (size_t i = 0; i < n; ++i) { /* a split row's -1 half follows its +1 half */
    if (s->lcp.sign[i] < 0) continue;
    vbc_rows *r = &pb->blocks[s->lcp.block[i]]->rows;
    const double lam = s->z[i] - (i + 1 < n && s->lcp.sign[i + 1] < 0 ? s->z[i + 1] : 0.0);
    r->scratch[s->lcp.row[i]] = lam - r->impulse[s->lcp.row[i]];
  }
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n == 0) continue;
    for (size_t k = 0; k < blk->rows.n; ++k) blk->rows.impulse[k] += blk->rows.scratch[k];
    blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.scratch);
  }
  return VBC_OK;
}

/* A new solve: the last result belongs to the previous one. */
static int lemke_begin(void *state, vbc_problem *pb, vbc_error *err) {
  (void)pb, (void)err;
  ((lemke_state *)state)->solved = 0;
  return VBC_OK;
}

/* pivots: of this solve's LCP, 0 when the solve needed no iteration. */
static int lemke_stats(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const lemke_state *s = state;
  return vbc_solve_stats_add(out, "pivots", s->solved ? (double)s->last.pivots : 0.0,
                             VBC_FIGURE_MEAN_MAX, err);
}

int vbc_lemke_solver_last(const vbc_solver *s, vbc_lemke_result *res, size_t *n) {
  if (s->type != &vbc_solver_lemke || s->state == NULL) return 0;
  const lemke_state *st = s->state;
  if (!st->solved) return 0;
  if (res) *res = st->last;
  if (n) *n = st->last_n;
  return 1;
}

/* At set-up: Lemke assembles J W J^T from the blocks' Jacobian rows, so a block without them
 * (a Laplacian operator of its own: mps_poisson, staggered) is refused before step 1, with the
 * way out, instead of at the first solve. */
static int lemke_check(const void *state, const vbc_problem *pb, vbc_error *err) {
  (void)state;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->type->jacobian) continue;
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "Lemke's method builds its LCP M = J W J^T from Jacobian rows, and "
                         "block %s (%s) gives none%s: solve that block with pgs, jacobi, cg or "
                         "mprgp, and Lemke only the contacts (coupler lemke_contacts, "
                         "method.contact.solver lemke)", blk->type->name,
                         blk->label ? blk->label : "?",
                         blk->type->assemble ? " (its operator is its own, not J M^-1 J^T)" : "");
  }
  return VBC_OK;
}

const vbc_solver_type vbc_solver_lemke = {
    .name = "lemke",
    .summary = "Lemke's complementary pivoting on M = J M^-1 J^T, exact (Kurose & Takahashi "
               "§4.2.2); one iteration is the whole solve",
    .params = lemke_params,
    .alloc = lemke_alloc,
    .free = lemke_free,
    .check = lemke_check,
    .begin = lemke_begin,
    .iterate = lemke_iterate,
    .stats = lemke_stats,
};
