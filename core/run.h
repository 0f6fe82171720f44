/* run.h — `vbc run`: the time loop, its statistics and the run directory. */
#ifndef VBC_RUN_H
#define VBC_RUN_H

#include "core/progress.h"
#include "core/scene.h"

typedef struct vbc_run_options {
  const char *out_dir;
  vbc_progress_mode progress;
} vbc_run_options;

/* Run the scene to its end. VBC_EXIT_FAILED (with step and time in err) when the simulation
 * fails; the last good state is then written as a frame and summary.json says "failed". */
int vbc_run(const vbc_scene *scene, const vbc_run_options *opt, vbc_error *err);

/* Everything `vbc run` checks before the first step (particles, overlaps, modules, benchmark),
 * without writing anything: the second half of `vbc validate`. */
int vbc_check(const vbc_scene *scene, vbc_error *err);

#endif
