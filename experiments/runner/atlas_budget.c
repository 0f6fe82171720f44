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
 * above 1; else 1, which makes the prediction a lower bound). */
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

/* Why cell (c, m, k) is not run, or "" when it runs. */
static void judge(vbc_atlas *a, size_t c, size_t m, size_t k, char *note, size_t size) {
  const vbc_atlas_case *kc = &a->spec.cases[c];
  note[0] = '\0';
  if (a->held[vbc_atlas_slot(a, c, m, k - 1)][0]) {
    snprintf(note, size, "not run: its coarser level is over the atlas's cost budget");
    return;
  }
  const vbc_atlas_cell *prev = vbc_atlas_cell_at(a, c, m, k - 1);
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
        if (level == k && k >= 1 && a->budget > 0.0) judge(a, c, m, k, note, sizeof *a->held);
        vbc_sweep_case *run = vbc_atlas_run_of(a, c, m, level);
        if (run) run->held = level > k || note[0] != '\0';
      }
  return VBC_OK;
}
