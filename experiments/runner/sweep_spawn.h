/* sweep_spawn.h — starting the runner's child processes (`vbc run` cases, gnuplot) with their
 * output in a log file. */
#ifndef VBC_SWEEP_SPAWN_H
#define VBC_SWEEP_SPAWN_H

#include <sys/types.h>

#include "core/error.h"

/* A place of OpenMP threads for a child: its CPUs, and the same as OMP_PLACES text ("{3}"). */
typedef struct vbc_spawn_place {
  int ncpus;
  int cpu[64];
  char text[512];
} vbc_spawn_place;

/* Start prog with argv (NULL-terminated) in dir (NULL: the current directory), stdin from
 * /dev/null, stdout and stderr into log (relative to dir when dir is set). With die_with_parent
 * the child gets SIGTERM when the runner dies, however it dies. With a place, the child runs on
 * its CPUs with it as OMP_PLACES (NULL: as the runner's environment and mask say). Returns the
 * pid, or -1 with err set. */
pid_t vbc_spawn_logged(const char *prog, char *const argv[], const char *dir, const char *log,
                       int die_with_parent, const vbc_spawn_place *place, vbc_error *err);

/* One-thread cases run side by side, when the user binds OpenMP threads (OMP_PROC_BIND or
 * OMP_PLACES): each would bind its one thread to the first place, all of them to the same CPUs.
 * So slot k gets place k of the runner's places (modulo their number). Returns 1 with *place
 * set, or 0 when threads are not bound or the place has more than 64 CPUs (nothing changes
 * then). */
int vbc_spawn_place_of_slot(int slot, vbc_spawn_place *place);

#endif
