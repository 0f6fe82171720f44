/* summary.h — summary.json, the last file a run writes: the resolved scene, particle counts,
 * steps, wall time, particle-steps per second, solver statistics and the benchmark's metrics.
 * A failed run writes it too, with "status": "failed" and the message. */
#ifndef VBC_SUMMARY_H
#define VBC_SUMMARY_H

#include <cjson/cJSON.h>

#include "core/constraint.h"
#include "sim/sim.h"
#include "sim/stats.h"

/* metrics may be NULL (failed run); from_state is the state file of a --from-state run, else
 * NULL; failure is NULL for a completed run. A failure whose code is VBC_EXIT_INTERRUPTED + the
 * signal makes "status": "interrupted" (the run stopped between steps; `steps` and `time`
 * describe where), any other "failed"; its message is `error`. */
int vbc_summary_write(const char *dir, const vbc_sim *sim, const vbc_run_stats *st,
                      const cJSON *metrics, const char *from_state, const vbc_error *failure,
                      vbc_error *err);

#endif
