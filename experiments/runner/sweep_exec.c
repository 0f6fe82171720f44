/* sweep_exec.c — running the cases: up to N `vbc run` processes at once, each writing into its
 * case directory, its output in log.txt, its outcome in result.json.
 *
 * Why processes and not threads: a case that crashes or is killed cannot take the others with
 * it, each case is exactly what `vbc run` would do by hand, and a cluster can run the same
 * commands (--emit-jobs). With more than one job each case gets one OpenMP thread unless
 * `--threads N` says otherwise (docs/notes/bench-journal.md: on 2 cores, oversubscribed threads
 * are slower than none), and, if the user binds threads, a place of its own: bound alike, they
 * all sat on the first CPU. Children die with the runner (PR_SET_PDEATHSIG), so a killed sweep
 * leaves incomplete directories, never a run that goes on writing into a directory the next
 * sweep is about to clear.
 *
 * A case's own output goes to its log.txt, where a long case can stay silent for minutes (one
 * progress line per output interval). So while cases run the runner says, at least every
 * `progress_seconds` per case, where each one is: the simulated time of the case's latest
 * progress line against its end time, and the wall time since it started. */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/checkpoint.h"
#include "io/files.h"
#include "io/json_file.h"
#include "core/json_util.h"
#include "sim/progress.h"
#include "experiments/runner/sweep.h"
#include "experiments/runner/sweep_lock.h"
#include "experiments/runner/sweep_spawn.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) { interrupted = sig; }

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

/* A case directory starts empty: nothing of a killed or forced earlier run survives. */
static int fresh_dir(const char *dir, vbc_error *err) {
  struct stat st;
  if (stat(dir, &st) == 0 && nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "cannot clear %s: %s", dir, strerror(errno));
  return vbc_mkdir_p(dir, err);
}

static int write_case_json(const vbc_sweep *sw, const vbc_sweep_case *c, char **argv,
                           vbc_error *err) {
  char dir[1100], path[1200];
  vbc_sweep_case_dir(sw, c, dir, sizeof dir);
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "id", c->id);
  cJSON_AddStringToObject(root, "sweep", sw->spec.file);
  cJSON_AddStringToObject(root, "label", c->label);
  cJSON *values = cJSON_AddObjectToObject(root, "values");
  for (size_t k = 0; !c->is_state && k < sw->spec.nkeys; ++k) {
    const char *eq = strchr(c->sets[k], '=');
    char key[256];
    snprintf(key, sizeof key, "%.*s", (int)(eq - c->sets[k]), c->sets[k]);
    cJSON_AddItemToObject(values, key, cJSON_Duplicate(c->values[k], 1));
  }
  cJSON_AddNumberToObject(root, "repeat", c->repeat);
  cJSON *cmd = cJSON_AddArrayToObject(root, "command");
  for (size_t i = 0; argv[i]; ++i) cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
  snprintf(path, sizeof path, "%s/case.json", dir);
  return vbc_json_write_file(path, root, err);
}

/* The message of a failed run: the first "vbc: " line of its log that is not a note. */
static void log_message(const char *dir, char *out, size_t size) {
  char path[1200], line[1024];
  snprintf(path, sizeof path, "%s/log.txt", dir);
  FILE *f = fopen(path, "r");
  out[0] = '\0';
  while (f && fgets(line, sizeof line, f)) {
    if (strncmp(line, "vbc: ", 5) != 0 || strncmp(line, "vbc: warning", 12) == 0 ||
        strncmp(line, "vbc: the last good", 18) == 0 || strncmp(line, "vbc: wrote", 10) == 0)
      continue;
    line[strcspn(line, "\n")] = '\0';
    snprintf(out, size, "%.500s", line + 5);
    break;
  }
  if (f) fclose(f);
}

static int write_result(const vbc_sweep *sw, vbc_sweep_case *c, int code, double seconds,
                        vbc_error *err) {
  char dir[1100], path[1200];
  vbc_sweep_case_dir(sw, c, dir, sizeof dir);
  if (code != 0) log_message(dir, c->message, sizeof c->message);
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "id", c->id);
  cJSON_AddNumberToObject(root, "exit_code", code);
  /* no message is null, as every missing value the runner writes in JSON */
  cJSON_AddItemToObject(root, "message", code ? cJSON_CreateString(c->message) : cJSON_CreateNull());
  cJSON_AddNumberToObject(root, "seconds", seconds);
  snprintf(path, sizeof path, "%s/result.json", dir);
  return vbc_json_write_file(path, root, err);
}

typedef struct slot {
  pid_t pid;
  vbc_sweep *sw; /* the sweep of the case it runs */
  vbc_sweep_case *c;
  double started, last_beat;
  vbc_case_lock lock; /* the case's, held while it runs (experiments/runner/sweep_lock.h) */
} slot;

/* A case killed after it wrote a checkpoint (and before summary.json), or interrupted by a
 * signal (summary.json with "status": "interrupted" beside its checkpoint), resumes from it. */
static int resumable(const char *dir) {
  char path[1200];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, VBC_CHECKPOINT_FILE);
  if (stat(path, &st) != 0) return 0;
  snprintf(path, sizeof path, "%s/summary.json", dir);
  if (stat(path, &st) != 0) return 1;
  vbc_error ignored = {0};
  cJSON *summary = vbc_json_load_file(path, &ignored);
  const cJSON *status = cJSON_GetObjectItemCaseSensitive(summary, "status");
  const int interrupted = cJSON_IsString(status) && strcmp(status->valuestring, "interrupted") == 0;
  cJSON_Delete(summary);
  return interrupted;
}

/* Case c in slot k. One-thread cases side by side with bound threads get a place each
 * (sweep_spawn.h). */
static pid_t start_case(const vbc_sweep *sw, vbc_sweep_case *c, const char *vbc, int threads,
                        int k, const vbc_case_lock *lock, vbc_error *err) {
  vbc_spawn_place own;
  const vbc_spawn_place *place = threads == 1 && vbc_spawn_place_of_slot(k, &own) ? &own : NULL;
  char dir[1100], log[1200];
  vbc_sweep_case_dir(sw, c, dir, sizeof dir);
  const int resume = resumable(dir);
  char **argv = vbc_sweep_case_argv(sw, c, vbc, threads, resume);
  if (argv == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory"), -1;
  if ((!resume && fresh_dir(dir, err) != VBC_OK) || write_case_json(sw, c, argv, err) != VBC_OK) {
    vbc_sweep_argv_free(argv);
    return -1;
  }
  snprintf(log, sizeof log, "%s/log.txt", dir);
  vbc_case_lock_inherit(lock, 1); /* the case's run holds its lock too, until it exits */
  pid_t pid = vbc_spawn_logged(vbc, argv, NULL, log, 1, place, err);
  vbc_case_lock_inherit(lock, 0);
  vbc_sweep_argv_free(argv);
  return pid;
}

static void format_duration(double s, char *buf, size_t size) {
  if (s < 60) snprintf(buf, size, "%.1f s", s);
  else if (s < 3600) snprintf(buf, size, "%dm%02ds", (int)(s / 60), (int)s % 60);
  else snprintf(buf, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

typedef struct tally {
  size_t total, finished, ran, failed, queued;
  double t0;
} tally;

/* "[ 3/12] 1a2b3c4d5e6f spacing=0.01  ok  12.3 s  semi_major_error=0.0064 | ETA 1m12s" */
static void report(const vbc_sweep *sw, const vbc_sweep_case *c, double seconds, tally *t) {
  char took[32], eta[32] = "";
  format_duration(seconds, took, sizeof took);
  size_t left = t->queued - t->ran;
  if (left > 0) {
    format_duration((vbc_now() - t->t0) / (double)t->ran * (double)left, eta, sizeof eta);
  }
  fprintf(stderr, "[%*zu/%zu] %s %s  %s  %s", t->total > 99 ? 3 : 2, t->finished, t->total,
          c->id, c->label, c->state == VBC_CASE_DONE         ? "ok"
          : c->state == VBC_CASE_INCOMPLETE ? "interrupted"
                                            : "FAILED",
          took);
  if (c->state == VBC_CASE_DONE && sw->spec.nmetrics > 0 && !c->is_state) {
    cJSON *summary = vbc_sweep_case_json(sw, c, "summary.json");
    for (size_t m = 0; m < sw->spec.nmetrics && m < 3; ++m) {
      const cJSON *v = vbc_sweep_case_value(summary, sw->spec.metrics[m]);
      fprintf(stderr, "  %s=", sw->spec.metrics[m]); /* missing: empty, as in table.csv */
      if (cJSON_IsNumber(v)) fprintf(stderr, "%.4g", v->valuedouble);
      else if (cJSON_IsString(v)) fprintf(stderr, "%s", v->valuestring);
    }
    cJSON_Delete(summary);
  } else if (c->state != VBC_CASE_DONE) {
    fprintf(stderr, "  %s", c->message);
  }
  if (left > 0) fprintf(stderr, "  | %zu left, ETA %s", left, eta);
  fputc('\n', stderr);
}

static int finish_case(slot *s, int status, tally *t, vbc_error *err) {
  const vbc_sweep *sw = s->sw;
  double seconds = vbc_now() - s->started;
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (WIFSIGNALED(status) && interrupted) return VBC_OK; /* stays incomplete: rerun next time */
  if (write_result(sw, s->c, code, seconds, err) != VBC_OK) return err->code;
  vbc_sweep_refresh_state(sw, s->c);
  if (code != 0 && s->c->state == VBC_CASE_DONE) s->c->state = VBC_CASE_FAILED;
  if (WIFSIGNALED(status) && s->c->message[0] == '\0')
    snprintf(s->c->message, sizeof s->c->message, "killed by signal %d", WTERMSIG(status));
  t->finished++, t->ran++;
  t->failed += s->c->state != VBC_CASE_DONE;
  report(sw, s->c, seconds, t);
  return VBC_OK;
}

static int needs_run(const vbc_sweep_case *c, int force) {
  if (c->state == VBC_CASE_REFUSED || c->held) return 0;
  return force || c->state == VBC_CASE_PENDING || c->state == VBC_CASE_INCOMPLETE;
}

/* The simulated time and step of a running case's latest progress line in its log.txt
 * (`step N/M t=T s …`, sim/progress.c); 0 if it has printed none yet. Only the log's tail is
 * read: the line is near its end. */
static int latest_progress(const vbc_sweep *sw, const vbc_sweep_case *c, double *t, long *step,
                           long *steps) {
  char dir[1100], path[1200], tail[8193];
  snprintf(path, sizeof path, "%s/log.txt", vbc_sweep_case_dir(sw, c, dir, sizeof dir));
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  size_t n = 0;
  if (fseek(f, 0, SEEK_END) == 0) {
    long size = ftell(f);
    fseek(f, size > (long)sizeof tail - 1 ? size - (long)(sizeof tail - 1) : 0, SEEK_SET);
    n = fread(tail, 1, sizeof tail - 1, f);
  }
  fclose(f);
  tail[n] = '\0';
  int found = 0;
  for (char *line = tail; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
    found |= sscanf(line, "step %ld/%ld t=%lg", step, steps, t) == 3;
  return found;
}

/* "[running] 1a2b3c4d5e6f  t = 0.12 s of 1 s (step 60/500)  40 s elapsed" */
static void heartbeat(const slot *s, double now) {
  const vbc_sweep *sw = s->sw;
  char took[32], where[160];
  double t;
  long step, steps;
  format_duration(now - s->started, took, sizeof took);
  if (isnan(s->c->t_end))
    snprintf(where, sizeof where, "replaying the frozen state's step");
  else if (latest_progress(sw, s->c, &t, &step, &steps))
    snprintf(where, sizeof where, "t = %.4g s of %.4g s (step %ld/%ld)", t, s->c->t_end, step,
             steps);
  else
    snprintf(where, sizeof where, "t = ? s of %.4g s (no progress line yet)", s->c->t_end);
  fprintf(stderr, "[running] %s  %s  %s elapsed\n", s->c->id, where, took);
}

/* Wait for one child, saying where each running case is at least every `beat` seconds (0: never);
 * returns its slot index or -1 (interrupted, or no child). */
static int wait_one(slot *slots, int jobs, double beat, int *status) {
  for (;;) {
    pid_t pid = waitpid(-1, status, WNOHANG);
    if (pid < 0) return -1;
    for (int i = 0; pid > 0 && i < jobs; ++i)
      if (slots[i].pid == pid) return i;
    if (pid > 0) continue;
    if (interrupted) return -1;
    const double now = vbc_now();
    for (int i = 0; beat > 0.0 && i < jobs; ++i)
      if (slots[i].pid > 0 && now - slots[i].last_beat >= beat) {
        heartbeat(&slots[i], now);
        slots[i].last_beat = now;
      }
    nanosleep(&(struct timespec){0, 50000000L}, NULL); /* 50 ms: a finished case is seen soon */
  }
}

static void stop_children(slot *slots, int jobs) {
  for (int i = 0; i < jobs; ++i)
    if (slots[i].pid > 0) kill(slots[i].pid, SIGTERM);
  for (int i = 0; i < jobs; ++i)
    if (slots[i].pid > 0) waitpid(slots[i].pid, NULL, 0);
  for (int i = 0; i < jobs; ++i) vbc_case_lock_release(&slots[i].lock);
}

typedef struct queue {
  vbc_sweep **sweeps;     /* the sweep of each case */
  vbc_sweep_case **cases; /* NULL once started, or settled by another process */
  unsigned char *told;    /* "being run by …" said for this case */
  size_t n;
  int force, side_by_side; /* side by side: more than one job and case (one thread each) */
} queue;

/* A case another process ran while this one waited: counted, not run. */
static void settled_elsewhere(vbc_sweep_case *c, tally *t) {
  t->finished++, t->queued--;
  fprintf(stderr, "[%*zu/%zu] %s %s  %s by another sweep\n", t->total > 99 ? 3 : 2, t->finished,
          t->total, c->id, c->label, c->state == VBC_CASE_DONE ? "done" : "failed");
}

/* Start in slot s (number k) the first queued case whose lock is free, its state read again
 * under the lock (another sweep sharing the cases may have run it since this one looked).
 * 1: started; 0: every queued case is held by another process; -1: err. */
static int start_next(queue *q, slot *s, int k, const char *vbc, tally *t, vbc_error *err) {
  for (size_t i = 0; i < q->n; ++i) {
    vbc_sweep *sw = q->sweeps[i];
    vbc_sweep_case *c = q->cases[i];
    char holder[300];
    if (c == NULL) continue;
    int got = vbc_case_lock_try(&s->lock, sw->cases_dir, c->id, holder, sizeof holder, err);
    if (got == VBC_LOCK_BUSY && !q->told[i])
      fprintf(stderr, "case %s is being run by %s: the others first, then it\n", c->id, holder);
    q->told[i] |= got == VBC_LOCK_BUSY;
    if (got == VBC_LOCK_BUSY) continue;
    if (got != VBC_OK) return -1;
    q->cases[i] = NULL;
    vbc_sweep_refresh_state(sw, c);
    if (!needs_run(c, q->force)) {
      vbc_case_lock_release(&s->lock);
      settled_elsewhere(c, t);
      continue;
    }
    s->sw = sw, s->c = c;
    s->started = s->last_beat = vbc_now();
    /* --threads N for every case; else one each when they run side by side, else all cores */
    const int threads = sw->threads > 0 ? sw->threads : q->side_by_side ? 1 : 0;
    s->pid = start_case(sw, c, vbc, threads, k, &s->lock, err);
    if (s->pid > 0) return 1;
    s->pid = 0;
    vbc_case_lock_release(&s->lock);
    return -1;
  }
  return 0;
}

static size_t queued(const queue *q) {
  size_t n = 0;
  for (size_t i = 0; i < q->n; ++i) n += q->cases[i] != NULL;
  return n;
}

/* Run the nq cases (cases[i] of sweeps[i]), up to jobs at once. */
static int run_queue(vbc_sweep **sweeps, vbc_sweep_case **cases, size_t nq, const char *vbc,
                     int jobs, int force, tally *t, vbc_error *err) {
  slot *slots = vbc_calloc((size_t)jobs, sizeof *slots, err);
  queue q = {.sweeps = sweeps, .n = nq, .force = force, .side_by_side = jobs > 1 && nq > 1};
  q.cases = slots ? vbc_calloc(nq ? nq : 1, sizeof *q.cases, err) : NULL;
  q.told = q.cases ? vbc_calloc(nq ? nq : 1, 1, err) : NULL;
  if (q.told == NULL) return free(slots), free(q.cases), err->code;
  memcpy(q.cases, cases, nq * sizeof *cases);
  for (int i = 0; i < jobs; ++i) slots[i].lock.fd = -1;
  int running = 0, rc = VBC_OK;
  while (rc == VBC_OK && !interrupted && (queued(&q) > 0 || running > 0)) {
    for (int i = 0; i < jobs && !interrupted; ++i) {
      if (slots[i].pid > 0) continue;
      int started = start_next(&q, &slots[i], i, vbc, t, err);
      if (started < 0) rc = err->code;
      if (started <= 0) break;
      running++;
    }
    if (rc != VBC_OK || interrupted) break;
    if (running == 0) { /* what is left runs elsewhere: look again in a moment */
      if (queued(&q) > 0) nanosleep(&(struct timespec){0, 200000000L}, NULL);
      continue;
    }
    const vbc_sweep *sw = sweeps[0]; /* the sweeps run together share quiet and progress */
    int status, i = wait_one(slots, jobs, sw->quiet ? 0.0 : sw->progress_seconds, &status);
    if (i < 0) continue;
    rc = finish_case(&slots[i], status, t, err);
    vbc_case_lock_release(&slots[i].lock);
    slots[i].pid = 0;
    running--;
  }
  stop_children(slots, jobs);
  free(slots), free(q.cases), free(q.told);
  if (rc == VBC_OK && interrupted)
    rc = vbc_error_set(err, VBC_EXIT_INTERRUPTED + (int)interrupted,
                       "interrupted by signal %d: unfinished cases stay incomplete and run again "
                       "when the sweep is restarted", (int)interrupted);
  return rc;
}

static void install_handlers(struct sigaction *old_int, struct sigaction *old_term) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns, the loop sees the flag */
  sigemptyset(&sa.sa_mask);
  interrupted = 0;
  sigaction(SIGINT, &sa, old_int);
  sigaction(SIGTERM, &sa, old_term);
}

/* "sweep NAME: 12 cases, 3 to run (one thread each), output in DIR" */
static void announce(const vbc_sweep *sw, size_t to_run, int side_by_side) {
  char threads[48] = "";
  if (sw->threads > 0)
    snprintf(threads, sizeof threads, " (%d thread%s each)", sw->threads, sw->threads > 1 ? "s" : "");
  else if (side_by_side)
    snprintf(threads, sizeof threads, " (one thread each)");
  fprintf(stderr, "sweep %s: %zu cases, %zu to run%s, output in %s\n", sw->spec.name, sw->ncases,
          to_run, threads, sw->out);
}

int vbc_sweep_execute_together(vbc_sweep *sweeps, size_t n, const char *vbc, int jobs,
                               int force, const char *only, vbc_error *err) {
  size_t total = 0, nq = 0, nstate = 0;
  for (size_t k = 0; k < n; ++k) total += sweeps[k].ncases;
  vbc_sweep_case **queue = vbc_calloc(total ? total : 1, sizeof *queue, err);
  vbc_sweep **of = queue ? vbc_calloc(total ? total : 1, sizeof *of, err) : NULL;
  if (of == NULL) return free(queue), err->code;
  tally t = {.total = total, .t0 = vbc_now()};
  /* the frozen states come first: every other case of their sweeps reads them */
  for (int pass = 0; pass < 2; ++pass)
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < sweeps[k].ncases; ++i) {
        vbc_sweep_case *c = &sweeps[k].cases[i];
        if (c->is_state != (pass == 0)) continue;
        if ((only == NULL || strcmp(c->id, only) == 0) && needs_run(c, force))
          of[nq] = &sweeps[k], queue[nq++] = c, nstate += pass == 0;
        else
          t.finished++;
      }
  t.queued = nq;
  for (size_t k = 0; k < n; ++k) {
    size_t mine = 0;
    for (size_t q = 0; q < nq; ++q) mine += of[q] == &sweeps[k];
    if (n == 1 || mine > 0) announce(&sweeps[k], mine, nq > 1 && jobs > 1);
  }
  int rc = VBC_OK;
  struct sigaction old_int, old_term;
  install_handlers(&old_int, &old_term);
  for (size_t q = 0; rc == VBC_OK && q < nstate; ++q) {
    rc = run_queue(of + q, queue + q, 1, vbc, 1, force, &t, err);
    if (rc == VBC_OK && queue[q]->state != VBC_CASE_DONE)
      rc = vbc_error_set(err, VBC_EXIT_FAILED, "the frozen-state case %s failed: %s",
                         queue[q]->id, queue[q]->message);
  }
  if (rc == VBC_OK)
    rc = run_queue(of + nstate, queue + nstate, nq - nstate, vbc, jobs, force, &t, err);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  free(queue), free(of);
  return rc;
}

int vbc_sweep_execute(vbc_sweep *sw, const char *vbc, int jobs, int force, const char *only,
                      vbc_error *err) {
  return vbc_sweep_execute_together(sw, 1, vbc, jobs, force, only, err);
}
