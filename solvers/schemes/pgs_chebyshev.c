/* pgs_chebyshev.c — projected Gauss–Seidel (SOR) sweeps with Chebyshev semi-iterative
 * acceleration of the impulses.
 *
 * Each iteration is one iteration of `pgs` over every block (with `symmetric`, the default, a
 * forward and a backward sweep; Miyamoto & Koshizuka eq. 36-41 for the fluid rows, 65-72 for
 * contacts), giving lambda_hat from lambda_k; then, from iteration `delay`
 * on, the Chebyshev semi-iteration (Golub & Varga, Numer. Math. 3, 1961; in the projected form
 * of Wang, "A Chebyshev semi-iterative approach for accelerating projective and position-based
 * dynamics", ACM TOG 34(6), 2015):
 *     omega_delay = 2 / (2 - rho^2),  omega_{k+1} = 4 / (4 - rho^2 omega_k),
 *     lambda_{k+1} = clamp(omega_k (gamma (lambda_hat - lambda_k) + lambda_k - lambda_{k-1})
 *                          + lambda_{k-1}, lo, hi),
 * with rho the estimated spectral radius of the sweep's iteration and gamma a relaxation
 * of the sweep (Wang's gamma, 1 by default). The blocks' `apply` then moves the velocities by
 * lambda_{k+1} - lambda_hat, so that v = v* + M^-1 J^T lambda_{k+1} holds after every iteration
 * as under `pgs`. The rows, targets, bounds and the stopping test (vbc_solve's residual pass on
 * every iterate, most of them left out as under `pgs`: core/solve_skip.h, with this scheme's own
 * state kept and restored through the keep/restore hooks) are the LCP's, unchanged: only the
 * sequence of iterates differs.
 *
 * The semi-iteration is exact for a symmetric iteration with real spectrum in [-rho, rho] (SSOR
 * on equality rows: `symmetric`); for the forward sweep and for the projection it is a heuristic,
 * as in Wang's projected Jacobi. */
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "solvers/schemes/solve_params.h"
#include "solvers/schemes/schemes.h"

typedef struct pgs_chebyshev_state {
  double omega, rho, gamma;
  int symmetric, delay;
  int iteration;
  long swept; /* sweeps made in the solve, those made again after going back included */
  double cheb; /* omega_k of the semi-iteration */
  size_t cap;  /* of the arrays below: every block's rows, one after the other */
  double *prev, *cur, *d;
  double *kept_prev; /* prev, cheb and iteration as vbc_solve last kept the problem's state */
  double kept_cheb;
  int kept_iteration;
  size_t nrows;      /* every block's rows in this solve */
} pgs_chebyshev_state;

static const vbc_param_spec pgs_chebyshev_params[] = {
    {"omega", VBC_PARAM_NUMBER, 1.0, 0.0, 2.0, 1,
     "relaxation factor of the sweep (1: Gauss–Seidel, the paper's choice)"},
    {"symmetric", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "each iteration a forward then a backward sweep (symmetric SOR); false: forward sweeps "
     "only, which the semi-iteration may make diverge"},
    {"rho", VBC_PARAM_NUMBER, 0.99, 0.0, 0.99999, 0,
     "estimated spectral radius of the sweep's iteration (Chebyshev's parameter)"},
    {"gamma", VBC_PARAM_NUMBER, 1.0, 0.1, 2.0, 0,
     "relaxation of each sweep inside the semi-iteration (Wang 2015's gamma)"},
    {"delay", VBC_PARAM_INTEGER, 10, 1, 1000, 0,
     "plain sweeps before the semi-iteration starts (Wang 2015's S)"},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 0.0, 0),
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *pgs_chebyshev_alloc(const cJSON *params, vbc_error *err) {
  pgs_chebyshev_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->omega = vbc_param_number(params, pgs_chebyshev_params, "omega");
  s->symmetric = vbc_param_bool(params, pgs_chebyshev_params, "symmetric");
  s->rho = vbc_param_number(params, pgs_chebyshev_params, "rho");
  s->gamma = vbc_param_number(params, pgs_chebyshev_params, "gamma");
  s->delay = (int)vbc_param_number(params, pgs_chebyshev_params, "delay");
  return s;
}

static void pgs_chebyshev_free(void *state) {
  pgs_chebyshev_state *s = state;
  free(s->prev);
  free(s->cur);
  free(s->d);
  free(s->kept_prev);
  free(s);
}

static size_t total_rows(const vbc_problem *pb) {
  size_t n = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) n += pb->blocks[b]->rows.n;
  return n;
}

static int pgs_chebyshev_begin(void *state, vbc_problem *pb, vbc_error *err) {
  pgs_chebyshev_state *s = state;
  const size_t n = total_rows(pb);
  if (vbc_grow(&s->cap, n, (void *[]){&s->prev, &s->cur, &s->d, &s->kept_prev},
               (size_t[]){sizeof *s->prev, sizeof *s->cur, sizeof *s->d, sizeof *s->kept_prev},
               4, err) != VBC_OK)
    return err->code;
  s->nrows = n;
  s->iteration = 0;
  s->swept = 0;
  s->cheb = 1.0;
  return VBC_OK;
}

static int pgs_chebyshev_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)err;
  pgs_chebyshev_state *s = state;
  /* lambda_k, kept before the sweep overwrites it */
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    if (r->n) memcpy(s->cur + off, r->impulse, r->n * sizeof *r->impulse); /* none: NULL */
    off += r->n;
  }
  vbc_pgs_sweeps(pb, s->omega, s->symmetric);
  s->iteration++;
  s->swept += s->symmetric ? 2 : 1;
  if (s->iteration >= s->delay) {
    const double rho2 = s->rho * s->rho;
    s->cheb = s->iteration == s->delay ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * s->cheb);
    const double w = s->cheb, g = s->gamma;
    off = 0;
    for (size_t b = 0; b < pb->nblocks; ++b) {
      vbc_block *blk = pb->blocks[b];
      vbc_rows *r = &blk->rows;
      int moved = 0;
      for (size_t k = 0; k < r->n; ++k) {
        const double hat = r->impulse[k], lk = s->cur[off + k], lp = s->prev[off + k];
        const double next = vbc_clamp(w * (g * (hat - lk) + lk - lp) + lp, r->lo[k], r->hi[k]);
        s->d[off + k] = next - hat;
        moved |= next != hat;
        r->impulse[k] = next;
      }
      if (moved) blk->type->apply(blk->state, pb->sys, r, s->d + off);
      off += r->n;
    }
  }
  double *const was = s->prev; /* lambda_k becomes lambda_{k-1}; cur is rewritten next time */
  s->prev = s->cur, s->cur = was;
  return VBC_OK;
}

/* vbc_solve leaves most residual passes out (core/solve_skip.h) and may go back to the state
 * after an earlier iteration: the semi-iteration's own state goes back with it. */
static void pgs_chebyshev_keep(void *state) {
  pgs_chebyshev_state *s = state;
  if (s->nrows) memcpy(s->kept_prev, s->prev, s->nrows * sizeof *s->prev);
  s->kept_cheb = s->cheb;
  s->kept_iteration = s->iteration;
}

static void pgs_chebyshev_restore(void *state) {
  pgs_chebyshev_state *s = state;
  if (s->nrows) memcpy(s->prev, s->kept_prev, s->nrows * sizeof *s->prev);
  s->cheb = s->kept_cheb;
  s->iteration = s->kept_iteration;
}

/* Sweeps over the blocks in the solve (two an iteration with symmetric; those made again after
 * vbc_solve went back to a kept state included), to compare with pgs's iterations. */
static int pgs_chebyshev_stats(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const pgs_chebyshev_state *s = state;
  if (vbc_solve_stats_add(out, "sweeps", (double)s->swept, VBC_FIGURE_MEAN_MAX, err))
    return err->code;
  return VBC_OK;
}

const vbc_solver_type vbc_solver_pgs_chebyshev = {
    .name = "pgs_chebyshev",
    .summary = "projected Gauss-Seidel / SOR sweeps with Chebyshev semi-iterative acceleration "
               "(Wang 2015) of the impulses",
    .params = pgs_chebyshev_params,
    .alloc = pgs_chebyshev_alloc,
    .free = pgs_chebyshev_free,
    .begin = pgs_chebyshev_begin,
    .iterate = pgs_chebyshev_iterate,
    .stats = pgs_chebyshev_stats,
    .residual_free = 1,
    .keep = pgs_chebyshev_keep,
    .restore = pgs_chebyshev_restore,
};
