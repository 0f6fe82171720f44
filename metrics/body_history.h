/* body_history.h — one body's vertical motion sampled every step (time, v_y, centre height), for
 * the water-entry benchmarks (metrics/wedge_entry.c, metrics/cylinder_entry.c): linear
 * interpolation between samples, the samples in a checkpoint, and the energy check.
 *
 * The energy check. The water starts at rest; all it can gain is the energy the body gives up,
 * its kinetic energy lost plus gravity's work on it, (M/2)(v_y(0)^2 - v_y^2) + M g (y(0) - y)
 * (vertical motion: the wedge is locked to it, the cylinder keeps to it by symmetry), less what
 * viscosity dissipates. So
 *     fluid_energy_ratio = (fluid kinetic energy now + fluid potential energy, -sum m g.x,
 *                           gained since the first sample) / the energy the body gave up
 * is at most 1 in a scheme that conserves energy (1 without dissipation); above 1 the scheme
 * created energy. */
#ifndef VBC_BODY_HISTORY_H
#define VBC_BODY_HISTORY_H

#include "io/blob.h"
#include "sim/sim.h"

typedef struct vbc_body_history {
  long body;
  size_t n, cap;
  double *t, *vy, *y; /* per sample: time, the body's v_y and centre height */
  double fluid_pe0;    /* the fluid's potential energy at the first sample */
} vbc_body_history;

int vbc_body_history_observe(vbc_body_history *h, const vbc_sim *sim, vbc_error *err);
void vbc_body_history_free(vbc_body_history *h);
/* v_y or y at time t, linear between samples (NAN outside the samples). */
double vbc_body_history_vy(const vbc_body_history *h, double t);
double vbc_body_history_y(const vbc_body_history *h, double t);
/* fluid_energy_ratio above, now (NAN before two samples). */
double vbc_body_history_energy_ratio(const vbc_body_history *h, const vbc_sim *sim);
int vbc_body_history_save(const vbc_body_history *h, vbc_blob *out, vbc_error *err);
int vbc_body_history_load(vbc_body_history *h, vbc_reader *in, vbc_error *err);

#endif
