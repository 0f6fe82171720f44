/* sweep_cases.c — from a spec to its cases: the cartesian product of the axes (the last axis
 * varies fastest, repeats innermost), each case's scene loaded and checked, its id, its state on
 * disk, and the `vbc run` command that computes it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "registry/benchmark.h"
#include "scene/scene.h"
#include "experiments/runner/sweep.h"
#include "scene/method_preset.h"

unsigned long long vbc_fnv1a(const void *data, size_t n, unsigned long long h) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

static int by_key(const void *a, const void *b) {
  return strcmp((*(cJSON *const *)a)->string, (*(cJSON *const *)b)->string);
}

/* Object keys in sorted order, recursively: the id must not depend on the order in which the
 * file, --set and the defaults put the keys (the loader appends defaults at the end). */
static void sort_keys(cJSON *item) {
  size_t n = 0;
  for (cJSON *c = item->child; c; c = c->next) sort_keys(c), ++n;
  if (!cJSON_IsObject(item) || n < 2) return;
  cJSON **kids = malloc(n * sizeof *kids);
  if (kids == NULL) return; /* unsorted: an id that may differ, never a wrong result */
  size_t k = 0;
  for (cJSON *c = item->child; c; c = c->next) kids[k++] = c;
  qsort(kids, n, sizeof *kids, by_key);
  for (k = 0; k < n; ++k) {
    kids[k]->prev = k ? kids[k - 1] : kids[n - 1]; /* cJSON: the head's prev is the tail */
    kids[k]->next = k + 1 < n ? kids[k + 1] : NULL;
  }
  item->child = kids[0];
  free(kids);
}

void vbc_sweep_case_id(const cJSON *resolved, int repeat, unsigned long long state_hash,
                       char id[16]) {
  /* name and description label a scene without changing what it computes */
  cJSON *copy = cJSON_Duplicate(resolved, 1);
  cJSON_DeleteItemFromObjectCaseSensitive(copy, "name");
  cJSON_DeleteItemFromObjectCaseSensitive(copy, "description");
  sort_keys(copy);
  char *text = cJSON_PrintUnformatted(copy);
  cJSON_Delete(copy);
  unsigned long long h = vbc_fnv1a(text ? text : "", text ? strlen(text) : 0, VBC_FNV_OFFSET);
  free(text);
  char extra[64];
  int n = 0;
  if (repeat > 0) n += snprintf(extra + n, sizeof extra - (size_t)n, "\nrepeat=%d", repeat);
  if (state_hash) n += snprintf(extra + n, sizeof extra - (size_t)n, "\nstate=%016llx", state_hash);
  h = vbc_fnv1a(extra, (size_t)n, h);
  snprintf(id, 16, "%012llx", h & 0xffffffffffffULL);
}

static unsigned long long file_hash(const char *path, vbc_error *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  unsigned long long h = VBC_FNV_OFFSET;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = vbc_fnv1a(buf, n, h);
  if (ferror(f)) vbc_error_set(err, VBC_EXIT_INPUT, "%s: read error", path);
  fclose(f);
  return h ? h : 1;
}

/* "key=json" for a varied value, and "key=value key=value" labels. */
static char *assignment(const char *key, const cJSON *value) {
  char *text = cJSON_PrintUnformatted(value);
  if (text == NULL) return NULL;
  size_t len = strlen(key) + strlen(text) + 2;
  char *a = malloc(len);
  if (a) snprintf(a, len, "%s=%s", key, text);
  free(text);
  return a;
}

static char *make_label(const vbc_sweep_case *c, const vbc_sweep_spec *s) {
  size_t cap = 64, len = 0;
  for (size_t k = 0; k < s->nkeys; ++k) cap += strlen(c->sets[k]) + 2;
  char *label = malloc(cap);
  if (label == NULL) return NULL;
  label[0] = '\0';
  for (size_t k = 0; k < s->nkeys; ++k) {
    const cJSON *v = c->values[k];
    const char *key = c->sets[k];
    size_t klen = (size_t)(strchr(key, '=') - key);
    len += (size_t)snprintf(label + len, cap - len, "%s%.*s=%s", k ? " " : "", (int)klen, key,
                            cJSON_IsString(v) ? v->valuestring : strchr(key, '=') + 1);
  }
  if (s->repeat > 1) snprintf(label + len, cap - len, "%srepeat=%d", len ? " " : "", c->repeat);
  return label;
}

static const char *const run_figures[] = {
    "iterations_mean", "iterations_max", "iterations_total", "solves",
    "final_relative_residual_mean", "final_relative_residual_max", "wall_seconds",
    "cpu_seconds", "particle_steps_per_second", "steps", "time", NULL};
static const char *const replay_figures[] = {"iterations", "stop_reason",
                                             "final_relative_residual", "final_mean_error",
                                             "solve_seconds", NULL};

/* The metrics a case of this sweep can report: a replay's solve figures, or the benchmark's
 * metrics; the run's own figures in both cases. */
static int collect_metrics(vbc_sweep *sw, const vbc_scene *scene, vbc_error *err) {
  const char *const *bench = sw->spec.from_state[0] || sw->spec.state_step
                                 ? replay_figures
                                 : scene->benchmark && scene->benchmark->metric_names
                                       ? scene->benchmark->metric_names
                                       : NULL;
  size_t n = 0;
  for (size_t i = 0; bench && bench[i]; ++i) n++;
  for (size_t i = 0; run_figures[i]; ++i) n++;
  const char **all = vbc_calloc(n + 1, sizeof *all, err);
  if (all == NULL) return err->code;
  n = 0;
  for (size_t i = 0; bench && bench[i]; ++i) all[n++] = bench[i];
  for (size_t i = 0; run_figures[i]; ++i) all[n++] = run_figures[i];
  sw->known_metrics = all;
  sw->nknown = n;
  return VBC_OK;
}

static int known_metric(const vbc_sweep *sw, const char *name) {
  for (size_t i = 0; i < sw->nknown; ++i)
    if (strcmp(sw->known_metrics[i], name) == 0) return 1;
  return 0;
}

int vbc_sweep_check_metrics(const vbc_sweep *sw, vbc_error *err) {
  const vbc_sweep_spec *s = &sw->spec;
  for (size_t i = 0; i < s->nmetrics; ++i) {
    for (size_t j = 0; j < i; ++j) /* one column per name in table.csv */
      if (strcmp(s->metrics[j], s->metrics[i]) == 0)
        return vbc_error_set(err, VBC_EXIT_INPUT,
                             "%s: metrics.%zu: expected each metric once, got '%s' again "
                             "(metrics.%zu)", s->file, i, s->metrics[i], j);
    if (!known_metric(sw, s->metrics[i]))
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: metrics.%zu: expected a metric this scene reports, got '%s' "
                           "(vbc sweep %s --list shows them)",
                           s->file, i, s->metrics[i], s->file);
  }
  for (size_t p = 0; p < s->nplots; ++p) {
    const vbc_sweep_plot *pl = &s->plots[p];
    if (pl->kind != VBC_PLOT_METRIC && pl->kind != VBC_PLOT_ORDER) continue;
    for (size_t i = 0; i < pl->ny; ++i)
      if (!known_metric(sw, pl->y[i]))
        return vbc_error_set(err, VBC_EXIT_INPUT,
                             "%s: plots.%zu.y: expected a metric this scene reports, got '%s'",
                             s->file, p, pl->y[i]);
  }
  return VBC_OK;
}

/* The sets of case c: the spec's fixed ones, then the varied ones (later assignments win). */
static int case_scene(const vbc_sweep *sw, const vbc_sweep_case *c, const char *extra,
                      vbc_scene *scene, vbc_error *err) {
  const vbc_sweep_spec *s = &sw->spec;
  const char *sets[512];
  int n = 0;
  if (s->nsets + s->nreplay_sets + (int)s->nkeys + 1 > 512)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: too many assignments", s->file);
  for (int i = 0; i < s->nsets; ++i) sets[n++] = s->sets[i];
  for (int i = 0; c && i < s->nreplay_sets; ++i) sets[n++] = s->replay_sets[i];
  for (size_t k = 0; c && k < s->nkeys; ++k) sets[n++] = c->sets[k];
  if (extra) sets[n++] = extra;
  vbc_error inner;
  vbc_error_clear(&inner);
  if (vbc_scene_load(scene, s->scene, sets, n, sw->registry, &inner) == VBC_OK) return VBC_OK;
  return vbc_error_set(err, inner.code, "%s: case %s: %s", s->file,
                       c && c->label && c->label[0] ? c->label : "(base scene)", inner.message);
}

/* A `method` axis of preset names (scene/method_preset.h): each value's whole method replaces
 * the scene's, as `vbc run --method NAME` does; other values of `method` are JSON as usual. */
static int is_preset(const char *key, const cJSON *value) {
  return strcmp(key, "method") == 0 && cJSON_IsString(value);
}

static char *preset_assignment(const cJSON *value, vbc_error *err) {
  vbc_method_preset p;
  if (vbc_method_preset_load(&p, value->valuestring, err) != VBC_OK) return NULL;
  char *set = vbc_method_preset_assignment(&p, err);
  vbc_method_preset_free(&p);
  return set;
}

/* A case whose scene lacks what its preset needs is refused before anything runs. */
static int check_presets(const vbc_sweep *sw, const vbc_sweep_case *c, const vbc_scene *scene,
                         vbc_error *err) {
  for (size_t k = 0; k < sw->spec.nkeys; ++k) {
    if (strncmp(c->sets[k], "method=", 7) != 0 || !cJSON_IsString(c->values[k])) continue;
    vbc_method_preset p;
    vbc_error inner = {0};
    int rc = vbc_method_preset_load(&p, c->values[k]->valuestring, &inner);
    if (rc == VBC_OK) rc = vbc_method_preset_check(&p, scene, &inner);
    vbc_method_preset_free(&p);
    if (rc != VBC_OK)
      return vbc_error_set(err, rc, "%s: case %s: %s", sw->spec.file, c->label, inner.message);
  }
  return VBC_OK;
}

/* keep_refused: the refusal's message (without the spec and label it would be prefixed with)
 * becomes the case's, and its id hashes the spec and the
 * case's assignments (there is no resolved scene to hash); it gets no directory. */
static int refuse_case(const vbc_sweep *sw, vbc_sweep_case *c, vbc_error *err) {
  char prefix[1200];
  int n = snprintf(prefix, sizeof prefix, "%s: case %s: ", sw->spec.file, c->label);
  const char *why = err->message;
  if (n > 0 && strncmp(why, prefix, (size_t)n) == 0) why += n; /* the case is the cell's row */
  snprintf(c->message, sizeof c->message, "%.*s", (int)sizeof c->message - 1, why);
  vbc_error_clear(err);
  unsigned long long h = vbc_fnv1a(sw->spec.file, strlen(sw->spec.file), VBC_FNV_OFFSET);
  for (size_t k = 0; k < sw->spec.nkeys; ++k) h = vbc_fnv1a(c->sets[k], strlen(c->sets[k]), h);
  snprintf(c->id, sizeof c->id, "%012llx", h & 0xffffffffffffULL);
  c->t_end = c->dt = NAN;
  c->state = VBC_CASE_REFUSED;
  return VBC_OK;
}

static int fill_case(vbc_sweep *sw, vbc_sweep_case *c, size_t index, unsigned long long state,
                     vbc_error *err) {
  const vbc_sweep_spec *s = &sw->spec;
  size_t combo = index / (size_t)s->repeat;
  c->index = index;
  c->repeat = (int)(index % (size_t)s->repeat);
  c->values = vbc_calloc(s->nkeys ? s->nkeys : 1, sizeof *c->values, err);
  c->sets = vbc_calloc(s->nkeys ? s->nkeys : 1, sizeof *c->sets, err);
  if (c->values == NULL || c->sets == NULL) return err->code;
  size_t k = s->nkeys;
  for (size_t a = s->naxes; a-- > 0;) { /* the last axis varies fastest */
    const vbc_sweep_axis *ax = &s->axes[a];
    size_t v = combo % ax->nvalues;
    combo /= ax->nvalues;
    for (size_t j = ax->nkeys; j-- > 0;) {
      c->values[--k] = cJSON_GetArrayItem(ax->lists[j], (int)v);
      if (is_preset(ax->keys[j], c->values[k])) {
        if ((c->sets[k] = preset_assignment(c->values[k], err)) == NULL) return err->code;
        continue;
      }
      c->sets[k] = assignment(ax->keys[j], c->values[k]);
      if (c->sets[k] == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
    }
  }
  c->label = make_label(c, s);
  if (c->label == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
  vbc_scene scene;
  int rc = case_scene(sw, c, NULL, &scene, err);
  if (rc == VBC_OK) rc = check_presets(sw, c, &scene, err);
  if (rc == VBC_EXIT_INPUT && sw->keep_refused) {
    vbc_scene_free(&scene);
    return refuse_case(sw, c, err);
  }
  /* the metrics a case may name: the benchmark's of the first case that loads (a refused first
   * case, say a preset that needs bodies, must not leave the sweep without them) */
  if (rc == VBC_OK && sw->known_metrics == NULL) rc = collect_metrics(sw, &scene, err);
  if (rc == VBC_OK) vbc_sweep_case_id(scene.resolved, c->repeat, state, c->id);
  /* a replay of a frozen state runs one step, not the scene to its end */
  if (rc == VBC_OK) c->t_end = sw->state_file[0] ? NAN : scene.t_end;
  if (rc == VBC_OK) c->dt = sw->state_file[0] ? NAN : scene.dt;
  vbc_scene_free(&scene);
  return rc;
}

/* from_state {"step": N}: a first case runs the base scene for N steps and dumps step N. */
static int add_state_case(vbc_sweep *sw, vbc_sweep_case *c, unsigned long long *state,
                          vbc_error *err) {
  vbc_scene base;
  if (case_scene(sw, NULL, NULL, &base, err) != VBC_OK) return vbc_scene_free(&base), err->code;
  char end[64];
  snprintf(end, sizeof end, "time.end=%.17g", (double)sw->spec.state_step * base.dt);
  vbc_scene_free(&base);
  if (case_scene(sw, NULL, end, &base, err) != VBC_OK) return vbc_scene_free(&base), err->code;
  vbc_sweep_case_id(base.resolved, 0, (unsigned long long)sw->spec.state_step, c->id);
  c->t_end = base.t_end;
  c->dt = base.dt;
  vbc_scene_free(&base);
  c->is_state = 1;
  c->sets = vbc_calloc(1, sizeof *c->sets, err);
  if (c->sets == NULL) return err->code;
  char label[96];
  snprintf(label, sizeof label, "frozen state at step %ld", sw->spec.state_step);
  if ((c->sets[0] = vbc_strdup(end, err)) == NULL || (c->label = vbc_strdup(label, err)) == NULL)
    return err->code;
  char dir[1100];
  snprintf(sw->state_file, sizeof sw->state_file, "%s/state.bin",
           vbc_sweep_case_dir(sw, c, dir, sizeof dir));
  *state = vbc_fnv1a(c->id, strlen(c->id), VBC_FNV_OFFSET);
  return VBC_OK;
}

int vbc_sweep_expand(vbc_sweep *sw, vbc_error *err) {
  if (vbc_sweep_expand_cases(sw, err) != VBC_OK) return err->code;
  return vbc_sweep_check_metrics(sw, err);
}

/* Every case refused: the metrics are the base scene's (the spec's scene and fixed sets), or,
 * where that is refused too, the run's own figures. */
static int base_metrics(vbc_sweep *sw, vbc_error *err) {
  vbc_scene base;
  vbc_error ignored;
  vbc_error_clear(&ignored);
  if (case_scene(sw, NULL, NULL, &base, &ignored) != VBC_OK) memset(&base, 0, sizeof base);
  const int rc = collect_metrics(sw, &base, err);
  vbc_scene_free(&base);
  return rc;
}

int vbc_sweep_expand_cases(vbc_sweep *sw, vbc_error *err) {
  const vbc_sweep_spec *s = &sw->spec;
  size_t n = (size_t)s->repeat;
  for (size_t a = 0; a < s->naxes; ++a) {
    if (n > 100000 / s->axes[a].nvalues)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: more than 100000 cases", s->file);
    n *= s->axes[a].nvalues;
  }
  size_t first = s->state_step ? 1 : 0;
  sw->cases = vbc_calloc(n + first, sizeof *sw->cases, err);
  if (sw->cases == NULL) return err->code;
  unsigned long long state = 0;
  if (s->from_state[0]) {
    snprintf(sw->state_file, sizeof sw->state_file, "%s", s->from_state);
    state = file_hash(s->from_state, err);
    if (err->code) return err->code;
    if (state == 0)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: from_state: cannot read the state file '%s'",
                           s->file, s->from_state);
  }
  if (first && add_state_case(sw, &sw->cases[sw->ncases++], &state, err) != VBC_OK)
    return err->code;
  /* --exact-reference adds columns to convergence.csv: such a case is not the same as one
   * without, in a cases directory that sweeps share */
  if (s->exact_reference) state = vbc_fnv1a("exact_reference", 15, state ? state : VBC_FNV_OFFSET);
  for (size_t i = 0; i < n; ++i)
    if (fill_case(sw, &sw->cases[sw->ncases++], i, state, err) != VBC_OK) return err->code;
  if (sw->known_metrics == NULL && base_metrics(sw, err) != VBC_OK) return err->code;
  for (size_t i = 0; i < sw->ncases; ++i)
    if (sw->cases[i].state != VBC_CASE_REFUSED) vbc_sweep_refresh_state(sw, &sw->cases[i]);
  return VBC_OK;
}

void vbc_sweep_free(vbc_sweep *sw) {
  for (size_t i = 0; i < sw->ncases; ++i) {
    vbc_sweep_case *c = &sw->cases[i];
    size_t nsets = c->is_state ? 1 : sw->spec.nkeys;
    for (size_t k = 0; c->sets && k < nsets; ++k) free(c->sets[k]);
    free(c->sets), free(c->values), free(c->label);
  }
  free(sw->cases);
  free((void *)sw->known_metrics);
  vbc_sweep_spec_free(&sw->spec);
  memset(sw, 0, sizeof *sw);
}

const char *vbc_sweep_case_dir(const vbc_sweep *sw, const vbc_sweep_case *c, char *buf,
                               size_t size) {
  snprintf(buf, size, "%s/%s", sw->cases_dir, c->id);
  return buf;
}

vbc_sweep_case *vbc_sweep_find_case(vbc_sweep *sw, const char *id) {
  for (size_t i = 0; i < sw->ncases; ++i)
    if (strcmp(sw->cases[i].id, id) == 0) return &sw->cases[i];
  return NULL;
}

static const char *const state_names[] = {"pending", "incomplete", "done", "failed", "refused"};
const char *vbc_case_state_name(vbc_case_state s) { return state_names[s]; }

/* done: summary.json says ok (and a state case has its file); failed: result.json recorded a
 * non-zero exit, or summary.json says failed; a directory with neither was killed half-way. */
void vbc_sweep_refresh_state(const vbc_sweep *sw, vbc_sweep_case *c) {
  char dir[1100];
  struct stat st;
  vbc_sweep_case_dir(sw, c, dir, sizeof dir);
  c->message[0] = '\0';
  if (stat(dir, &st) != 0) {
    c->state = VBC_CASE_PENDING;
    return;
  }
  cJSON *summary = vbc_sweep_case_json(sw, c, "summary.json");
  cJSON *result = vbc_sweep_case_json(sw, c, "result.json");
  const cJSON *status = cJSON_GetObjectItemCaseSensitive(summary, "status");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(result, "exit_code");
  const cJSON *msg = cJSON_GetObjectItemCaseSensitive(result, "message");
  const cJSON *error = cJSON_GetObjectItemCaseSensitive(summary, "error");
  int ok = cJSON_IsString(status) && strcmp(status->valuestring, "ok") == 0;
  if (ok && c->is_state) ok = stat(sw->state_file, &st) == 0;
  if (ok) {
    c->state = VBC_CASE_DONE;
  } else if (cJSON_IsString(status) && strcmp(status->valuestring, "interrupted") == 0) {
    c->state = VBC_CASE_INCOMPLETE; /* stopped by a signal: resumed (or rerun), never skipped */
    snprintf(c->message, sizeof c->message, "%s",
             cJSON_IsString(error) ? error->valuestring : "interrupted");
  } else if (cJSON_IsNumber(code) && code->valueint != 0) {
    c->state = VBC_CASE_FAILED;
    snprintf(c->message, sizeof c->message, "%s", cJSON_IsString(msg) ? msg->valuestring : "");
  } else if (cJSON_IsString(status) && strcmp(status->valuestring, "failed") == 0) {
    c->state = VBC_CASE_FAILED;
    snprintf(c->message, sizeof c->message, "%s",
             cJSON_IsString(error) ? error->valuestring : "failed");
  } else {
    c->state = VBC_CASE_INCOMPLETE;
  }
  cJSON_Delete(summary), cJSON_Delete(result);
}

static int push(char **argv, int *n, const char *s) {
  argv[*n] = strdup(s);
  return argv[(*n)++] != NULL;
}

char **vbc_sweep_case_argv(const vbc_sweep *sw, const vbc_sweep_case *c, const char *vbc,
                           int threads, int resume) {
  const vbc_sweep_spec *s = &sw->spec;
  size_t max = 18 + 2 * ((size_t)s->nsets + (size_t)s->nreplay_sets + s->nkeys + 1);
  char **argv = calloc(max, sizeof *argv);
  if (argv == NULL) return NULL;
  int n = 0, ok = push(argv, &n, vbc) && push(argv, &n, "run") && push(argv, &n, s->scene);
  size_t nvar = c->is_state ? 1 : s->nkeys;
  for (int i = 0; ok && i < s->nsets; ++i) ok = push(argv, &n, "--set") && push(argv, &n, s->sets[i]);
  for (int i = 0; ok && !c->is_state && i < s->nreplay_sets; ++i)
    ok = push(argv, &n, "--set") && push(argv, &n, s->replay_sets[i]);
  for (size_t k = 0; ok && k < nvar; ++k) ok = push(argv, &n, "--set") && push(argv, &n, c->sets[k]);
  char dir[1100], num[32];
  vbc_sweep_case_dir(sw, c, dir, sizeof dir);
  const int whole = !c->is_state && !sw->state_file[0]; /* a whole run, not a dump or replay */
  ok = ok && push(argv, &n, resume ? "--resume" : "--out") && push(argv, &n, dir);
  if (ok && whole && s->checkpoint_seconds > 0.0) {
    snprintf(num, sizeof num, "%.17g", s->checkpoint_seconds);
    ok = push(argv, &n, "--checkpoint-seconds") && push(argv, &n, num);
  }
  if (ok && whole && s->cpu_limit_seconds > 0.0) {
    snprintf(num, sizeof num, "%.17g", s->cpu_limit_seconds);
    ok = push(argv, &n, "--cpu-limit") && push(argv, &n, num);
  }
  if (ok && c->is_state) {
    snprintf(num, sizeof num, "%ld", s->state_step);
    ok = push(argv, &n, "--dump-state") && push(argv, &n, num) && push(argv, &n, sw->state_file);
  } else if (ok && sw->state_file[0]) {
    ok = push(argv, &n, "--from-state") && push(argv, &n, sw->state_file);
  }
  if (ok && s->exact_reference && !c->is_state) ok = push(argv, &n, "--exact-reference");
  if (ok && threads > 0) {
    snprintf(num, sizeof num, "%d", threads);
    ok = push(argv, &n, "--threads") && push(argv, &n, num);
  }
  if (!ok) {
    vbc_sweep_argv_free(argv);
    return NULL;
  }
  return argv;
}

void vbc_sweep_argv_free(char **argv) {
  for (size_t i = 0; argv && argv[i]; ++i) free(argv[i]);
  free(argv);
}
