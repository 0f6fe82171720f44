/* run.h — `vbc run`: the time loop, its statistics and the run directory. */
#ifndef VBC_RUN_H
#define VBC_RUN_H

#include <signal.h>

#include "sim/progress.h"
#include "scene/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vbc_run_observer;

typedef struct vbc_run_options {
  const char *out_dir;
  vbc_progress_mode progress;
  /* --dump-state STEP FILE: write the state at the start of step dump_step (1-based) to
   * dump_path (sim/state_file.h); the run goes on. dump_path NULL: no dump. */
  long dump_step;
  const char *dump_path;
  /* --from-state FILE: replace the generated particles by the file's state and run only the
   * step that follows it, with its convergence recorded and the solve's figures as metrics
   * (iterations, stop_reason, final_relative_residual, solve_seconds); no benchmark, no frames. */
  const char *from_state;
  /* --dump-lcp STEP DIR: write every solve of step dump_lcp_step (1-based) as an LCP file into
   * dump_lcp_dir (lcp/lcp_dump.h); the run goes on unchanged. dump_lcp_dir NULL: no dump. */
  long dump_lcp_step;
  const char *dump_lcp_dir;
  /* --exact-reference: every traced solve is also solved by Lemke, and convergence.csv gets each
   * iterate's distance to that solution (reference_error, reference_w_error;
   * lcp/exact_reference.h). The run's results do not change. */
  int exact_reference;
  /* --checkpoint-every STEPS / --checkpoint-seconds S: write DIR/checkpoint.vbc after every
   * STEPS steps, or after the first step that ends S wall seconds after the previous checkpoint
   * (or the start); 0: never (sim/checkpoint.h). --resume: continue from out_dir's checkpoint
   * instead of the start. sets (nsets) are the run's --set assignments, recorded in checkpoints. */
  int profile; /* --profile: print where the wall time went (sim/profile.h) at the end */
  long checkpoint_every;
  double checkpoint_seconds;
  int resume;
  const char *const *sets;
  int nsets;
  /* Set to a signal number by the caller's SIGINT/SIGTERM handler (which should do nothing
   * else); the time loop looks at it between steps and stops: a checkpoint when checkpointing
   * is on, summary.json with "status": "interrupted", VBC_EXIT_INTERRUPTED + the signal. NULL:
   * never. */
  volatile sig_atomic_t *interrupt;
  /* --cpu-limit S: stop after the first step that brings this process's CPU time in the loop
   * (summary.json cpu_seconds) over S seconds, as an interruption would (checkpoint, "status":
   * "interrupted"), with exit VBC_EXIT_INTERRUPTED + SIGXCPU, the code a `ulimit -t` stop gives;
   * summary.json's cpu_limit says it was reached. 0: none. A resumed run counts its own CPU
   * time from the resume. */
  double cpu_limit;
  /* --strict: the first run-time monitor that fires (sim/monitors.h) fails the run like a blow-up
   * (exit 3, the last good state written); the scene key output.strict does the same. */
  int strict;
  /* Figures of the caller's own as extra series.csv columns (sim/sim_api.h); NULL: none. Not
   * with checkpoints or --resume. */
  const struct vbc_run_observer *observer;
} vbc_run_options;

/* Run the scene to its end (or the one step of from_state), or until *opt->interrupt is set.
 * VBC_EXIT_FAILED (with step and time
 * in err) when the simulation fails; the last good state is then written as a frame and
 * summary.json says "failed". VBC_EXIT_INPUT before anything is written for a dump step outside
 * 1..steps (--dump-state, --dump-lcp), an LCP directory that cannot be written, or a state file that is unreadable or does not fit the scene. */
int vbc_run(const vbc_scene *scene, const vbc_run_options *opt, vbc_error *err);

/* The library's version ("0.1.0"). */
const char *vbc_version(void);

/* Everything `vbc run` checks before the first step (particles, overlaps, modules, benchmark),
 * without writing anything: the second half of `vbc validate`. */
int vbc_check(const vbc_scene *scene, vbc_error *err);

#ifdef __cplusplus
}
#endif

#endif
