/* stats.c — see stats.h. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/blob.h"

#include "sim/stats.h"

void vbc_run_stats_init(vbc_run_stats *st, const vbc_coupling *c) {
  memset(st, 0, sizeof *st);
  st->nstages = c->type->nstages;
  st->primary = c->type->primary;
  for (size_t s = 0; s < st->nstages; ++s) {
    vbc_stage_stats *g = &st->stage[s];
    g->label = c->type->stages[s].label;
    g->solver = c->solver[s].type->name;
    g->constraint = c->problem[s].nblocks ? c->problem[s].blocks[0]->type->name : "";
    g->figures_in_metrics = c->type->stages[s].figures_in_metrics;
  }
}

void vbc_run_stats_free(vbc_run_stats *st) {
  free(st->jitter);
  st->jitter = NULL;
  st->njitter = 0;
}

static int add_figures(vbc_stage_stats *g, const vbc_solve_stats *f, vbc_error *err) {
  for (size_t k = 0; k < f->n; ++k) {
    size_t i = 0;
    while (i < g->nfigures && strcmp(g->figure[i].name, f->name[k]) != 0) ++i;
    if (i == g->nfigures) {
      if (i == sizeof g->figure / sizeof *g->figure)
        return vbc_error_set(err, VBC_EXIT_SYSTEM, "stage %s: more than %zu figures", g->label,
                             i);
      vbc_figure_stats *x = &g->figure[g->nfigures++];
      *x = (vbc_figure_stats){.kind = f->kind[k], .max = f->value[k]};
      snprintf(x->name, sizeof x->name, "%s", f->name[k]);
    }
    vbc_figure_stats *x = &g->figure[i];
    x->count++;
    x->sum += f->value[k];
    if (f->value[k] > x->max) x->max = f->value[k];
  }
  return VBC_OK;
}

static int stage_add(vbc_stage_stats *g, const vbc_stage_report *r, vbc_error *err) {
  const vbc_solve_result *res = &r->result;
  g->solves++;
  g->iterations_total += res->iterations;
  if (res->iterations > g->iterations_max) g->iterations_max = res->iterations;
  g->stops[res->reason]++;
  double rel = res->residual_ref > 0.0 ? res->residual / res->residual_ref : 0.0;
  g->relres_sum += rel;
  if (rel > g->relres_max) g->relres_max = rel;
  g->last_relres = rel;
  if (!isnan(res->mean_error)) {
    g->error_solves++;
    g->error_sum += res->mean_error;
    if (res->mean_error > g->error_max) g->error_max = res->mean_error;
  }
  g->rows_total += r->rows;
  if (r->rows > g->rows_max) g->rows_max = r->rows;
  g->solve_seconds += res->seconds;
  g->row_iterations += (double)r->rows * (double)res->iterations;
  if (add_figures(g, &res->stats, err) != VBC_OK) return err->code;
  return add_figures(g, &r->figures, err);
}

int vbc_run_stats_add(vbc_run_stats *st, const vbc_step_report *rep, vbc_error *err) {
  st->neighbours_seconds += rep->neighbours_seconds;
  st->explicit_seconds += rep->explicit_seconds;
  st->advect_seconds += rep->advect_seconds;
  for (size_t s = 0; s < rep->nstages && s < st->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
    st->stage[s].prepare_seconds += r->prepare_seconds;
    st->stage[s].hook_seconds += r->hook_seconds;
    if (!r->solved) continue;
    if (stage_add(&st->stage[s], r, err) != VBC_OK) return err->code;
    if (s != st->primary) continue;
    st->window_steps++;
    st->window_iterations += r->result.iterations;
    if (r->result.iterations > st->window_max) st->window_max = r->result.iterations;
  }
  return VBC_OK;
}

double vbc_run_stats_mean_iterations(const vbc_run_stats *st) {
  const vbc_stage_stats *g = &st->stage[st->primary];
  return g->solves ? (double)g->iterations_total / (double)g->solves : 0.0;
}

/* The counting part of a stage (everything after its three names and its flag). */
#define COUNTS_OFFSET offsetof(vbc_stage_stats, solves)

int vbc_run_stats_save(const vbc_run_stats *st, vbc_blob *out, vbc_error *err) {
  const long window[] = {st->window_steps, st->window_iterations, st->window_max};
  if (vbc_blob_put(out, &st->nstages, sizeof st->nstages, err) != VBC_OK ||
      vbc_blob_put(out, window, sizeof window, err) != VBC_OK ||
      vbc_blob_put(out, st->warning, sizeof st->warning, err) != VBC_OK ||
      vbc_blob_put(out, &st->energy_low, sizeof st->energy_low, err) != VBC_OK ||
      vbc_blob_put(out, &st->energy_scale, sizeof st->energy_scale, err) != VBC_OK ||
      vbc_blob_put(out, &st->tension_scale, sizeof st->tension_scale, err) != VBC_OK ||
      vbc_blob_put(out, &st->njitter, sizeof st->njitter, err) != VBC_OK ||
      (st->njitter &&
       vbc_blob_put(out, st->jitter, st->njitter * sizeof *st->jitter, err) != VBC_OK))
    return err->code;
  for (size_t s = 0; s < st->nstages; ++s) {
    const unsigned char *g = (const unsigned char *)&st->stage[s];
    if (vbc_blob_put(out, g + COUNTS_OFFSET, sizeof st->stage[s] - COUNTS_OFFSET, err) != VBC_OK)
      return err->code;
  }
  return VBC_OK;
}

/* The body_jitter records: as many as the checkpoint's scene has bodies. */
static int load_jitter(vbc_run_stats *st, vbc_reader *in, vbc_error *err) {
  size_t n = 0;
  if (vbc_reader_get(in, &n, sizeof n, err) != VBC_OK) return err->code;
  vbc_run_stats_free(st);
  if (n == 0) return VBC_OK;
  if (n > in->left / sizeof *st->jitter)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %zu body records (corrupt?)", in->what, n);
  if ((st->jitter = vbc_calloc(n, sizeof *st->jitter, err)) == NULL) return err->code;
  st->njitter = n;
  return vbc_reader_get(in, st->jitter, n * sizeof *st->jitter, err);
}

int vbc_run_stats_load(vbc_run_stats *st, vbc_reader *in, vbc_error *err) {
  size_t nstages = 0;
  long window[3];
  if (vbc_reader_get(in, &nstages, sizeof nstages, err) != VBC_OK ||
      vbc_reader_get(in, window, sizeof window, err) != VBC_OK ||
      vbc_reader_get(in, st->warning, sizeof st->warning, err) != VBC_OK ||
      vbc_reader_get(in, &st->energy_low, sizeof st->energy_low, err) != VBC_OK ||
      vbc_reader_get(in, &st->energy_scale, sizeof st->energy_scale, err) != VBC_OK ||
      vbc_reader_get(in, &st->tension_scale, sizeof st->tension_scale, err) != VBC_OK ||
      load_jitter(st, in, err) != VBC_OK)
    return err->code;
  if (nstages != st->nstages)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %zu stages, the scene's coupler has %zu",
                         in->what, nstages, st->nstages);
  st->window_steps = window[0], st->window_iterations = window[1], st->window_max = (int)window[2];
  for (size_t s = 0; s < st->nstages; ++s) {
    unsigned char *g = (unsigned char *)&st->stage[s];
    if (vbc_reader_get(in, g + COUNTS_OFFSET, sizeof st->stage[s] - COUNTS_OFFSET, err) != VBC_OK)
      return err->code;
    vbc_stage_stats *x = &st->stage[s];
    if (x->nfigures > sizeof x->figure / sizeof *x->figure)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: stage %zu has %zu figures (corrupt?)",
                           in->what, s, x->nfigures);
    for (size_t f = 0; f < x->nfigures; ++f) x->figure[f].name[sizeof x->figure[f].name - 1] = 0;
  }
  return VBC_OK;
}
