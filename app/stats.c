/* stats.c — see stats.h. */
#include <math.h>
#include <string.h>

#include "app/stats.h"

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

static int add_figures(vbc_stage_stats *g, const vbc_solve_stats *f, vbc_error *err) {
  for (size_t k = 0; k < f->n; ++k) {
    size_t i = 0;
    while (i < g->nfigures && strcmp(g->figure[i].name, f->name[k]) != 0) ++i;
    if (i == g->nfigures) {
      if (i == sizeof g->figure / sizeof *g->figure)
        return vbc_error_set(err, VBC_EXIT_SYSTEM, "stage %s: more than %zu figures", g->label,
                             i);
      g->figure[g->nfigures++] = (vbc_figure_stats){f->name[k], f->kind[k], 0, 0.0, f->value[k]};
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
  if (add_figures(g, &res->stats, err) != VBC_OK) return err->code;
  return add_figures(g, &r->figures, err);
}

int vbc_run_stats_add(vbc_run_stats *st, const vbc_step_report *rep, vbc_error *err) {
  for (size_t s = 0; s < rep->nstages && s < st->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
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
