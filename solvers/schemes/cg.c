/* cg.c — preconditioned conjugate gradients on equality rows (Hestenes & Stiefel 1952; He et al.
 * 2012 solve their pressure equation this way, Table 1: CG, IC-PCG, SSOR-PCG).
 *
 * The rows of an equality system (every row two-sided, or fixed at lo = hi: the free-surface rows
 * of the blocks' equality form, blocks.h) ask for A lambda = r0 with A = J M^-1 J^T (or a block's
 * own operator) and r0 = b - J u*, the residual at zero impulse. One iteration, with r the true
 * residual b - J v that vbc_solve computed after the previous one:
 *     z = M^-1 r,  beta = (r.z) / (r.z)_prev,  p = z + beta p,  q = A p,
 *     alpha = (r.z) / (p.q),  lambda += alpha p,  v += alpha M^-1 J^T p.
 * Taking r from the velocities every iteration (residual replacement) keeps the loop's residual
 * and the method's the same vector; in exact arithmetic it is CG's recurrence r -= alpha q.
 * Fixed rows and rows with A_kk <= 0 are not unknowns (krylov.h). q = A p is matrix-free (an apply
 * and a residual pass) for `none` and `jacobi`, a sparse product for `ssor` and `ic0`, which
 * assemble A at the start of every solve (set-up seconds reported as the figure setup_seconds).
 * A direction with p.q <= 0 stops the solve with stop reason breakdown (the operator is not
 * positive definite on the unknowns, e.g. a fluid region without a surface row).
 *
 * Refusals at set-up (exit 2): rows with a one-sided bound (the pressure LCP: use mprgp, or the
 * block's `equality` form), an unsymmetric operator, and ssor/ic0 on a block whose operator cannot
 * be assembled. */
#include <stdlib.h>

#include "core/clock.h"
#include "core/operator.h"
#include "solvers/schemes/precond.h"
#include "solvers/schemes/schemes.h"
#include "solvers/schemes/solve_params.h"

static const char *const preconditioners[] = {"none", "jacobi", "ssor", "ic0", NULL};

static const vbc_param_spec cg_params[] = {
    {"preconditioner", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "none, jacobi (the diagonal), ssor (parameter omega) or ic0 (incomplete Cholesky); ssor and "
     "ic0 assemble the operator",
     preconditioners},
    {"omega", VBC_PARAM_NUMBER, 1.7, 0.0, 2.0, 1,
     "relaxation factor of the SSOR preconditioner (He et al. 2012: 1.7)"},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 0.0, 0),
    {NULL, 0, 0, 0, 0, 0, NULL}};

typedef struct cg_state {
  vbc_krylov k;
  vbc_precond P;
  vbc_sparse A; /* assembled for ssor and ic0 */
  double *z, *p, *q, *dx;
  size_t cap_z, cap_p, cap_q, cap_dx;
  double rz;
  int first;
  double setup_seconds;
} cg_state;

static void *cg_alloc(const cJSON *params, vbc_error *err) {
  cg_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->P.kind = (vbc_precond_kind)vbc_param_choice(params, cg_params, "preconditioner");
  s->P.omega = vbc_param_number(params, cg_params, "omega");
  return s;
}

static void cg_free(void *state) {
  cg_state *s = state;
  vbc_krylov_free(&s->k);
  vbc_precond_free(&s->P);
  vbc_sparse_free(&s->A);
  free(s->z), free(s->p), free(s->q), free(s->dx);
  free(s);
}

static int cg_check(const void *state, const vbc_problem *pb, vbc_error *err) {
  const cg_state *s = state;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    const unsigned traits = blk->type->traits ? blk->type->traits(blk->state) : 0u;
    if (!(traits & VBC_ROWS_BILATERAL))
      return vbc_error_set(err, VBC_EXIT_INPUT, "block %s (%s) has one-sided rows (an LCP, impulse "
                           ">= 0); cg solves equality systems only: use mprgp, the fluid "
                           "block's equality form (equality: true), and a coupler that solves "
                           "contacts in a stage of their own (lemke_contacts)",
                           blk->type->name, blk->label);
  }
  return vbc_krylov_check(pb, "cg", vbc_precond_needs_matrix(s->P.kind),
                          preconditioners[s->P.kind], err);
}

static int cg_begin(void *state, vbc_problem *pb, vbc_error *err) {
  cg_state *s = state;
  s->first = 1;
  s->setup_seconds = 0.0;
  s->A.nrows = 0;
  if (vbc_krylov_gather(&s->k, pb, err) != VBC_OK ||
      vbc_krylov_vector(&s->k, &s->z, &s->cap_z, err) != VBC_OK ||
      vbc_krylov_vector(&s->k, &s->p, &s->cap_p, err) != VBC_OK ||
      vbc_krylov_vector(&s->k, &s->q, &s->cap_q, err) != VBC_OK ||
      vbc_krylov_vector(&s->k, &s->dx, &s->cap_dx, err) != VBC_OK)
    return err->code;
  if (!vbc_precond_needs_matrix(s->P.kind)) return VBC_OK;
  const double t0 = vbc_now();
  if (vbc_problem_assemble(pb, &s->A, err) != VBC_OK) return err->code;
  vbc_krylov_sort_rows(&s->A);
  if (vbc_precond_setup(&s->P, &s->k, s->k.unknown, &s->A, err) != VBC_OK) return err->code;
  s->setup_seconds = vbc_now() - t0;
  return VBC_OK;
}

static int cg_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  cg_state *s = state;
  vbc_krylov *k = &s->k;
  (void)err;
  vbc_krylov_refresh(k, pb);
  const vbc_sparse *A = vbc_precond_needs_matrix(s->P.kind) ? &s->A : NULL;
  vbc_precond_apply(&s->P, k, k->unknown, A, k->r, s->z);
  const double rz = vbc_krylov_dot(k, k->r, s->z);
  const double beta = s->first || s->rz == 0.0 ? 0.0 : rz / s->rz;
  for (size_t i = 0; i < k->n; ++i) s->p[i] = k->unknown[i] ? s->z[i] + beta * s->p[i] : 0.0;
  vbc_krylov_product(k, pb, A, s->p, s->q);
  const double pq = vbc_krylov_dot(k, s->p, s->q);
  if (!(pq > 0.0)) {
    for (size_t i = 0; i < k->n; ++i) s->dx[i] = 0.0;
    vbc_krylov_sync(k, pb, s->dx); /* undo what the product applied */
    return VBC_ITERATE_BREAKDOWN;
  }
  const double alpha = rz / pq;
  for (size_t i = 0; i < k->n; ++i) s->dx[i] = alpha * s->p[i];
  vbc_krylov_sync(k, pb, s->dx);
  s->rz = rz;
  s->first = 0;
  return VBC_OK;
}

static int cg_stats(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const cg_state *s = state;
  if (!vbc_precond_needs_matrix(s->P.kind)) return VBC_OK;
  if (vbc_solve_stats_add(out, "setup_seconds", s->setup_seconds, VBC_FIGURE_MEAN_MAX, err))
    return err->code;
  return s->P.kind == VBC_PRECOND_IC0
             ? vbc_solve_stats_add(out, "ic0_shift", s->P.shift, VBC_FIGURE_MAX, err)
             : VBC_OK;
}

const vbc_solver_type vbc_solver_cg = {
    .name = "cg",
    .divergence_hint = vbc_krylov_divergence_hint,
    .summary = "preconditioned conjugate gradients (none, jacobi, ssor, ic0) on equality rows "
               "(He et al. 2012, Table 1)",
    .params = cg_params,
    .alloc = cg_alloc,
    .free = cg_free,
    .check = cg_check,
    .begin = cg_begin,
    .iterate = cg_iterate,
    .stats = cg_stats,
};
