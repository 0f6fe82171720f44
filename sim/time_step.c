/* time_step.c — see time_step.h. */
#include <math.h>

#include "io/blob.h"
#include "sim/sim.h"
#include "sim/time_step.h"
#include "core/parallel.h"

void vbc_time_steps_init(vbc_time_steps *ts, const vbc_scene *sc) {
  *ts = (vbc_time_steps){.adaptive = sc->cfl > 0.0, .min = INFINITY, .max = 0.0};
}

double vbc_time_step_limit(const vbc_sim *sim, double *vmax) {
  const vbc_scene *sc = sim->scene;
  const vbc_particles *p = &sim->particles;
  const long n = (long)p->n;
  double v2 = 0.0; /* a maximum: the same whatever the thread count */
#pragma omp parallel for reduction(max : v2) schedule(static) if (n >= VBC_PARALLEL_MIN_LIGHT)
  for (long i = 0; i < n; ++i)
    if (p->kind[i] != VBC_WALL) v2 = fmax(v2, vbc_vec_dot(p->vel[i], p->vel[i]));
  *vmax = sqrt(v2);
  const double l = sim->sys.spacing;
  double dt = sc->dt_max;
  if (*vmax > 0.0) dt = fmin(dt, sc->cfl * l / *vmax);
  if (sc->viscosity > 0.0) dt = fmin(dt, l * l / (2.0 * sim->sys.dim * sc->viscosity));
  return dt;
}

void vbc_time_steps_add(vbc_time_steps *ts, double dt) {
  ts->steps++;
  ts->sum += dt;
  ts->min = fmin(ts->min, dt);
  ts->max = fmax(ts->max, dt);
}

cJSON *vbc_time_steps_json(const vbc_time_steps *ts) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "adaptive", ts->adaptive);
  cJSON_AddNumberToObject(o, "steps", (double)ts->steps);
  cJSON_AddNumberToObject(o, "dt_min", ts->steps ? ts->min : 0.0);
  cJSON_AddNumberToObject(o, "dt_max", ts->max);
  cJSON_AddNumberToObject(o, "dt_mean", ts->steps ? ts->sum / (double)ts->steps : 0.0);
  return o;
}

int vbc_time_steps_save(const vbc_time_steps *ts, vbc_blob *out, vbc_error *err) {
  const double v[] = {ts->min, ts->max, ts->sum};
  if (vbc_blob_put(out, &ts->steps, sizeof ts->steps, err) != VBC_OK) return err->code;
  return vbc_blob_put(out, v, sizeof v, err);
}

int vbc_time_steps_load(vbc_time_steps *ts, vbc_reader *in, vbc_error *err) {
  double v[3];
  if (vbc_reader_get(in, &ts->steps, sizeof ts->steps, err) != VBC_OK ||
      vbc_reader_get(in, v, sizeof v, err) != VBC_OK)
    return err->code;
  ts->min = v[0], ts->max = v[1], ts->sum = v[2];
  return VBC_OK;
}
