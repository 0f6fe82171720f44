/* sim_api.c — see sim_api.h. A stepped simulation makes exactly the calls of `vbc run`'s time
 * loop (sim/run.c) in the same order — the initial neighbour lists and n_i, then per step the
 * schedule's step size, the coupler's step, the state check, the statistics and the run-time
 * monitors (sim/monitors.h; with `strict` the first warning fails the step) — and leaves out
 * what only writes files or copies state (the last-good backup, series rows, frames, the
 * benchmark's observations), so N steps here give the bits of N steps of `vbc run`. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "io/json_file.h"
#include "sim/monitors.h"
#include "sim/output.h"
#include "sim/run.h"
#include "sim/schedule.h"
#include "sim/sim.h"
#include "scene/method_preset.h"
#include "sim/sim_api.h"
#include "sim/stats.h"
#include "sim/summary.h"
#include "core/clock.h"
#include "core/number_density.h"

struct vbc_simulation {
  vbc_sim *sim;                /* &own, or a running `vbc run`'s (a run observer's view) */
  vbc_sim own;
  int initialised;             /* vbc_sim_init was called on own */
  int borrowed;                /* a run observer's view: no steps, no outputs */
  vbc_scene *own_scene;        /* loaded for a method or assignments, else NULL */
  const vbc_step_report *last; /* the last step's report */
  vbc_step_report report;
  vbc_run_stats stats;
  vbc_schedule sched;
  vbc_output frames; /* on-demand frames: the directory and the frames written there */
  vbc_error failure; /* code != VBC_OK once a step failed */
  double wall_seconds, cpu_seconds;
  char *report_text;
  char *warnings_text;
  int strict; /* vbc_simulation_options.strict or the scene's output.strict */
};

static int borrowed_error(vbc_error *err, const char *what) {
  return vbc_error_set(err, VBC_EXIT_INPUT, "%s: expected a simulation of one's own, got the "
                       "view of a running `vbc run` (an observer reads it, nothing more)", what);
}

static const char *skip_space(const char *t) {
  while (*t == ' ' || *t == '\n' || *t == '\t') ++t;
  return t;
}

char *vbc_method_text(const char *method, vbc_error *err) {
  method = skip_space(method);
  if (*method != '{') { /* a preset's name or file (scene/method_preset.h) */
    vbc_method_preset p;
    if (vbc_method_preset_load(&p, method, err) != VBC_OK) return NULL;
    char *text = cJSON_PrintUnformatted(p.method);
    if (text == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (method)");
    vbc_method_preset_free(&p);
    return text;
  }
  cJSON *root = cJSON_Parse(method);
  char *text = NULL;
  if (!cJSON_IsObject(root))
    vbc_error_set(err, VBC_EXIT_INPUT, "method: expected a JSON object, got \"%.60s\"", method);
  else if ((text = cJSON_PrintUnformatted(root)) == NULL)
    vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (method)");
  cJSON_Delete(root);
  return text;
}

/* The scene's file again with "method=..." and the caller's assignments; a method named by a
 * preset is read once, and the scene is checked against what the preset requires. */
static int derive_scene(vbc_simulation *s, const vbc_scene *scene,
                        const vbc_simulation_options *opt, vbc_error *err) {
  vbc_method_preset preset = {0};
  const int named = opt->method && *skip_space(opt->method) != '{';
  char *method = NULL, *assignment = NULL;
  if (named) {
    if (vbc_method_preset_load(&preset, skip_space(opt->method), err) != VBC_OK) return err->code;
    assignment = vbc_method_preset_assignment(&preset, err);
  } else if (opt->method && (method = vbc_method_text(opt->method, err)) != NULL &&
             (assignment = vbc_calloc(strlen(method) + 8, 1, err)) != NULL) {
    sprintf(assignment, "method=%s", method);
  }
  const int n = opt->nsets + (opt->method != NULL);
  char **sets = (opt->method == NULL || assignment) ? vbc_calloc((size_t)n + 1, sizeof *sets, err)
                                                    : NULL;
  if (sets) {
    int k = 0;
    if (assignment) sets[k++] = assignment;
    for (int i = 0; i < opt->nsets; ++i) sets[k++] = (char *)opt->sets[i];
    s->own_scene = vbc_scene_new(scene->file, (const char *const *)sets, n, scene->registry, err);
    if (s->own_scene) s->own_scene->max_particles = scene->max_particles;
  }
  int rc = s->own_scene ? VBC_OK : err->code;
  if (rc == VBC_OK && named) rc = vbc_method_preset_apply(&preset, s->own_scene, err);
  free(assignment);
  free(sets);
  cJSON_free(method);
  vbc_method_preset_free(&preset);
  return rc;
}

int vbc_simulation_open(vbc_simulation **out, const vbc_scene *scene,
                        const vbc_simulation_options *opt, vbc_error *err) {
  *out = NULL;
  if (scene == NULL || scene->resolved == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "simulation: expected a loaded scene");
  vbc_simulation *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return err->code;
  s->sim = &s->own;
  s->last = &s->report;
  int rc = VBC_OK;
  if (opt && (opt->method || opt->nsets > 0)) {
    rc = derive_scene(s, scene, opt, err);
    scene = s->own_scene;
  }
  if (rc == VBC_OK && opt && opt->threads > 0) omp_set_num_threads(opt->threads);
  if (rc == VBC_OK) {
    s->initialised = 1;
    rc = vbc_sim_init(&s->own, scene, err);
  }
  if (rc == VBC_OK) rc = vbc_sim_neighbours(&s->own, err); /* as vbc run's first outputs */
  if (rc != VBC_OK) {
    vbc_simulation_close(s);
    return rc;
  }
  vbc_number_density(&s->own.sys);
  vbc_run_stats_init(&s->stats, &s->own.coupling);
  if (vbc_monitors_start(&s->stats, &s->own, err) != VBC_OK) {
    vbc_simulation_close(s);
    return err->code;
  }
  s->strict = (opt && opt->strict) || scene->strict;
  vbc_schedule_init(&s->sched, scene, 0);
  s->frames.compress_frames = scene->compress_frames;
  *out = s;
  return VBC_OK;
}

void vbc_simulation_close(vbc_simulation *s) {
  if (s == NULL || s->borrowed) return;
  vbc_output_close(&s->frames, &(vbc_error){0});
  if (s->initialised) vbc_sim_free(&s->own);
  vbc_run_stats_free(&s->stats);
  vbc_scene_delete(s->own_scene);
  free(s->report_text);
  free(s->warnings_text);
  free(s);
}

/* One step as sim/run.c's one_step makes it. */
static int step_once(vbc_simulation *s, vbc_error *err) {
  vbc_sim *sim = s->sim;
  if (s->sched.adaptive && sim->time >= s->sched.t_end)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: step %ld: expected no step past time.end = %g "
                         "s (adaptive steps end there)", sim->scene->file, sim->step + 1,
                         s->sched.t_end);
  sim->step++;
  double t_after = sim->time;
  s->report.trace = NULL;
  int rc = vbc_schedule_begin_step(&s->sched, sim, &t_after, err);
  if (rc == VBC_OK && vbc_sim_step(sim, &s->report, err) == VBC_OK) {
    sim->time = t_after;
    vbc_time_steps_add(&sim->time_steps, sim->sys.dt);
    rc = vbc_sim_check(sim, err);
  } else if (rc == VBC_OK) {
    rc = err->code;
  }
  if (rc == VBC_OK) { /* the run-time monitors, as vbc run's time loop runs them */
    s->stats.steps_run++;
    rc = vbc_run_stats_add(&s->stats, &s->report, err);
    if (rc == VBC_OK) rc = vbc_monitors_step(&s->stats, sim, &s->report, s->strict, err);
  }
  if (rc == VBC_EXIT_FAILED && strncmp(err->message, "step ", 5) != 0) {
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    vbc_error_clear(err);
    vbc_error_set(err, rc, "step %ld (t = %.6g s): %s", sim->step, t_after, msg);
  }
  if (rc != VBC_OK) s->failure = *err;
  return rc;
}

int vbc_simulation_step(vbc_simulation *s, long nsteps, vbc_error *err) {
  if (s->borrowed) return borrowed_error(err, "step");
  if (nsteps < 0)
    return vbc_error_set(err, VBC_EXIT_INPUT, "step: expected a number of steps >= 0, got %ld",
                         nsteps);
  if (s->failure.code != VBC_OK) {
    *err = s->failure;
    return err->code;
  }
  free(s->report_text);
  free(s->warnings_text);
  s->report_text = s->warnings_text = NULL;
  const double t0 = vbc_now(), cpu0 = vbc_cpu_seconds();
  int rc = VBC_OK;
  for (long k = 0; k < nsteps && rc == VBC_OK; ++k) rc = step_once(s, err);
  s->wall_seconds += vbc_now() - t0;
  s->cpu_seconds += vbc_cpu_seconds() - cpu0;
  return rc;
}

/* A strided view of the member at `offset` of each of n records of `stride` bytes. */
static vbc_array_view view_of(void *base, size_t n, size_t offset, size_t stride,
                              size_t components, vbc_element element, int writable) {
  const size_t size = element == VBC_ELEMENT_DOUBLE ? sizeof(double)
                      : element == VBC_ELEMENT_INT  ? sizeof(int)
                                                    : 1;
  return (vbc_array_view){.data = n ? (char *)base + offset : NULL, .length = n,
                          .components = components, .stride = stride, .element_size = size,
                          .element = element, .writable = writable};
}

int vbc_simulation_field(const vbc_simulation *s, vbc_field field, vbc_array_view *view,
                         vbc_error *err) {
  const vbc_sim *sim = s->sim;
  const vbc_particles *p = &sim->particles;
  const size_t n = p->n, nb = sim->sys.nbodies, d = (size_t)sim->sys.dim;
  const size_t vs = sizeof(vbc_vec), bs = sizeof(vbc_body), ds = sizeof(double);
  vbc_body *b = sim->bodies;
  switch (field) {
  case VBC_FIELD_POSITION: *view = view_of(p->pos, n, 0, vs, d, VBC_ELEMENT_DOUBLE, 0); break;
  case VBC_FIELD_VELOCITY: *view = view_of(p->vel, n, 0, vs, d, VBC_ELEMENT_DOUBLE, 1); break;
  case VBC_FIELD_PRESSURE: *view = view_of(p->pressure, n, 0, ds, 1, VBC_ELEMENT_DOUBLE, 0); break;
  case VBC_FIELD_PRESSURE_SMOOTHED:
    *view = view_of(p->pressure_smoothed, n, 0, ds, 1, VBC_ELEMENT_DOUBLE, 0);
    break;
  case VBC_FIELD_NUMBER_DENSITY:
    *view = view_of(p->number_density, n, 0, ds, 1, VBC_ELEMENT_DOUBLE, 0);
    break;
  case VBC_FIELD_KIND: *view = view_of(p->kind, n, 0, 1, 1, VBC_ELEMENT_UCHAR, 0); break;
  case VBC_FIELD_BODY: *view = view_of(p->body, n, 0, sizeof(int), 1, VBC_ELEMENT_INT, 0); break;
  case VBC_FIELD_BODY_POSITION:
    *view = view_of(b, nb, offsetof(vbc_body, x), bs, d, VBC_ELEMENT_DOUBLE, 0);
    break;
  case VBC_FIELD_BODY_ORIENTATION:
    *view = view_of(b, nb, offsetof(vbc_body, q), bs, 4, VBC_ELEMENT_DOUBLE, 0);
    break;
  case VBC_FIELD_BODY_VELOCITY:
    *view = view_of(b, nb, offsetof(vbc_body, v), bs, d, VBC_ELEMENT_DOUBLE, 0);
    break;
  case VBC_FIELD_BODY_ANGULAR_VELOCITY:
    *view = view_of(b, nb, offsetof(vbc_body, w), bs, 3, VBC_ELEMENT_DOUBLE, 0);
    break;
  default:
    return vbc_error_set(err, VBC_EXIT_INPUT, "field: expected 0..%d, got %d", VBC_FIELDS - 1,
                         (int)field);
  }
  return VBC_OK;
}

int vbc_simulation_dim(const vbc_simulation *s) { return s->sim->sys.dim; }
size_t vbc_simulation_particles(const vbc_simulation *s) { return s->sim->particles.n; }
size_t vbc_simulation_fluid_particles(const vbc_simulation *s) { return s->sim->nfluid; }
size_t vbc_simulation_bodies(const vbc_simulation *s) { return s->sim->sys.nbodies; }
double vbc_simulation_time(const vbc_simulation *s) { return s->sim->time; }
long vbc_simulation_step_index(const vbc_simulation *s) { return s->sim->step; }
double vbc_simulation_dt(const vbc_simulation *s) { return s->sim->sys.dt; }
double vbc_simulation_end_time(const vbc_simulation *s) { return s->sim->scene->t_end; }
int vbc_simulation_failed(const vbc_simulation *s) { return s->failure.code != VBC_OK; }

static void add_figures(cJSON *o, const vbc_solve_stats *f) {
  for (size_t k = 0; k < f->n; ++k)
    if (!cJSON_HasObjectItem(o, f->name[k])) cJSON_AddNumberToObject(o, f->name[k], f->value[k]);
}

static cJSON *stage_json(const vbc_stage_report *r) {
  cJSON *o = cJSON_CreateObject();
  const vbc_solve_result *res = &r->result;
  cJSON_AddStringToObject(o, "label", r->label ? r->label : "");
  cJSON_AddStringToObject(o, "solver", r->solver ? r->solver->name : "");
  cJSON_AddBoolToObject(o, "solved", r->solved);
  cJSON_AddNumberToObject(o, "rows", (double)r->rows);
  cJSON_AddNumberToObject(o, "iterations", r->solved ? res->iterations : 0);
  cJSON_AddStringToObject(o, "stop_reason", r->solved ? vbc_stop_reason_name(res->reason) : "");
  cJSON_AddNumberToObject(o, "residual", res->residual);
  cJSON_AddNumberToObject(o, "relative_residual",
                          res->residual_ref > 0.0 ? res->residual / res->residual_ref : 0.0);
  if (r->solved && res->mean_error == res->mean_error)
    cJSON_AddNumberToObject(o, "mean_error", res->mean_error);
  else
    cJSON_AddNullToObject(o, "mean_error");
  cJSON_AddNumberToObject(o, "solve_seconds", res->seconds);
  cJSON_AddNumberToObject(o, "prepare_seconds", r->prepare_seconds);
  add_figures(o, &res->stats);
  add_figures(o, &r->figures);
  return o;
}

const char *vbc_simulation_report_json(vbc_simulation *s, vbc_error *err) {
  if (s->report_text) return s->report_text;
  cJSON *root = cJSON_CreateObject();
  cJSON *stages = root ? cJSON_AddArrayToObject(root, "stages") : NULL;
  if (stages) {
    cJSON_AddNumberToObject(root, "step", (double)s->sim->step);
    cJSON_AddNumberToObject(root, "time", s->sim->time);
    for (size_t k = 0; k < s->last->nstages; ++k)
      cJSON_AddItemToArray(stages, stage_json(&s->last->stage[k]));
    s->report_text = cJSON_PrintUnformatted(root);
  }
  cJSON_Delete(root);
  if (s->report_text == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (report)");
  return s->report_text;
}

const char *vbc_simulation_warnings_json(vbc_simulation *s, vbc_error *err) {
  if (s->borrowed) return borrowed_error(err, "warnings"), NULL;
  if (s->warnings_text) return s->warnings_text;
  cJSON *list = vbc_monitors_json(&s->stats);
  s->warnings_text = list ? cJSON_PrintUnformatted(list) : NULL;
  cJSON_Delete(list);
  if (s->warnings_text == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (warnings)");
  return s->warnings_text;
}

int vbc_simulation_write_frame(vbc_simulation *s, const char *dir, vbc_error *err) {
  if (s->borrowed) return borrowed_error(err, "write_frame");
  if (strlen(dir) >= sizeof s->frames.dir)
    return vbc_error_set(err, VBC_EXIT_INPUT, "write_frame: %.60s...: path too long", dir);
  if (strcmp(dir, s->frames.dir) != 0) { /* a new directory numbers its frames from 0 */
    const int compress = s->frames.compress_frames;
    vbc_output_close(&s->frames, &(vbc_error){0});
    memset(&s->frames, 0, sizeof s->frames);
    snprintf(s->frames.dir, sizeof s->frames.dir, "%s", dir);
    s->frames.compress_frames = compress;
  }
  if (vbc_mkdir_p(dir, err) != VBC_OK) return err->code;
  const vbc_sim *sim = s->sim;
  return vbc_output_frame(&s->frames, &sim->particles, sim->bodies, sim->sys.nbodies, sim->time,
                          err);
}

int vbc_simulation_write_summary(vbc_simulation *s, const char *dir, vbc_error *err) {
  if (s->borrowed) return borrowed_error(err, "write_summary");
  if (vbc_mkdir_p(dir, err) != VBC_OK) return err->code;
  s->stats.threads = omp_get_max_threads();
  s->stats.wall_seconds = s->wall_seconds;
  s->stats.cpu_seconds = s->cpu_seconds;
  cJSON *metrics = cJSON_CreateObject();
  if (metrics == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (metrics)");
  const int rc = vbc_summary_write(dir, s->sim, &s->stats, metrics, NULL,
                                   s->failure.code != VBC_OK ? &s->failure : NULL, err);
  cJSON_Delete(metrics);
  return rc;
}

vbc_scene *vbc_scene_new(const char *path, const char *const *sets, int nsets,
                         const vbc_registry *registry, vbc_error *err) {
  vbc_scene *s = vbc_calloc(1, sizeof *s, err);
  if (s && vbc_scene_load(s, path, sets, nsets, registry, err) != VBC_OK) {
    free(s);
    return NULL;
  }
  return s;
}

void vbc_scene_delete(vbc_scene *s) {
  if (s == NULL) return;
  vbc_scene_free(s);
  free(s);
}

char *vbc_scene_json(const vbc_scene *s, vbc_error *err) {
  char *text = cJSON_Print(s->resolved);
  if (text == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (scene)");
  return text;
}

void vbc_free(void *text) { cJSON_free(text); }

/* The view a run observer gets: the run's simulation and its last step's report. */
int vbc_run_observer_call(const vbc_run_observer *obs, struct vbc_sim *sim,
                          const struct vbc_step_report *rep, double *values, vbc_error *err) {
  vbc_simulation *view = vbc_calloc(1, sizeof *view, err);
  if (view == NULL) return err->code;
  *view = (vbc_simulation){.sim = sim, .borrowed = 1, .last = rep};
  int rc = obs->observe(obs->ctx, view, values, err);
  if (rc != VBC_OK && err->code == VBC_OK)
    rc = vbc_error_set(err, rc, "run observer: failed with status %d", rc);
  free(view->report_text);
  free(view);
  return rc;
}

int vbc_run_observed(const vbc_scene *scene, const char *out_dir, vbc_progress_mode progress,
                     const vbc_run_observer *observer, vbc_error *err) {
  const vbc_run_options opt = {.out_dir = out_dir, .progress = progress, .observer = observer};
  return vbc_run(scene, &opt, err);
}

