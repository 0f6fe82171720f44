/* monitors.h — run-time sanity monitors: cheap checks after every step that flag a run whose
 * numbers would mislead while it still exits 0 (sim/monitors.c). Each flag is counted in the run's
 * statistics (vbc_run_stats.warning), reported once on stderr when it first fires (under --quiet
 * too) and listed in summary.json's `warnings`; under --strict the first one fails the run. */
#ifndef VBC_MONITORS_H
#define VBC_MONITORS_H

#include <cjson/cJSON.h>

#include "sim/sim.h"
#include "sim/stats.h"

/* Before the first step (not on a resume, whose checkpoint holds it): the energy the energy_rise
 * monitor judges rises against, and its scale, from the state at t = 0; body_jitter's records
 * of the bodies' velocities (freed by vbc_run_stats_free). */
int vbc_monitors_start(vbc_run_stats *st, const vbc_sim *sim, vbc_error *err);

/* Check the step just reported. VBC_EXIT_FAILED with the warning as the message when `strict`
 * and a monitor fired; VBC_OK otherwise. */
int vbc_monitors_step(vbc_run_stats *st, const vbc_sim *sim, const vbc_step_report *rep,
                      int strict, vbc_error *err);

/* summary.json's `warnings`: one object per monitor that fired (code, what it means, first step
 * and time, count, worst value). */
cJSON *vbc_monitors_json(const vbc_run_stats *st);

#endif
