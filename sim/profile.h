/* profile.h — where a run's wall time went: summary.json's `timing` and `vbc run --profile`. */
#ifndef VBC_PROFILE_H
#define VBC_PROFILE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "sim/sim.h"
#include "sim/stats.h"

/* {"wall_seconds", "steps", "per_step_seconds", "phases": {name: seconds}, "stages": [{"label",
 * "prepare_seconds", "solve_seconds", "hook_seconds", "us_per_row_iteration"}]}. The phases and
 * the stages add up to the time of the steps; "other" is the rest of the wall time (set-up,
 * the final metrics). */
cJSON *vbc_profile_json(const vbc_run_stats *st, const vbc_sim *sim);
/* The same as a table. */
void vbc_profile_print(const vbc_run_stats *st, const vbc_sim *sim, FILE *out);

#endif
