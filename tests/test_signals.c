/* test_signals.c — SIGINT and SIGTERM (cli/cli.c, sim/run.h `interrupt`): the run stops between
 * steps, writes a checkpoint when checkpointing is on and summary.json with "status":
 * "interrupted", and exits 128 + the signal; the checkpoint resumes to the uninterrupted run's
 * series.csv; a sweep treats an interrupted case as not done and resumes it. --cpu-limit stops a
 * run the same way, with exit 152 (128 + SIGXCPU). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/support.h"

#define HYDRO "experiments/scenes/hydrostatic.json"



/* Start args, wait until its series stream exists and a little more, send sig; the exit code
 * (-1 if it died of the signal instead). */
static int signal_run(const char *const *args, const char *dir, int sig) {
  pid_t pid = spawn_vbc(args, NULL, "/dev/null");
  cr_assert_gt(pid, 0);
  int status = 0;
  for (int t = 0; t < 10000 && !file_exists(path_in(dir, "series.csv.part")); ++t) sleep_ms(1);
  sleep_ms(500); /* past start-up (a resumed run finds its stream at once), well before the end */
  cr_assert_eq(waitpid(pid, &status, WNOHANG), 0, "still running when signalled");
  kill(pid, sig);
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static cJSON *summary_of(const char *dir) {
  cJSON *s = read_json(path_in(dir, "summary.json"));
  cr_assert_not_null(s, "%s/summary.json", dir);
  return s;
}

static void expect_interrupted(const cJSON *s, const char *signame) {
  const cJSON *status = cJSON_GetObjectItem(s, "status");
  const cJSON *error = cJSON_GetObjectItem(s, "error");
  cr_assert(cJSON_IsString(status) && strcmp(status->valuestring, "interrupted") == 0);
  cr_assert(cJSON_IsString(error) && strstr(error->valuestring, signame), "%s",
            cJSON_IsString(error) ? error->valuestring : "");
  const double steps = json_number(s, "steps");
  cr_assert(steps > 0 && steps < 2000, "stopped between steps: %g", steps);
  cr_assert_float_eq(json_number(s, "time"), steps * 0.001, 1e-12);
}

Test(signals, sigterm_checkpoints_records_interrupted_and_the_resume_ends_as_an_uninterrupted_run,
     .timeout = 120) {
  const char *root = test_dir("sig_term");
  char full[1100], part[1100];
  snprintf(full, sizeof full, "%s/full", root);
  snprintf(part, sizeof part, "%s/part", root);
  /* 1 000 steps: 2.4 s of a run in the optimised build, well past the signal at 0.5 s */
  const char *args[] = {"run", source_path(HYDRO), "--quiet", "--threads", "1", "--set",
                        "spacing=0.05", "--set", "time.end=1", "--out", part,
                        "--checkpoint-every", "100000", NULL};
  cr_assert_eq(signal_run(args, part, SIGTERM), 143);
  cJSON *s = summary_of(part);
  expect_interrupted(s, "SIGTERM");
  cr_assert(strstr(cJSON_GetObjectItem(s, "error")->valuestring, "--resume"));
  cJSON_Delete(s);
  /* the checkpoint of the last complete step (none was due before), streams under .part */
  cr_assert(file_exists(path_in(part, "checkpoint.vbc")));
  cr_assert(file_exists(path_in(part, "series.csv.part")));
  cr_assert(!file_exists(path_in(part, "series.csv")), "nothing looks complete");
  /* the resumed run (without --checkpoint-*) is interrupted too: its checkpoint moves on */
  const double first = json_number(s = summary_of(part), "steps");
  cJSON_Delete(s);
  const char *resume[] = {"run", "--resume", part, "--quiet", "--threads", "1", NULL};
  cr_assert_eq(signal_run(resume, part, SIGTERM), 143);
  s = summary_of(part);
  expect_interrupted(s, "SIGTERM");
  cr_assert_geq(json_number(s, "steps"), first); /* > unless it was stopped before a step */
  cJSON_Delete(s);
  cr_assert(file_exists(path_in(part, "checkpoint.vbc")) && file_exists(path_in(part, "series.csv.part")));
  char *err = NULL;
  cr_assert_eq(run_vbc(resume, &err), 0, "%s", err ? err : "");
  free(err);
  const char *fresh[] = {"run", source_path(HYDRO), "--quiet", "--threads", "1", "--set",
                         "spacing=0.05", "--set", "time.end=1", "--out", full, NULL};
  cr_assert_eq(run_vbc(fresh, NULL), 0);
  char *a = read_text(path_in(full, "series.csv")), *b = read_text(path_in(part, "series.csv"));
  cr_assert(a && b && strcmp(a, b) == 0, "series.csv differs from the uninterrupted run's");
  free(a), free(b);
  s = summary_of(part);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_eq(json_number(s, "steps"), 1000);
  cJSON_Delete(s);
}

Test(signals, sigint_without_checkpointing_closes_the_streams_and_exits_130) {
  const char *dir = test_dir("sig_int");
  const char *args[] = {"run", source_path(HYDRO), "--quiet", "--threads", "1", "--set",
                        "spacing=0.05", "--set", "time.end=2", "--out", dir, NULL};
  cr_assert_eq(signal_run(args, dir, SIGINT), 130);
  cJSON *s = summary_of(dir);
  expect_interrupted(s, "SIGINT");
  const double steps = json_number(s, "steps");
  cJSON_Delete(s);
  cr_assert(!file_exists(path_in(dir, "checkpoint.vbc")));
  cr_assert(!file_exists(path_in(dir, "series.csv.part")));
  /* series.csv up to the interruption: a row every 10 steps (output_interval 0.01) */
  char *text = read_text(path_in(dir, "series.csv"));
  cr_assert_not_null(text);
  size_t rows = 0;
  for (const char *c = text; *c; ++c) rows += *c == '\n';
  free(text);
  cr_assert_eq(rows, 1 + 1 + (size_t)floor(steps / 10.0), "%zu rows after %g steps", rows, steps);
}

/* Ctrl-C on a sweep: its case is told SIGTERM, checkpoints (the spec's checkpoint_seconds is on)
 * and says "interrupted"; the next sweep resumes it instead of skipping it as done or failed. */
Test(signals, an_interrupted_sweep_case_is_resumed_by_the_next_sweep) {
  const char *dir = test_dir("sig_sweep");
  char spec[2048], out[1100], cases[1200], one[1500] = "";
  snprintf(spec, sizeof spec,
           "{\"scene\": \"%s\", \"set\": {\"spacing\": 0.05, \"time.end\": 1},"
           " \"vary\": {\"time.dt\": [0.001]}, \"metrics\": [\"pressure_error_raw\"]}",
           source_path(HYDRO));
  const char *spec_path = write_text(dir, "spec.json", spec);
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(cases, sizeof cases, "%s/cases", out);
  const char *args[] = {"sweep", spec_path, "--out", out, "-j", "1", NULL};
  pid_t sweep = spawn_vbc(args, "/dev/null", "/dev/null");
  for (int t = 0; t < 10000 && !one[0]; ++t) case_dir(cases, one, sizeof one), sleep_ms(1);
  for (int t = 0; t < 10000 && !file_exists(path_in(one, "series.csv.part")); ++t) sleep_ms(1);
  sleep_ms(300);
  int status;
  kill(sweep, SIGINT);
  waitpid(sweep, &status, 0);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130,
            "the sweep exits 128 + SIGINT, as run does");
  cJSON *s = summary_of(one);
  expect_interrupted(s, "SIGTERM");
  cJSON_Delete(s);
  cr_assert(file_exists(path_in(one, "checkpoint.vbc")));
  char *list_out = NULL;
  const char *list[] = {"sweep", spec_path, "--out", out, "--list", NULL};
  cr_assert_eq(run_vbc_to(list, path_in(dir, "list.txt"), "/dev/null"), 0);
  list_out = read_text(path_in(dir, "list.txt"));
  cr_assert(list_out && strstr(list_out, "incomplete"), "%s", list_out ? list_out : "");
  free(list_out);
  cr_assert_eq(run_vbc_to(args, "/dev/null", path_in(dir, "again.txt")), 0);
  char *again = read_text(path_in(dir, "again.txt"));
  cr_assert(again && strstr(again, "1 to run"), "%s", again ? again : "");
  free(again);
  char *json = read_text(path_in(one, "case.json"));
  cr_assert(json && strstr(json, "--resume"), "the case resumed from its checkpoint");
  free(json);
  s = summary_of(one);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_assert_eq(json_number(s, "steps"), 1000);
  cJSON_Delete(s);
}

/* --cpu-limit S: the run stops after the first step that takes its CPU time over S, as a signal
 * would (checkpoint, "interrupted"), exit 152, and says so in cpu_limit; a resume with a larger
 * limit runs to the end. */
Test(signals, a_cpu_limit_stops_between_steps_with_exit_152_and_the_resume_finishes) {
  const char *dir = test_dir("sig_cpu_limit");
  /* 300 steps: about 0.7 CPU s in the optimised build, 0.1 s is reached after a few dozen */
  const char *args[] = {"run", source_path(HYDRO), "--quiet", "--threads", "1", "--set",
                        "spacing=0.05", "--set", "time.end=0.3", "--out", dir,
                        "--checkpoint-every", "100000", "--cpu-limit", "0.1", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 152, "%s", err ? err : "");
  cr_expect(err && strstr(err, "stopped at its CPU-time limit of 0.1 s after step"), "%s", err);
  free(err);
  cJSON *s = summary_of(dir);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "interrupted");
  const double steps = json_number(s, "steps");
  cr_expect(steps >= 1 && steps < 300, "stopped between steps: %g", steps);
  cr_expect_float_eq(json_number(s, "time"), steps * 0.001, 1e-12);
  cr_expect_geq(json_number(s, "cpu_seconds"), 0.1);
  cr_expect_eq(json_number(s, "cpu_limit.seconds"), 0.1);
  cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "cpu_limit"), "reached")));
  cJSON_Delete(s);
  cr_assert(file_exists(path_in(dir, "checkpoint.vbc")));
  const char *resume[] = {"run", "--resume", dir, "--quiet", "--threads", "1", "--cpu-limit",
                          "1000", NULL};
  cr_assert_eq(run_vbc(resume, NULL), 0);
  s = summary_of(dir);
  cr_expect_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  cr_expect_eq(json_number(s, "steps"), 300);
  cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "cpu_limit"), "reached")));
  cJSON_Delete(s);
  const char *bad[] = {"run", source_path(HYDRO), "--cpu-limit", "0", NULL};
  cr_expect_eq(run_vbc(bad, NULL), 2, "a limit must be a positive number of CPU seconds");
}
