/* sim_api.h — a simulation a program steps itself (docs/library.md, "Stepping a simulation"):
 * open one from a loaded scene, step it, read its state in place, write a frame or summary.json
 * when it wants, close it. The handle is opaque; the state views point into the library's memory
 * and stay valid until the simulation is closed. Every failure is a status (the exit codes of
 * docs/scene-format.md) with a one-line message in the vbc_error; nothing here exits.
 *
 * Also the few handle-based entry points that bindings without C structs need (the Python
 * package, python/vbc): scenes and registries as heap handles, the registry as JSON text, and
 * `vbc run` with an observer whose figures become extra series.csv columns. */
#ifndef VBC_SIM_API_H
#define VBC_SIM_API_H

#include <stddef.h>

#include "sim/progress.h"
#include "registry/registry.h"
#include "scene/scene.h"
#include "core/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vbc_simulation vbc_simulation;

typedef struct vbc_simulation_options {
  /* NULL: the scene's own method. Otherwise a method preset that replaces the scene's `method`
   * object: JSON text of a method object ("{\"coupler\": ...}"), a path to a JSON file holding
   * one (or an object with a "method" key), or a preset NAME (scene/method_preset.h); a
   * scene without what a named preset requires is refused. */
  const char *method;
  /* `--set KEY=VALUE` assignments applied after the method. With a method or assignments the
   * simulation loads its own scene from the scene's file: a loaded scene does not remember the
   * assignments it was loaded with, so pass those again here, first. */
  const char *const *sets;
  int nsets;
  int threads; /* > 0: the OpenMP threads of the process (omp_set_num_threads); results do not
                  depend on it */
  /* 1: the first run-time monitor warning (sim/monitors.h) fails the step as `vbc run --strict`
   * does (VBC_EXIT_FAILED, the simulation failed); the scene's output.strict does the same. */
  int strict;
} vbc_simulation_options;

/* Set the simulation up (particles, neighbour lists, n_i of the initial state: what `vbc run`
 * has before its first step). scene (and its registry) must outlive the simulation unless a
 * method or assignments were given. opt may be NULL. */
int vbc_simulation_open(vbc_simulation **out, const vbc_scene *scene,
                        const vbc_simulation_options *opt, vbc_error *err);
/* Free everything; NULL is allowed. Views into it are invalid afterwards. */
void vbc_simulation_close(vbc_simulation *sim);

/* Advance nsteps >= 0 time steps exactly as `vbc run` does (the same bits). Steps may go past
 * time.end with fixed steps; adaptive steps stop at time.end (VBC_EXIT_INPUT past it). A failed
 * step (VBC_EXIT_FAILED, message with step and time) leaves the simulation failed: the state is
 * that of the failed step, and further steps return the same error. */
int vbc_simulation_step(vbc_simulation *sim, long nsteps, vbc_error *err);

/* The state. */
typedef enum vbc_field {
  VBC_FIELD_POSITION,          /* per particle, dim doubles (x, y[, z]) [m] */
  VBC_FIELD_VELOCITY,          /* per particle, dim doubles [m/s]; writable between steps */
  VBC_FIELD_PRESSURE,          /* per particle, p_i [Pa] of the last solve */
  VBC_FIELD_PRESSURE_SMOOTHED, /* per particle, Miyamoto eq. 42 */
  VBC_FIELD_NUMBER_DENSITY,    /* per particle, n_i (eq. 4) */
  VBC_FIELD_KIND,              /* per particle, unsigned char: 0 fluid, 1 rigid, 2 wall */
  VBC_FIELD_BODY,              /* per particle, int: its body, -1 for fluid and walls */
  VBC_FIELD_BODY_POSITION,     /* per body, dim doubles: centre of mass [m] */
  VBC_FIELD_BODY_ORIENTATION,  /* per body, 4 doubles: unit quaternion (w, x, y, z) */
  VBC_FIELD_BODY_VELOCITY,     /* per body, dim doubles [m/s] */
  VBC_FIELD_BODY_ANGULAR_VELOCITY, /* per body, 3 doubles [rad/s] (2D: only z) */
  VBC_FIELDS
} vbc_field;

typedef enum vbc_element { VBC_ELEMENT_DOUBLE, VBC_ELEMENT_INT, VBC_ELEMENT_UCHAR } vbc_element;

/* A strided view: row i, component c is at (char *)data + i * stride + c * element_size. */
typedef struct vbc_array_view {
  void *data;          /* NULL when length is 0 */
  size_t length;       /* rows: particles or bodies */
  size_t components;   /* values per row */
  size_t stride;       /* bytes from one row to the next */
  size_t element_size; /* bytes of one value */
  vbc_element element;
  int writable; /* 0: writing would break an invariant (positions follow the bodies and the
                   neighbour lists, kinds the fluid list, n_i and pressures are the solve's) */
} vbc_array_view;

int vbc_simulation_field(const vbc_simulation *sim, vbc_field field, vbc_array_view *view,
                         vbc_error *err);
int vbc_simulation_dim(const vbc_simulation *sim);
size_t vbc_simulation_particles(const vbc_simulation *sim); /* all of them */
size_t vbc_simulation_fluid_particles(const vbc_simulation *sim);
size_t vbc_simulation_bodies(const vbc_simulation *sim);
double vbc_simulation_time(const vbc_simulation *sim);
long vbc_simulation_step_index(const vbc_simulation *sim); /* steps done (0 after open) */
double vbc_simulation_dt(const vbc_simulation *sim);       /* the size of the last step */
double vbc_simulation_end_time(const vbc_simulation *sim); /* the scene's time.end */
int vbc_simulation_failed(const vbc_simulation *sim);      /* a step failed */

/* The last step's solves as JSON text, owned by the simulation and valid until its next step:
 * {"step", "time", "stages": [{"label", "solver", "solved", "rows", "iterations",
 * "stop_reason", "residual", "relative_residual", "mean_error" (null without a measure),
 * "solve_seconds", and the solver's and the stage's named figures}]}: one solve of each stage
 * of summary.json's solver.stages. NULL with err set when out of memory. */
const char *vbc_simulation_report_json(vbc_simulation *sim, vbc_error *err);

/* The run-time monitors' warnings so far (every step runs them, as `vbc run` does) as JSON text,
 * summary.json's `warnings`: [{"code", "what", "first_step", "first_time", "count", "worst"}],
 * empty when none fired; owned by the simulation and valid until its next step. NULL with err
 * set when out of memory. Each warning also gets one stderr line when it first fires. */
const char *vbc_simulation_warnings_json(vbc_simulation *sim, vbc_error *err);

/* Outputs on demand into dir (created): a frame (dir/frames/frame_NNNNNN.vtu and frames.pvd,
 * numbered from 0 for each new dir, as `vbc run` writes them), and summary.json of the steps so
 * far (status "ok", or "failed" with the message; metrics empty: a benchmark's figures need its
 * observations over the whole run, which `vbc run` makes). */
int vbc_simulation_write_frame(vbc_simulation *sim, const char *dir, vbc_error *err);
int vbc_simulation_write_summary(vbc_simulation *sim, const char *dir, vbc_error *err);

/* A method (vbc_simulation_options.method) as the JSON text of a method object, to be freed
 * with vbc_free: JSON text as it is, else a preset's name or file, found as `vbc run --method`
 * finds it (scene/method_preset.h). */
char *vbc_method_text(const char *method, vbc_error *err);

/* Handles for bindings: a scene loaded like vbc_scene_load (the built-in registry as a handle:
 * modules/builtin.h). */
vbc_scene *vbc_scene_new(const char *path, const char *const *sets, int nsets,
                         const vbc_registry *registry, vbc_error *err);
void vbc_scene_delete(vbc_scene *scene);
/* The resolved scene (what summary.json records) as JSON text; free with vbc_free. */
char *vbc_scene_json(const vbc_scene *scene, vbc_error *err);
void vbc_free(void *text);

/* `vbc run` with figures of the caller's own: observe is called at t = 0 and after every
 * `every`-th step with the live simulation (valid only during the call) and fills
 * values[0..ncolumns-1]; series.csv gets the columns `columns` after the benchmark's, each row
 * holding the latest values. A failing observe ends the run with its error. */
typedef struct vbc_run_observer {
  long every;
  size_t ncolumns;
  const char *const *columns;
  int (*observe)(void *ctx, vbc_simulation *sim, double *values, vbc_error *err);
  void *ctx;
} vbc_run_observer;

/* Run the scene into out_dir (vbc_run with progress as given and no other option) with the
 * observer (NULL: none). */
int vbc_run_observed(const vbc_scene *scene, const char *out_dir, vbc_progress_mode progress,
                     const vbc_run_observer *observer, vbc_error *err);

/* The time loop's side (sim/run.c): call obs on a view of the run's simulation and its last
 * step's report. */
struct vbc_sim;
struct vbc_step_report;
int vbc_run_observer_call(const vbc_run_observer *obs, struct vbc_sim *sim,
                          const struct vbc_step_report *rep, double *values, vbc_error *err);

#ifdef __cplusplus
}
#endif

#endif
