/* jacobi.c — projected relaxed Jacobi.
 *
 * Every row computes its update from the same velocity v (the residual pass vbc_solve already
 * made): lambda'_k = clamp(lambda_k + omega r_k / A_kk, lo, hi); then all impulse changes are
 * applied at once through each block's apply pass. IISPH (Ihmsen et al. 2014) is this iteration
 * on the SPH density rows with omega = 0.5; here it runs on any block. Rows with A_kk <= 0 stay
 * inert. Every pass is data-parallel and its result does not depend on the thread count.
 * error_estimate local (not the default) tests error_tolerance on each row's error predicted by
 * its own update alone, as IISPH and SPlisHSPlasH do (update_impulses).
 *
 * Divergence on later rows. The set-up checks omega against 2 / lambda_max(D^-1 A) on the rows of
 * the first steps (scene/relaxation_check.c), but rows that come with the motion can lower the
 * bound: pms/mps on the floating box (l = 0.04) measured 0.529 on steps 1-14 and 0.422 from step
 * 15, when the box reaches the water, and omega 0.5 diverged at step 16. So each iteration also
 * takes m = max_k sqrt(A_kk) |dlambda_k| / omega, which is |r_k| / sqrt(A_kk) where the bounds do
 * not clamp, i.e. the max norm of D^-1/2 r. Unprojected, D^-1/2 r_{i+1} = (I - omega D^-1/2 A
 * D^-1/2) D^-1/2 r_i with a symmetric iteration matrix whose eigenvalues lie in (-1, 1] for
 * omega below the bound: the 2-norm of D^-1/2 r never grows, so its max norm never exceeds
 * sqrt(n) times the first iteration's. A solve whose m grows past GROWTH sqrt(n) times the
 * first (compared in squares; m is taken at the first iteration and every WATCH_EVERY-th) is
 * looked at, once per solve: back at its start, lambda_max of its rows is measured
 * (vbc_problem_lambda_max_from, core/jacobi_bound.h, from the last impulse changes), and where
 * omega is at or above 2 / lambda_max the solve starts again with 0.9 times that bound, kept for
 * the rest of the run. The solve's figure omega_lowered
 * (omega asked over omega used) makes the run's monitors flag it (sim/monitors.c). Where omega is
 * below the bound the impulses and velocities are put back exactly, so a solve that converges
 * keeps the bits it had. On the floating box the watch sees step 16, measures 0.4215 on its
 * rows and goes on at 0.379; the run then holds the box (submerged 0.379 at 0.3 s, 0.490 at
 * 1.5 s). A check for stalls as well (m no lower than 50 iterations before) caught the same
 * step but also measured in ordinary slow solves. Both omega_limit warn and clamp do this (warn
 * refuses before step 1, where nothing has run yet; in the middle of a run a flagged lower
 * factor keeps what was computed, --strict fails it), off does not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "core/jacobi_bound.h"
#include "core/operator.h"
#include "core/parallel.h"
#include "core/solve_skip.h"
#include "solvers/schemes/solve_params.h"
#include "solvers/schemes/schemes.h"

#define GROWTH 10.0     /* the head comment: m above GROWTH sqrt(n) times its first value */
#define POWER_STEPS 60  /* as scene/relaxation_check.c */
#define WATCH_EVERY 8   /* iterations between looks at m (and the first): a pass over the rows
                           costs a few % of a cheap iteration, a look every 8th a fraction */
#define GO_ON (-1) /* lower_omega: omega stays, the solve goes on (no exit code is negative) */

typedef struct jacobi_state {
  double omega, asked; /* the factor in use, and the one the scene asked for */
  int local_estimate;
  int watch;           /* omega_limit is not off: diverging solves lower omega */
  double estimate; /* error_estimate local: the blocks' mean error after the last update */
  double first;    /* m^2 of the solve's first iteration (0: not yet; INFINITY: not watched) */
  int iterations;  /* of this solve */
  double *start;   /* the solve's starting impulses, every block's rows in turn */
  double *change;  /* the last impulse changes, likewise */
  size_t cap;
} jacobi_state;

static const char *const limit_choices[] = {"warn", "clamp", "off", NULL};
static const char *const estimate_choices[] = {"residual", "local", NULL};

static const vbc_param_spec jacobi_params[] = {
    {"omega", VBC_PARAM_NUMBER, 0.5, 0.0, 1.0, 1,
     "relaxation factor (IISPH uses 0.5; plain Jacobi may diverge at 1)"},
    {"omega_limit", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "omega against the convergence bound 2/lambda_max(D^-1 A), measured before step 1 on the "
     "rows the scene's first two steps assemble and on the block's lattice "
     "(scene/relaxation_check.c): warn refuses an omega at or above the rows' bound (exit 2) "
     "and warns at or above the lattice bound only; clamp sets 0.9 times the lower bound; off "
     "checks nothing. Under warn and clamp a solve that diverges later, on rows whose "
     "bound fell below omega, starts again at 0.9 times their bound for the rest of the run "
     "(warning omega_lowered)", limit_choices},
    {"error_estimate", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "what error_tolerance is tested on: residual (the rows' error after the update, from the "
     "residual pass) or local (each row's error had only its own impulse changed, r_k - A_kk "
     "dlambda_k, i.e. (1 - omega) r_k unclamped: IISPH's and SPlisHSPlasH's test)",
     estimate_choices},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 1e-3, 2),
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *jacobi_alloc(const cJSON *params, vbc_error *err) {
  jacobi_state *s = vbc_calloc(1, sizeof *s, err);
  if (s) {
    s->omega = s->asked = vbc_param_number(params, jacobi_params, "omega");
    s->watch = vbc_param_choice(params, jacobi_params, "omega_limit") != 2;
    s->local_estimate = vbc_param_choice(params, jacobi_params, "error_estimate") == 1;
  }
  return s;
}

static void jacobi_free(void *state) {
  jacobi_state *s = state;
  if (s) free(s->start), free(s->change);
  free(s);
}

/* lambda'_k and its change into rows.scratch. With `local` (error_estimate local) rows.residual
 * becomes the residual row k would have had only its own impulse moved, r_k - A_kk dlambda_k
 * ((1 - omega) r_k unclamped): the error IISPH's pressure update predicts for each particle
 * (Ihmsen et al. 2014, step 10 of Algorithm 1; SPlisHSPlasH tests its mean), blind to the
 * neighbours' changes. The next residual pass overwrites it. */
static void update_impulses(vbc_rows *r, double omega, int local) {
#pragma omp parallel for schedule(static) if (r->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t k = 0; k < r->n; ++k) {
    double a = r->diag[k];
    double lam = r->impulse[k];
    double next = a > 0.0 ? vbc_clamp(lam + omega * r->residual[k] / a, r->lo[k], r->hi[k]) : lam;
    r->scratch[k] = next - lam;
    r->impulse[k] = next;
    if (local) r->residual[k] -= a * r->scratch[k];
  }
}

/* max_k A_kk dlambda_k^2 of the update just made: omega^2 times the square of the head comment's
 * m (a maximum: the same on any number of threads; squares: no square root a row). */
static double watched_change(const vbc_rows *r) {
  double m = 0.0;
#pragma omp parallel for schedule(static) reduction(max : m) if (r->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t k = 0; k < r->n; ++k) {
    const double e = r->diag[k] * r->scratch[k] * r->scratch[k];
    m = e > m ? e : m;
  }
  return m;
}

/* The impulses the solve started from (warm start), to go back to. */
static int jacobi_begin(void *state, vbc_problem *pb, vbc_error *err) {
  jacobi_state *s = state;
  s->first = s->watch ? 0.0 : INFINITY;
  s->iterations = 0;
  const size_t n = vbc_problem_rows(pb);
  if (!s->watch || n == 0) return VBC_OK;
  if (n > s->cap) {
    double *grown = realloc(s->start, n * sizeof *grown);
    if (grown) s->start = grown;
    double *more = grown ? realloc(s->change, n * sizeof *more) : NULL;
    if (more) s->change = more;
    if (more == NULL)
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "jacobi: out of memory for %zu rows", n);
    s->cap = n;
  }
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    if (r->n) memcpy(s->start + off, r->impulse, r->n * sizeof *r->impulse); /* NULL when 0 */
    off += r->n;
  }
  return VBC_OK;
}

/* Every impulse back to where the solve started, v with it (up to round-off). Called between
 * update_impulses and the apply: v holds impulse - scratch. */
static void take_back(jacobi_state *s, vbc_problem *pb) {
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    vbc_rows *r = &blk->rows;
    for (size_t k = 0; k < r->n; ++k)
      r->scratch[k] = s->start[off + k] - (r->impulse[k] - r->scratch[k]),
      r->impulse[k] = s->start[off + k];
    if (r->n) blk->type->apply(blk->state, pb->sys, r, r->scratch);
    off += r->n;
  }
}

/* The head comment: m grew past GROWTH sqrt(n) times its first value. Back to the solve's
 * start, lambda_max of its rows from the last impulse changes (near the growing mode); if omega
 * is at or above 2 / lambda_max, the solve starts again with 0.9 times that bound (VBC_OK).
 * Else the iterate and v are put back exactly as they were, so that the solve goes on with the
 * bits it had (GO_ON). */
static int lower_omega(jacobi_state *s, vbc_problem *pb, vbc_error *err) {
  const size_t n = vbc_problem_rows(pb);
  vbc_skip now = {0}; /* the impulses and velocities as they are, to go on from if not lowered */
  double *pending = malloc((n + 1) * sizeof *pending);
  if (pending == NULL || vbc_skip_keep(&now, pb, 0, err) != VBC_OK) {
    free(pending), vbc_skip_free(&now);
    return pending ? err->code
                   : vbc_error_set(err, VBC_EXIT_SYSTEM, "jacobi: out of memory for %zu rows", n);
  }
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    if (r->n == 0) continue; /* its arrays may be NULL */
    memcpy(s->change + off, r->scratch, r->n * sizeof *r->scratch);
    memcpy(pending + off, r->scratch, r->n * sizeof *r->scratch);
    off += r->n;
  }
  take_back(s, pb);
  const double lambda = vbc_problem_lambda_max_from(pb, POWER_STEPS, s->change, err);
  const double bound = lambda > 0.0 ? 2.0 / lambda : 0.0;
  const int lower = !isnan(lambda) && bound > 0.0 && s->omega >= bound;
  if (!lower) { /* as it was: impulses, v, the pending changes */
    vbc_skip_restore(&now, pb);
    off = 0;
    for (size_t b = 0; b < pb->nblocks; ++b) {
      vbc_rows *r = &pb->blocks[b]->rows;
      if (r->n == 0) continue;
      memcpy(r->scratch, pending + off, r->n * sizeof *r->scratch);
      off += r->n;
    }
  }
  free(pending), vbc_skip_free(&now);
  if (isnan(lambda)) return err->code;
  if (lower) {
    s->omega = 0.9 * bound;
    s->first = 0.0; /* the next iteration is the restarted solve's first */
    s->iterations = 0;
    s->estimate = NAN; /* error_estimate local: none for the restart; the test reads the rows' */
    return VBC_OK;
  }
  s->first = INFINITY; /* below the bound: this solve is not watched any more */
  return GO_ON;
}

static int jacobi_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)err;
  jacobi_state *s = state;
  s->iterations++;
  for (size_t b = 0; b < pb->nblocks; ++b)
    update_impulses(&pb->blocks[b]->rows, s->omega, s->local_estimate);
  if (s->first == 0.0 || (isfinite(s->first) && s->iterations % WATCH_EVERY == 0)) {
    double m2 = 0.0;
    for (size_t b = 0; b < pb->nblocks; ++b) m2 = fmax(m2, watched_change(&pb->blocks[b]->rows));
    m2 /= s->omega * s->omega;
    if (s->first == 0.0) {
      s->first = m2 > 0.0 ? m2 : INFINITY;
    } else if (m2 > GROWTH * GROWTH * (double)vbc_problem_rows(pb) * s->first) {
      const int rc = lower_omega(s, pb, err);
      if (rc != GO_ON) return rc;
    }
  }
  if (s->local_estimate) s->estimate = vbc_problem_mean_error(pb, NULL);
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.scratch);
  }
  return VBC_OK;
}

/* omega_lowered (omega asked over omega used) in every solve after a lowering. */
static int jacobi_stats(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const jacobi_state *s = state;
  if (s->omega < s->asked)
    return vbc_solve_stats_add(out, "omega_lowered", s->asked / s->omega, VBC_FIGURE_MAX, err);
  return VBC_OK;
}

/* The factor in use: a lowered omega stays for the rest of the run, a resumed one too. */
static size_t jacobi_carried(const void *state, double *out) {
  out[0] = ((const jacobi_state *)state)->omega;
  return 1;
}

static int jacobi_carry_in(void *state, const double *in, size_t n, vbc_error *err) {
  jacobi_state *s = state;
  if (n != 1 || !(in[0] > 0.0 && in[0] <= s->asked))
    return vbc_error_set(err, VBC_EXIT_INPUT, "jacobi: expected one relaxation factor in (0, %g] "
                         "to resume with", s->asked);
  s->omega = in[0];
  return VBC_OK;
}

static double jacobi_error_estimate(const void *state) {
  const jacobi_state *s = state;
  return s->local_estimate ? s->estimate : NAN;
}

const vbc_solver_type vbc_solver_jacobi = {
    .name = "jacobi",
    .summary = "projected relaxed Jacobi (IISPH's scheme, Ihmsen et al. 2014)",
    .params = jacobi_params,
    .alloc = jacobi_alloc,
    .free = jacobi_free,
    .begin = jacobi_begin,
    .begin_keeps_velocities = 1,
    .iterate = jacobi_iterate,
    .stats = jacobi_stats,
    .error_estimate = jacobi_error_estimate,
    .relaxation_key = "omega",
    .carried = jacobi_carried,
    .carry_in = jacobi_carry_in,
};
