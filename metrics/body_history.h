/* body_history.h — one body's vertical motion sampled every step (time, v_y, centre height), for
 * the water-entry benchmarks (metrics/wedge_entry.c, metrics/cylinder_entry.c): linear
 * interpolation between samples and the samples in a checkpoint. */
#ifndef VBC_BODY_HISTORY_H
#define VBC_BODY_HISTORY_H

#include "app/blob.h"
#include "app/sim.h"

typedef struct vbc_body_history {
  long body;
  size_t n, cap;
  double *t, *vy, *y; /* per sample: time, the body's v_y and centre height */
} vbc_body_history;

int vbc_body_history_observe(vbc_body_history *h, const vbc_sim *sim, vbc_error *err);
void vbc_body_history_free(vbc_body_history *h);
/* v_y or y at time t, linear between samples (NAN outside the samples). */
double vbc_body_history_vy(const vbc_body_history *h, double t);
double vbc_body_history_y(const vbc_body_history *h, double t);
int vbc_body_history_save(const vbc_body_history *h, vbc_blob *out, vbc_error *err);
int vbc_body_history_load(vbc_body_history *h, vbc_reader *in, vbc_error *err);

#endif
