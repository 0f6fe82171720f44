/* summary.c — see summary.h. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "io/json_file.h"
#include "sim/monitors.h"
#include "sim/profile.h"
#include "core/json_util.h"
#include "sim/summary.h"

static cJSON *particle_counts(const vbc_sim *sim) {
  cJSON *c = cJSON_CreateObject();
  cJSON_AddNumberToObject(c, "fluid", (double)vbc_particles_count(&sim->particles, VBC_FLUID));
  cJSON_AddNumberToObject(c, "rigid", (double)vbc_particles_count(&sim->particles, VBC_RIGID));
  cJSON_AddNumberToObject(c, "wall", (double)vbc_particles_count(&sim->particles, VBC_WALL));
  cJSON_AddNumberToObject(c, "total", (double)sim->particles.n);
  return c;
}

/* The figures every stage reports: solves, iterations, stop reasons, final residuals, the
 * density error where its blocks measure one. */
static void add_solve_figures(cJSON *o, const vbc_stage_stats *g) {
  const double n = (double)g->solves;
  cJSON_AddNumberToObject(o, "solves", n);
  cJSON_AddNumberToObject(o, "iterations_total", (double)g->iterations_total);
  cJSON_AddNumberToObject(o, "iterations_mean", n > 0 ? (double)g->iterations_total / n : 0.0);
  cJSON_AddNumberToObject(o, "iterations_max", g->iterations_max);
  cJSON *stops = cJSON_AddObjectToObject(o, "stop_reasons");
  for (int r = 0; r < VBC_STOP_REASONS; ++r)
    cJSON_AddNumberToObject(stops, vbc_stop_reason_name((vbc_stop_reason)r), (double)g->stops[r]);
  cJSON_AddNumberToObject(o, "final_relative_residual_mean", n > 0 ? g->relres_sum / n : 0.0);
  cJSON_AddNumberToObject(o, "final_relative_residual_max", g->relres_max);
  /* the density error the stopping test judged (blocks with an error measure; absent without) */
  if (g->error_solves) {
    cJSON_AddNumberToObject(o, "final_mean_error_mean", g->error_sum / (double)g->error_solves);
    cJSON_AddNumberToObject(o, "final_mean_error_max", g->error_max);
    /* the largest row error of each solve at its stop: what the mean leaves out */
    cJSON_AddNumberToObject(o, "final_max_error_mean", g->max_error_sum / (double)g->error_solves);
    cJSON_AddNumberToObject(o, "final_max_error_max", g->max_error_max);
  }
}

/* mean_NAME and/or max_NAME of a figure; `first_only` keeps the first of the two (metrics). */
static void add_figure(cJSON *o, const vbc_figure_stats *f, int first_only) {
  char key[96];
  if (f->kind & VBC_FIGURE_MEAN) {
    snprintf(key, sizeof key, "mean_%s", f->name);
    if (!cJSON_HasObjectItem(o, key)) cJSON_AddNumberToObject(o, key, f->sum / (double)f->count);
    if (first_only) return;
  }
  snprintf(key, sizeof key, "max_%s", f->name);
  if ((f->kind & VBC_FIGURE_MAX) && !cJSON_HasObjectItem(o, key))
    cJSON_AddNumberToObject(o, key, f->max);
}

/* How stage k's solves stop (core/solve.c): the test that judges each block and its tolerance,
 * so that two solves are compared at the same stopping test. With error_tolerance > 0 a block
 * with an error measure is judged by its mean constraint error (its error_measure, where the
 * block has the key), every other block by the relative residual. */
static cJSON *stopping_json(const vbc_coupling *c, size_t k) {
  const vbc_solve_control *ctl = &c->solver[k].control;
  const vbc_problem *pb = &c->problem[k];
  cJSON *o = cJSON_CreateObject();
  cJSON *blocks = cJSON_AddObjectToObject(o, "blocks");
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    const int by_error = ctl->error_tolerance > 0.0 && blk->type->error_scale != NULL;
    const cJSON *group = cJSON_GetObjectItemCaseSensitive(
        c->params, c->type->slots[(size_t)(blk - c->block)].group);
    const cJSON *measure = cJSON_GetObjectItemCaseSensitive(group, "error_measure");
    char test[96];
    snprintf(test, sizeof test, "%s", !by_error ? "relative_residual"
                                      : cJSON_IsString(measure) ? measure->valuestring
                                                                : "mean_error");
    cJSON_AddStringToObject(blocks, blk->label ? blk->label : blk->type->name, test);
  }
  cJSON_AddNumberToObject(o, "tolerance", ctl->tolerance);
  cJSON_AddNumberToObject(o, "error_tolerance", ctl->error_tolerance);
  cJSON_AddNumberToObject(o, "min_iterations", ctl->min_iterations);
  cJSON_AddNumberToObject(o, "max_iterations", ctl->max_iterations);
  return o;
}

static cJSON *stage_json(const vbc_stage_stats *g, const vbc_coupling *c, size_t k) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "label", g->label);
  cJSON_AddStringToObject(o, "solver", g->solver);
  cJSON_AddItemToObject(o, "stopping", stopping_json(c, k));
  add_solve_figures(o, g);
  cJSON_AddNumberToObject(o, "rows_mean", g->solves ? (double)g->rows_total / (double)g->solves
                                                    : 0.0);
  cJSON_AddNumberToObject(o, "rows_max", (double)g->rows_max);
  for (size_t f = 0; f < g->nfigures; ++f) add_figure(o, &g->figure[f], 0);
  return o;
}

/* The primary stage's figures at the top level (what series.csv, sweeps and figures read), every
 * stage's in `stages`. */
static cJSON *solver_stats(const vbc_run_stats *st, const vbc_coupling *c) {
  cJSON *s = cJSON_CreateObject();
  const vbc_stage_stats *p = &st->stage[st->primary];
  cJSON_AddStringToObject(s, "constraint", p->constraint);
  cJSON_AddStringToObject(s, "solver", p->solver);
  add_solve_figures(s, p);
  cJSON *stages = cJSON_AddArrayToObject(s, "stages");
  for (size_t k = 0; k < st->nstages; ++k)
    cJSON_AddItemToArray(stages, stage_json(&st->stage[k], c, k));
  return s;
}

/* The figures of the stages that say so (the contact LCP of lemke_contacts: Kurose's
 * measurements, which sweeps tabulate) join the metrics, unless the benchmark named them. */
static void stage_metrics(const vbc_run_stats *st, cJSON *m) {
  for (size_t k = 0; k < st->nstages; ++k) {
    const vbc_stage_stats *g = &st->stage[k];
    if (!g->figures_in_metrics || g->solves == 0) continue;
    for (size_t f = 0; f < g->nfigures; ++f) add_figure(m, &g->figure[f], 1);
  }
}

int vbc_summary_write(const char *dir, const vbc_sim *sim, const vbc_run_stats *st,
                      const cJSON *metrics, const char *from_state, const vbc_error *failure,
                      vbc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "vbc_version", VBC_VERSION);
  cJSON_AddStringToObject(root, "status", failure == NULL ? "ok"
                                          : failure->code > VBC_EXIT_INTERRUPTED ? "interrupted"
                                                                                : "failed");
  if (failure) cJSON_AddStringToObject(root, "error", failure->message);
  cJSON_AddStringToObject(root, "scene_file", sim->scene->file);
  if (from_state) cJSON_AddStringToObject(root, "from_state", from_state);
  cJSON_AddItemToObject(root, "scene", cJSON_Duplicate(sim->scene->resolved, 1));
  if (sim->scene->method_preset[0])
    cJSON_AddStringToObject(root, "method_preset", sim->scene->method_preset);
  cJSON_AddItemToObject(root, "particles", particle_counts(sim));
  cJSON *k = cJSON_AddObjectToObject(root, "mps_lattice");
  cJSON_AddNumberToObject(k, "n0", sim->mps.n0);
  cJSON_AddNumberToObject(k, "C", sim->mps.C);
  cJSON_AddNumberToObject(k, "lambda", sim->mps.lambda);
  cJSON_AddNumberToObject(k, "neighbours", sim->mps.neighbours);
  cJSON_AddNumberToObject(root, "steps", (double)sim->step);
  cJSON_AddNumberToObject(root, "time", sim->time);
  cJSON_AddNumberToObject(root, "threads", st->threads);
  cJSON_AddNumberToObject(root, "wall_seconds", st->wall_seconds);
  cJSON_AddNumberToObject(root, "cpu_seconds", st->cpu_seconds);
  if (st->cpu_limit > 0.0) {
    cJSON *limit = cJSON_AddObjectToObject(root, "cpu_limit");
    cJSON_AddNumberToObject(limit, "seconds", st->cpu_limit);
    cJSON_AddBoolToObject(limit, "reached", st->cpu_limit_reached);
  }
  /* fluid particles: the unknowns every method has; walls differ between boundary models.
   * Steps this process ran: a --from-state run starts at a later step. */
  cJSON_AddNumberToObject(root, "particle_steps_per_second",
                          st->wall_seconds > 0.0
                              ? (double)sim->nfluid * (double)st->steps_run / st->wall_seconds
                              : 0.0);
  /* the largest resident set the process had so far (Linux: ru_maxrss in KiB), for the scale
   * of a run against its particle count */
  struct rusage usage;
  cJSON_AddNumberToObject(root, "peak_memory_mib",
                          getrusage(RUSAGE_SELF, &usage) == 0 ? (double)usage.ru_maxrss / 1024.0
                                                              : 0.0);
  cJSON_AddItemToObject(root, "solver", solver_stats(st, &sim->coupling));
  cJSON_AddItemToObject(root, "warnings", vbc_monitors_json(st));
  cJSON_AddItemToObject(root, "timing", vbc_profile_json(st, sim));
  cJSON_AddItemToObject(root, "time_steps", vbc_time_steps_json(&sim->time_steps));
  cJSON *m = metrics ? cJSON_Duplicate(metrics, 1) : cJSON_CreateObject();
  stage_metrics(st, m);
  cJSON_AddItemToObject(root, "metrics", m);
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  return vbc_json_write_file(path, root, err);
}
