/* sweep_engines.c — helpers of the cluster-engine tests (tests/sweep_engines.h). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support.h"
#include "tests/sweep_engines.h"

void cat_path(char *buf, size_t size, const char *a, const char *b) {
  cr_assert_lt((size_t)snprintf(buf, size, "%s/%s", a, b), size, "path too long");
}

/* Run argv[0] (a full path) with argv in cwd (NULL: this one), stdin from in and stdout and
 * stderr to out (NULL: inherited). The child only calls async-signal-safe functions. Returns the
 * exit code, or -1. */
int run_program(const char *const *argv, const char *cwd, const char *in, const char *out) {
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int fi = in ? open(in, O_RDONLY) : 0;
    int fo = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : 1;
    if ((cwd && chdir(cwd) != 0) || fi < 0 || fo < 0 || dup2(fi, 0) < 0 || dup2(fo, 1) < 0 ||
        dup2(fo, 2) < 0)
      _exit(126);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  int status;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* name found in PATH, /usr/sbin or /sbin (Debian puts the daemons there, outside a user's PATH) */
int find_program(const char *name, char *buf, size_t size) {
  const char *path = getenv("PATH");
  char dirs[4096];
  snprintf(dirs, sizeof dirs, "%s:/usr/sbin:/sbin:/usr/bin:/bin", path ? path : "");
  for (char *save, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    snprintf(buf, size, "%s/%s", d, name);
    if (access(buf, X_OK) == 0) return 1;
  }
  return 0;
}

/* dir/SPEC_NAME: 4 tiny cases of the hydrostatic tank (0.3 m of water at l = 0.05, 20 ms). */
void write_spec(const char *dir) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"scene\": \"%s\", \"set\": {\"spacing\": 0.05, \"time.end\": 0.02},"
           " \"vary\": {\"time.dt\": [0.001, 0.002], \"method.fluid.alpha\": [0.05, 0.04]},"
           " \"metrics\": [\"pressure_error_raw\"]}",
           source_path("experiments/scenes/hydrostatic.json"));
  cr_assert_not_null(write_text(dir, SPEC_NAME, text));
}

/* `vbc sweep SPEC_NAME --out OUT_NAME …` run in dir (every path in the lines it writes is then
 * hostile: the cd and the relative ones); extra: more arguments, NULL-terminated. */
int sweep_in(const char *dir, const char *log, const char *const *extra) {
  const char *argv[24] = {VBC_BINARY, "sweep", SPEC_NAME, "--out", OUT_NAME};
  int n = 5;
  for (; extra && *extra && n < 23; ++extra) argv[n++] = *extra;
  argv[n] = NULL;
  return run_program(argv, dir, NULL, log);
}

/* The case ids of the `--case ID` words of text, in order. */
int case_ids(const char *text, char ids[][16], int max) {
  int n = 0;
  for (const char *p = text ? strstr(text, "--case ") : NULL; p && n < max;
       p = strstr(p + 1, "--case "))
    n += sscanf(p + 7, "%15[0-9a-f]", ids[n]) == 1 && strlen(ids[n]) == 12;
  return n;
}

/* The ids of the cases a sweep's progress lines report as run ("[ 1/4] ID …  ok  …"). */
int ran_ids(const char *text, char ids[][16], int max) {
  int n = 0;
  for (const char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
    end = strchr(line, '\n');
    const char *close = strchr(line, ']'), *ok = strstr(line, "  ok  ");
    if (line[0] == '[' && close && ok && (!end || ok < end)) {
      cr_assert_lt(n, max, "more runs than cases:\n%s", text);
      cr_assert_eq(sscanf(close + 1, " %15s", ids[n++]), 1);
    }
  }
  return n;
}

int count_of(char ids[][16], int n, const char *id) {
  int k = 0;
  for (int i = 0; i < n; ++i) k += strcmp(ids[i], id) == 0;
  return k;
}

/* No file named PWNED anywhere under root. */
void expect_no_injection(const char *root) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "find '%s' -name PWNED | grep -q .", root);
  cr_assert_neq(system(cmd), 0, "a command in a path ran: PWNED exists under %s", root);
}

/* The modification time of each case's summary.json, in ns (fails if one is missing). */
static void summary_times(const char *dir, char ids[][16], long long *ns) {
  for (int i = 0; i < NCASES; ++i) {
    char path[2400];
    snprintf(path, sizeof path, "%s/" OUT_NAME "/cases/%s/summary.json", dir, ids[i]);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "case %s has no summary.json", ids[i]);
    ns[i] = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  }
}

/* Rerun the sweep: nothing runs (every summary.json as the engine left it) and table.csv has
 * every case done. */
void expect_complete_without_running(const char *dir, char ids[][16]) {
  long long before[NCASES], after[NCASES];
  summary_times(dir, ids, before);
  char log[2200], table[2200];
  cat_path(log, sizeof log, dir, "rerun.txt");
  cr_assert_eq(sweep_in(dir, log, NULL), 0);
  char *text = read_text(log);
  cr_assert(text && strstr(text, "4 cases, 0 to run"), "the rerun ran something:\n%s",
            text ? text : "");
  free(text);
  summary_times(dir, ids, after);
  for (int i = 0; i < NCASES; ++i) cr_assert_eq(after[i], before[i], "case %s ran again", ids[i]);
  cat_path(table, sizeof table, dir, OUT_NAME "/table.csv");
  text = read_text(table);
  cr_assert_not_null(text);
  for (int i = 0; i < NCASES; ++i) {
    char row[64];
    snprintf(row, sizeof row, "%.15s,done,", ids[i]);
    cr_assert(strstr(text, row), "table.csv lacks %s done:\n%s", ids[i], text);
  }
  free(text);
}

