/* summary.h — summary.json, the last file a run writes: the resolved scene, particle counts,
 * steps, wall time, particle-steps per second, solver statistics and the benchmark's metrics.
 * A failed run writes it too, with "status": "failed" and the message. */
#ifndef VBC_SUMMARY_H
#define VBC_SUMMARY_H

#include <cjson/cJSON.h>

#include "core/constraint.h"
#include "app/sim.h"

typedef struct vbc_run_stats {
  long solves, iterations_total;
  int iterations_max;
  long stops[VBC_STOP_REASONS];
  double relres_sum, relres_max, last_relres;
  long error_solves;               /* solves whose blocks had an error measure */
  double error_sum, error_max;     /* their final mean constraint error (density error) */
  long window_steps, window_iterations;
  int window_max;
  int threads;
  long steps_run; /* steps completed by this process (all of them, or 1 with --from-state) */
  double wall_seconds;
  /* The contact LCPs of a coupler that reports them (vbc_step_report.contact_solves). */
  long contact_solves, contact_pivots_total, contact_iterations_total;
  long contact_pivot_solves, contact_pivots_max; /* solves that report pivots (lemke) */
  size_t contact_rows_max, contacts_max, contact_rows_total;
  double contact_error_max;
} vbc_run_stats;

/* metrics may be NULL (failed run); from_state is the state file of a --from-state run, else
 * NULL; failure is NULL for a completed run. */
int vbc_summary_write(const char *dir, const vbc_sim *sim, const vbc_run_stats *st,
                      const cJSON *metrics, const char *from_state, const vbc_error *failure,
                      vbc_error *err);

#endif
