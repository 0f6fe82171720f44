/* time_step.h — the size of each time step and the run's time-step statistics.
 *
 * Fixed steps (the default, and what the paper benchmarks use): every step is time.dt. Adaptive
 * steps (time.cfl > 0), as SPlisHSPlasH and PySPH take them: before each step
 *
 *   dt = min(time.dt_max, cfl l / v_max, l^2 / (2 d nu))
 *
 * with l the particle spacing, v_max the largest speed of a fluid or body particle at the start
 * of the step (the CFL condition: no particle moves more than cfl l in one step), and the last
 * term, the explicit viscous term's stability limit (d the dimension, nu the kinematic
 * viscosity), only with fluid.viscosity > 0. sim/schedule.h then shortens the step so that steps
 * land exactly on output times. A limit below time.dt_min fails the run (exit 3). The limit
 * depends on the state only, so a resumed or replayed run takes the same steps. */
#ifndef VBC_TIME_STEP_H
#define VBC_TIME_STEP_H

#include <cjson/cJSON.h>

#include "core/error.h"

struct vbc_sim;
struct vbc_scene;
struct vbc_blob;
struct vbc_reader;

typedef struct vbc_time_steps {
  int adaptive;
  long steps;           /* steps counted since t = 0 (a checkpoint keeps them) */
  double min, max, sum; /* of their sizes [s] */
} vbc_time_steps;

void vbc_time_steps_init(vbc_time_steps *ts, const struct vbc_scene *sc);
/* The largest step the state allows (adaptive steps); *vmax gets v_max. */
double vbc_time_step_limit(const struct vbc_sim *sim, double *vmax);
/* Count a completed step of size dt. */
void vbc_time_steps_add(vbc_time_steps *ts, double dt);
/* summary.json `time_steps`: adaptive, steps, dt_min, dt_max, dt_mean. */
cJSON *vbc_time_steps_json(const vbc_time_steps *ts);
/* Checkpoints (sim/checkpoint.c). */
int vbc_time_steps_save(const vbc_time_steps *ts, struct vbc_blob *out, vbc_error *err);
int vbc_time_steps_load(vbc_time_steps *ts, struct vbc_reader *in, vbc_error *err);

#endif
