/* run.c — the time loop of `vbc run` (docs/cli.md).
 *
 * Per step: keep a copy of the state, let the coupler advance it, check it (non-finite values,
 * particles outside the domain), record solver statistics, sample convergence, let the benchmark
 * observe, write series rows and frames at their intervals. On failure the copy is the last good
 * state: it is written as a frame, the streams are closed, summary.json records the failure.
 *
 * Frozen states (sim/state_file.h): --dump-state writes the state at the start of the chosen
 * step, before the step touches it; --from-state loads such a state over the generated particles
 * and runs the one step that follows, so that solvers can be compared on the identical problem.
 * --dump-lcp installs lcp/lcp_dump.c as the system's solve hook for the chosen step only.
 * --exact-reference gives the trace Lemke's solution of each traced solve as its reference
 * (lcp/exact_reference.h), so it costs nothing in the steps convergence.csv does not sample. */
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/benchmark.h"
#include "sim/backup.h"
#include "sim/checkpoint.h"
#include "lcp/exact_reference.h"
#include "io/files.h"
#include "lcp/lcp_dump.h"
#include "core/number_density.h"
#include "sim/monitors.h"
#include "sim/output.h"
#include "sim/profile.h"
#include "sim/run.h"
#include "sim/schedule.h"
#include "sim/sim.h"
#include "sim/sim_api.h"
#include "sim/state_file.h"
#include "sim/summary.h"
#include "core/parallel.h"

/* Prefix a failure with the step and the time that step was advancing to: the one place that
 * does, for failures of the coupler and of the state check alike. */
static int failed_at(vbc_error *err, const vbc_sim *sim, double t) {
  char msg[sizeof err->message];
  snprintf(msg, sizeof msg, "%s", err->message);
  int code = err->code;
  vbc_error_clear(err);
  return vbc_error_set(err, code, "step %ld (t = %.6g s): %s", sim->step, t, msg);
}

typedef struct loop {
  const vbc_run_options *opt;
  vbc_sim sim;
  vbc_output out;
  vbc_backup last_good;
  vbc_solve_trace trace;
  vbc_run_stats stats;
  const vbc_benchmark_type *bench;
  void *bench_state;
  vbc_progress progress;
  vbc_schedule sched;          /* series rows, frames, step sizes, the end (sim/schedule.h) */
  double t_after;              /* the time the current step ends at */
  int frames;                  /* the scene's output.frames, off with --from-state */
  vbc_step_report report;      /* of the latest step: a --from-state run's metrics */
  vbc_lcp_dump lcp_dump;       /* --dump-lcp */
  vbc_exact_reference xref;    /* --exact-reference */
  double last_checkpoint;      /* wall clock of the last checkpoint (or the start) */
  long checkpoint_step;        /* the step of DIR/checkpoint.vbc, -1: none (yet) */
  double *observed;            /* the run observer's latest values (opt->observer), or NULL */
} loop;

static vbc_checkpoint_run checkpoint_run(loop *L) {
  return (vbc_checkpoint_run){&L->sim, &L->stats, &L->out, L->bench, L->bench_state,
                              L->opt->sets, L->opt->nsets};
}

/* After a completed step: a checkpoint when one is due (never after the last step). */
static int maybe_checkpoint(loop *L, vbc_error *err) {
  const vbc_run_options *o = L->opt;
  const long step = L->sim.step;
  if (vbc_schedule_finished(&L->sched, &L->sim)) return VBC_OK;
  const int due = (o->checkpoint_every > 0 && step % o->checkpoint_every == 0) ||
                  (o->checkpoint_seconds > 0.0 &&
                   vbc_now() - L->last_checkpoint >= o->checkpoint_seconds);
  if (!due) return VBC_OK;
  const vbc_checkpoint_run r = checkpoint_run(L);
  if (vbc_checkpoint_write(L->out.dir, &r, err) != VBC_OK) return err->code;
  L->last_checkpoint = vbc_now();
  L->checkpoint_step = step;
  return VBC_OK;
}

static int write_series(loop *L, vbc_error *err) {
  vbc_run_stats *st = &L->stats;
  double mean = st->window_steps ? (double)st->window_iterations / (double)st->window_steps : 0.0;
  st->window_steps = st->window_iterations = 0;
  const int max = st->window_max;
  st->window_max = 0;
  const vbc_run_observer *obs = L->opt->observer;
  return vbc_output_series(&L->out, &L->sim, mean, max, st->stage[st->primary].last_relres,
                           L->bench, L->bench_state, L->observed, obs ? obs->ncolumns : 0, err);
}

/* The run observer's figures at t = 0 and after every obs->every-th step. */
static int observe(loop *L, vbc_error *err) {
  const vbc_run_observer *obs = L->opt->observer;
  if (obs == NULL || L->sim.step % obs->every != 0) return VBC_OK;
  return vbc_run_observer_call(obs, &L->sim, &L->report, L->observed, err);
}

/* A replayed solve that fails keeps its trace up to the failure: with --from-state the divergence
 * of a scheme is the curve one wants to see. */
/* A particle that leaves the domain at 1e25 m/s is the symptom; a solve of the step whose
 * residual ended above where it started is the cause, and the message says so first. */
static void name_divergence(const vbc_step_report *rep, vbc_error *err) {
  for (size_t s = 0; s < rep->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
    const vbc_solve_result *res = &r->result;
    if (!r->solved || !(res->residual_ref > 0.0) || !(res->residual > res->residual_ref)) continue;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    const int code = err->code;
    vbc_error_clear(err);
    const char *hint = r->solver->relaxation_key
                           ? "lower its relaxation (the set-up's bound holds for the rows of the "
                             "first two steps only; rows added later, as contacts, can lower it) "
                             "or use pgs"
                           : r->solver->divergence_hint;
    vbc_error_set(err, code, "stage %s: %s diverged (its residual ended %.3g times where it "
                  "started, after %d iterations)%s%s; then: %s", r->label, r->solver->name,
                  res->residual / res->residual_ref, res->iterations, hint ? ": " : "",
                  hint ? hint : "", msg);
    return;
  }
}

static int step_failed(loop *L, const vbc_step_report *rep, vbc_error *err) {
  vbc_sim *sim = &L->sim;
  if (L->opt->from_state && rep->traced) {
    sim->time = L->t_after;
    vbc_output_convergence(&L->out, sim, &L->trace, rep->traced, &(vbc_error){0});
  }
  return failed_at(err, sim, L->t_after);
}

/* --dump-lcp: every solve of this step goes through the hook (lcp/lcp_dump.h). */
static void lcp_dump_begin(loop *L) {
  vbc_sim *sim = &L->sim;
  vbc_lcp_dump *d = &L->lcp_dump;
  *d = (vbc_lcp_dump){.dir = L->opt->dump_lcp_dir, .scene_file = sim->scene->file,
                      .step = sim->step, .time = L->last_good.time, .dt = sim->sys.dt};
  sim->sys.solve_hook = vbc_lcp_dump_solve;
  sim->sys.solve_hook_ctx = d;
}

static void lcp_dump_end(loop *L) {
  vbc_lcp_dump *d = &L->lcp_dump;
  L->sim.sys.solve_hook = NULL;
  L->sim.sys.solve_hook_ctx = NULL;
  if (L->progress.mode == VBC_PROGRESS_OFF) return;
  const char *nl = L->progress.mode == VBC_PROGRESS_BAR ? "\n" : "";
  for (int k = 0; k < d->nlog; ++k)
    fprintf(stderr, "%svbc: --dump-lcp: %s\n", k ? "" : nl, d->log[k]);
  if (d->solves == 0)
    fprintf(stderr, "%svbc: --dump-lcp: step %ld ran no solve\n", nl, d->step);
}

/* --exact-reference: why a traced solve had no reference, the first time it happens. */
static void exact_reference_note(loop *L) {
  const char *why = vbc_exact_reference_take_note(&L->xref);
  if (why == NULL) return;
  fprintf(stderr, "%svbc: --exact-reference: step %ld: no exact reference, its reference columns "
          "stay empty: %s (said once)\n", L->progress.mode == VBC_PROGRESS_BAR ? "\n" : "",
          L->sim.step, why);
}

/* The first solve of a stage that stops at its iteration cap is said at once (summary.json counts
 * every such solve per stage). */
static void warn_iteration_cap(loop *L, const vbc_step_report *rep) {
  for (size_t s = 0; s < rep->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
    const vbc_stage_stats *g = &L->stats.stage[s];
    if (!r->solved || r->result.reason != VBC_STOP_MAX_ITERATIONS ||
        g->stops[VBC_STOP_MAX_ITERATIONS] != 1)
      continue;
    fprintf(stderr, "%svbc: warning: step %ld: stage %s: %s stopped at max_iterations (%d) with "
            "relative residual %.3g > tolerance; summary.json counts every such solve\n",
            L->progress.mode == VBC_PROGRESS_BAR ? "\n" : "", L->sim.step, r->label,
            r->solver->name, r->result.iterations, g->last_relres);
  }
}

static int one_step(loop *L, vbc_error *err) {
  vbc_sim *sim = &L->sim;
  const vbc_scene *sc = sim->scene;
  if (L->opt->dump_path && sim->step + 1 == L->opt->dump_step &&
      vbc_state_write(L->opt->dump_path, sim, err) != VBC_OK)
    return err->code;
  vbc_backup_swap(&L->last_good, &sim->particles, 1);
  if (sim->sys.nbodies)
    memcpy(L->last_good.bodies, sim->bodies, sim->sys.nbodies * sizeof *sim->bodies);
  L->last_good.time = sim->time;
  sim->step++;
  if (vbc_schedule_begin_step(&L->sched, sim, &L->t_after, err) != VBC_OK) return err->code;
  int sampled = L->opt->from_state != NULL ||
                (sc->convergence_every > 0 &&
                 (sim->step == 1 || sim->step % sc->convergence_every == 0));
  vbc_step_report *rep = &L->report;
  rep->trace = sampled ? &L->trace : NULL;
  const int dump_lcp = L->opt->dump_lcp_dir && sim->step == L->opt->dump_lcp_step;
  if (dump_lcp) lcp_dump_begin(L);
  int rc = vbc_sim_step(sim, rep, err);
  if (dump_lcp) lcp_dump_end(L);
  if (L->opt->exact_reference) exact_reference_note(L);
  if (rc != VBC_OK) return step_failed(L, rep, err);
  sim->time = L->t_after;
  vbc_time_steps_add(&sim->time_steps, sim->sys.dt);
  vbc_run_stats *st = &L->stats;
  double t0 = vbc_now();
  if (vbc_sim_check(sim, err) != VBC_OK) {
    name_divergence(rep, err);
    return step_failed(L, rep, err);
  }
  st->steps_run++;
  if (vbc_run_stats_add(st, rep, err) != VBC_OK) return err->code;
  warn_iteration_cap(L, rep);
  if (vbc_monitors_step(st, sim, rep, L->opt->strict || sc->strict, err) != VBC_OK)
    return step_failed(L, rep, err);
  double t1 = vbc_now();
  st->check_seconds += t1 - t0;
  if (L->bench && L->bench->observe && L->bench->observe(L->bench_state, sim, err) != VBC_OK)
    return err->code;
  if (observe(L, err) != VBC_OK) return err->code;
  t0 = vbc_now();
  st->observe_seconds += t0 - t1;
  if (sampled && vbc_output_convergence(&L->out, sim, &L->trace, rep->traced, err) != VBC_OK)
    return err->code;
  int output_step = vbc_schedule_series_due(&L->sched, sim);
  if (output_step && write_series(L, err) != VBC_OK) return err->code;
  if (L->frames && vbc_schedule_frame_due(&L->sched, sim))
    if (vbc_output_frame(&L->out, &sim->particles, sim->bodies, sim->sys.nbodies, sim->time,
                         err) != VBC_OK)
      return err->code;
  vbc_progress_update(&L->progress, sim->step, vbc_schedule_total_steps(&L->sched, sim), sim->time,
                      vbc_run_stats_mean_iterations(st), st->stage[st->primary].last_relres,
                      output_step);
  t1 = vbc_now();
  st->output_seconds += t1 - t0;
  rc = maybe_checkpoint(L, err);
  st->checkpoint_seconds += vbc_now() - t1;
  return rc;
}

/* The state before the failing step becomes the last frame; every stream is closed. */
static void record_failure(loop *L, const vbc_error *failure) {
  vbc_error err;
  vbc_error_clear(&err);
  vbc_backup_swap(&L->last_good, &L->sim.particles, 0);
  L->sim.step--; /* summary.json describes the last good state, the message the failing step */
  L->sim.time = L->last_good.time;
  vbc_output_frame(&L->out, &L->sim.particles, L->last_good.bodies, L->last_good.nbodies,
                   L->last_good.time, &err);
  vbc_output_close(&L->out, &err);
  vbc_summary_write(L->out.dir, &L->sim, &L->stats, NULL, L->opt->from_state, failure, &err);
}

/* Stopped by a signal, or at the CPU-time limit, between steps: the state after the last
 * complete step is checkpointed (when checkpointing is on; its streams keep their temporary
 * names, which the checkpoint refers to) or the streams are closed as they are, and
 * summary.json says "interrupted". */
static int record_interrupt(loop *L, int sig, vbc_error *err) {
  const vbc_run_options *o = L->opt;
  /* a run that has a checkpoint (resumed, or written one) keeps it current: the streams it
   * refers to must keep their temporary names */
  const int checkpointing =
      o->checkpoint_every > 0 || o->checkpoint_seconds > 0.0 || L->checkpoint_step >= 0;
  char note[1400] = "";
  if (checkpointing) {
    const vbc_checkpoint_run r = checkpoint_run(L);
    if (vbc_checkpoint_write(L->out.dir, &r, err) != VBC_OK) return err->code;
    L->checkpoint_step = L->sim.step;
    vbc_file_keep(&L->out.series);
    vbc_file_keep(&L->out.convergence);
    snprintf(note, sizeof note, "; continue with vbc run --resume %s", L->out.dir);
  }
  vbc_error why;
  vbc_error_clear(&why);
  const long steps = vbc_schedule_total_steps(&L->sched, &L->sim);
  if (L->stats.cpu_limit_reached)
    vbc_error_set(&why, VBC_EXIT_INTERRUPTED + sig, "stopped at its CPU-time limit of %.6g s "
                  "after step %ld of %ld (t = %.6g s)%s", L->stats.cpu_limit, L->sim.step, steps,
                  L->sim.time, note);
  else
    vbc_error_set(&why, VBC_EXIT_INTERRUPTED + sig, "interrupted by signal %d (%s) after step "
                  "%ld of %ld (t = %.6g s)%s", sig, sig == SIGINT ? "SIGINT"
                  : sig == SIGTERM ? "SIGTERM" : "a signal", L->sim.step, steps, L->sim.time,
                  note);
  if (vbc_output_close(&L->out, err) != VBC_OK ||
      vbc_summary_write(L->out.dir, &L->sim, &L->stats, NULL, o->from_state, &why, err) != VBC_OK)
    return err->code;
  *err = why;
  return why.code;
}

/* --from-state: the file's state replaces the generated particles; one step follows it. */
static int load_state(loop *L, const char *path, vbc_error *err) {
  vbc_state st;
  int rc = vbc_state_read(path, &st, err);
  if (rc == VBC_OK) rc = vbc_state_apply(&st, path, &L->sim, err);
  vbc_state_free(&st);
  if (rc == VBC_OK) L->sim.nsteps = L->sim.step + 1;
  return rc;
}

/* A dump step the run never reaches, or a file it could not write, is reported before the run
 * rather than after the steps leading to it. */
static int check_dump(const vbc_sim *sim, const vbc_run_options *opt, vbc_error *err) {
  if (opt->dump_path == NULL) return VBC_OK;
  if (opt->from_state)
    return vbc_error_set(err, VBC_EXIT_INPUT, "--dump-state and --from-state exclude each other");
  if (opt->dump_step < 1 || (sim->nsteps != VBC_SCHEDULE_OPEN && opt->dump_step > sim->nsteps))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: --dump-state %ld: expected a step in 1..%ld "
                         "(the scene runs %ld steps of %g s)", sim->scene->file, opt->dump_step,
                         sim->nsteps, sim->nsteps, sim->scene->dt);
  vbc_file probe;
  if (vbc_file_open(&probe, opt->dump_path, ".tmp", err) != VBC_OK) return err->code;
  vbc_file_discard(&probe);
  return VBC_OK;
}

/* The solve of a --from-state run. The scene's benchmark is not run: its figures describe a
 * whole run, not one step. */
static int solve_metrics(const vbc_solve_result *r, cJSON *m, vbc_error *err) {
  if (!cJSON_AddNumberToObject(m, "iterations", r->iterations) ||
      !cJSON_AddStringToObject(m, "stop_reason", vbc_stop_reason_name(r->reason)) ||
      !cJSON_AddNumberToObject(m, "final_relative_residual",
                               r->residual_ref > 0.0 ? r->residual / r->residual_ref : 0.0) ||
      !cJSON_AddNumberToObject(m, "final_mean_error", isnan(r->mean_error) ? 0.0 : r->mean_error) ||
      !cJSON_AddNumberToObject(m, "solve_seconds", r->seconds))
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (metrics)");
  return VBC_OK;
}

static int setup(loop *L, const vbc_scene *sc, const vbc_run_options *opt, vbc_error *err) {
  L->opt = opt;
  if (vbc_sim_init(&L->sim, sc, err) != VBC_OK) return err->code;
  if (opt->from_state && load_state(L, opt->from_state, err) != VBC_OK) return err->code;
  if (check_dump(&L->sim, opt, err) != VBC_OK) return err->code;
  if (opt->dump_lcp_dir &&
      vbc_lcp_dump_check(sc->file, opt->dump_lcp_step, L->sim.step + 1, L->sim.nsteps, sc->dt,
                         opt->dump_lcp_dir, err) != VBC_OK)
    return err->code;
  const vbc_run_observer *obs = opt->observer;
  if (obs && (obs->every < 1 || opt->resume || opt->checkpoint_every > 0 ||
              opt->checkpoint_seconds > 0.0 || opt->from_state))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: run observer: expected every >= 1 (got %ld) "
                         "and no checkpoints, --resume or --from-state", sc->file, obs->every);
  if (obs && (L->observed = vbc_calloc(obs->ncolumns + 1, sizeof *L->observed, err)) == NULL)
    return err->code;
  L->bench = opt->from_state ? NULL : sc->benchmark;
  L->frames = opt->from_state ? 0 : sc->frames;
  if (L->bench) {
    L->bench_state = L->bench->alloc(&L->sim, sc->benchmark_params, err);
    if (L->bench_state == NULL) return err->code;
  }
  if (vbc_backup_init(&L->last_good, L->sim.particles.n, L->sim.sys.nbodies, err) != VBC_OK)
    return err->code;
  vbc_run_stats_init(&L->stats, &L->sim.coupling);
  vbc_schedule_init(&L->sched, sc, L->frames);
  const vbc_checkpoint_run r = checkpoint_run(L);
  if ((opt->resume || opt->checkpoint_every > 0 || opt->checkpoint_seconds > 0.0) &&
      vbc_checkpoint_check(&r, err) != VBC_OK)
    return err->code;
  if (opt->resume) {
    if (vbc_checkpoint_resume(opt->out_dir, &r, err) != VBC_OK) return err->code;
  } else if (vbc_output_open(&L->out, opt->out_dir, L->bench, obs ? obs->columns : NULL,
                             obs ? obs->ncolumns : 0, err) != VBC_OK) {
    return err->code;
  }
  L->out.compress_frames = sc->compress_frames;
  L->last_checkpoint = vbc_now();
  L->checkpoint_step = opt->resume ? L->sim.step : -1;
  if (opt->exact_reference) L->trace.reference = vbc_exact_reference_observer(&L->xref);
  vbc_progress_init(&L->progress, opt->progress, stderr);
  return VBC_OK;
}

/* t = 0: n_i of the initial state, so that the first series row is meaningful (a frozen state
 * brings its own), the benchmark's first observation, the first series row and frame. */
static int first_outputs(loop *L, vbc_error *err) {
  int rc = VBC_OK;
  if (L->opt->from_state == NULL) rc = vbc_sim_neighbours(&L->sim, err);
  if (rc == VBC_OK && L->opt->from_state == NULL) vbc_number_density(&L->sim.sys);
  if (rc == VBC_OK) rc = vbc_monitors_start(&L->stats, &L->sim, err);
  if (rc == VBC_OK && L->bench && L->bench->observe)
    rc = L->bench->observe(L->bench_state, &L->sim, err);
  if (rc == VBC_OK) rc = observe(L, err);
  if (rc == VBC_OK) rc = write_series(L, err);
  if (rc == VBC_OK && L->frames)
    rc = vbc_output_frame(&L->out, &L->sim.particles, L->sim.bodies, L->sim.sys.nbodies, 0.0, err);
  return rc;
}

static void remove_checkpoint(const char *dir) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, VBC_CHECKPOINT_FILE);
  remove(path);
}

/* A write that failed (a full disk, a file size limit) after a checkpoint: the streams keep
 * their temporary names, which the checkpoint refers to, so that the run can continue once
 * there is room; what came after the checkpoint is cut by the resume. */
static void keep_for_resume(loop *L, vbc_error *err) {
  vbc_file_keep(&L->out.series);
  vbc_file_keep(&L->out.convergence);
  const size_t n = strlen(err->message);
  snprintf(err->message + n, sizeof err->message - n, "; the checkpoint of step %ld stays: "
           "vbc run --resume %s continues from it", L->checkpoint_step, L->out.dir);
}

/* --cpu-limit: has the loop used more CPU time than its limit, with steps still to run? */
static int over_cpu_limit(loop *L, double cpu0) {
  if (!(L->stats.cpu_limit > 0.0) || vbc_schedule_finished(&L->sched, &L->sim)) return 0;
  L->stats.cpu_limit_reached = vbc_cpu_seconds() - cpu0 > L->stats.cpu_limit;
  return L->stats.cpu_limit_reached;
}

int vbc_run(const vbc_scene *sc, const vbc_run_options *opt, vbc_error *err) {
  loop *L = vbc_calloc(1, sizeof *L, err);
  if (L == NULL) return err->code;
  L->checkpoint_step = -1; /* none: a failing setup has no checkpoint to point to */
  int rc = setup(L, sc, opt, err);
  if (rc == VBC_OK) {
    L->stats.threads = omp_get_max_threads();
    double t0 = vbc_now(), cpu0 = vbc_cpu_seconds();
    if (!opt->resume) rc = first_outputs(L, err); /* a resumed run has written them */
    int sig = 0;
    L->stats.cpu_limit = opt->cpu_limit > 0.0 ? opt->cpu_limit : 0.0;
    while (rc == VBC_OK && !vbc_schedule_finished(&L->sched, &L->sim)) {
      if (opt->interrupt && (sig = (int)*opt->interrupt) != 0) break;
      rc = one_step(L, err);
      if (rc == VBC_OK && over_cpu_limit(L, cpu0)) {
        sig = SIGXCPU; /* the code a `ulimit -t` stop would give */
        break;
      }
    }
    vbc_progress_done(&L->progress);
    L->stats.wall_seconds = vbc_now() - t0;
    L->stats.cpu_seconds = vbc_cpu_seconds() - cpu0;
    if (rc == VBC_OK && sig != 0) {
      rc = record_interrupt(L, sig, err);
    } else if (rc == VBC_EXIT_FAILED) {
      record_failure(L, err);
    } else if (rc == VBC_OK) {
      cJSON *metrics = cJSON_CreateObject();
      if (metrics == NULL) rc = vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (metrics)");
      else if (opt->from_state)
        rc = solve_metrics(&L->report.stage[L->stats.primary].result, metrics, err);
      else if (L->bench) rc = L->bench->metrics(L->bench_state, &L->sim, metrics, L->out.dir, err);
      if (rc == VBC_OK) rc = vbc_output_close(&L->out, err);
      if (rc == VBC_OK)
        rc = vbc_summary_write(L->out.dir, &L->sim, &L->stats, metrics, opt->from_state, NULL,
                               err);
      cJSON_Delete(metrics);
      if (rc == VBC_OK) remove_checkpoint(L->out.dir); /* the run is complete */
      if (rc == VBC_OK && opt->profile) vbc_profile_print(&L->stats, &L->sim, stderr);
    }
  }
  if (rc == VBC_EXIT_SYSTEM && L->checkpoint_step >= 0) keep_for_resume(L, err);
  if (L->out.series.f) vbc_file_discard(&L->out.series);
  if (L->out.convergence.f) vbc_file_discard(&L->out.convergence);
  vbc_output_close(&L->out, &(vbc_error){0});
  if (L->bench && L->bench_state) L->bench->free(L->bench_state);
  vbc_backup_free(&L->last_good);
  vbc_run_stats_free(&L->stats);
  free(L->observed);
  vbc_solve_trace_free(&L->trace);
  vbc_exact_reference_free(&L->xref);
  vbc_sim_free(&L->sim);
  free(L);
  return rc;
}

const char *vbc_version(void) { return VBC_VERSION; }

int vbc_check(const vbc_scene *sc, vbc_error *err) {
  vbc_sim sim;
  int rc = vbc_sim_init(&sim, sc, err);
  if (rc == VBC_OK && sc->benchmark) {
    void *state = sc->benchmark->alloc(&sim, sc->benchmark_params, err);
    if (state == NULL) rc = err->code;
    else sc->benchmark->free(state);
  }
  vbc_sim_free(&sim);
  return rc;
}
