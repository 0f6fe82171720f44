/* atlas.h — `vbc atlas`: every method preset on common validation cases, against each case's
 * reference, under refinement, with its cost (docs/atlas-format.md documents the spec and the output).
 *
 * An atlas spec names method presets (experiments/methods/NAME.json) and case files. A case is a
 * scene, the spacing levels it is run at (coarsest first), the benchmark metric that scores it
 * (its error), the observable drawn over time and the reference curves drawn with it. The atlas
 * turns every case into a sweep (method × level) run by the sweep runner, so hash ids, resume,
 * locks and job lines are the runner's; a preset a case refuses is a cell of the table. */
#ifndef VBC_ATLAS_H
#define VBC_ATLAS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/error.h"

struct vbc_registry;
struct vbc_sweep;
struct vbc_sweep_case;

#define VBC_ATLAS_MAX_ERRORS 8
/* The share of a first-level cell's simulated time its probe runs, and the fewest steps it
 * runs (atlas_budget.c). */
#define VBC_ATLAS_PROBE_FRACTION (1.0 / 32.0)
#define VBC_ATLAS_PROBE_STEPS 5
/* A running cell is stopped at this many times the budget of CPU seconds (`vbc run
 * --cpu-limit`): a prediction is a lower bound where the solver's work grows faster than the
 * last two levels said, and the cap bounds what such a cell can cost (atlas_budget.c). */
#define VBC_ATLAS_CAP_FACTOR 2.0

typedef struct vbc_atlas_error { /* a benchmark metric that scores the case; lower is better */
  const char *metric, *label;
} vbc_atlas_error;

typedef struct vbc_atlas_case {
  char file[1024], dir[1024];   /* the case file and its directory */
  cJSON *root;
  const char *name, *title;
  int dim;
  char scene[1024];             /* the scene, as vbc run sees it */
  const cJSON *set;             /* fixed assignments (object), or NULL */
  const cJSON *levels;          /* array of objects of assignments, coarsest first */
  size_t nlevels;
  vbc_atlas_error errors[VBC_ATLAS_MAX_ERRORS]; /* [0]: the error that ranks the methods */
  size_t nerrors;
  const cJSON *observable;      /* {file, x, y, xlabel, ylabel} */
  const cJSON *references;      /* array of {file, x, y, title, style} (files resolved when the
                                   sweep spec is written), or NULL */
  const char *about_reference, *about_error, *about_reading;
} vbc_atlas_case;

typedef struct vbc_atlas_spec {
  char file[1024], dir[1024];
  cJSON *root;
  const char *name, *description;
  const char **methods;
  size_t nmethods;
  vbc_atlas_case *cases;
  size_t ncases;
  double cell_budget;           /* `cell_budget_cpu_seconds`: see vbc_atlas.budget (0: none) */
} vbc_atlas_spec;

/* Load and check a spec and its case files (exit 2 naming the file, the JSON path and what was
 * expected). */
int vbc_atlas_spec_load(vbc_atlas_spec *s, const char *path, vbc_error *err);
/* The number `key` (e.g. "spacing", "time.dt") that level `level` of case k assigns, NAN if it
 * assigns none (every level assigns "spacing": the loader checks it). */
double vbc_atlas_level_number(const vbc_atlas_case *k, size_t level, const char *key);
void vbc_atlas_spec_free(vbc_atlas_spec *s);

/* One cell of the atlas: a case, a method, a level. */
typedef struct vbc_atlas_cell {
  size_t c, m, level;           /* indices into the spec's cases, methods and the case's levels */
  double spacing;
  const char *status;           /* "ok", "failed" (exit 3 or 4), "refused" (exit 2), "not run" */
  int exit_code;                /* of the run, 0 when it did not run */
  double errors[VBC_ATLAS_MAX_ERRORS]; /* NAN where missing */
  double order;                 /* log(e_prev / e) / log(l_prev / l) against the next coarser
                                   level of the same method, NAN without both errors */
  double wall_seconds, cpu_seconds, particle_steps_per_second, peak_memory_mib, iterations_mean;
  char warnings[256];           /* the codes of summary.json's warnings, joined by ';' */
  char message[512];            /* why it failed or was refused */
  char run_dir[1200];           /* the run's directory, "" without one */
} vbc_atlas_cell;

typedef struct vbc_atlas {
  vbc_atlas_spec spec;
  const struct vbc_registry *registry;
  char out[1024];               /* DIR: atlas.csv, atlas.json, index.html, cases/NAME/ */
  size_t levels;                /* --levels N: the first N levels of every case (0: all) */
  double budget;                /* CPU seconds a cell may be predicted to need (--budget, else the
                                   spec's cell_budget_cpu_seconds; 0: no budget) */
  char (*held)[240];            /* per cell slot (vbc_atlas_slot): why the cell is not run
                                   (predicted over the budget), "" to run it */
  size_t nslots, max_levels;
  size_t emitted_levels;        /* --emit-jobs: the levels whose cells it wrote */
  int jobs, threads, force, quiet;
  struct vbc_sweep *sweeps;     /* one per case */
  struct vbc_sweep *probes;     /* with a budget, one per case: its first level run for
                                   VBC_ATLAS_PROBE_FRACTION of its time, at least
                                   VBC_ATLAS_PROBE_STEPS steps (atlas_budget.c) */
  vbc_atlas_cell *cells;        /* case-major, then method, then level */
  size_t ncells;
} vbc_atlas;

/* The slot of case c, method m, level k in a->held. */
size_t vbc_atlas_slot(const vbc_atlas *a, size_t c, size_t m, size_t k);
/* The cost budget (atlas_budget.c): decide, from the finished cells of level k - 1 (for the
 * first level, k = 0, from the probes), which cells of level k are predicted over a->budget and
 * note why in a->held; also sets every case's sweep cases `held` for levels above k and for
 * noted cells. Reads the stored results (vbc_atlas_collect). */
int vbc_atlas_plan_level(vbc_atlas *a, size_t k, vbc_error *err);

/* Was the run of cell (c, m, k) stopped at its CPU-time limit, one at least the atlas's cap
 * (VBC_ATLAS_CAP_FACTOR x the budget)? Then why (its message) is set and it is not run again
 * until a larger budget lets it go on (from its checkpoint). 0 without a budget. */
int vbc_atlas_stopped_at_cap(const vbc_atlas *a, size_t c, size_t m, size_t k, char *why,
                             size_t size);

/* The levels case c runs at: min(--levels, its own count). */
size_t vbc_atlas_case_levels(const vbc_atlas *a, size_t c);

/* Write DIR/cases/NAME/sweep.json for every case and load each as a sweep (every cell's scene
 * checked; a refused preset is a refused cell). */
int vbc_atlas_prepare(vbc_atlas *a, vbc_error *err);
/* Run what is not done (jobs at once); --emit-jobs: the job lines of every case instead. */
int vbc_atlas_execute(vbc_atlas *a, const char *vbc, vbc_error *err);
int vbc_atlas_emit_jobs(vbc_atlas *a, const char *vbc, const char *path, size_t *njobs,
                        vbc_error *err);
void vbc_atlas_free(vbc_atlas *a);

/* Read every cell back from its run (status, errors, cost, observed order). */
int vbc_atlas_collect(vbc_atlas *a, vbc_error *err);
/* DIR/atlas.csv and DIR/atlas.json. */
int vbc_atlas_write_table(const vbc_atlas *a, vbc_error *err);
/* Per case: the sweep's own table and plots (the observable with the references, the error
 * against spacing with fitted orders) and the error against cost. */
int vbc_atlas_plot(vbc_atlas *a, vbc_error *err);
/* DIR/index.html: every figure and the case × method table coloured by error. */
int vbc_atlas_write_html(const vbc_atlas *a, vbc_error *err);

/* The fitted order of method m on case c over its levels with an error (least squares on log e
 * against log l), NAN with fewer than 2; *npoints: how many levels it used. */
double vbc_atlas_fitted_order(const vbc_atlas *a, size_t c, size_t m, size_t *npoints);
/* The run of sw that varies method to `method` and spacing to `spacing`, NULL if none. */
struct vbc_sweep_case *vbc_atlas_find_run(const struct vbc_sweep *sw, const char *method,
                                          double spacing);
/* The sweep case (run) of case c, method m, level k, NULL if the case's sweep lacks it. */
struct vbc_sweep_case *vbc_atlas_run_of(const vbc_atlas *a, size_t c, size_t m, size_t k);
/* The cell of case c, method m, level k. */
const vbc_atlas_cell *vbc_atlas_cell_at(const vbc_atlas *a, size_t c, size_t m, size_t k);
/* The cell of case c, method m at the finest level the case runs at (NULL if none). */
const vbc_atlas_cell *vbc_atlas_finest_cell(const vbc_atlas *a, size_t c, size_t m);
/* The method whose cell of case c at the case's finest level has the lowest error among the
 * finished cells without run-time warnings, or among all finished ones when every one was
 * flagged (a flagged run's lower error is shown but not taken as the best: sim/monitors.c);
 * SIZE_MAX when none finished. */
size_t vbc_atlas_best(const vbc_atlas *a, size_t c);

/* `vbc atlas …` */
int vbc_atlas_main(int argc, char **argv, const struct vbc_registry *registry);

#endif
