/* sweep.h — `vbc sweep`: parameter sweeps over scenes, run as separate `vbc run` processes,
 * tabulated and plotted (docs/sweep-format.md documents the spec).
 *
 * A spec names a base scene, fixed overrides (`set`), varied keys (`vary`: cartesian product;
 * `zip`: lists that move together), `repeat`, the metrics of table.csv and the plots. Every case
 * is the base scene with one assignment per varied key; its id hashes the resolved scene, so the
 * same inputs give the same directory and a finished case is never run again. */
#ifndef VBC_SWEEP_H
#define VBC_SWEEP_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/error.h"

struct vbc_registry;

/* One independent axis of the product: a single `vary` key, or a `zip` group of keys whose
 * lists have one common length. */
typedef struct vbc_sweep_axis {
  size_t nkeys, nvalues;
  const char **keys;    /* dotted scene keys */
  const cJSON **lists;  /* one JSON array per key */
} vbc_sweep_axis;

typedef enum vbc_plot_kind {
  VBC_PLOT_METRIC,      /* metric(s) versus a varied value, one series per another varied key */
  VBC_PLOT_ORDER,       /* spatial convergence: log-log error versus spacing, fitted order */
  VBC_PLOT_SERIES,      /* columns of a per-case CSV (series.csv) across cases */
  VBC_PLOT_CONVERGENCE, /* relative residual versus iteration or seconds, one curve per case */
  VBC_PLOT_SCRIPT,      /* a hand-written gnuplot script given each case directory */
  VBC_PLOT_KINDS
} vbc_plot_kind;

typedef struct vbc_plot_reference { /* a curve or points read from a data file */
  char file[1024];
  const cJSON *x, *y; /* column: 1-based number or header name */
  const char *title, *style; /* style: "points" or "lines" */
} vbc_plot_reference;

typedef struct vbc_sweep_plot {
  const char *name, *title, *xlabel, *ylabel;
  vbc_plot_kind kind;
  const char *x;       /* varied key (metric, order) or column (series) or iteration|seconds */
  const char *series;  /* varied key giving one curve per value, or NULL */
  const char **y;      /* metrics (metric, order) or columns (series) */
  size_t ny;
  int logx, logy;
  const char *key;     /* legend position, words of top|bottom|left|right|center, or NULL */
  const char *file;    /* series: the per-case CSV file */
  const char *block;   /* convergence: block label, NULL = total if present, else the first */
  long step;           /* convergence: sampled step, 0 = the last one */
  char script[1024];   /* script: path of the gnuplot script */
  const cJSON *where;  /* object of key: value a case must match, or NULL */
  vbc_plot_reference *refs;
  size_t nrefs;
} vbc_sweep_plot;

typedef struct vbc_sweep_spec {
  char file[1024], dir[1024]; /* the spec and its directory (paths in the spec are relative) */
  cJSON *root;
  const char *name, *description;
  char scene[1024];           /* base scene path as vbc run sees it */
  const char **sets;          /* fixed overrides "key=json": the spec's `set`, then the CLI's */
  int nsets;
  vbc_sweep_axis *axes;
  size_t naxes, nkeys;        /* nkeys: varied keys over all axes */
  int repeat;
  char from_state[1024];      /* a state file, or "" */
  long state_step;            /* from_state {"step": N}: the runner dumps it, else 0 */
  const char **replay_sets;   /* from_state {"set"}: overrides of the replays only */
  int nreplay_sets;
  int exact_reference;        /* `exact_reference`: every case but the state dump runs with
                                 vbc run --exact-reference (lcp/exact_reference.h) */
  double checkpoint_seconds;  /* `checkpoint_seconds` (default 180; 0: off): every case that
                                 runs a whole scene checkpoints whenever that many wall seconds
                                 passed (vbc run --checkpoint-seconds), so only cases longer
                                 than that write one, and a killed case resumes from it */
  double cpu_limit_seconds;   /* `cpu_limit_seconds` (default 0: none): every case that runs a
                                 whole scene stops between steps once it has used that much CPU
                                 time (vbc run --cpu-limit), with a checkpoint if it writes any */
  const char **metrics;
  size_t nmetrics;
  vbc_sweep_plot *plots;
  size_t nplots;
} vbc_sweep_spec;

/* Load and check a spec (exit 2 naming the file and path). cli_sets ("key=value", applied to
 * every case after the spec's `set`) may be NULL. Cases are checked by vbc_sweep_expand. */
int vbc_sweep_spec_load(vbc_sweep_spec *s, const char *path, const char *const *cli_sets,
                        int ncli_sets, vbc_error *err);
void vbc_sweep_spec_free(vbc_sweep_spec *s);
const char *vbc_plot_kind_name(vbc_plot_kind k);

typedef enum vbc_case_state {
  VBC_CASE_PENDING,    /* no directory */
  VBC_CASE_INCOMPLETE, /* a directory without a finished run: killed half-way; rerun */
  VBC_CASE_DONE,       /* summary.json with status ok */
  VBC_CASE_FAILED,     /* the run exited 2, 3 or 4 (message recorded) */
  VBC_CASE_REFUSED     /* with keep_refused: the case's scene or method preset was refused
                          before anything ran (exit 2, message recorded); never run */
} vbc_case_state;

typedef struct vbc_sweep_case {
  char id[16];
  size_t index;
  int repeat;               /* 0 .. repeat-1 */
  const cJSON **values;     /* spec->nkeys values, in key order (axes in spec order) */
  char **sets;              /* "key=json" of the varied values */
  char *label;              /* "spacing=0.01 time.dt=0.002" */
  int is_state;             /* the case that dumps the frozen state (from_state {"step"}) */
  vbc_case_state state;
  int held;                 /* not to be run by vbc_sweep_execute / emit-jobs now (the atlas holds
                               a finer level back until the coarser one is done, or for good when
                               it is predicted over the atlas's cost budget) */
  char message[512];        /* why it failed */
  double t_end;             /* the scene's time.end [s] (the progress lines' end); NAN for a
                               replay of a frozen state (one step) */
  double dt;                /* the scene's time.dt [s] (NAN where t_end is) */
} vbc_sweep_case;

typedef struct vbc_sweep {
  vbc_sweep_spec spec;
  const struct vbc_registry *registry; /* the modules the cases' scenes may name */
  vbc_sweep_case *cases;    /* the state case (if any) first */
  size_t ncases;
  char out[1024], cases_dir[1040];
  char state_file[1200];    /* the file every case replays, "" without from_state */
  const char *const *known_metrics; /* the base scene's benchmark metrics and the run's figures */
  size_t nknown;
  int threads;              /* --threads N: every case's OpenMP threads (0: the default: one each
                               when cases run side by side, else all cores) */
  double progress_seconds;  /* a progress line per running case at least this often (0: none) */
  int quiet;                /* --quiet: no progress lines */
  int keep_refused;         /* a case whose scene or preset is bad input becomes a refused case
                               (vbc atlas: a refusal is a cell of the table) instead of stopping
                               the whole sweep with exit 2 */
} vbc_sweep;

/* Expand the spec into cases (loading every case's scene, so a bad key or value stops here with
 * exit 2), compute their ids and check metrics and plots against what the scene can produce:
 * vbc_sweep_expand_cases, then vbc_sweep_check_metrics. */
int vbc_sweep_expand(vbc_sweep *sw, vbc_error *err);
int vbc_sweep_expand_cases(vbc_sweep *sw, vbc_error *err);
int vbc_sweep_check_metrics(const vbc_sweep *sw, vbc_error *err);
void vbc_sweep_free(vbc_sweep *sw);

/* The id of a resolved scene: 12 hex digits of a 64-bit FNV-1a hash of its canonical text
 * without `name` and `description`, plus the repeat index (when > 0) and the frozen state's
 * hash. */
void vbc_sweep_case_id(const cJSON *resolved, int repeat, unsigned long long state_hash,
                       char id[16]);
unsigned long long vbc_fnv1a(const void *data, size_t n, unsigned long long h);
#define VBC_FNV_OFFSET 1469598103934665603ULL

/* Directory of a case; state of a case from the files in it. */
const char *vbc_sweep_case_dir(const vbc_sweep *sw, const vbc_sweep_case *c, char *buf,
                               size_t size);
void vbc_sweep_refresh_state(const vbc_sweep *sw, vbc_sweep_case *c);
const char *vbc_case_state_name(vbc_case_state s);
vbc_sweep_case *vbc_sweep_find_case(vbc_sweep *sw, const char *id);

/* The argument vector of `vbc run` for a case (NULL-terminated, malloc'd strings; free with
 * vbc_sweep_argv_free). vbc is the binary; threads > 0 adds --threads; resume continues the
 * case's directory from its checkpoint (--resume) instead of starting it (--out). */
char **vbc_sweep_case_argv(const vbc_sweep *sw, const vbc_sweep_case *c, const char *vbc,
                           int threads, int resume);
void vbc_sweep_argv_free(char **argv);

/* Run the cases that need it, up to jobs at once, each `vbc run` a separate process. force
 * reruns finished cases; only (if not NULL) restricts to one case id. Returns 0, or the code of
 * the runner's own failure (an interrupted sweep: VBC_EXIT_FAILED). */
int vbc_sweep_execute(vbc_sweep *sw, const char *vbc, int jobs, int force, const char *only,
                      vbc_error *err);
/* The same over the n sweeps sweeps[0..n-1] at once: one queue of their cases in order (each
 * sweep's frozen state first), so that a sweep with one long case left does not hold the other
 * jobs idle (vbc atlas: every case of a level). */
int vbc_sweep_execute_together(vbc_sweep *sweeps, size_t n, const char *vbc, int jobs,
                               int force, const char *only, vbc_error *err);

/* `--emit-jobs FILE`: one shell command per case still to run, every path one single-quoted sh
 * word (experiments/runner/sweep_jobs.c). */
int vbc_sweep_emit_jobs(const vbc_sweep *sw, const char *vbc, const char *path, int force,
                        size_t *njobs, vbc_error *err);

/* `--emit-slurm FILE`: the options of the sbatch array script. */
typedef struct vbc_slurm_options {
  const char *partition;  /* --partition, NULL: the cluster's default partition */
  const char *time_limit; /* --time per task in Slurm's format (e.g. 30, 2:00:00, 1-12), NULL:
                             the partition's default */
  int cpus_per_task;      /* CPUs per task, also each case's OpenMP threads (>= 1) */
  int throttle;           /* at most this many tasks at once (--array=1-N%T), 0: no limit */
} vbc_slurm_options;

/* An sbatch array script, one task per case still to run (all with force), each task running its
 * case's job line; per-task logs in OUT/slurm/slurm-JOB_TASK.log (the directory is created).
 * Writes nothing when no case needs running (*ntasks = 0): Slurm has no empty arrays. */
int vbc_sweep_emit_slurm(const vbc_sweep *sw, const char *vbc, const char *path, int force,
                         const vbc_slurm_options *o, size_t *ntasks, vbc_error *err);

/* VBC_EXIT_INPUT naming `what` if path holds a line break: the job lines and gnuplot scripts
 * vbc writes are one command per line, and every other character is quoted as data. */
int vbc_sweep_check_path(const char *what, const char *path, vbc_error *err);

/* DIR/table.csv: one row per case (varied values, metrics, iterations, seconds, speed). */
int vbc_sweep_write_table(const vbc_sweep *sw, vbc_error *err);
/* A case's figure from summary.json: metrics.NAME, solver.NAME or NAME (NAN if missing, and
 * for a figure that is not a number); vbc_sweep_case_value: the JSON value itself, NULL if
 * missing. */
double vbc_sweep_case_metric(const cJSON *summary, const char *name);
const cJSON *vbc_sweep_case_value(const cJSON *summary, const char *name);
/* A JSON file of a case's directory (summary.json, result.json), NULL if absent or unreadable. */
cJSON *vbc_sweep_case_json(const vbc_sweep *sw, const vbc_sweep_case *c, const char *file);

/* DIR/plots/NAME.{dat,gp} for every plot, rendered by gnuplot into PNG, SVG (and PDF when the
 * terminal exists). VBC_EXIT_SYSTEM with a clear message if gnuplot is missing; the data and
 * scripts are written regardless. */
int vbc_sweep_plot_all(vbc_sweep *sw, vbc_error *err);

/* Least-squares fit of log y = log c + order log x over the points with x, y > 0. Returns the
 * number of points used; order and c are NAN with fewer than 2. */
size_t vbc_fit_order(const double *x, const double *y, size_t n, double *order, double *c);

/* `vbc sweep …` */
int vbc_sweep_main(int argc, char **argv, const struct vbc_registry *registry);

#endif
