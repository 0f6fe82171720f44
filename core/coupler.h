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
  /* Optional: a coupler that solves the contacts as a problem of their own (lemke_contacts)
   * reports that solve here; contact_solves stays 0 for the others (summary.json then has no
   * solver.contact_solver). */
  int contact_solves;        /* 1 when a contact LCP was solved this step */
  size_t contact_rows;       /* rows of that LCP: contact pairs and pin rows */
  size_t contacts;           /* contact pairs among them */
  long contact_pivots;       /* Lemke's pivots; -1 under an iterative solver */
  int contact_iterations;    /* vbc_solve's iterations (1 for lemke) */
  double contact_error;      /* LCP error (vbc_lcp_error) on the velocities after the impulses */
} vbc_step_report;

typedef struct vbc_coupler_type {
  const char *name;
  const char *summary;
  /* The coupler solves the contacts as a problem of their own, with method.contact.solver
   * (lemke_contacts); the others solve them with method.fluid.solver or not at all. */
  int contact_solver;
  void *(*alloc)(struct vbc_sim *sim, vbc_error *err);
  void (*free)(void *state);
  /* Advance sim by one time step dt (positions, velocities, pressures). */
  int (*step)(void *state, struct vbc_sim *sim, vbc_step_report *rep, vbc_error *err);
} vbc_coupler_type;

#endif
