/* body_history.c — see body_history.h. */
#include <math.h>
#include <stdlib.h>

#include "metrics/body_history.h"

int vbc_body_history_observe(vbc_body_history *h, const vbc_sim *sim, vbc_error *err) {
  if (h->n == 0) {
    double kinetic, speed2;
    vbc_sim_fluid_energy(sim, &kinetic, &h->fluid_pe0, &speed2);
  }
  void *const arrays[] = {&h->t, &h->vy, &h->y};
  const size_t sizes[] = {sizeof *h->t, sizeof *h->vy, sizeof *h->y};
  if (vbc_grow(&h->cap, h->n + 1, arrays, sizes, 3, err) != VBC_OK) return err->code;
  const vbc_body *b = &sim->bodies[h->body];
  h->t[h->n] = sim->time, h->vy[h->n] = b->v.y, h->y[h->n] = b->x.y;
  h->n++;
  return VBC_OK;
}

void vbc_body_history_free(vbc_body_history *h) {
  free(h->t), free(h->vy), free(h->y);
  h->t = h->vy = h->y = NULL;
  h->n = h->cap = 0;
}

/* a at time t, linear between samples (NAN outside the samples). */
static double at(const vbc_body_history *h, const double *a, double t) {
  if (h->n == 0 || t < h->t[0] || t > h->t[h->n - 1]) return NAN;
  size_t lo = 1, hi = h->n; /* the first sample k >= 1 with t_k >= t (bisection: the wedge's
                              * force reads it at every sample) */
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (h->t[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  const size_t k = lo;
  if (k >= h->n) return a[h->n - 1];
  const double t0 = h->t[k - 1], t1 = h->t[k];
  return t1 > t0 ? a[k - 1] + (a[k] - a[k - 1]) * (t - t0) / (t1 - t0) : a[k];
}

double vbc_body_history_vy(const vbc_body_history *h, double t) { return at(h, h->vy, t); }
double vbc_body_history_y(const vbc_body_history *h, double t) { return at(h, h->y, t); }

double vbc_body_history_energy_ratio(const vbc_body_history *h, const vbc_sim *sim) {
  if (h->n < 2) return NAN;
  double kinetic, potential, speed2;
  vbc_sim_fluid_energy(sim, &kinetic, &potential, &speed2);
  const double mass = sim->bodies[h->body].mass, g = -sim->scene->gravity.y;
  const double v0 = h->vy[0], v1 = h->vy[h->n - 1];
  const double given = 0.5 * mass * (v0 * v0 - v1 * v1) + mass * g * (h->y[0] - h->y[h->n - 1]);
  return (kinetic + potential - h->fluid_pe0) / given;
}

int vbc_body_history_save(const vbc_body_history *h, vbc_blob *out, vbc_error *err) {
  if (vbc_blob_put_array(out, h->t, h->n, sizeof *h->t, err) != VBC_OK ||
      vbc_blob_put_array(out, h->vy, h->n, sizeof *h->vy, err) != VBC_OK ||
      vbc_blob_put_array(out, h->y, h->n, sizeof *h->y, err) != VBC_OK)
    return err->code;
  return vbc_blob_put(out, &h->fluid_pe0, sizeof h->fluid_pe0, err);
}

int vbc_body_history_load(vbc_body_history *h, vbc_reader *in, vbc_error *err) {
  void *const arrays[] = {&h->t, &h->vy, &h->y};
  const size_t sizes[] = {sizeof *h->t, sizeof *h->vy, sizeof *h->y};
  if (vbc_reader_get_arrays(in, "body samples", &h->cap, &h->n, arrays, sizes, 3, err) != VBC_OK)
    return err->code;
  return vbc_reader_get(in, &h->fluid_pe0, sizeof h->fluid_pe0, err);
}
