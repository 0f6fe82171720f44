/* support.c — see support.h. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <math.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "registry/benchmark.h"
#include "io/files.h"
#include "registry/registry.h"
#include "modules/builtin.h"
#include "tests/support.h"

extern char **environ;

const char base_scene[] =
    "{\n"
    "  \"dim\": 2, \"spacing\": 0.05,\n"
    "  \"time\": {\"dt\": 0.002, \"end\": 0.01},\n"
    "  \"geometry\": [\n"
    "    {\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.3, 0.3]},\n"
    "    {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.3, 0.4]}\n"
    "  ]\n"
    "}\n";


static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (buf) buf[n] = '\0';
  fclose(f);
  return buf;
}

pid_t spawn_vbc(const char *const *args, const char *out_path, const char *err_path) {
  const char *argv[64];
  int n = 0;
  argv[n++] = VBC_BINARY;
  for (const char *const *a = args; *a && n < 63; ++a) argv[n++] = *a;
  argv[n] = NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out_path) posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err_path) posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int rc = posix_spawn(&pid, VBC_BINARY, &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

int run_vbc_to(const char *const *args, const char *out_path, const char *err_path) {
  pid_t pid = spawn_vbc(args, out_path, err_path);
  int status;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_vbc(const char *const *args, char **err_text) {
  char errfile[512];
  snprintf(errfile, sizeof errfile, "%s/stderr.%ld.txt", VBC_TEST_TMP, (long)getpid());
  vbc_error e = {0};
  vbc_mkdir_p(VBC_TEST_TMP, &e);
  int rc = run_vbc_to(args, "/dev/null", errfile);
  if (err_text) *err_text = slurp(errfile);
  remove(errfile);
  return rc;
}

const char *test_dir(const char *name) {
  static char buf[4][1024];
  static int k = 0;
  char *d = buf[k++ % 4];
  snprintf(d, 1024, "%s/%s.%ld", VBC_TEST_TMP, name, (long)getpid());
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
  if (system(cmd) != 0) return NULL;
  vbc_error e = {0};
  return vbc_mkdir_p(d, &e) == 0 ? d : NULL;
}

const char *write_text(const char *dir, const char *file, const char *text) {
  static char buf[4][1024];
  static int k = 0;
  char *p = buf[k++ % 4];
  snprintf(p, 1024, "%s/%s", dir, file);
  FILE *f = fopen(p, "wb");
  if (f == NULL) return NULL;
  fputs(text, f);
  fclose(f);
  return p;
}

cJSON *read_json(const char *path) {
  char *text = slurp(path);
  if (text == NULL) return NULL;
  cJSON *j = cJSON_Parse(text);
  free(text);
  return j;
}

const struct vbc_registry *test_registry(void) {
  static vbc_registry reg; /* filled once; the tests only read it */
  static int filled;
  if (!filled) {
    vbc_error err = {0};
    cr_assert_eq(vbc_registry_builtin(&reg, &err), VBC_OK, "%s", err.message);
    filled = 1;
  }
  return &reg;
}

double json_number(const cJSON *root, const char *dotted) {
  char key[256];
  snprintf(key, sizeof key, "%s", dotted);
  const cJSON *node = root;
  char *save = NULL;
  for (char *part = strtok_r(key, ".", &save); part && node; part = strtok_r(NULL, ".", &save))
    node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, atoi(part))
                               : cJSON_GetObjectItemCaseSensitive(node, part);
  return cJSON_IsNumber(node) ? node->valuedouble : NAN;
}

int summary_has_warning(const cJSON *summary, const char *code) {
  const cJSON *w;
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(summary, "warnings")) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(w, "code");
    if (cJSON_IsString(c) && strcmp(c->valuestring, code) == 0) return 1;
  }
  return 0;
}

char *read_text(const char *path) { return slurp(path); }

void strip_last_field(char *text) {
  char *out = text;
  for (char *line = text; *line;) {
    size_t len = strcspn(line, "\n"), keep = len;
    for (size_t k = 0; k < len; ++k)
      if (line[k] == ',') keep = k;
    memmove(out, line, keep);
    out += keep;
    if (line[len] == '\n') *out++ = '\n', ++len;
    line += len;
  }
  *out = '\0';
}

int bind_threads_like_a_user(void) {
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) < 2) return 0;
  unsetenv("OMP_WAIT_POLICY"); /* so that vbc re-executes itself, as it does for users */
  setenv("OMP_PROC_BIND", "close", 1);
  return 1;
}

int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

const char *source_path(const char *rel) {
  static char buf[4][1024];
  static int k = 0;
  char *p = buf[k++ % 4];
  snprintf(p, 1024, "%s/%s", VBC_SOURCE_DIR, rel);
  return p;
}

void expect_bad_input(const char *dir_name, const char *scene_text, const char *const *sets,
                      const char *const *fragments) {
  const char *dir = test_dir(dir_name);
  const char *scene = write_text(dir, "scene.json", scene_text);
  const char *commands[] = {"validate", "run"};
  for (int c = 0; c < 2; ++c) {
    const char *args[32];
    int n = 0;
    args[n++] = commands[c];
    args[n++] = scene;
    for (const char *const *s = sets; *s && n < 24; ++s) args[n++] = "--set", args[n++] = *s;
    if (c == 1) args[n++] = "--out", args[n++] = dir, args[n++] = "--quiet";
    args[n] = NULL;
    char *err = NULL;
    int rc = run_vbc(args, &err);
    cr_assert_eq(rc, 2, "%s %s: exit %d, stderr: %s", commands[c], sets[0] ? sets[0] : "", rc,
                 err);
    cr_assert_not_null(err);
    cr_assert_not_null(strstr(err, "scene.json"), "no file name in: %s", err);
    for (const char *const *f = fragments; *f; ++f)
      cr_assert_not_null(strstr(err, *f), "'%s' not in: %s", *f, err);
    cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
    free(err);
  }
  char path[1100];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  cr_assert(!file_exists(path), "bad input must not produce a summary");
}

cJSON *run_scene(const char *name, const char *scene, const char *const *sets, int nsets) {
  return run_scene_method(name, scene, NULL, sets, nsets);
}

cJSON *run_scene_method(const char *name, const char *scene, const char *method_preset,
                        const char *const *sets, int nsets) {
  const char *dir = test_dir(name);
  char out[1024];
  snprintf(out, sizeof out, "%s/out", dir);
  const char *args[36] = {"run", scene, "--out", out, "--quiet", "--threads", "1"};
  int n = 7;
  if (method_preset) args[n++] = "--method", args[n++] = method_preset;
  for (int i = 0; i < nsets && n < 34; ++i) args[n++] = "--set", args[n++] = sets[i];
  args[n] = NULL;
  char *err = NULL;
  int rc = run_vbc(args, &err);
  cr_assert_eq(rc, 0, "vbc run %s: exit %d: %s", scene, rc, err ? err : "");
  free(err);
  char path[1100];
  snprintf(path, sizeof path, "%s/summary.json", out);
  cJSON *s = read_json(path);
  cr_assert_not_null(s);
  return s;
}

vbc_solve_result solve_block(vbc_system *sys, vbc_block *block, const char *solver, double omega,
                             double tol, double error_tol) {
  vbc_error err = {0};
  cJSON *sp = cJSON_CreateObject();
  cJSON_AddNumberToObject(sp, "omega", omega);
  cJSON_AddNumberToObject(sp, "tolerance", tol);
  cJSON_AddNumberToObject(sp, "error_tolerance", error_tol);
  cJSON_AddNumberToObject(sp, "max_iterations", 100000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), solver), sp, &err), 0, "%s", err.message);
  vbc_block *blocks[1] = {block};
  vbc_problem pb = {sys, blocks, 1};
  vbc_solve_result res;
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), 0, "%s", err.message);
  vbc_solver_free(&s);
  cJSON_Delete(sp);
  return res;
}

const char *path_in(const char *dir, const char *file) {
  static char buf[4][2300];
  static int k;
  char *p = buf[k++ % 4];
  snprintf(p, sizeof buf[0], "%s/%s", dir, file);
  return p;
}

void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

void case_dir(const char *cases, char *buf, size_t size) {
  buf[0] = '\0';
  DIR *d = opendir(cases);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') snprintf(buf, size, "%s/%s", cases, e->d_name);
  if (d) closedir(d);
}

void sim_start(vbc_scene *sc, vbc_sim *sim, const char *name, const char *scene_text,
               const char *const *sets, int nsets) {
  const char *path = write_text(test_dir(name), "scene.json", scene_text);
  vbc_error err = {0};
  memset(sc, 0, sizeof *sc);
  memset(sim, 0, sizeof *sim);
  cr_assert_eq(vbc_scene_load(sc, path, sets, nsets, test_registry(), &err), 0, "%s", err.message);
  cr_assert_eq(vbc_sim_init(sim, sc, &err), 0, "%s", err.message);
}

void sim_step(vbc_sim *sim, vbc_step_report *rep) {
  vbc_step_report own;
  if (rep == NULL) rep = &own;
  memset(rep, 0, sizeof *rep);
  vbc_error err = {0};
  cr_assert_eq(vbc_sim_step(sim, rep, &err), 0, "step %ld: %s", sim->step, err.message);
  sim->step++;
}

void sim_stop(vbc_scene *sc, vbc_sim *sim) {
  vbc_sim_free(sim);
  vbc_scene_free(sc);
}

vbc_vec sim_momentum(const vbc_sim *sim) {
  vbc_vec P = vbc_vec_zero();
  for (size_t i = 0; i < sim->particles.n; ++i)
    if (sim->particles.kind[i] == VBC_FLUID)
      P = vbc_vec_axpy(P, sim->sys.fluid_mass, sim->particles.vel[i]);
  for (size_t k = 0; k < sim->sys.nbodies; ++k)
    P = vbc_vec_axpy(P, sim->bodies[k].mass, sim->bodies[k].v);
  return P;
}

void synthetic_bench_start(synthetic_bench *b, const vbc_benchmark_type *bt, double mass, double g,
                           const char *params_json) {
  memset(b, 0, sizeof *b);
  snprintf(b->sc.file, sizeof b->sc.file, "synthetic.json");
  b->sc.nbodies = 1;
  b->sc.gravity = vbc_vec_make(0.0, -g, 0.0);
  b->body.motion = VBC_MOTION_FREE;
  b->body.mass = mass;
  b->sim.scene = &b->sc;
  b->sim.bodies = &b->body;
  vbc_error err = {0};
  b->params = cJSON_Parse(params_json);
  cr_assert_eq(vbc_params_resolve(b->params, bt->params, b->sc.file, "benchmark", &err), 0, "%s",
               err.message);
  b->state = bt->alloc(&b->sim, b->params, &err);
  cr_assert_not_null(b->state, "%s", err.message);
}

cJSON *synthetic_bench_stop(synthetic_bench *b, const vbc_benchmark_type *bt) {
  vbc_error err = {0};
  cJSON *m = cJSON_CreateObject();
  cr_assert_eq(bt->metrics(b->state, &b->sim, m, NULL, &err), 0);
  bt->free(b->state);
  cJSON_Delete(b->params);
  return m;
}

/* The values of one column of series.csv (malloc'd), their number in *n. */
double *series_column(const char *series_path, const char *column, size_t *n) {
  char *text = read_text(series_path);
  cr_assert_not_null(text, "%s missing", series_path);
  size_t header_len = strcspn(text, "\n"), col = 0, cols = 0;
  int found = 0;
  for (size_t k = 0, start = 0; k <= header_len; ++k) {
    if (k < header_len && text[k] != ',') continue;
    if (k - start == strlen(column) && strncmp(text + start, column, k - start) == 0)
      col = cols, found = 1;
    ++cols, start = k + 1;
  }
  cr_assert(found, "no column %s in %s", column, series_path);
  double *values = malloc(strlen(text) * sizeof *values);
  cr_assert_not_null(values);
  *n = 0;
  for (char *line = text + header_len; *line == '\n' && line[1];) {
    ++line;
    char *field = line;
    for (size_t c = 0; c < col; ++c) field = strchr(field, ',') + 1;
    values[(*n)++] = strtod(field, NULL);
    line += strcspn(line, "\n");
  }
  free(text);
  return values;
}

double *run_series(const char *name, const char *column, size_t *n) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.%ld/out/series.csv", VBC_TEST_TMP, name, (long)getpid());
  return series_column(path, column, n);
}
