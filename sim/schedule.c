/* schedule.c — see schedule.h. */
#include <math.h>

#include "sim/schedule.h"
#include "sim/sim.h"

void vbc_schedule_init(vbc_schedule *s, const vbc_scene *sc, int frames) {
  *s = (vbc_schedule){.adaptive = sc->cfl > 0.0, .frames = frames, .dt = sc->dt,
                      .output_interval = sc->output_interval,
                      .frame_interval = sc->frame_interval, .t_end = sc->t_end};
  s->steps_per_output = lround(sc->output_interval / sc->dt);
  if (s->steps_per_output < 1) s->steps_per_output = 1;
  s->steps_per_frame = lround(sc->frame_interval / sc->dt);
  if (s->steps_per_frame < 1) s->steps_per_frame = 1;
}

/* The first multiple of interval after t. */
static double next_multiple(double t, double interval) {
  double k = floor(t / interval);
  while (k * interval <= t) k += 1.0;
  return k * interval;
}

/* t is a positive multiple of interval, as a step that landed on it left it. */
static int on_multiple(double t, double interval) {
  const double k = floor(t / interval + 0.5);
  return k >= 1.0 && k * interval == t;
}

double vbc_schedule_step_size(const vbc_schedule *s, double t, double limit, double *t_after) {
  double target = fmin(s->t_end, next_multiple(t, s->output_interval));
  if (s->frames) target = fmin(target, next_multiple(t, s->frame_interval));
  const double gap = target - t;
  if (limit >= gap) {
    *t_after = target; /* exactly: outputs are due at this very time */
    return gap;
  }
  const double dt = 2.0 * limit > gap ? 0.5 * gap : limit;
  *t_after = t + dt;
  return dt;
}

int vbc_schedule_begin_step(const vbc_schedule *s, vbc_sim *sim, double *t_after,
                            vbc_error *err) {
  if (!s->adaptive) {
    *t_after = (double)sim->step * s->dt;
    return VBC_OK;
  }
  double vmax = 0.0;
  const double limit = vbc_time_step_limit(sim, &vmax);
  if (limit < sim->scene->dt_min)
    return vbc_error_set(err, VBC_EXIT_FAILED, "step %ld (t = %.6g s): the adaptive time step "
                         "%.3g s is below time.dt_min = %.3g s (largest speed %.3g m/s, cfl %g, "
                         "spacing %g): the flow is out of hand", sim->step, sim->time, limit,
                         sim->scene->dt_min, vmax, sim->scene->cfl, sim->sys.spacing);
  sim->sys.dt = vbc_schedule_step_size(s, sim->time, limit, t_after);
  return VBC_OK;
}

int vbc_schedule_finished(const vbc_schedule *s, const vbc_sim *sim) {
  return sim->step >= sim->nsteps || (s->adaptive && sim->time >= s->t_end);
}

int vbc_schedule_series_due(const vbc_schedule *s, const vbc_sim *sim) {
  if (vbc_schedule_finished(s, sim)) return 1;
  return s->adaptive ? on_multiple(sim->time, s->output_interval)
                     : sim->step % s->steps_per_output == 0;
}

int vbc_schedule_frame_due(const vbc_schedule *s, const vbc_sim *sim) {
  if (vbc_schedule_finished(s, sim)) return 1;
  return s->adaptive ? on_multiple(sim->time, s->frame_interval)
                     : sim->step % s->steps_per_frame == 0;
}

long vbc_schedule_total_steps(const vbc_schedule *s, const vbc_sim *sim) {
  if (!s->adaptive || sim->nsteps != VBC_SCHEDULE_OPEN) return sim->nsteps;
  if (vbc_schedule_finished(s, sim)) return sim->step;
  const double mean = sim->step > 0 && sim->time > 0.0 ? sim->time / (double)sim->step
                                                       : sim->scene->dt_max;
  return sim->step + (long)ceil((s->t_end - sim->time) / mean);
}
