/* pgs_coarse.c — projected Gauss–Seidel with a two-level aggregation coarse correction of the
 * fluid rows: the same LCP as pgs (Miyamoto & Koshizuka eq. 36-41, 65-72), the same stopping
 * test, far fewer sweeps on deep fluid.
 *
 * Why: Gauss–Seidel removes an error component at a rate set by its wavelength; the pressure of
 * a column 90 particles deep has smooth components that lose only a fraction ~ (l / depth)^2 of
 * themselves per sweep, so a warm-started solve to a relative residual of 0.01 still makes ~400
 * sweeps. A coarse space of aggregates (coarse_space.h: Vaněk, Mandel & Brezina 1996, Galerkin
 * A_c = P^T A P) holds such components, and one coarse solve removes them. It removes only part
 * of the slow error at l = 0.01 (docs/pgs_coarse.md has the measurements).
 *
 * One iteration, with r = b - J v of every row from vbc_solve's residual pass:
 *   1. coarse correction (every `coarse_every` iterations), on the fluid rows F that are not held
 *      by a bound (a row with lambda = lo and r <= 0, or lambda = hi and r >= 0, is left out:
 *      the truncated restriction of projected multigrid, Kornhuber, Numer. Math. 69, 1994, and
 *      Mandel's one for obstacle problems, Appl. Math. Optim. 11, 1984):
 *        r_c = P_F^T r,  delta = A_c^-1 r_c,  d = P_F delta,
 *        alpha = d.r / d.A d  (the exact minimiser of the LCP's energy along d, which corrects the
 *                              mismatch of A_c, built on all fluid rows, with P_F; a scaled
 *                              coarse correction as in Braess' and Blaheta's aggregation methods),
 *        lambda <- clamp(lambda + alpha d, lo, hi), v += M^-1 J^T (the change) (the blocks' apply);
 *   2. one projected Gauss–Seidel (SOR) sweep over every block (the smoother; it also repairs
 *      what the projection in 1 clipped), the other blocks (contacts, joints) before the fluid
 *      blocks (`fluid_last`): the contacts first take up what the coarse step changed at the
 *      bodies, and the fluid sweep then ends the iteration. In the coupler's order (fluid, then
 *      contacts) the contact sweep undid the coarse step next to the box every iteration: on the
 *      Fig. 12 tank at l = 0.02 pgs made 166 sweeps a step, pgs_coarse in that order 135, with
 *      the fluid last 57 (docs/pgs_coarse.md).
 * The coarse step is a descent direction of the energy (d.r = r_c^T A_c^-1 r_c > 0), and the
 * sweep keeps every iterate feasible, so the fixed points are those of pgs: the LCP's solutions.
 *
 * Choices left open, ours: the correction before the sweep (it uses the residual vbc_solve has
 * just computed, so it costs no residual pass of its own); A, the aggregates and the factor of A_c
 * built once a solve (positions do not change within one) with A_c over all free fluid rows,
 * not re-formed as F changes (the line search absorbs the difference); contact and joint rows
 * stay fine-only by default (`coarse_rows`: all puts them into the aggregates too; it did not
 * help); strength 0 (aggregates of every stencil neighbour, some 40-50 rows in 2D) by default:
 * aggregates of about 6 rows (strength 0.2) took as many sweeps at eight times the coarse size;
 * omega 1 (pgs's and the paper's sweep): whether 1.5 helps depends on the resolution (Fig. 12
 * tank: 113 sweeps a step against 57 at l = 0.02, 188 against 265 at l = 0.01). All sums run serially in row order, so the results are the same
 * on any number of threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "solvers/schemes/coarse_space.h"
#include "solvers/schemes/krylov.h"
#include "solvers/schemes/schemes.h"
#include "solvers/schemes/solve_params.h"

static const char *const coarse_row_choices[] = {"fluid", "all", NULL};

static const vbc_param_spec pgs_coarse_params[] = {
    {"omega", VBC_PARAM_NUMBER, 1.0, 0.0, 2.0, 1,
     "relaxation factor of the sweep (1: Gauss–Seidel, the paper's choice)"},
    {"strength", VBC_PARAM_NUMBER, 0.0, 0.0, 1.0, 0,
     "rows i, j are aggregated together when |a_ij| >= strength sqrt(a_ii a_jj) (0: every "
     "stencil neighbour; larger: smaller aggregates, a larger coarse problem)"},
    {"coarse_rows", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "which rows the coarse space holds: fluid (the fluid blocks' free rows) or all (every "
     "block's free rows: contacts and joints join the aggregates of the fluid rows they touch)",
     coarse_row_choices},
    {"fluid_last", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "sweep the other blocks (contacts, joints) before the fluid blocks in every iteration "
     "(false: in the coupler's order, as pgs)"},
    {"coarse_every", VBC_PARAM_INTEGER, 5, 1, 1e6, 0,
     "a coarse correction before every this many sweeps"},
    {"max_coarse", VBC_PARAM_INTEGER, 4000, 1, 1e6, 0,
     "most aggregates the dense coarse factorisation takes (its cost grows as their cube)"},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 0.0, 0),
    {NULL, 0, 0, 0, 0, 0, NULL}};

typedef struct pgs_coarse_state {
  double omega, strength;
  int every, fluid_last;
  size_t max_coarse;
  vbc_coarse_space c;
  long iteration, corrections;
  double setup_seconds, step_sum;
} pgs_coarse_state;

static void *pgs_coarse_alloc(const cJSON *params, vbc_error *err) {
  pgs_coarse_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->omega = vbc_param_number(params, pgs_coarse_params, "omega");
  s->strength = vbc_param_number(params, pgs_coarse_params, "strength");
  s->c.all_rows = vbc_param_choice(params, pgs_coarse_params, "coarse_rows") == 1;
  s->fluid_last = vbc_param_bool(params, pgs_coarse_params, "fluid_last");
  s->every = (int)vbc_param_number(params, pgs_coarse_params, "coarse_every");
  s->max_coarse = (size_t)vbc_param_number(params, pgs_coarse_params, "max_coarse");
  return s;
}

static void pgs_coarse_free(void *state) {
  pgs_coarse_state *s = state;
  vbc_coarse_free(&s->c);
  free(s);
}

/* The coarse correction needs the fluid rows' Jacobians (to assemble A) and a symmetric operator
 * (A_c must be SPD for its Cholesky factor and the line search). A solve without fluid rows (a
 * stage of contacts alone) has nothing to coarsen and runs as pgs. */
static int pgs_coarse_check(const void *state, const vbc_problem *pb, vbc_error *err) {
  (void)state;
  if (vbc_krylov_check(pb, "pgs_coarse", 0, "", err) != VBC_OK) return err->code;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->type->kind == VBC_BLOCK_FLUID && blk->type->jacobian == NULL)
      return vbc_error_set(err, VBC_EXIT_INPUT, "pgs_coarse: block %s (%s) gives no Jacobian "
                           "rows, so its operator cannot be assembled for the coarse space: use "
                           "pgs", blk->type->name, blk->label ? blk->label : "?");
  }
  return VBC_OK;
}

static int pgs_coarse_begin(void *state, vbc_problem *pb, vbc_error *err) {
  pgs_coarse_state *s = state;
  const double t0 = vbc_now();
  s->iteration = s->corrections = 0;
  s->step_sum = 0.0;
  const int rc = vbc_coarse_build(&s->c, pb, s->strength, s->max_coarse, err);
  s->setup_seconds = vbc_now() - t0;
  return rc;
}

/* Whether listed row i is held by a bound (left out of the coarse correction). */
static int held(const vbc_rows *r, size_t k) {
  const double lam = r->impulse[k], res = r->residual[k];
  return (lam <= r->lo[k] && res <= 0.0) || (lam >= r->hi[k] && res >= 0.0);
}

/* Step 1 of the iteration (see the top of the file). */
static void coarse_correction(pgs_coarse_state *s, vbc_problem *pb) {
  vbc_coarse_space *c = &s->c;
  for (size_t i = 0; i < c->n; ++i) {
    const vbc_rows *r = &pb->blocks[c->block[i]]->rows;
    c->w[i] = held(r, c->row[i]) ? 0.0 : r->residual[c->row[i]];
  }
  vbc_coarse_restrict(c, c->w, c->rc);
  vbc_coarse_solve(c, c->rc);
  vbc_coarse_prolong(c, c->rc, c->d);
  for (size_t i = 0; i < c->n; ++i)
    if (held(&pb->blocks[c->block[i]]->rows, c->row[i])) c->d[i] = 0.0;
  vbc_coarse_fine_product(c, c->d, c->q);
  double dr = 0.0, dq = 0.0;
  for (size_t i = 0; i < c->n; ++i) {
    dr += c->d[i] * pb->blocks[c->block[i]]->rows.residual[c->row[i]];
    dq += c->d[i] * c->q[i];
  }
  if (!(dr > 0.0 && dq > 0.0)) return;
  const double alpha = dr / dq;
  for (size_t b = 0; b < pb->nblocks; ++b)
    if (c->listed[b])
      memset(pb->blocks[b]->rows.scratch, 0, pb->blocks[b]->rows.n * sizeof(double));
  for (size_t i = 0; i < c->n; ++i) {
    vbc_rows *r = &pb->blocks[c->block[i]]->rows;
    const size_t k = c->row[i];
    const double next = vbc_clamp(r->impulse[k] + alpha * c->d[i], r->lo[k], r->hi[k]);
    r->scratch[k] = next - r->impulse[k];
    r->impulse[k] = next;
  }
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (c->listed[b] && blk->rows.n)
      blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.scratch);
  }
  s->corrections++;
  s->step_sum += alpha;
}

static int pgs_coarse_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)err;
  pgs_coarse_state *s = state;
  if (s->c.nc && s->iteration % s->every == 0) coarse_correction(s, pb);
  s->iteration++;
  /* with fluid_last: pass 0 the other blocks, pass 1 the fluid blocks; else one pass in order */
  for (int pass = s->fluid_last ? 0 : 1; pass < 2; ++pass)
    for (size_t b = 0; b < pb->nblocks; ++b) {
      vbc_block *blk = pb->blocks[b];
      const int fluid = blk->type->kind == VBC_BLOCK_FLUID;
      if (s->fluid_last && (pass == 1) != fluid) continue;
      if (blk->rows.n)
        blk->type->sweep(blk->state, pb->sys, &blk->rows, s->omega, VBC_SWEEP_FORWARD);
    }
  return VBC_OK;
}

static int pgs_coarse_stats(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const pgs_coarse_state *s = state;
  const double mean_step = s->corrections ? s->step_sum / (double)s->corrections : NAN;
  if (vbc_solve_stats_add(out, "coarse_rows", (double)s->c.nc, VBC_FIGURE_MEAN_MAX, err) ||
      vbc_solve_stats_add(out, "coarse_corrections", (double)s->corrections, VBC_FIGURE_MEAN_MAX,
                          err) ||
      vbc_solve_stats_add(out, "coarse_step", mean_step, VBC_FIGURE_MEAN_MAX, err) ||
      vbc_solve_stats_add(out, "coarse_setup_seconds", s->setup_seconds, VBC_FIGURE_MEAN_MAX,
                          err) ||
      vbc_solve_stats_add(out, "coarse_shift", s->c.shift, VBC_FIGURE_MAX, err))
    return err->code;
  return VBC_OK;
}

const vbc_solver_type vbc_solver_pgs_coarse = {
    .name = "pgs_coarse",
    .summary = "projected Gauss-Seidel with a two-level aggregation coarse correction of the "
               "fluid rows (Vanek, Mandel & Brezina 1996; truncated as in projected multigrid, "
               "Kornhuber 1994): pgs's LCP and stopping test in far fewer sweeps",
    .params = pgs_coarse_params,
    .alloc = pgs_coarse_alloc,
    .free = pgs_coarse_free,
    .check = pgs_coarse_check,
    .begin = pgs_coarse_begin,
    .iterate = pgs_coarse_iterate,
    .stats = pgs_coarse_stats,
};
