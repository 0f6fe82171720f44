/* dfsph_jacobi.c — DFSPH's Jacobi iteration (Bender & Koschier 2015; BK17 = "Divergence-Free SPH
 * for Incompressible and Viscous Fluids", IEEE TVCG 2017, Algorithms 2 and 3).
 *
 * Every row computes its change from the same velocity v (the residual pass vbc_solve already
 * made), r_k = b_k - J_k v, and only a violated row moves:
 *     lambda'_k = min(lambda_k + max(r_k, 0) / A_kk, hi_k);
 * then all changes are applied at once through each block's apply pass. On the dfsph block's rows
 * this is BK17's kappa_i = (rho*_i - rho0) / h^2 alpha_i (Algorithm 3) and kappa^v_i =
 * (1/h) D rho_i/Dt alpha_i (Algorithm 2, eq. 11), accumulated with the residual clamped at zero,
 * so that within a solve a particle's pressure only grows. Open choices and ours: the papers'
 * update is unrelaxed (no omega); a row whose impulse already overshoots is left alone rather
 * than pulled back, which is the difference from projected Jacobi at omega = 1 (jacobi.c), and
 * keeps the iteration from oscillating where Jacobi at omega = 1 may diverge. (SPlisHSPlasH's
 * TimeStepDFSPH instead takes a projected Jacobi step relaxed by 0.5 on p/rho^2 >= 0, which can
 * lower a pressure, and clamps the residual only in its error sum: docs/dfsph.md.) The stopping test is vbc_solve's on the blocks' own error
 * measure after each update (dfsph's error_measure); SPlisHSPlasH tests the error before its
 * update and then still applies it, so it counts one iteration more for the same test. Rows
 * with A_kk <= 0 stay inert. Bilateral blocks are refused (their impulses must be able to fall).
 * Every pass is data-parallel and its result does not depend on the thread count. */
#include <stdlib.h>

#include "core/constraint.h"
#include "core/parallel.h"
#include "solvers/schemes/schemes.h"
#include "solvers/schemes/solve_params.h"

static const vbc_param_spec dfsph_jacobi_params[] = {
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 100, 1e-4, 2),
    {NULL, 0, 0, 0, 0, 0, NULL}};

/* No state: the scheme keeps nothing between iterations or solves. */
static void *dfsph_jacobi_alloc(const cJSON *params, vbc_error *err) {
  (void)params;
  return vbc_calloc(1, 1, err);
}

static void dfsph_jacobi_free(void *state) { free(state); }

static int dfsph_jacobi_check(const void *state, const vbc_problem *pb, vbc_error *err) {
  (void)state;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    const unsigned traits = blk->type->traits ? blk->type->traits(blk->state) : 0u;
    if (traits & VBC_ROWS_BILATERAL)
      return vbc_error_set(err, VBC_EXIT_INPUT, "expected unilateral rows, block \"%s\" (%s) has "
                           "bilateral ones: DFSPH's update only raises impulses",
                           blk->type->name, blk->label);
  }
  return VBC_OK;
}

static void raise_impulses(vbc_rows *r) {
#pragma omp parallel for schedule(static) if (r->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t k = 0; k < r->n; ++k) {
    const double a = r->diag[k], res = r->residual[k], lam = r->impulse[k];
    double next = a > 0.0 && res > 0.0 ? lam + res / a : lam;
    if (next > r->hi[k]) next = r->hi[k] > lam ? r->hi[k] : lam;
    r->scratch[k] = next - lam;
    r->impulse[k] = next;
  }
}

static int dfsph_jacobi_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)state, (void)err;
  for (size_t b = 0; b < pb->nblocks; ++b) raise_impulses(&pb->blocks[b]->rows);
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.scratch);
  }
  return VBC_OK;
}

const vbc_solver_type vbc_solver_dfsph_jacobi = {
    .name = "dfsph_jacobi",
    .summary = "DFSPH's Jacobi iteration: violated rows raise their impulse by r_k / A_kk "
               "(Bender & Koschier 2015, 2017)",
    .params = dfsph_jacobi_params,
    .alloc = dfsph_jacobi_alloc,
    .free = dfsph_jacobi_free,
    .check = dfsph_jacobi_check,
    .iterate = dfsph_jacobi_iterate,
};
