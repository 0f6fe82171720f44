/* monitors.c — see monitors.h. Two monitors, both reading what the step already computed, so
 * that they cost nothing a step does not already pay:
 *  - iteration_zero: a solve stopped by its mean-error test before its first iteration while its
 *    largest row error was more than ten times the tolerance. A mean over many rows at rest can
 *    pass while a few rows are far off: a wedge entering a large tank under PGS with the
 *    staggered scene's error_tolerance 0.01 kept its 45 000 rows' mean below it, stopped at
 *    iteration 0 in 66 of 67 steps and fell through the water at g. The row error is the one the
 *    test averages (the residual times the block's error_scale), from the residual pass the test
 *    read; it is computed only in such a solve.
 *  - fluid_in_body: a fluid particle more than l/2 inside a rigid body, by the contact block's
 *    largest fluid-body depth l - r (vbc_block_type.figures); couplers without fluid-body contact
 *    rows give no such figure and are not watched by it. */
#include <math.h>
#include <stdio.h>

#include "sim/monitors.h"

static const struct {
  const char *code, *what;
} monitors[VBC_WARNINGS] = {
    [VBC_WARNING_ITERATION_ZERO] = {"iteration_zero",
                                    "a solve stopped by its mean-error test at iteration 0 while "
                                    "its largest row error was above 10 times the tolerance "
                                    "(worst: that error over the tolerance)"},
    [VBC_WARNING_FLUID_IN_BODY] = {"fluid_in_body",
                                   "a fluid particle more than l/2 inside a rigid body (worst: "
                                   "the deepest contact depth over l)"},
};

/* The largest row error of a stage's blocks that have an error measure. */
static double largest_row_error(const vbc_problem *pb) {
  double worst = 0.0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->type->error_scale == NULL) continue;
    const double scale = blk->type->error_scale(blk->state, pb->sys);
    for (size_t k = 0; k < blk->rows.n; ++k)
      worst = fmax(worst, fabs(blk->rows.residual[k]) * scale);
  }
  return worst;
}

/* Count one occurrence; 1 when it is the first. */
static int flag(vbc_run_stats *st, int m, const vbc_sim *sim, double value) {
  vbc_warning *w = &st->warning[m];
  const int first = w->count == 0;
  if (first) w->first_step = sim->step, w->first_time = sim->time;
  w->count++;
  w->worst = fmax(w->worst, value);
  return first;
}

static int report(const vbc_sim *sim, int m, double value, int strict, vbc_error *err) {
  if (strict)
    return vbc_error_set(err, VBC_EXIT_FAILED, "--strict: warning %s (%g): %s", monitors[m].code,
                         value, monitors[m].what);
  fprintf(stderr, "vbc: warning: step %ld (t = %.6g s): %s (%g): %s; summary.json counts every "
          "step it fires\n", sim->step, sim->time, monitors[m].code, value, monitors[m].what);
  return VBC_OK;
}

int vbc_monitors_step(vbc_run_stats *st, const vbc_sim *sim, const vbc_step_report *rep,
                      int strict, vbc_error *err) {
  const vbc_coupling *c = &sim->coupling;
  for (size_t s = 0; s < rep->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
    const double tol = c->solver[s].control.error_tolerance;
    if (!r->solved || r->result.iterations != 0 || r->result.reason != VBC_STOP_ERROR ||
        !(tol > 0.0))
      continue;
    const double ratio = largest_row_error(&c->problem[s]) / tol;
    if (ratio > 10.0 && flag(st, VBC_WARNING_ITERATION_ZERO, sim, ratio) &&
        report(sim, VBC_WARNING_ITERATION_ZERO, ratio, strict, err) != VBC_OK)
      return err->code;
  }
  const double depth = vbc_coupling_block_figure(c, "depth_fluid", 0.0) / sim->sys.spacing;
  if (depth > 0.5 && flag(st, VBC_WARNING_FLUID_IN_BODY, sim, depth) &&
      report(sim, VBC_WARNING_FLUID_IN_BODY, depth, strict, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

cJSON *vbc_monitors_json(const vbc_run_stats *st) {
  cJSON *list = cJSON_CreateArray();
  for (int m = 0; list && m < VBC_WARNINGS; ++m) {
    const vbc_warning *w = &st->warning[m];
    if (w->count == 0) continue;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(list, o);
    cJSON_AddStringToObject(o, "code", monitors[m].code);
    cJSON_AddStringToObject(o, "what", monitors[m].what);
    cJSON_AddNumberToObject(o, "first_step", (double)w->first_step);
    cJSON_AddNumberToObject(o, "first_time", w->first_time);
    cJSON_AddNumberToObject(o, "count", (double)w->count);
    cJSON_AddNumberToObject(o, "worst", w->worst);
  }
  return list;
}
