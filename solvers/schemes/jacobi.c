/* jacobi.c — projected relaxed Jacobi.
 *
 * Every row computes its update from the same velocity v (the residual pass vbc_solve already
 * made): lambda'_k = clamp(lambda_k + omega r_k / A_kk, lo, hi); then all impulse changes are
 * applied at once through each block's apply pass. IISPH (Ihmsen et al. 2014) is this iteration
 * on the SPH density rows with omega = 0.5; here it runs on any block. Rows with A_kk <= 0 stay
 * inert. Every pass is data-parallel and its result does not depend on the thread count.
 * error_estimate local (not the default) tests error_tolerance on each row's error predicted by
 * its own update alone, as IISPH and SPlisHSPlasH do (update_impulses). */
#include <math.h>
#include <stdlib.h>

#include "core/constraint.h"
#include "core/parallel.h"
#include "solvers/schemes/solve_params.h"
#include "solvers/schemes/schemes.h"

typedef struct jacobi_state {
  double omega;
  int local_estimate;
  double estimate; /* error_estimate local: the blocks' mean error after the last update */
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
     "checks nothing", limit_choices},
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
    s->omega = vbc_param_number(params, jacobi_params, "omega");
    s->local_estimate = vbc_param_choice(params, jacobi_params, "error_estimate") == 1;
  }
  return s;
}

static void jacobi_free(void *state) { free(state); }

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

static int jacobi_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)err;
  jacobi_state *s = state;
  for (size_t b = 0; b < pb->nblocks; ++b)
    update_impulses(&pb->blocks[b]->rows, s->omega, s->local_estimate);
  if (s->local_estimate) s->estimate = vbc_problem_mean_error(pb, NULL);
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.scratch);
  }
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
    .iterate = jacobi_iterate,
    .error_estimate = jacobi_error_estimate,
    .relaxation_key = "omega",
};
