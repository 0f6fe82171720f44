/* test_sweep_engines.c — GNU parallel, run for real on what `vbc sweep --emit-jobs` writes
 * (experiments/runner/sweep_jobs.c): the lines of a 4-case sweep in a directory whose name holds
 * spaces, both quotes, ;, $(…), backquotes and parallel's own {} replacement strings, under
 * `parallel -j 2`; every case runs exactly once (parallel's job log, the cases' progress lines,
 * summary.json untouched by the rerun) and rerunning the sweep writes a complete table without
 * running anything. And the sbatch array script of `--emit-slurm` without a cluster: its
 * #SBATCH lines, its tasks' job lines, its refusals (tests/test_sweep_slurm.c submits it). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tests/support.h"
#include "tests/sweep_engines.h"

Test(sweep_engines, gnu_parallel_runs_each_emitted_case_once_in_a_hostile_directory,
     .timeout = 180) {
  char parallel[1024], env[1024];
  if (!find_program("parallel", parallel, sizeof parallel))
    SKIP_SAYING("GNU parallel is not installed (scripts/install-deps.sh installs Debian's "
                 "parallel)");
  cr_assert(find_program("env", env, sizeof env));
  const char *root = test_dir("engines_parallel");
  char dir[1200], jobs[1200], plog[1200], joblog[1200];
  cat_path(dir, sizeof dir, root, HOSTILE_SH);
  cr_assert_eq(mkdir(dir, 0755), 0);
  write_spec(dir);
  cat_path(jobs, sizeof jobs, root, "jobs.txt");
  cat_path(plog, sizeof plog, root, "parallel.txt");
  cat_path(joblog, sizeof joblog, root, "joblog.tsv");
  cr_assert_eq(sweep_in(dir, plog, (const char *[]){"--emit-jobs", jobs, NULL}), 0);
  char *lines = read_text(jobs);
  char ids[NCASES + 1][16];
  cr_assert_eq(case_ids(lines, ids, NCASES + 1), NCASES, "one line per case:\n%s", lines);
  free(lines);
  /* one OpenMP thread per case: two cases share the two cores */
  const char *argv[] = {env, "OMP_NUM_THREADS=1", parallel, "--will-cite", "-j", "2",
                        "--joblog", joblog, NULL};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = run_program(argv, root, jobs, plog);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  char *text = read_text(plog);
  cr_assert_eq(rc, 0, "parallel exit %d:\n%s", rc, text ? text : "");
  char ran[NCASES + 1][16];
  cr_assert_eq(ran_ids(text, ran, NCASES + 1), NCASES, "%s", text);
  for (int i = 0; i < NCASES; ++i)
    cr_assert_eq(count_of(ran, NCASES, ids[i]), 1, "case %s ran %d times:\n%s", ids[i],
                 count_of(ran, NCASES, ids[i]), text);
  free(text);
  text = read_text(joblog); /* parallel's record: a header, then one row per job, exit 0 */
  int rows = 0, failed = 0;
  for (const char *l = text ? strchr(text, '\n') : NULL; l && l[1]; l = strchr(l + 1, '\n')) {
    int seq, exitval;
    char host[64];
    double start, runtime;
    long send, receive;
    cr_assert_eq(sscanf(l + 1, "%d %63s %lf %lf %ld %ld %d", &seq, host, &start, &runtime, &send,
                        &receive, &exitval), 7, "%s", text);
    ++rows, failed += exitval != 0;
  }
  cr_assert(rows == NCASES && failed == 0, "joblog: %d jobs, %d failed:\n%s", rows, failed, text);
  free(text);
  expect_no_injection(root);
  expect_complete_without_running(dir, ids);
  /* all done: no array to submit, and no script */
  char script[1200];
  cat_path(script, sizeof script, root, "jobs.sbatch");
  cr_assert_eq(sweep_in(dir, plog, (const char *[]){"--emit-slurm", script, NULL}), 0);
  text = read_text(plog);
  cr_assert(text && strstr(text, "every case is done: nothing to submit"), "%s", text);
  free(text);
  cr_assert(!file_exists(script));
  cr_log_info("GNU parallel -j 2 ran the 4 cases in %.2f s",
              (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
}

/* The script without a cluster: the options become #SBATCH lines, sbatch's quoting holds the
 * hostile log path, each array task's arm is its case's --emit-jobs line, a task number beyond
 * the array fails; bad options and a log path with a backslash are refused with exit 2. */
Test(sweep_engines, the_slurm_script_holds_the_options_and_the_job_lines, .timeout = 120) {
  const char *root = test_dir("engines_script");
  char dir[1200], script[1200], jobs[1200], log[1200], sh[1024];
  cat_path(dir, sizeof dir, root, HOSTILE_SLURM);
  cr_assert_eq(mkdir(dir, 0755), 0);
  write_spec(dir);
  cat_path(script, sizeof script, root, "jobs.sbatch");
  cat_path(jobs, sizeof jobs, root, "jobs.txt");
  cat_path(log, sizeof log, root, "log.txt");
  cr_assert_eq(sweep_in(dir, log, (const char *[]){"--emit-slurm", script, "--partition", "debug",
                                                   "--time-limit", "1-00:30", "--cpus-per-task",
                                                   "2", "--throttle", "3", NULL}), 0);
  cr_assert_eq(sweep_in(dir, log, (const char *[]){"--emit-jobs", jobs, NULL}), 0);
  char *text = read_text(script), *lines = read_text(jobs);
  cr_assert(text && lines);
  char expect[4096];
  snprintf(expect, sizeof expect,
           "#SBATCH --array=1-4%%3\n#SBATCH --output=\"%s/a b'c\\\"d;e$(touch PWNED)`touch "
           "PWNED`&|<> é #x 100%%%%A/" OUT_NAME "/slurm/slurm-%%A_%%a.log\"\n",
           root);
  /* OUT_NAME's " is escaped too */
  char *q = strstr(expect, "out ;'\"");
  cr_assert_not_null(q);
  memmove(q + 7, q + 6, strlen(q + 6) + 1), q[6] = '\\';
  cr_assert(strstr(text, expect), "expected\n%s\nin\n%s", expect, text);
  const char *fixed[] = {"#!/bin/sh\n", "#SBATCH --cpus-per-task=2\n",
                         "#SBATCH --partition=\"debug\"\n", "#SBATCH --time=\"1-00:30\"\n",
                         "export OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-1}\"\n"};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; ++i)
    cr_assert(strstr(text, fixed[i]), "no %s in\n%s", fixed[i], text);
  int k = 1;
  for (char *line = lines, *end; (end = strchr(line, '\n')) != NULL; line = end + 1, ++k) {
    char arm[4200];
    snprintf(arm, sizeof arm, "\n%d) %.*s ;;\n", k, (int)(end - line), line);
    cr_assert(strstr(text, arm), "task %d is not the job line\n%s\nin\n%s", k, arm, text);
  }
  cr_assert_eq(k, NCASES + 1);
  free(text), free(lines);
  cr_assert(find_program("sh", sh, sizeof sh));
  const char *beyond[] = {sh, "-c", "SLURM_ARRAY_TASK_ID=5 exec sh \"$0\"", script, NULL};
  cr_assert_eq(run_program(beyond, NULL, NULL, log), 2);
  text = read_text(log);
  cr_assert(text && strstr(text, "no case for array task '5' (tasks 1-4)"), "%s", text);
  free(text);
  const struct {
    const char *args[5]; /* NULL-terminated */
    const char *message;
  } bad[] = {
      {{"--emit-slurm", script, "--throttle", "0"}, "--throttle: expected a number of tasks"},
      {{"--emit-slurm", script, "--time-limit", "1:2:3:4"}, "--time-limit: expected a Slurm time"},
      {{"--emit-slurm", script, "--partition", "a b"}, "--partition: expected a partition name"},
      {{"--emit-slurm", script, "--cpus-per-task", "x"}, "--cpus-per-task: expected a number"},
      {{"--partition", "debug"}, "go with --emit-slurm FILE"},
      {{"--emit-slurm", script, "--emit-jobs", jobs}, "exclude each other"},
      {{"--emit-slurm", script, "--out", "b\\ack"},
       "expected a log directory without a backslash"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    cr_assert_eq(sweep_in(dir, log, bad[i].args), 2, "%s %s", bad[i].args[0], bad[i].args[2]);
    text = read_text(log);
    cr_assert(text && strstr(text, bad[i].message), "%s", text);
    free(text);
  }
}
