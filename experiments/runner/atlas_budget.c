/* atlas_budget.c — the atlas's cost budget. A case's levels run coarsest first, one level of
 * every case at a time, so that a cell's cost can be predicted from the same method's cell one
 * level coarser before it starts: a cell predicted to need more CPU seconds than the budget is
 * not run, and the table says so with the prediction. This keeps `make atlas` finite where a
 * method's cost grows steeply with refinement (projected Gauss–Seidel's iterations grow with the
 * number of rows) without tuning anything per case or per method.
 *
 * The prediction for level k from level k - 1 of the same method:
 *   cpu_k ≈ cpu_{k-1} · (l_{k-1} / l_k)^d · (dt_{k-1} / dt_k) · g,
 * particles times steps (dt as the levels set it; 1 where they keep the scene's), with
 * g = it_{k-1} / it_{k-2} (mean solver iterations a step, when level k - 2 ran and the ratio is
 * above 1; else 1, which makes the prediction a lower bound).
 *
 * The first level has no coarser cell: each of its cells is predicted from a probe, the same
 * run to VBC_ATLAS_PROBE_FRACTION of its end time or VBC_ATLAS_PROBE_STEPS steps, whichever is
 * longer (a run of its own id), as the probe's CPU seconds times the ratio of the end times.
 * The probes of every case run before the first level; a cell whose probe failed or was
 * refused runs (and fails or is refused itself).
 *
 * A prediction can fall short (at level 2 it is a lower bound), so a cell that runs is also
 * capped: `vbc run --cpu-limit` at VBC_ATLAS_CAP_FACTOR times the budget stops it between
 * steps with a checkpoint. Such a cell is `not run` with the run's message, so are the finer
 * cells of its method, and it is not started again under the same budget; a larger one
 * continues it from the checkpoint. The probes are not capped (they run 1/32 of a cell). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep.h"

size_t vbc_atlas_slot(const vbc_atlas *a, size_t c, size_t m, size_t k) {
  return (c * a->spec.nmethods + m) * a->max_levels + k;
}

static int finished(const vbc_atlas_cell *x) { return x && strcmp(x->status, "ok") == 0; }

/* The probe's run of method m on case c (its first level), NULL without one. */
static vbc_sweep_case *probe_of(const vbc_atlas *a, size_t c, size_t m) {
  if (a->probes == NULL || a->probes[c].ncases == 0) return NULL;
  return vbc_atlas_find_run(&a->probes[c], a->spec.methods[m],
                            vbc_atlas_level_number(&a->spec.cases[c], 0, "spacing"));
}

int vbc_atlas_stopped_at_cap(const vbc_atlas *a, size_t c, size_t m, size_t k, char *why,
                             size_t size) {
  const vbc_sweep_case *run = vbc_atlas_run_of(a, c, m, k);
  if (!(a->budget > 0.0) || run == NULL || run->state != VBC_CASE_INCOMPLETE) return 0;
  cJSON *summary = vbc_sweep_case_json(&a->sweeps[c], run, "summary.json");
  const cJSON *limit = cJSON_GetObjectItemCaseSensitive(summary, "cpu_limit");
  const cJSON *seconds = cJSON_GetObjectItemCaseSensitive(limit, "seconds");
  const cJSON *error = cJSON_GetObjectItemCaseSensitive(summary, "error");
  const int capped = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(limit, "reached")) &&
                     cJSON_IsNumber(seconds) &&
                     seconds->valuedouble >= (1.0 - 1e-9) * VBC_ATLAS_CAP_FACTOR * a->budget;
  if (capped) { /* the run's message without its "; continue with vbc run --resume DIR" */
    const char *text = cJSON_IsString(error) ? error->valuestring : "stopped at its CPU limit";
    const char *cont = strstr(text, "; continue with");
    snprintf(why, size, "not run to its end, over %g times the budget: %.*s",
             VBC_ATLAS_CAP_FACTOR, (int)(cont ? (size_t)(cont - text) : strlen(text)), text);
  }
  cJSON_Delete(summary);
  return capped;
}

/* Why first-level cell (c, m) is not run, or "" when it runs: its probe's CPU seconds over its
 * simulated time, times the cell's (a rate from the start of the run: where a solver's work
 * grows as the flow develops, a lower bound). */
static void judge_first(vbc_atlas *a, size_t c, size_t m, char *note, size_t size) {
  note[0] = '\0';
  vbc_sweep_case *probe = probe_of(a, c, m);
  const vbc_sweep_case *cell = vbc_atlas_run_of(a, c, m, 0);
  if (probe == NULL || cell == NULL || probe->state != VBC_CASE_DONE) return;
  cJSON *summary = vbc_sweep_case_json(&a->probes[c], probe, "summary.json");
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(summary, "cpu_seconds");
  const double cost = cJSON_IsNumber(cpu) ? cpu->valuedouble : NAN;
  cJSON_Delete(summary);
  if (!(cost > 0.0 && probe->t_end > 0.0 && cell->t_end > 0.0)) return;
  const double predicted = cost * cell->t_end / probe->t_end;
  if (predicted <= a->budget) return;
  snprintf(note, size,
           "not run: predicted %.3g CPU s from its first %.3g s of %.3g s (%.3g CPU s), over "
           "the budget of %.3g CPU s a cell",
           predicted, probe->t_end, cell->t_end, cost, a->budget);
}

/* Why cell (c, m, k) is not run, or "" when it runs. */
static void judge(vbc_atlas *a, size_t c, size_t m, size_t k, char *note, size_t size) {
  const vbc_atlas_case *kc = &a->spec.cases[c];
  note[0] = '\0';
  if (vbc_atlas_stopped_at_cap(a, c, m, k, note, size)) return;
  if (k == 0) {
    judge_first(a, c, m, note, size);
    return;
  }
  const vbc_atlas_cell *prev = vbc_atlas_cell_at(a, c, m, k - 1);
  /* a coarser cell held back or stopped at the cap (and not finished earlier under a larger
   * budget) holds this one */
  if (!finished(prev) && a->held[vbc_atlas_slot(a, c, m, k - 1)][0]) {
    snprintf(note, size, "not run: its coarser level is over the atlas's cost budget");
    return;
  }
  if (!finished(prev)) return; /* failed or refused coarser: nothing to predict from */
  double cost = isfinite(prev->cpu_seconds) ? prev->cpu_seconds : prev->wall_seconds;
  if (!(cost > 0.0)) return;
  double r = vbc_atlas_level_number(kc, k - 1, "spacing") /
             vbc_atlas_level_number(kc, k, "spacing");
  double dt = vbc_atlas_level_number(kc, k - 1, "time.dt") /
              vbc_atlas_level_number(kc, k, "time.dt");
  if (!isfinite(dt)) dt = 1.0; /* the levels keep the scene's step */
  double growth = 1.0;
  const vbc_atlas_cell *prev2 = k >= 2 ? vbc_atlas_cell_at(a, c, m, k - 2) : NULL;
  if (finished(prev2) && prev2->iterations_mean > 0.0 &&
      prev->iterations_mean / prev2->iterations_mean > 1.0)
    growth = prev->iterations_mean / prev2->iterations_mean;
  double predicted = cost * pow(r, kc->dim) * dt * growth;
  if (predicted <= a->budget) return;
  snprintf(note, size,
           "not run: predicted %.3g CPU s (level %zu: %.3g s, x %.3g for particles and steps, "
           "x %.3g for solver iterations), over the budget of %.3g CPU s a cell",
           predicted, k, cost, pow(r, kc->dim) * dt, growth, a->budget);
}

int vbc_atlas_plan_level(vbc_atlas *a, size_t k, vbc_error *err) {
  if (a->held == NULL) {
    for (size_t c = 0; c < a->spec.ncases; ++c)
      if (a->spec.cases[c].nlevels > a->max_levels) a->max_levels = a->spec.cases[c].nlevels;
    a->nslots = a->spec.ncases * a->spec.nmethods * a->max_levels;
    if ((a->held = vbc_calloc(a->nslots ? a->nslots : 1, sizeof *a->held, err)) == NULL)
      return err->code;
  }
  if (k >= 1 && a->budget > 0.0 && vbc_atlas_collect(a, err) != VBC_OK) return err->code;
  for (size_t c = 0; c < a->spec.ncases; ++c)
    for (size_t m = 0; m < a->spec.nmethods; ++m)
      for (size_t level = 0; level < vbc_atlas_case_levels(a, c); ++level) {
        char *note = a->held[vbc_atlas_slot(a, c, m, level)];
        if (level == k && a->budget > 0.0) judge(a, c, m, k, note, sizeof *a->held);
        else if (level < k && note[0] == '\0') /* stopped at the cap since it was judged */
          vbc_atlas_stopped_at_cap(a, c, m, level, note, sizeof *a->held);
        vbc_sweep_case *run = vbc_atlas_run_of(a, c, m, level);
        if (run) run->held = level > k || note[0] != '\0';
      }
  return VBC_OK;
}
