/* sweep_spawn.c — see sweep_spawn.h. fork/exec rather than posix_spawn: the parent-death signal
 * and the directory change have to happen in the child. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sim/affinity.h"
#include "experiments/runner/sweep_spawn.h"

extern char **environ;

/* The runner's environment with OMP_PLACES=places in place of its own (malloc'd; the strings are
 * environ's, and `own` the one new entry), built before fork: the child only calls execve. */
static char **environment_with_places(const char *places, char **own) {
  size_t n = 0;
  while (environ[n]) ++n;
  char **env = malloc((n + 2) * sizeof *env);
  *own = malloc(strlen("OMP_PLACES=") + strlen(places) + 1);
  if (env == NULL || *own == NULL) return free(env), free(*own), *own = NULL, NULL;
  sprintf(*own, "OMP_PLACES=%s", places);
  size_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (strncmp(environ[i], "OMP_PLACES=", 11) != 0) env[m++] = environ[i];
  env[m++] = *own;
  env[m] = NULL;
  return env;
}

pid_t vbc_spawn_logged(const char *prog, char *const argv[], const char *dir, const char *log,
                       int die_with_parent, const vbc_spawn_place *place, vbc_error *err) {
  char *own = NULL, **env = place ? environment_with_places(place->text, &own) : environ;
  if (env == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory"), -1;
  pid_t parent = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid != 0 && place) free(env), free(own);
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
  /* the runner's own thread is bound to its first place: a child on another place needs its CPUs
   * in its mask, or its libgomp finds the place unusable */
  if (place) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    for (int m = 0; m < place->ncpus; ++m) CPU_SET(place->cpu[m], &cpus);
    sched_setaffinity(0, sizeof cpus, &cpus);
  }
  execve(prog, argv, env);
  fprintf(stderr, "vbc: cannot run %s: %s\n", prog, strerror(errno));
  _exit(VBC_EXIT_SYSTEM);
}

int vbc_spawn_place_of_slot(int slot, vbc_spawn_place *place) {
  const int nplaces = vbc_bound_places(), most = (int)(sizeof place->cpu / sizeof *place->cpu);
  if (nplaces < 1 || slot < 0) return 0;
  place->ncpus = vbc_place_cpus(slot % nplaces, place->cpu, most);
  size_t used = 0;
  for (int m = 0; m < place->ncpus; ++m)
    used += (size_t)snprintf(place->text + used, sizeof place->text - used, "%s%d",
                             m ? "," : "{", place->cpu[m]);
  snprintf(place->text + used, sizeof place->text - used, "}");
  return place->ncpus > 0;
}
