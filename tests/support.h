/* support.h — helpers shared by the tests: run the vbc binary, read its output files. */
#ifndef VBC_TEST_SUPPORT_H
#define VBC_TEST_SUPPORT_H

#include <sys/types.h>

#include <cjson/cJSON.h>

#include "scene/scene.h"
#include "sim/sim.h"
#include "core/constraint.h"

/* Long physics runs: a test attribute, `Test(suite, name, LONG_PHYSICS)`. Their numbers are
 * asserted in the optimised build; under the sanitizers (five to six times slower) they are
 * skipped, and the modules they run are run there by the shorter tests named beside each, which
 * is what the sanitizers check (memory and undefined behaviour, not the physics' numbers). */
#if defined(__SANITIZE_ADDRESS__)
#define LONG_PHYSICS .disabled = 1
#else
#define LONG_PHYSICS .disabled = 0
#endif

/* Run `vbc` with args (NULL-terminated); stderr goes to *err_text (malloc'd, may be NULL).
 * Returns the exit code, or -1 if the process could not run or died from a signal. */
int run_vbc(const char *const *args, char **err_text);

/* A sim with one free body of `mass` and no particles, gravity (0, -g), for feeding a benchmark
 * synthetic histories (the water-entry tests): the body is bench->body, the state bench->state
 * (from bt->alloc with the parameters in params_json, resolved). Fails the test on bad params. */
typedef struct synthetic_bench {
  vbc_scene sc;
  vbc_body body;
  vbc_sim sim;
  cJSON *params;
  void *state;
} synthetic_bench;
void synthetic_bench_start(synthetic_bench *b, const struct vbc_benchmark_type *bt, double mass,
                           double g, const char *params_json);
/* The benchmark's metrics (cJSON_Delete them); frees the state. */
cJSON *synthetic_bench_stop(synthetic_bench *b, const struct vbc_benchmark_type *bt);
/* Start `vbc` with args (NULL-terminated) without waiting; stdout and stderr go to the given
 * files (NULL: inherited). Returns the pid, or -1. */
pid_t spawn_vbc(const char *const *args, const char *out_path, const char *err_path);
/* spawn_vbc and wait: the exit code, or -1 if the process could not run or died from a signal. */
int run_vbc_to(const char *const *args, const char *out_path, const char *err_path);
/* A fresh empty directory under the test build tree: VBC_TEST_TMP/name. */
const char *test_dir(const char *name);
/* Write text to dir/file; returns the path (static buffer rotated among 4). */
const char *write_text(const char *dir, const char *file, const char *text);
cJSON *read_json(const char *path);
/* The whole file as a NUL-terminated string (malloc'd), NULL if it cannot be read. */
char *read_text(const char *path);
/* Remove the last comma-separated field of every line, in place: convergence.csv's `seconds`,
 * the wall-clock column that no two runs share. */
void strip_last_field(char *text);
/* The built-in modules (modules/builtin.c), for tests that load scenes or look solvers up by name. */
const struct vbc_registry *test_registry(void);
/* A number at a dotted path of a JSON object (NAN if missing); a numeric part indexes an
 * array ("solver.stages.1.solves"). */
double json_number(const cJSON *root, const char *dotted);
/* Whether a run's summary.json lists the run-time warning `code` (sim/monitors.c). */
int summary_has_warning(const cJSON *summary, const char *code);
int file_exists(const char *path);
/* The values of one column of series.csv at series_path (malloc'd), their number in *n; fails
 * the test when the file or the column is missing. */
double *series_column(const char *series_path, const char *column, size_t *n);
/* The same for the series.csv of run_scene(name, ...) / run_scene_method(name, ...). */
double *run_series(const char *name, const char *column, size_t *n);
/* For the tests of bound threads: 0 when this process may use fewer than two CPUs (the test then
 * skips); else 1, and the vbc runs started from here on bind their threads as for a user who set
 * OMP_PROC_BIND=close and no OMP_WAIT_POLICY (environment of this test process only). */
int bind_threads_like_a_user(void);
/* Bad input: write scene_text to test_dir(dir_name)/scene.json, run `vbc validate` and
 * `vbc run` on it with the --set assignments (NULL-terminated, may be empty); both must exit 2
 * with one line of stderr that names scene.json and holds every fragment (NULL-terminated), and
 * no summary.json may appear. Fails the calling test otherwise. */
void expect_bad_input(const char *dir_name, const char *scene_text, const char *const *sets,
                      const char *const *fragments);
#define SETS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define FRAGMENTS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* `vbc run scene --quiet --threads 1` with each of sets as --set, into test_dir(name)/out; fails
 * the calling test unless it exits 0. Returns its summary.json (cJSON_Delete it). */
cJSON *run_scene(const char *name, const char *scene, const char *const *sets, int nsets);
/* The same with `--method preset` before the sets (method_preset NULL: none). */
cJSON *run_scene_method(const char *name, const char *scene, const char *method_preset,
                        const char *const *sets, int nsets);

/* Solve one prepared block with a registered solver from its current impulses: relaxation omega,
 * stopping tolerance tol (relative residual) and error_tolerance (0: the residual test only), at
 * most 100000 iterations. Fails the calling test if the solve reports an error. */
vbc_solve_result solve_block(vbc_system *sys, vbc_block *block, const char *solver, double omega,
                             double tol, double error_tol);

/* A minimal valid scene: a 0.3 m square of water (l = 0.05) in a tank, five steps; the base that
 * bad-input tests break one key of. */
extern const char base_scene[];

/* In-process runs: write scene_text to test_dir(name)/scene.json, load it with the --set
 * assignments and set the simulation up; fails the calling test on any error. */
void sim_start(vbc_scene *sc, vbc_sim *sim, const char *name, const char *scene_text,
               const char *const *sets, int nsets);
/* One time step (the step counter advanced as the time loop does); the step's report in *rep
 * when rep is not NULL. Fails the calling test if the step fails. */
void sim_step(vbc_sim *sim, vbc_step_report *rep);
void sim_stop(vbc_scene *sc, vbc_sim *sim);
/* Linear momentum of the fluid particles and the bodies (walls and fixed bodies count through
 * their bodies' velocities only). */
vbc_vec sim_momentum(const vbc_sim *sim);

/* Path of a file in the source tree. */
const char *source_path(const char *rel);

/* dir/file (a static buffer rotated among 4). */
const char *path_in(const char *dir, const char *file);
/* Sleep ms milliseconds. */
void sleep_ms(long ms);
/* The one entry of the sweep's cases directory (its id-named case folder) as cases/NAME in buf,
 * "" while there is none. */
void case_dir(const char *cases, char *buf, size_t size);

#endif
