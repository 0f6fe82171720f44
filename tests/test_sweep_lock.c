/* test_sweep_lock.c — sweeps sharing a --cases directory (experiments/runner/sweep_lock.h): two
 * real `vbc sweep` processes on one spec run each case exactly once between them; a case whose
 * lock another live process holds is waited for and run when it is free; a lock file left by a
 * process that died does not block. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/support.h"


static const char *spec(const char *dir, const char *vary) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"scene\": \"%s\", \"set\": {\"spacing\": 0.05, \"time.end\": 0.15}, \"vary\": %s,"
           " \"metrics\": [\"pressure_error_raw\"]}",
           source_path("experiments/scenes/hydrostatic.json"), vary);
  return write_text(dir, "spec.json", text);
}

/* The ids of the cases a sweep's stderr reports with `what` ("  ok  ", " by another sweep"). */
static int ids_with(const char *text, const char *what, char ids[][16], int max) {
  int n = 0;
  for (const char *line = text; line && *line && n < max;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)len, line);
    const char *close = strchr(buf, ']');
    if (buf[0] == '[' && close && strstr(buf, what)) sscanf(close + 1, " %15s", ids[n++]);
    line = end ? end + 1 : NULL;
  }
  return n;
}

static int count_id(char ids[][16], int n, const char *id) {
  int k = 0;
  for (int i = 0; i < n; ++i) k += strcmp(ids[i], id) == 0;
  return k;
}

Test(sweep_lock, two_sweeps_sharing_the_cases_run_each_case_once) {
  const char *dir = test_dir("lock_two");
  const char *sp = spec(dir, "{\"time.dt\": [0.001, 0.0005], \"method.fluid.alpha\": [0.05, 0.04]}");
  char cases[1100], outs[2][1100], logs[2][1100];
  snprintf(cases, sizeof cases, "%s/cases", dir);
  pid_t pid[2];
  for (int k = 0; k < 2; ++k) {
    snprintf(outs[k], sizeof outs[k], "%s/out%d", dir, k);
    snprintf(logs[k], sizeof logs[k], "%s/sweep%d.txt", dir, k);
    const char *args[] = {"sweep", sp, "--out", outs[k], "--cases", cases, "-j", "1", NULL};
    pid[k] = spawn_vbc(args, "/dev/null", logs[k]);
    cr_assert_gt(pid[k], 0);
  }
  for (int k = 0; k < 2; ++k) {
    int status;
    waitpid(pid[k], &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "sweep %d exit", k);
  }
  char ran[2][8][16], other[2][8][16];
  int nran[2], nother[2];
  for (int k = 0; k < 2; ++k) {
    char *text = read_text(logs[k]);
    cr_assert_not_null(text);
    nran[k] = ids_with(text, "  ok  ", ran[k], 8);
    nother[k] = ids_with(text, " by another sweep", other[k], 8);
    cr_assert_eq(nran[k] + nother[k], 4, "sweep %d accounts for every case:\n%s", k, text);
    free(text);
  }
  cr_assert_eq(nran[0] + nran[1], 4, "4 runs in all, %d + %d", nran[0], nran[1]);
  for (int i = 0; i < nran[0]; ++i)
    cr_assert_eq(count_id(ran[1], nran[1], ran[0][i]), 0, "case %s ran twice", ran[0][i]);
  for (int k = 0; k < 2; ++k) { /* each table has every case done; no lock is left behind */
    char *table = read_text(path_in(outs[k], "table.csv"));
    cr_assert_not_null(table);
    int done = 0;
    for (const char *p = strstr(table, ",done,"); p; p = strstr(p + 1, ",done,")) ++done;
    cr_assert_eq(done, 4, "%s", table);
    free(table);
  }
  char cmd[1300];
  snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q lock", cases);
  cr_assert_neq(system(cmd), 0, "no lock file left");
}

/* The first case id `vbc sweep --list` prints. */
static void first_id(const char *sp, const char *dir, const char *out, char id[16]) {
  const char *args[] = {"sweep", sp, "--out", out, "--list", NULL};
  const char *list = path_in(dir, "list.txt");
  cr_assert_eq(run_vbc_to(args, list, "/dev/null"), 0);
  char *text = read_text(list);
  cr_assert(text && sscanf(strchr(text, '\n') + 1, " %15s", id) == 1);
  free(text);
}

Test(sweep_lock, a_case_held_by_a_live_process_is_waited_for_then_run) {
  const char *dir = test_dir("lock_held");
  const char *sp = spec(dir, "{\"time.dt\": [0.001]}");
  char out[1100], cases[1200], id[16], lock[1300];
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(cases, sizeof cases, "%s/cases", out);
  first_id(sp, dir, out, id);
  cr_assert_eq(system((snprintf(lock, sizeof lock, "mkdir -p '%s'", cases), lock)), 0);
  snprintf(lock, sizeof lock, "%s/.%s.lock", cases, id);
  int ready[2];
  cr_assert_eq(pipe(ready), 0);
  pid_t holder = fork();
  if (holder == 0) { /* another sweep, as far as the lock goes: holds it for 1.5 s */
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) != 0 || write(fd, "pid 1 on elsewhere\n", 19) != 19) _exit(1);
    if (write(ready[1], "x", 1) != 1) _exit(1);
    nanosleep(&(struct timespec){1, 500000000L}, NULL);
    unlink(lock);
    _exit(0);
  }
  char c;
  cr_assert_eq(read(ready[0], &c, 1), 1);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  const char *args[] = {"sweep", sp, "--out", out, "-j", "1", NULL};
  const char *log = path_in(dir, "sweep.txt");
  cr_assert_eq(run_vbc_to(args, "/dev/null", log), 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  waitpid(holder, NULL, 0);
  char *text = read_text(log);
  cr_assert(text && strstr(text, "is being run by pid 1 on elsewhere") && strstr(text, "  ok  "),
            "%s", text ? text : "");
  free(text);
  const double waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  cr_assert_gt(waited, 1.4, "it waited for the holder: %g s", waited);
}

Test(sweep_lock, a_lock_file_whose_holder_died_does_not_block) {
  const char *dir = test_dir("lock_stale");
  const char *sp = spec(dir, "{\"time.dt\": [0.001]}");
  char out[1100], cases[1200], id[16], name[64];
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(cases, sizeof cases, "%s/cases", out);
  first_id(sp, dir, out, id);
  char mk[1300];
  cr_assert_eq(system((snprintf(mk, sizeof mk, "mkdir -p '%s'", cases), mk)), 0);
  snprintf(name, sizeof name, ".%s.lock", id);
  write_text(cases, name, "pid 999999 on a-host-that-crashed\n"); /* nobody holds it */
  const char *args[] = {"sweep", sp, "--out", out, "-j", "1", NULL};
  const char *log = path_in(dir, "sweep.txt");
  cr_assert_eq(run_vbc_to(args, "/dev/null", log), 0);
  char *text = read_text(log);
  cr_assert(text && !strstr(text, "being run by") && strstr(text, "  ok  "), "%s", text ? text : "");
  free(text);
  cr_assert(!file_exists(path_in(cases, name)), "released and removed");
}
