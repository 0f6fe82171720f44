/* sweep_spawn.h — starting the runner's child processes (`vbc run` cases, gnuplot) with their
 * output in a log file. */
#ifndef VBC_SWEEP_SPAWN_H
#define VBC_SWEEP_SPAWN_H

#include <sys/types.h>

#include "core/error.h"

/* Start prog with argv (NULL-terminated) in dir (NULL: the current directory), stdin from
 * /dev/null, stdout and stderr into log (relative to dir when dir is set). With die_with_parent
 * the child gets SIGTERM when the runner dies, however it dies. Returns the pid, or -1 with err
 * set. */
pid_t vbc_spawn_logged(const char *prog, char *const argv[], const char *dir, const char *log,
                       int die_with_parent, vbc_error *err);

#endif
