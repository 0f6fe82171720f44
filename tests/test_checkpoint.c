/* test_checkpoint.c — checkpoint and bit-identical restart (sim/checkpoint.h): runs killed with
 * SIGKILL at random moments (with a checkpoint after every step, so that kills land during
 * checkpoint writes too) and resumed, a fluid-only scene, a body scene under strong coupling and
 * a lemke_contacts scene, end with the series.csv, convergence.csv (but for its wall-time column),
 * frames and summary.json metrics of an uninterrupted run; a checkpoint of another scene or
 * another vbc version is refused with exit 2. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/support.h"

static char *slurp_stripped(const char *dir, const char *file, int strip) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  char *text = read_text(path);
  cr_assert_not_null(text, "%s", path);
  if (strip) strip_last_field(text);
  return text;
}

static void expect_same_file(const char *a, const char *b, const char *file, int strip) {
  char *x = slurp_stripped(a, file, strip), *y = slurp_stripped(b, file, strip);
  cr_assert_str_eq(x, y, "%s differs between %s and %s", file, a, b);
  free(x), free(y);
}

/* The outputs that must be bit-identical. */
static void expect_same_run(const char *a, const char *b, int frames) {
  expect_same_file(a, b, "series.csv", 0);
  expect_same_file(a, b, "convergence.csv", 1);
  if (frames) {
    expect_same_file(a, b, "frames.pvd", 0);
    expect_same_file(a, b, "frames/frame_000003.vtu", 0);
  }
  char pa[1200], pb[1200];
  snprintf(pa, sizeof pa, "%s/summary.json", a);
  snprintf(pb, sizeof pb, "%s/summary.json", b);
  cJSON *sa = read_json(pa), *sb = read_json(pb);
  cJSON *ma = cJSON_GetObjectItem(sa, "metrics"), *mb = cJSON_GetObjectItem(sb, "metrics");
  char *ta = cJSON_PrintUnformatted(ma), *tb = cJSON_PrintUnformatted(mb);
  cr_assert_str_eq(ta, tb, "metrics differ");
  cr_assert_eq(json_number(sa, "solver.iterations_total"), json_number(sb, "solver.iterations_total"));
  free(ta), free(tb);
  cJSON_Delete(sa), cJSON_Delete(sb);
}

static void sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

static int exists(const char *dir, const char *file) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  return file_exists(path);
}

/* Run args to completion, killing it up to `kills` times at random moments after a checkpoint
 * exists and resuming it each time; returns how many kills struck a running process. */
static int run_with_kills(const char *const *args, const char *dir, int kills, unsigned seed) {
  srand(seed);
  const char *resume[] = {"run", "--resume", dir, "--quiet", "--threads", "1", NULL};
  int done = 0, struck = 0;
  for (int k = 0; k < kills && !done; ++k) {
    pid_t pid = spawn_vbc(k ? resume : args, NULL, NULL);
    cr_assert_gt(pid, 0);
    int status = 0;
    while (!exists(dir, "checkpoint.vbc") && waitpid(pid, &status, WNOHANG) == 0) sleep_us(2000);
    if (waitpid(pid, &status, WNOHANG) != 0) { /* finished before a checkpoint appeared */
      done = 1;
      break;
    }
    sleep_us(rand() % 40000);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    done = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    struck += WIFSIGNALED(status);
  }
  if (!done || !exists(dir, "summary.json")) {
    char *err = NULL;
    int rc = run_vbc(resume, &err);
    cr_assert_eq(rc, 0, "resume: %s", err ? err : "");
    free(err);
  }
  cr_assert(!exists(dir, "checkpoint.vbc"), "a complete run removes its checkpoint");
  return struck;
}

static const char *kill_and_resume(const char *name, const char *scene,
                                   const char *const *sets, int frames) {
  const char *root = test_dir(name);
  char full[1100], part[1100];
  snprintf(full, sizeof full, "%s/full", root);
  snprintf(part, sizeof part, "%s/part", root);
  const char *args[40] = {"run", source_path(scene), "--quiet", "--threads", "1"};
  int n = 5;
  for (const char *const *s = sets; *s; ++s) args[n++] = "--set", args[n++] = *s;
  args[n] = "--out", args[n + 1] = full, args[n + 2] = NULL;
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 0, "%s", err ? err : "");
  free(err);
  args[n + 1] = part;
  args[n + 2] = "--checkpoint-every", args[n + 3] = "1", args[n + 4] = NULL;
  cr_assert_geq(run_with_kills(args, part, 3, (unsigned)time(NULL)), 1, "killed at least once");
  expect_same_run(full, part, frames);
  return root;
}

Test(checkpoint, a_killed_fluid_run_resumes_bit_for_bit) {
  kill_and_resume("ck_hydro", "experiments/scenes/hydrostatic.json",
                  SETS("spacing=0.05", "time.end=0.1", "output.frames=true",
                       "output.frame_interval=0.01"), 1);
}

Test(checkpoint, a_killed_body_run_under_strong_coupling_resumes_bit_for_bit) {
  kill_and_resume("ck_buoy", "experiments/scenes/buoyancy.json",
                  SETS("spacing=0.05", "time.end=0.2"), 0);
}

Test(checkpoint, a_killed_lemke_contacts_run_resumes_bit_for_bit) {
  kill_and_resume("ck_kurose", "experiments/scenes/kurose_bodies.json",
                  SETS("spacing=0.04", "time.end=0.2"), 0);
}

/* The staggered coupler and a benchmark with state of its own: the wedge's velocity history and
 * the water's potential energy at the start (its fluid_energy_ratio) come back from the
 * checkpoint. */
Test(checkpoint, a_killed_staggered_wedge_run_resumes_bit_for_bit) {
  kill_and_resume("ck_wedge", "experiments/scenes/wedge_entry.json",
                  SETS("spacing=0.02", "time.end=0.015"), 0);
}

/* Adaptive steps (time.cfl): the step sizes come from the restored state, the statistics from
 * the checkpoint. */
Test(checkpoint, a_killed_run_with_adaptive_steps_resumes_bit_for_bit) {
  const char *root =
      kill_and_resume("ck_adaptive", "experiments/scenes/dam_break.json",
                      SETS("spacing=0.02", "time.end=0.2", "time.dt=0.004", "time.cfl=0.4",
                           "time.output_interval=0.02"), 0);
  char pa[1200], pb[1200];
  snprintf(pa, sizeof pa, "%s/full/summary.json", root);
  snprintf(pb, sizeof pb, "%s/part/summary.json", root);
  cJSON *a = read_json(pa), *b = read_json(pb);
  char *ta = cJSON_PrintUnformatted(cJSON_GetObjectItem(a, "time_steps"));
  char *tb = cJSON_PrintUnformatted(cJSON_GetObjectItem(b, "time_steps"));
  cr_assert_str_eq(ta, tb);
  cr_assert(json_number(a, "time_steps.dt_min") < 0.004, "the steps adapted: %s", ta);
  free(ta), free(tb);
  cJSON_Delete(a), cJSON_Delete(b);
}

/* args run into dir and killed right after its first checkpoint, which is left there. */
static void kill_after_first_checkpoint(const char *const *args, const char *dir) {
  pid_t pid = spawn_vbc(args, NULL, NULL);
  int status = 0;
  while (!exists(dir, "checkpoint.vbc") && waitpid(pid, &status, WNOHANG) == 0) sleep_us(1000);
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  cr_assert(exists(dir, "checkpoint.vbc"));
}

/* A run with a checkpoint left in dir (killed right after its first one). */
static const char *killed_run(const char *name) {
  const char *dir = test_dir(name);
  const char *args[] = {"run", source_path("experiments/scenes/hydrostatic.json"), "--quiet",
                        "--set", "spacing=0.05", "--set", "time.end=0.1", "--out", dir,
                        "--checkpoint-every", "5", NULL};
  kill_after_first_checkpoint(args, dir);
  return dir;
}

/* What a solver carries from one solve to the next is in the checkpoint: relaxed Jacobi lowers
 * omega at step 16 of the floating box under pms (test_jacobi_bound.c) and keeps the lowered
 * factor; a run killed after its checkpoint at step 18 resumes with it, not with the scene's
 * 0.5, and ends as the uninterrupted run does. */
Test(checkpoint, a_lowered_omega_is_resumed) {
  const char *root = test_dir("ck_omega");
  char full[1100], part[1100];
  snprintf(full, sizeof full, "%s/full", root);
  snprintf(part, sizeof part, "%s/part", root);
  const char *args[] = {"run", source_path("experiments/scenes/buoyancy.json"), "--quiet",
                        "--threads", "1", "--set", "spacing=0.04", "--set", "method.coupler=pms",
                        "--set", "method.fluid.solver=jacobi", "--set", "time.end=0.15", "--out",
                        full, NULL, NULL, NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 0, "%s", err ? err : "");
  free(err), err = NULL;
  args[14] = part, args[15] = "--checkpoint-every", args[16] = "18";
  kill_after_first_checkpoint(args, part);
  const char *resume[] = {"run", "--resume", part, "--quiet", "--threads", "1", NULL};
  cr_assert_eq(run_vbc(resume, &err), 0, "resume: %s", err ? err : "");
  free(err);
  expect_same_run(full, part, 0);
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", part);
  cJSON *s = read_json(path);
  cr_assert_float_eq(json_number(s, "warnings.0.first_step"), 16.0, 0.0);
  cJSON_Delete(s);
}

Test(checkpoint, a_half_written_checkpoint_leaves_the_previous_one_usable) {
  const char *dir = killed_run("ck_torn");
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s/checkpoint.vbc.tmp", dir); /* a write the kill cut short */
  write_text(dir, "checkpoint.vbc.tmp", "VBCSTATE\\001 torn");
  cr_assert(file_exists(tmp));
  char *err = NULL;
  const char *resume[] = {"run", "--resume", dir, "--quiet", NULL};
  cr_assert_eq(run_vbc(resume, &err), 0, "%s", err ? err : "");
  free(err);
  cr_assert(exists(dir, "summary.json"));
}

Test(checkpoint, another_scene_or_version_is_refused) {
  const char *dir = killed_run("ck_mismatch");
  char *err = NULL;
  const char *other[] = {"run", source_path("experiments/scenes/hydrostatic.json"), "--quiet",
                         "--set", "spacing=0.05", "--set", "time.end=0.2", "--resume", dir,
                         NULL};
  cr_assert_eq(run_vbc(other, &err), 2);
  cr_assert(strstr(err, "another scene"), "%s", err);
  free(err);
  /* the same file with another version string */
  char path[1200];
  snprintf(path, sizeof path, "%s/checkpoint.vbc", dir);
  FILE *f = fopen(path, "r+b");
  cr_assert_not_null(f);
  char *buf = malloc(1 << 22);
  size_t n = fread(buf, 1, 1 << 22, f);
  const char *v = VBC_VERSION;
  char *at = NULL;
  for (size_t i = 0; i + strlen(v) <= n && at == NULL; ++i)
    if (memcmp(buf + i, v, strlen(v)) == 0) at = buf + i;
  cr_assert_not_null(at, "the version is in the file");
  at[0] = at[0] == '9' ? '8' : '9';
  fseek(f, at - buf, SEEK_SET);
  fwrite(at, 1, 1, f);
  fclose(f);
  free(buf);
  const char *resume[] = {"run", "--resume", dir, "--quiet", NULL};
  err = NULL;
  cr_assert_eq(run_vbc(resume, &err), 2);
  cr_assert(strstr(err, "a checkpoint of vbc") && strstr(err, "cannot resume"), "%s", err);
  free(err);
}

Test(checkpoint, resume_without_a_checkpoint_or_with_options_that_exclude_it_is_bad_input) {
  const char *dir = test_dir("ck_none");
  char *err = NULL;
  const char *resume[] = {"run", "--resume", dir, "--quiet", NULL};
  cr_assert_eq(run_vbc(resume, &err), 2);
  cr_assert(strstr(err, "checkpoint.vbc"), "%s", err);
  free(err);
  const char *both[] = {"run", source_path("experiments/scenes/hydrostatic.json"),
                        "--checkpoint-every", "0", NULL};
  err = NULL;
  cr_assert_eq(run_vbc(both, &err), 2);
  free(err);
}

/* vbc sweep resumes a case that was killed after a checkpoint from that checkpoint, and the case
 * ends as a run that was never killed. */
Test(checkpoint, a_sweep_resumes_a_killed_case_from_its_checkpoint) {
  const char *dir = test_dir("ck_sweep");
  char spec[4096], out[1100], cases[1200], one[1500] = "", path[1600];
  snprintf(spec, sizeof spec,
           "{\"scene\": \"%s\", \"set\": {\"spacing\": 0.05, \"time.end\": 0.4},"
           " \"vary\": {\"time.dt\": [0.001]}, \"checkpoint_seconds\": 1e-6,"
           " \"metrics\": [\"pressure_error_raw\"]}",
           source_path("experiments/scenes/hydrostatic.json"));
  const char *spec_path = write_text(dir, "spec.json", spec);
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(cases, sizeof cases, "%s/cases", out);
  const char *args[] = {"sweep", spec_path, "--out", out, "-j", "1", NULL};
  pid_t sweep = spawn_vbc(args, NULL, NULL);
  for (int t = 0; t < 20000 && !one[0]; ++t) {
    case_dir(cases, one, sizeof one);
    sleep_us(500);
  }
  snprintf(path, sizeof path, "%s/checkpoint.vbc", one);
  for (int t = 0; t < 20000 && !file_exists(path); ++t) sleep_us(500);
  sleep_us(20000);
  /* the sweep, a moment after its case's first checkpoint; the case dies with it */
  int status;
  kill(sweep, SIGKILL);
  waitpid(sweep, &status, 0);
  sleep_us(100000);
  cr_assert(file_exists(path), "the case was killed after a checkpoint");
  snprintf(path, sizeof path, "%s/summary.json", one);
  cJSON *killed = read_json(path); /* none, or "interrupted" if its SIGTERM came between steps */
  const cJSON *st = cJSON_GetObjectItem(killed, "status");
  cr_assert(killed == NULL || (cJSON_IsString(st) &&
                               strcmp(st->valuestring, "interrupted") == 0),
            "and before it completed");
  cJSON_Delete(killed);
  cr_assert_eq(run_vbc_to(args, "/dev/null", "/dev/null"), 0, "the sweep runs the case to its end");
  snprintf(path, sizeof path, "%s/case.json", one);
  char *json = read_text(path);
  cr_assert(json && strstr(json, "--resume"), "case.json records the --resume");
  free(json);
  char full[1100];
  snprintf(full, sizeof full, "%s/full", dir);
  const char *fresh[] = {"run", source_path("experiments/scenes/hydrostatic.json"), "--quiet",
                         "--threads", "1", "--set", "spacing=0.05", "--set", "time.end=0.4",
                         "--set", "time.dt=0.001", "--out", full, NULL};
  cr_assert_eq(run_vbc(fresh, NULL), 0);
  expect_same_file(full, one, "series.csv", 0);
}
