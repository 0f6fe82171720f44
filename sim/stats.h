/* stats.h — a run's solver statistics, one record per stage of the coupler (core/coupler.h):
 * what summary.json reports under `solver` (sim/summary.c), series.csv's iteration columns and
 * the progress line (the primary stage's). */
#ifndef VBC_STATS_H
#define VBC_STATS_H

#include "core/coupler.h"

struct vbc_blob;
struct vbc_reader;

/* A named figure of a stage's solves (the solver's and the stage hooks'), aggregated. */
typedef struct vbc_figure_stats {
  char name[32];
  vbc_figure_kind kind;
  long count;
  double sum, max;
} vbc_figure_stats;

typedef struct vbc_stage_stats {
  const char *label;
  const char *solver;     /* its solver's name */
  const char *constraint; /* the name of its first block's type */
  int figures_in_metrics;
  long solves, iterations_total;
  int iterations_max;
  long stops[VBC_STOP_REASONS];
  double relres_sum, relres_max, last_relres;
  long error_solves;           /* solves whose blocks had an error measure */
  double error_sum, error_max; /* their final mean constraint error (density error) */
  /* and their largest row error at the stop (vbc_problem_max_error; sim/monitors.c adds it) */
  double max_error_sum, max_error_max;
  size_t rows_total, rows_max;
  /* wall seconds: rows built and written back, solves, hooks; rows x iterations of the solves */
  double prepare_seconds, solve_seconds, hook_seconds, row_iterations;
  size_t nfigures;
  vbc_figure_stats figure[2 * VBC_MAX_FIGURES];
} vbc_stage_stats;

/* Run-time sanity monitors (sim/monitors.c): what each flagged, when it first did, how often,
 * and the worst value seen. */
enum {
  VBC_WARNING_ITERATION_ZERO,
  VBC_WARNING_FLUID_IN_BODY,
  VBC_WARNING_COMPRESSION,
  VBC_WARNING_ENERGY_RISE,
  VBC_WARNING_UNCOUPLED_BODIES,
  VBC_WARNING_ROW_ERROR,
  VBC_WARNING_OMEGA_CLAMPED,
  VBC_WARNING_TENSION,
  VBC_WARNING_OMEGA_LOWERED,
  VBC_WARNING_NO_STATIC_LOAD,
  VBC_WARNING_BODY_JITTER,
  VBC_WARNINGS
};
typedef struct vbc_warning {
  long count, first_step;
  double first_time, worst;
} vbc_warning;

/* body_jitter (sim/monitors.c), per body: its velocity after the step before, the change that
 * step made, and in how many steps in a row the change reversed its direction. */
typedef struct vbc_body_jitter {
  vbc_vec v, dv;
  long run;
} vbc_body_jitter;

typedef struct vbc_run_stats {
  size_t nstages, primary;
  vbc_stage_stats stage[VBC_MAX_STAGES];
  /* the primary stage since the last series.csv row */
  long window_steps, window_iterations;
  int window_max;
  int threads;
  long steps_run; /* steps completed by this process (all of them, or 1 with --from-state) */
  double wall_seconds;
  double cpu_seconds; /* the process's CPU time over the same span, all threads */
  double cpu_limit;   /* vbc_run_options.cpu_limit (0: none), and whether the run stopped at it */
  int cpu_limit_reached;
  /* where a step's wall time goes besides the stages (summary.json timing, vbc run --profile):
   * the simulation's parts of the step, and the time loop's own */
  double neighbours_seconds, explicit_seconds, advect_seconds, body_seconds;
  double output_seconds, observe_seconds, checkpoint_seconds, check_seconds;
  vbc_warning warning[VBC_WARNINGS];
  /* energy_rise (sim/monitors.c): the lowest total energy of fluid and moving bodies so far and
   * the scale a rise is judged on; energy_scale 0: the run is not watched (a source of energy) */
  double energy_low, energy_scale;
  /* tension (sim/monitors.c): rho0 |g| H of the fluid at the start, the pressure scale a tension
   * is judged on; 0: not watched (no gravity) */
  double tension_scale;
  /* body_jitter: one record per body (vbc_monitors_start allocates them; vbc_run_stats_free);
   * none without bodies or gravity (not watched) */
  vbc_body_jitter *jitter;
  size_t njitter;
} vbc_run_stats;

/* Empty statistics for the stages of coupling c. */
void vbc_run_stats_init(vbc_run_stats *st, const vbc_coupling *c);
/* The monitors' per-body records (the rest is held by value). */
void vbc_run_stats_free(vbc_run_stats *st);
/* Count the solves of one step. More distinct figures than a stage has room for is a system
 * error. */
int vbc_run_stats_add(vbc_run_stats *st, const vbc_step_report *rep, vbc_error *err);
/* The mean iterations of the primary stage's solves so far (0 before the first). */
double vbc_run_stats_mean_iterations(const vbc_run_stats *st);

/* Checkpoints: the counts of every stage and the series window (sim/checkpoint.c); load into
 * statistics vbc_run_stats_init made for the same coupler. */
int vbc_run_stats_save(const vbc_run_stats *st, struct vbc_blob *out, vbc_error *err);
int vbc_run_stats_load(vbc_run_stats *st, struct vbc_reader *in, vbc_error *err);

#endif
