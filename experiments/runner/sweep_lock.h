/* sweep_lock.h — one lock per case, so that sweeps sharing a --cases directory (two `vbc sweep`
 * processes, or a sweep and the --emit-jobs commands of another run by GNU parallel or a Slurm
 * array) never run one case twice at the same time.
 *
 * The lock is flock(2) on CASES/.ID.lock (a sibling of the case directory, which a fresh start
 * clears; the dot keeps it out of listings). The kernel releases it when its holder dies however
 * it dies, so a stale lock needs no recovery: a lock file nobody holds is free. The file holds
 * "PID HOST" of the holder for the messages of those who find it busy. flock is advisory and, on
 * NFS, emulated with POSIX locks (Linux >= 2.6.12), which the server arbitrates across hosts.
 *
 * The holder unlinks the file before it lets go; one who opened the old file and gets the lock
 * after that finds the path gone or pointing at a newer file, and tries again. The descriptor
 * is close-on-exec; the runner hands it to the case's own `vbc run` only (vbc_case_lock_inherit),
 * so the lock outlives a runner that is killed until its case has written its checkpoint and
 * exited. */
#ifndef VBC_SWEEP_LOCK_H
#define VBC_SWEEP_LOCK_H

#include <stddef.h>

#include "core/error.h"

typedef struct vbc_case_lock {
  int fd; /* -1: not held */
  char path[1100];
} vbc_case_lock;

#define VBC_LOCK_BUSY 1

/* Try to take the lock of case `id` under cases_dir (created if missing) without waiting.
 * VBC_OK: held; VBC_LOCK_BUSY: another live process holds it, its "PID HOST" in holder;
 * VBC_EXIT_SYSTEM naming the lock file when it cannot be created. */
int vbc_case_lock_try(vbc_case_lock *lk, const char *cases_dir, const char *id, char *holder,
                      size_t size, vbc_error *err);
/* Whether the next fork's exec inherits the descriptor (1) or not (0). */
void vbc_case_lock_inherit(const vbc_case_lock *lk, int inherit);
void vbc_case_lock_release(vbc_case_lock *lk);

#endif
