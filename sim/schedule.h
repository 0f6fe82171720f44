/* schedule.h — when a run writes its series rows and frames, where each step ends, and when the
 * run is over.
 *
 * Fixed steps: step k ends at t = k time.dt; a series row every max(1, round(output_interval /
 * dt)) steps, a frame every max(1, round(frame_interval / dt)) steps, and both at the last step
 * (docs/scene-format.md, time). Adaptive steps (sim/time_step.h): rows at t = k output_interval
 * and frames at t = k frame_interval exactly: a step that would pass the next such time (or
 * time.end) ends on it, and one that would leave less than a step before it takes half the gap,
 * so that no step is much shorter than its neighbours. The run ends exactly at time.end.
 * Everything is computed from (step, time), so a resumed run keeps the schedule. */
#ifndef VBC_SCHEDULE_H
#define VBC_SCHEDULE_H

#include <limits.h>

#include "core/error.h"

/* sim->nsteps of an adaptive run: no step limit, it ends at time.end */
#define VBC_SCHEDULE_OPEN LONG_MAX

struct vbc_sim;
struct vbc_scene;

typedef struct vbc_schedule {
  int adaptive, frames;
  long steps_per_output, steps_per_frame; /* fixed steps */
  double dt, output_interval, frame_interval, t_end;
} vbc_schedule;

void vbc_schedule_init(vbc_schedule *s, const struct vbc_scene *sc, int frames);
/* Before step sim->step (already counted): set sim->sys.dt and *t_after, the time the step ends
 * at. Adaptive: a limit below time.dt_min is VBC_EXIT_FAILED. */
int vbc_schedule_begin_step(const vbc_schedule *s, struct vbc_sim *sim, double *t_after,
                            vbc_error *err);
/* The size of an adaptive step from t under limit (see above), and where it ends. */
double vbc_schedule_step_size(const vbc_schedule *s, double t, double limit, double *t_after);
/* After a step: a series row due, a frame due, the run over. */
int vbc_schedule_series_due(const vbc_schedule *s, const struct vbc_sim *sim);
int vbc_schedule_frame_due(const vbc_schedule *s, const struct vbc_sim *sim);
int vbc_schedule_finished(const vbc_schedule *s, const struct vbc_sim *sim);
/* The run's step count: exact for fixed steps, an estimate from the mean step so far otherwise
 * (the progress line). */
long vbc_schedule_total_steps(const vbc_schedule *s, const struct vbc_sim *sim);

#endif
