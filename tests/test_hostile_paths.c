/* test_hostile_paths.c — what vbc writes for other programs keeps every path as data
 * (experiments/runner/sweep_jobs.c, sweep_gnuplot.c): --emit-jobs lines run by sh and the gnuplot
 * scripts of a sweep whose spec, output and cases paths hold spaces, both quotes, ;, $(…),
 * backquotes and non-ASCII do what they say and nothing else; a path with a line break is
 * refused with exit 2 before anything runs. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.h"

/* Every character a shell or gnuplot would act on, and a non-ASCII one. */
#define HOSTILE "a b'c\"d;e$(touch PWNED)`touch PWNED`&|<>\\ é"

/* a/b, kept to the end of the test (each test is a process of its own) */
static char *join(const char *a, const char *b) {
  static char buf[64][2400];
  static int k;
  cr_assert_lt(k, 64);
  char *p = buf[k++];
  cr_assert_lt(strlen(a) + strlen(b) + 2, sizeof buf[0]);
  memcpy(p, a, strlen(a));
  p[strlen(a)] = '/';
  memcpy(p + strlen(a) + 1, b, strlen(b) + 1);
  return p;
}

/* No file named PWNED under dir (two levels) or in the working directory. */
static void expect_no_injection(const char *dir) {
  cr_assert(!file_exists("PWNED"), "a command ran in the working directory");
  DIR *d = opendir(dir);
  cr_assert_not_null(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    cr_assert_str_neq(e->d_name, "PWNED", "a command ran in %s", dir);
    struct stat st;
    if (e->d_name[0] != '.' && stat(join(dir, e->d_name), &st) == 0 && S_ISDIR(st.st_mode))
      cr_assert(!file_exists(join(join(dir, e->d_name), "PWNED")), "a command ran in %s/%s", dir,
                e->d_name);
  }
  closedir(d);
}

static const char *hostile_spec(const char *root, const char *plots) {
  const char *dir = join(root, HOSTILE);
  cr_assert_eq(mkdir(dir, 0755), 0);
  char text[4096];
  snprintf(text, sizeof text,
           "{\"scene\": \"%s\", \"set\": {\"spacing\": 0.05, \"time.end\": 0.02},"
           " \"vary\": {\"time.dt\": [0.001, 0.002]}, \"metrics\": [\"pressure_error_raw\"]%s}",
           source_path("experiments/scenes/hydrostatic.json"), plots);
  return write_text(dir, "sp'ec $(touch PWNED).json", text);
}

static int count_lines(const char *text) {
  int n = 0;
  for (; text && *text; ++text) n += *text == '\n';
  return n;
}

Test(hostile_paths, emitted_job_lines_run_under_sh_with_every_path_as_data) {
  const char *root = test_dir("hostile_jobs");
  const char *spec = hostile_spec(root, "");
  const char *out = join(join(root, HOSTILE), "out ;'\"");
  const char *cases = join(join(root, HOSTILE), "cases $(touch PWNED)\t`x`");
  const char *jobs = join(root, "jobs.sh");
  const char *emit[] = {"sweep", spec, "--out", out, "--cases", cases, "--emit-jobs", jobs, NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc_to(emit, "/dev/null", join(root, "emit.txt")), 0);
  char *lines = read_text(jobs);
  cr_assert_eq(count_lines(lines), 2, "one line per case:\n%s", lines ? lines : "");
  free(lines);
  char cmd[2600];
  snprintf(cmd, sizeof cmd, "sh '%s' > '%s' 2>&1", jobs, join(root, "jobs.log"));
  cr_assert_eq(system(cmd), 0, "the job lines ran");
  expect_no_injection(root);
  expect_no_injection(join(root, HOSTILE));
  const char *list[] = {"sweep", spec, "--out", out, "--cases", cases, "--list", NULL};
  cr_assert_eq(run_vbc_to(list, join(root, "list.txt"), "/dev/null"), 0);
  char *text = read_text(join(root, "list.txt"));
  int done = 0;
  for (const char *p = text ? strstr(text, " done ") : NULL; p; p = strstr(p + 1, " done ")) ++done;
  cr_assert_eq(done, 2, "both cases ran into the hostile cases directory:\n%s", text ? text : "");
  free(text), free(err);
}

Test(hostile_paths, gnuplot_scripts_take_hostile_paths_and_titles_as_data) {
  const char *root = test_dir("hostile_plots");
  char plots[1024];
  snprintf(plots, sizeof plots,
           ", \"plots\": [{\"name\": \"m\", \"kind\": \"metric\", \"x\": \"time.dt\","
           " \"y\": [\"pressure_error_raw\"], \"title\": \"`touch PWNED` it's \\\"q\\\"\\n@x\"},"
           " {\"name\": \"s\", \"kind\": \"script\", \"script\": \"pl'ot $(touch PWNED).gp\"}]");
  const char *spec = hostile_spec(root, plots);
  write_text(join(root, HOSTILE), "pl'ot $(touch PWNED).gp",
             "set print out.'.txt'\nprint run\nunset print\n");
  const char *out = join(join(root, HOSTILE), "out ;'\"");
  const char *args[] = {"sweep", spec, "--out", out, NULL};
  char gp[64];
  const int have_gnuplot = system("command -v gnuplot > /dev/null 2>&1") == 0;
  int rc = run_vbc_to(args, "/dev/null", join(root, "sweep.txt"));
  cr_assert_eq(rc, have_gnuplot ? 0 : 4, "exit %d", rc);
  expect_no_injection(root);
  expect_no_injection(join(root, HOSTILE));
  const char *pdir = join(out, "plots");
  expect_no_injection(pdir);
  char *m = read_text(join(pdir, "m.gp"));
  cr_assert(m && strstr(m, "set title '`touch PWNED` it''s \"q\" @x' noenhanced"), "%s",
            m ? m : "");
  free(m);
  if (!have_gnuplot) return;
  /* the script ran once per case with `run` its directory, quotes and all */
  int found = 0;
  DIR *d = opendir(pdir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 4, ".txt") != 0) continue;
    snprintf(gp, sizeof gp, "%s", e->d_name);
    char *text = read_text(join(pdir, gp));
    cr_assert(text && strstr(text, HOSTILE "/out ;'\"/cases/"), "%s", text ? text : "");
    free(text);
    ++found;
  }
  if (d) closedir(d);
  cr_assert_eq(found, 2);
}

Test(hostile_paths, a_path_with_a_line_break_is_refused_before_anything_runs) {
  const char *root = test_dir("hostile_newline");
  const char *spec = hostile_spec(root, "");
  const char *bad = join(root, "out\nrm -rf x");
  const char *jobs = join(root, "jobs.sh");
  const char *const runs[][10] = {
      {"sweep", spec, "--out", bad, NULL},
      {"sweep", spec, "--out", join(root, "ok"), "--cases", bad, "--emit-jobs", jobs, NULL}};
  for (int k = 0; k < 2; ++k) {
    char *err = NULL;
    cr_assert_eq(run_vbc(runs[k], &err), 2, "%s", err ? err : "");
    cr_assert(err && strstr(err, "expected a path without line breaks") &&
                  strstr(err, "out\\nrm -rf x"), "%s", err ? err : "");
    free(err);
  }
  cr_assert(!file_exists(bad) && !file_exists(jobs) && !file_exists(join(root, "ok")));
}
