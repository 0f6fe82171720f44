/* profile.c — see profile.h. Every figure is a sum of wall-clock intervals taken around the parts
 * of a step (core/coupler.c, sim/sim.c, sim/run.c): a few clock reads per stage and step, far
 * below 1 % of any run. */
#include <math.h>

#include "sim/profile.h"

typedef struct phase {
  const char *name;
  double seconds;
} phase;

enum { NPHASES = 8 };

/* The simulation's and the time loop's parts of the steps. */
static void phases(const vbc_run_stats *st, const vbc_sim *sim, phase p[NPHASES]) {
  const phase all[NPHASES] = {
      {"neighbour_search", st->neighbours_seconds},
      {"explicit_terms", st->explicit_seconds},
      {"advection", st->advect_seconds - sim->body_seconds},
      {"body_update", sim->body_seconds},
      {"state_check_and_statistics", st->check_seconds},
      {"benchmark_observe", st->observe_seconds},
      {"output", st->output_seconds},
      {"checkpoints", st->checkpoint_seconds},
  };
  for (int k = 0; k < NPHASES; ++k) p[k] = all[k];
}

static double accounted(const vbc_run_stats *st, const phase p[NPHASES]) {
  double t = 0.0;
  for (int k = 0; k < NPHASES; ++k) t += p[k].seconds;
  for (size_t s = 0; s < st->nstages; ++s)
    t += st->stage[s].prepare_seconds + st->stage[s].solve_seconds + st->stage[s].hook_seconds;
  return t;
}

static double us_per_row_iteration(const vbc_stage_stats *g) {
  return g->row_iterations > 0.0 ? 1e6 * g->solve_seconds / g->row_iterations : 0.0;
}

cJSON *vbc_profile_json(const vbc_run_stats *st, const vbc_sim *sim) {
  phase p[NPHASES];
  phases(st, sim, p);
  cJSON *t = cJSON_CreateObject();
  const double steps = (double)st->steps_run;
  cJSON_AddNumberToObject(t, "wall_seconds", st->wall_seconds);
  cJSON_AddNumberToObject(t, "steps", steps);
  cJSON_AddNumberToObject(t, "per_step_seconds", steps > 0 ? st->wall_seconds / steps : 0.0);
  cJSON *ph = cJSON_AddObjectToObject(t, "phases");
  for (int k = 0; k < NPHASES; ++k) cJSON_AddNumberToObject(ph, p[k].name, p[k].seconds);
  cJSON_AddNumberToObject(ph, "other", fmax(0.0, st->wall_seconds - accounted(st, p)));
  cJSON *stages = cJSON_AddArrayToObject(t, "stages");
  for (size_t s = 0; s < st->nstages; ++s) {
    const vbc_stage_stats *g = &st->stage[s];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "label", g->label);
    cJSON_AddNumberToObject(o, "prepare_seconds", g->prepare_seconds);
    cJSON_AddNumberToObject(o, "solve_seconds", g->solve_seconds);
    cJSON_AddNumberToObject(o, "hook_seconds", g->hook_seconds);
    cJSON_AddNumberToObject(o, "us_per_row_iteration", us_per_row_iteration(g));
    cJSON_AddItemToArray(stages, o);
  }
  return t;
}

static void row(FILE *out, const char *name, double seconds, const vbc_run_stats *st) {
  const double steps = st->steps_run > 0 ? (double)st->steps_run : 1.0;
  fprintf(out, "  %-42s %10.3f s %10.3f ms/step %6.1f %%\n", name, seconds,
          1e3 * seconds / steps, st->wall_seconds > 0 ? 100.0 * seconds / st->wall_seconds : 0.0);
}

void vbc_profile_print(const vbc_run_stats *st, const vbc_sim *sim, FILE *out) {
  phase p[NPHASES];
  phases(st, sim, p);
  fprintf(out, "vbc profile: %ld steps, %.3f s wall on %d thread(s)\n", st->steps_run,
          st->wall_seconds, st->threads);
  for (int k = 0; k < NPHASES; ++k) row(out, p[k].name, p[k].seconds, st);
  for (size_t s = 0; s < st->nstages; ++s) {
    const vbc_stage_stats *g = &st->stage[s];
    char name[96];
    snprintf(name, sizeof name, "stage %s: rows (prepare/finish)", g->label);
    row(out, name, g->prepare_seconds, st);
    snprintf(name, sizeof name, "stage %s: solve (%s)", g->label, g->solver);
    row(out, name, g->solve_seconds, st);
    snprintf(name, sizeof name, "stage %s: hooks", g->label);
    if (g->hook_seconds > 0.0) row(out, name, g->hook_seconds, st);
    fprintf(out, "  %-42s %10.4f us per row-iteration (%.0f row-iterations)\n", "",
            us_per_row_iteration(g), g->row_iterations);
  }
  row(out, "other (set-up, metrics)", fmax(0.0, st->wall_seconds - accounted(st, p)), st);
}
