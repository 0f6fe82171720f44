/* sweep_spawn.c — see sweep_spawn.h. fork/exec rather than posix_spawn: the parent-death signal
 * and the directory change have to happen in the child. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "experiments/runner/sweep_spawn.h"

pid_t vbc_spawn_logged(const char *prog, char *const argv[], const char *dir, const char *log,
                       int die_with_parent, vbc_error *err) {
  pid_t parent = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return vbc_error_set(err, VBC_EXIT_SYSTEM, "fork: %s", strerror(errno)), -1;
  if (pid > 0) return pid;
  if (die_with_parent) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127); /* the parent died before prctl took effect */
  }
  if (dir && chdir(dir) != 0) _exit(126);
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) dup2(fd, 1), dup2(fd, 2), close(fd);
  int null = open("/dev/null", O_RDONLY);
  if (null >= 0) dup2(null, 0), close(null);
  execv(prog, argv);
  fprintf(stderr, "vbc: cannot run %s: %s\n", prog, strerror(errno));
  _exit(VBC_EXIT_SYSTEM);
}
