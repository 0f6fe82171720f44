/* solve.c — the solve loop of constraint.h (vbc_solve): a problem's rows prepared and finished,
 * its residual and mean constraint error, the reference residual and warm start, the stopping
 * tests kept apart from the iteration scheme (GSL's *_test_residual), and the trace of every
 * iteration. Miyamoto & Koshizuka's PGS (eq. 36-41), IISPH's relaxed Jacobi and the assembled
 * solvers all run inside it; it sees blocks and solvers only through their types. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "core/parallel.h"
#include "core/clock.h"
#include "core/reduce.h"
#include "core/solve_skip.h"

/* One chunk of block_energy's passes: the natural-residual energy of each row (or, for the
 * round-off scale, of |b| + |J v|), summed in row order (core/reduce.h). */
typedef struct energy_pass {
  const vbc_rows *r;
  int zero_impulse;
} energy_pass;

static double residual_energy(void *ctx, size_t begin, size_t end, size_t *count) {
  (void)count;
  const energy_pass *e = ctx;
  const vbc_rows *r = e->r;
  double s = 0.0;
  for (size_t k = begin; k < end; ++k) {
    double a = r->diag[k], v = 0.0;
    if (a > 0.0) {
      double lam = e->zero_impulse ? 0.0 : r->impulse[k];
      double d = a * (lam - vbc_clamp(lam + r->residual[k] / a, r->lo[k], r->hi[k]));
      v = d * d / a;
    }
    s += v;
  }
  return s;
}

static double scale_energy(void *ctx, size_t begin, size_t end, size_t *count) {
  (void)count;
  const vbc_rows *r = ((const energy_pass *)ctx)->r;
  double s = 0.0;
  for (size_t k = begin; k < end; ++k) {
    double a = r->diag[k], m = fabs(r->target[k]) + fabs(r->target[k] - r->residual[k]);
    s += a > 0.0 ? m * m / a : 0.0;
  }
  return s;
}

/* Natural-residual energy of one block's rows from its last residual pass; with zero_impulse the
 * impulses are taken as 0 (the velocities must then not contain them yet) and *scale2 gets the
 * energy of |b| + |J v|. The sums are vbc_sum's, so the stopping tests see the same bits on any
 * number of threads. */
static double block_energy(const vbc_block *b, int zero_impulse, double *scale2) {
  const vbc_rows *r = &b->rows;
  if (r->n == 0) return 0.0;
  energy_pass e = {r, zero_impulse};
  double sum = vbc_sum_pass(r->n, residual_energy, &e, NULL);
  if (scale2) *scale2 = vbc_sum_pass(r->n, scale_energy, &e, NULL);
  return sum;
}

int vbc_problem_prepare(vbc_problem *pb, vbc_error *err) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    blk->rows.residual_known = 0; /* only this prepare's own pass counts */
    if (blk->type->prepare(blk->state, pb->sys, &blk->rows, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

void vbc_problem_finish(vbc_problem *pb) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    blk->type->finish(blk->state, pb->sys, &blk->rows);
  }
}

/* One chunk of vbc_rows_error_sum: the rows' errors summed in row order; *count the rows with a
 * positive diagonal. */
typedef struct error_pass {
  const vbc_rows *r;
  double scale;
} error_pass;

static double row_errors(void *ctx, size_t begin, size_t end, size_t *count) {
  const error_pass *e = ctx;
  const vbc_rows *r = e->r;
  double s = 0.0;
  for (size_t k = begin; k < end; ++k) {
    double res = r->residual[k], lam = r->impulse[k];
    int free_to_move = (res > 0.0 && lam < r->hi[k]) || (res < 0.0 && lam > r->lo[k]);
    s += r->diag[k] > 0.0 && free_to_move ? e->scale * fabs(res) : 0.0;
    *count += r->diag[k] > 0.0;
  }
  return s;
}

double vbc_rows_error_sum(const vbc_rows *r, double scale, size_t *count) {
  error_pass e = {r, scale};
  return vbc_sum_pass(r->n, row_errors, &e, count);
}

/* Sum of one block's row errors (vbc_problem_mean_error) and how many rows count. */
static double block_error_sum(const vbc_block *b, const vbc_system *sys, size_t *count) {
  const vbc_rows *r = &b->rows;
  *count = 0;
  if (r->n == 0) return 0.0;
  if (b->type->error_sum) return b->type->error_sum(b->state, sys, r, count);
  return vbc_rows_error_sum(r, b->type->error_scale(b->state, sys), count);
}

double vbc_problem_mean_error(const vbc_problem *pb, double *per_block) {
  double sum = 0.0;
  size_t count = 0;
  int measured = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (per_block) per_block[b] = NAN;
    if (blk->type->error_scale == NULL) continue;
    measured = 1;
    size_t n = 0;
    double s = block_error_sum(blk, pb->sys, &n);
    if (per_block) per_block[b] = n ? s / (double)n : 0.0;
    sum += s;
    count += n;
  }
  return measured ? (count ? sum / (double)count : 0.0) : NAN;
}

double vbc_problem_max_error(const vbc_problem *pb) {
  double worst = NAN;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->type->error_scale == NULL) continue;
    const vbc_rows *r = &blk->rows;
    const double scale = r->n ? blk->type->error_scale(blk->state, pb->sys) : 0.0;
    double m = 0.0;
    for (size_t k = 0; k < r->n; ++k) {
      const double res = r->residual[k], lam = r->impulse[k];
      const int free_to_move = (res > 0.0 && lam < r->hi[k]) || (res < 0.0 && lam > r->lo[k]);
      if (r->diag[k] > 0.0 && free_to_move) m = fmax(m, scale * fabs(res));
    }
    worst = isnan(worst) ? m : fmax(worst, m);
  }
  return worst;
}

/* r_k = b_k - J_k v into every block's rows.residual. */
static void residual_passes(vbc_problem *pb) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->residual(blk->state, pb->sys, &blk->rows, blk->rows.residual);
  }
}

/* The energy norm of the residuals the last iteration's sweeps left in every block
 * (rows.swept_residual): E of core/solve_skip.h. */
static double swept_norm(const vbc_problem *pb) {
  double sum = 0.0;
  for (size_t b = 0; b < pb->nblocks; ++b) sum += block_energy(pb->blocks[b], 0, NULL);
  return sqrt(sum);
}

/* vbc_problem_residual's norm of the residuals the last passes left. */
static double residual_norm(const vbc_problem *pb, double *per_block) {
  double total = 0.0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    double r2 = block_energy(pb->blocks[b], 0, NULL);
    if (per_block) per_block[b] = sqrt(r2);
    total += r2;
  }
  return sqrt(total);
}

double vbc_problem_residual(vbc_problem *pb, double *per_block) {
  residual_passes(pb);
  return residual_norm(pb, per_block);
}

/* Residual with zero impulses (and its round-off scale), then apply the blocks' starting
 * impulses (warm start); *warmed says whether any block had some. A block whose prepare left
 * that residual (rows.residual_known) is not passed over again. */
static double reference_and_warm_start(vbc_problem *pb, double *per_block, double *scale,
                                       int *warmed) {
  double total = 0.0, scale2 = 0.0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n && !blk->rows.residual_known)
      blk->type->residual(blk->state, pb->sys, &blk->rows, blk->rows.residual);
    blk->rows.residual_known = 0;
  }
  for (size_t b = 0; b < pb->nblocks; ++b) {
    double s2 = 0.0;
    double r2 = block_energy(pb->blocks[b], 1, &s2);
    per_block[b] = sqrt(r2);
    total += r2;
    scale2 += s2;
  }
  *scale = sqrt(scale2);
  *warmed = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    int warm = 0;
    for (size_t k = 0; k < blk->rows.n && !warm; ++k) warm = blk->rows.impulse[k] != 0.0;
    if (warm) blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.impulse);
    *warmed |= warm;
  }
  return sqrt(total);
}

/* Room for one more iteration; a row of per_block and error holds up to VBC_MAX_BLOCKS. */
static int trace_grow(vbc_solve_trace *t, vbc_error *err) {
  const size_t row = VBC_MAX_BLOCKS * sizeof(double);
  void *const arrays[] = {&t->total,   &t->per_block,       &t->error,
                          &t->seconds, &t->reference_error, &t->reference_w_error};
  const size_t sizes[] = {sizeof(double), row, row, sizeof(double), sizeof(double),
                          sizeof(double)};
  return vbc_grow(&t->cap, t->n + 1, arrays, sizes, 6, err);
}

static int trace_push(vbc_solve_trace *t, double total, const double *per_block,
                      const double *error, size_t nb, double seconds, vbc_error *err) {
  if (t == NULL) return VBC_OK;
  if (trace_grow(t, err) != VBC_OK) return err->code;
  t->nblocks = nb;
  t->total[t->n] = total;
  memcpy(t->per_block + t->n * nb, per_block, nb * sizeof *per_block);
  memcpy(t->error + t->n * nb, error, nb * sizeof *error);
  t->seconds[t->n] = seconds;
  t->reference_error[t->n] = t->reference_w_error[t->n] = NAN;
  t->n++;
  return VBC_OK;
}

/* The exact reference's measure of the iterate just pushed; returns the seconds it took, which
 * the trace's clock leaves out. */
static double trace_reference(vbc_solve_trace *t, const vbc_problem *pb) {
  if (t == NULL || t->reference.start == NULL || t->n == 0) return 0.0;
  const double t0 = vbc_now();
  t->reference.measure(t->reference.ctx, pb, &t->reference_error[t->n - 1],
                       &t->reference_w_error[t->n - 1]);
  return vbc_now() - t0;
}

/* What the stopping test looks at after one residual pass: the residual of the rows it judges
 * by the residual test (all rows, or with the error test those of blocks without an error
 * measure) and their reference, and the mean error of the others. */
typedef struct stop_view {
  double residual, ref, mean_error;
} stop_view;

static int uses_error_test(const vbc_solve_control *c, const vbc_problem *pb) {
  if (c->error_tolerance <= 0.0) return 0;
  for (size_t b = 0; b < pb->nblocks; ++b)
    if (pb->blocks[b]->type->error_scale) return 1;
  return 0;
}

/* Energy norm over the blocks the residual test judges, from the blocks' norms in per_block. */
static double judged_norm(const vbc_problem *pb, int error_test, const double *per_block) {
  double sum = 0.0;
  for (size_t b = 0; b < pb->nblocks; ++b)
    if (!error_test || pb->blocks[b]->type->error_scale == NULL) sum += per_block[b] * per_block[b];
  return sqrt(sum);
}

/* Whether the residual test judges any block: if not, the loop needs the residual's norm only at
 * the end (or for the trace), and skips its pass over the rows in every other iteration. */
static int judges_residual(const vbc_problem *pb, int error_test) {
  for (size_t b = 0; b < pb->nblocks; ++b)
    if (!error_test || pb->blocks[b]->type->error_scale == NULL) return 1;
  return 0;
}

/* Which stopping test holds, if any. */
static int converged(const vbc_solve_control *c, const vbc_solve_result *res, int error_test,
                     const stop_view *v, vbc_stop_reason *why) {
  if (error_test && !(v->mean_error <= c->error_tolerance)) return 0;
  if (v->residual <= c->tolerance * v->ref)
    *why = error_test ? VBC_STOP_ERROR : VBC_STOP_TOLERANCE;
  else if (v->residual <= VBC_ROUND_OFF * res->residual_scale) *why = VBC_STOP_ROUND_OFF;
  else return 0;
  return 1;
}

/* After a residual pass: the trace row and what the stopping test looks at. The mean error is an
 * extra pass over the rows, made only when the error test (unless the solver estimates it:
 * `estimated`) or the trace reads it (vbc_solve computes the final one otherwise). */
static int observe(vbc_problem *pb, int error_test, int estimated, double ref_judged,
                   const double *per_block, double total, vbc_solve_trace *trace, double seconds,
                   stop_view *v, double *excluded, vbc_error *err) {
  double error[VBC_MAX_BLOCKS];
  v->mean_error = (error_test && !estimated) || trace ? vbc_problem_mean_error(pb, error) : NAN;
  v->residual = judged_norm(pb, error_test, per_block);
  v->ref = ref_judged;
  if (trace_push(trace, total, per_block, error, pb->nblocks, seconds, err) != VBC_OK)
    return err->code;
  const double dt = trace_reference(trace, pb);
  *excluded += dt;
  if (trace) trace->reference_seconds += dt;
  return VBC_OK;
}

/* core/solve_skip.h: the ratio R / E assumed before the first pass (low: an early pass), how
 * close to the bound the prediction may come before a pass, and the most iterations in a row
 * without one. */
#define SKIP_RHO_START 0.3
#define SKIP_SLACK 0.05
#define SKIP_RUN 32

/* The loop proper; vbc_solve below times it. */
static int solve(vbc_solver *s, vbc_problem *pb, vbc_solve_result *res, vbc_solve_trace *trace,
                 vbc_skip *kept, vbc_error *err) {
  double per_block[VBC_MAX_BLOCKS];
  if (pb->nblocks > VBC_MAX_BLOCKS)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: %zu blocks in one solve, more than "
                         "VBC_MAX_BLOCKS (%d)", s->type->name, pb->nblocks, VBC_MAX_BLOCKS);
  if (trace) trace->n = 0, trace->reference_seconds = 0.0;
  const vbc_solve_control *c = &s->control;
  const int error_test = uses_error_test(c, pb);
  double scale = 0.0;
  int warmed;
  double ref = reference_and_warm_start(pb, per_block, &scale, &warmed);
  const double ref_judged = judged_norm(pb, error_test, per_block);
  if (trace) {
    trace->ref_total = ref;
    memcpy(trace->ref_per_block, per_block, pb->nblocks * sizeof *per_block);
  }
  /* the observer sees the problem as the first iteration will: v holds the starting impulses */
  if (pb->sys->solve_hook && pb->sys->solve_hook(pb->sys->solve_hook_ctx, pb, s, err) != VBC_OK)
    return err->code;
  const vbc_trace_reference *xr = trace && trace->reference.start ? &trace->reference : NULL;
  if (xr) {
    const double ts = vbc_now();
    if (xr->start(xr->ctx, pb, s, err) != VBC_OK) return err->code;
    trace->reference_seconds += vbc_now() - ts;
  }
  if (s->type->begin && s->type->begin(s->state, pb, err) != VBC_OK) return err->code;
  double excluded = 0.0; /* seconds of the reference's measures, off the trace's clock */
  /* Without starting impulses, an observer, a reference or a solver's begin that may move v,
   * v is what the reference's residual pass saw and every impulse is zero: the reference's
   * residuals and norms (per_block) are r0's, and a second pass would compute the same numbers
   * (one pass of a few a step saved, when the fluid starts cold). */
  const int same_v = !warmed && !pb->sys->solve_hook && !xr &&
                     (!s->type->begin || s->type->begin_keeps_velocities);
  double r0 = same_v ? ref : vbc_problem_residual(pb, per_block);
  stop_view v;
  res->residual_ref = ref;
  res->residual_scale = scale;
  res->residual = r0;
  res->iterations = 0;
  res->reason = error_test ? VBC_STOP_ERROR : VBC_STOP_TOLERANCE;
  if (observe(pb, error_test, 0, ref_judged, per_block, r0, trace, 0.0, &v, &excluded, err) !=
      VBC_OK)
    return err->code;
  res->mean_error = v.mean_error;
  if (!isfinite(r0) || !isfinite(ref))
    return vbc_error_set(err, VBC_EXIT_FAILED, "%s: non-finite residual before the first iteration",
                         s->type->name);
  if (ref == 0.0 || (c->min_iterations == 0 && converged(c, res, error_test, &v, &res->reason)))
    return VBC_OK;
  const double t0 = vbc_now();
  excluded = 0.0; /* iteration 0's measure came before the clock started */
  const int norm_each = trace || judges_residual(pb, error_test);
  /* A sweep scheme's iterations may go without their residual pass (core/solve_skip.h). Not
   * with a trace (every iterate's residual is recorded) or an error test. */
  int may_skip = s->type->residual_free && !trace && !error_test && norm_each;
  const double bound = fmax(c->tolerance * ref_judged, VBC_ROUND_OFF * scale);
  kept->rho = SKIP_RHO_START;
  kept->replay_to = 0;
  kept->last = -1; /* nothing kept yet: iteration 1, which says whether the blocks qualify,
                      makes its pass */
  for (int it = 1; it <= c->max_iterations; ++it) {
    for (size_t b = 0; b < pb->nblocks; ++b) pb->blocks[b]->rows.swept_residual = 0;
    const int step = s->type->iterate(s->state, pb, err);
    if (step == VBC_ITERATE_BREAKDOWN) {
      res->reason = VBC_STOP_BREAKDOWN;
      res->residual = vbc_problem_residual(pb, per_block);
      return VBC_OK;
    }
    if (step != VBC_OK) return err->code;
    if (it == 1) may_skip = may_skip && vbc_skip_all_swept(pb); /* the same every iteration */
    const int skipping = may_skip && it > kept->replay_to;
    const double swept = skipping ? swept_norm(pb) : NAN;
    if (skipping && kept->last >= 0 && it < c->max_iterations && it >= c->min_iterations &&
        kept->rho * swept > (1.0 + SKIP_SLACK) * bound && it - kept->last < SKIP_RUN) {
      res->iterations = it; /* NaN fails the test above and goes on to the pass */
      res->residual = NAN;
      continue;
    }
    residual_passes(pb);
    res->iterations = it;
    res->residual = norm_each ? residual_norm(pb, per_block) : NAN;
    const double sec = trace ? vbc_now() - t0 - excluded : 0.0;
    const double estimate = s->type->error_estimate ? s->type->error_estimate(s->state) : NAN;
    const int estimated = error_test && !isnan(estimate); /* the true error: at the end only */
    if (observe(pb, error_test, estimated, ref_judged, per_block, res->residual, trace, sec, &v,
                &excluded, err) != VBC_OK)
      return err->code;
    res->mean_error = v.mean_error;
    if (estimated) v.mean_error = estimate;
    const int stop = it >= c->min_iterations && converged(c, res, error_test, &v, &res->reason);
    const int last = stop || it == c->max_iterations;
    if (estimated && last && isnan(res->mean_error))
      res->mean_error = vbc_problem_mean_error(pb, NULL);
    if (!norm_each && last) res->residual = residual_norm(pb, per_block);
    /* iterations without a pass since the kept state: back to it, and again with every pass */
    if (skipping && kept->last >= 0 && it - kept->last > 1 &&
        (stop || !isfinite(res->residual))) {
      vbc_skip_restore(kept, pb);
      if (s->type->restore) s->type->restore(s->state);
      kept->replay_to = it;
      it = kept->last;
      continue;
    }
    if ((norm_each || last) && !isfinite(res->residual))
      return vbc_error_set(err, VBC_EXIT_FAILED, "%s: residual became non-finite at iteration %d",
                           s->type->name, it);
    if (stop) return VBC_OK;
    if (skipping) {
      if (swept > 0.0) kept->rho = res->residual / swept;
      if (vbc_skip_keep(kept, pb, it, err) != VBC_OK) return err->code;
      if (s->type->keep) s->type->keep(s->state);
    }
  }
  res->reason = VBC_STOP_MAX_ITERATIONS;
  return VBC_OK;
}

int vbc_solve(vbc_solver *s, vbc_problem *pb, vbc_solve_result *res, vbc_solve_trace *trace,
              vbc_error *err) {
  const double t0 = vbc_now();
  res->stats.n = 0;
  vbc_skip kept = {0};
  int rc = solve(s, pb, res, trace, &kept, err);
  vbc_skip_free(&kept);
  if (rc == VBC_OK && s->type->stats) rc = s->type->stats(s->state, &res->stats, err);
  if (rc == VBC_OK && trace == NULL && !uses_error_test(&s->control, pb))
    res->mean_error = vbc_problem_mean_error(pb, NULL); /* from the last residual pass */
  res->seconds = vbc_now() - t0 - (trace ? trace->reference_seconds : 0.0);
  return rc;
}

