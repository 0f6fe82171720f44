/* coupler.h — one time step's orchestration (DESIGN.md §1): which blocks exist, which solver
 * runs them, in which order, and how bodies and fluid exchange momentum. */
#ifndef VBC_COUPLER_H
#define VBC_COUPLER_H

#include "core/constraint.h"

struct vbc_sim;

/* What one step did, for statistics, series.csv and convergence.csv. */
typedef struct vbc_step_report {
  int solves;
  vbc_solve_result fluid;      /* the fluid solve of this step */
  vbc_solve_trace *trace;      /* set by the caller when this step's convergence is sampled */
  const char *const *block_labels;
  size_t nblocks;
} vbc_step_report;

typedef struct vbc_coupler_type {
  const char *name;
  const char *summary;
  void *(*alloc)(struct vbc_sim *sim, vbc_error *err);
  void (*free)(void *state);
  /* Advance sim by one time step dt (positions, velocities, pressures). */
  int (*step)(void *state, struct vbc_sim *sim, vbc_step_report *rep, vbc_error *err);
} vbc_coupler_type;

#endif
