/* checkpoint.h — `vbc run --checkpoint-every STEPS` / `--checkpoint-seconds S` and `--resume DIR`:
 * everything a run needs to continue after the step it was written at, so that the resumed run
 * ends with the same series.csv, convergence.csv (but for its wall-time column), frames and
 * summary.json metrics, bit for bit, as one that was never interrupted.
 *
 * What a run carries from one step to the next, and where it is kept: the particles' arrays
 * (positions, velocities, pressures — every block's warm start reads the previous pressure there —
 * number densities), the domain, the rigid bodies' states, the time loop's counters and the
 * solver statistics of every stage, the benchmark observer's history (its save/load hooks), and
 * the output written so far: the lengths of the series and convergence streams and the frame
 * list, and what a solver carries from one solve to the next (vbc_solver_type.carried: jacobi's
 * lowered omega). Couplers and blocks keep nothing across steps that is not in the particles (a
 * module that does must add it here; the kill-and-resume tests would catch it). Neighbour lists,
 * rows and explicit terms are rebuilt by the next step, as in an uninterrupted run.
 *
 * The file DIR/checkpoint.vbc is a state file (sim/state_file.h: a `--from-state` reader can read
 * it) with more sections: bodies, checkpoint (format, vbc version, the scene file, its --set
 * assignments and the resolved scene), stats, output, benchmark, time_steps, solvers. It is
 * written to a temporary name and renamed, so a crash while writing leaves the previous
 * checkpoint usable. */
#ifndef VBC_CHECKPOINT_H
#define VBC_CHECKPOINT_H

#include "registry/benchmark.h"
#include "sim/output.h"
#include "sim/sim.h"
#include "sim/stats.h"

#define VBC_CHECKPOINT_FILE "checkpoint.vbc"
#define VBC_CHECKPOINT_FORMAT 12 /* 2: the bodies benchmark's state; 3: the buoyancy benchmark's
                                    * water density; 4: the time_steps section; 5: the run-time
                                    * monitors' warnings; 6: compression and energy_rise; 7:
                                    * uncoupled_bodies, row_error and the largest row errors; 8:
                                    * omega_clamped; 9: cylinder_flow's batches; 10: tension and
                                    * omega_lowered; 11: what solvers carry (a lowered
                                    * omega) and no_static_load; 12: body_jitter and its
                                    * per-body records */

/* The pieces of a run a checkpoint holds. */
typedef struct vbc_checkpoint_run {
  vbc_sim *sim;
  vbc_run_stats *stats;
  vbc_output *out;
  const vbc_benchmark_type *bench; /* may be NULL */
  void *bench_state;
  const char *const *sets; /* the run's --set assignments, for a resume without the scene */
  int nsets;
} vbc_checkpoint_run;

/* Whether the run can be checkpointed: a benchmark that observes must offer save and load
 * (VBC_EXIT_INPUT naming it otherwise). */
int vbc_checkpoint_check(const vbc_checkpoint_run *r, vbc_error *err);
/* Write DIR/checkpoint.vbc for the state after sim->step steps (atomically). */
int vbc_checkpoint_write(const char *dir, const vbc_checkpoint_run *r, vbc_error *err);
/* Continue the run from DIR/checkpoint.vbc: r->sim was just set up from the scene and
 * r->bench_state just allocated; restores their state and the statistics, and reopens the output
 * streams where the checkpoint left them. VBC_EXIT_INPUT naming the file when there is none, it
 * belongs to another scene (resolved differently) or to another vbc version or format. */
int vbc_checkpoint_resume(const char *dir, const vbc_checkpoint_run *r, vbc_error *err);

/* The scene file and --set assignments a checkpoint was written with (`vbc run --resume DIR`
 * without a scene). *sets and its strings are allocated: vbc_checkpoint_sets_free. */
int vbc_checkpoint_scene(const char *dir, char *scene, size_t size, char ***sets, int *nsets,
                         vbc_error *err);
void vbc_checkpoint_sets_free(char **sets, int nsets);

#endif
