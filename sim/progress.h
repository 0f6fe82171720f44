/* progress.h — what a running simulation tells its user: a redrawn bar on a terminal (step,
 * simulated time, ETA, iterations, residual), one plain line per output interval otherwise. */
#ifndef VBC_PROGRESS_H
#define VBC_PROGRESS_H

#include <stdio.h>

#include "core/clock.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vbc_progress_mode { VBC_PROGRESS_OFF, VBC_PROGRESS_BAR, VBC_PROGRESS_LINES } vbc_progress_mode;

typedef struct vbc_progress {
  vbc_progress_mode mode;
  FILE *out;
  double start, last_draw;
} vbc_progress;

void vbc_progress_init(vbc_progress *p, vbc_progress_mode mode, FILE *out);
void vbc_progress_update(vbc_progress *p, long step, long nsteps, double t, double mean_iters,
                         double rel_residual, int output_step);
void vbc_progress_done(vbc_progress *p);

#ifdef __cplusplus
}
#endif

#endif
