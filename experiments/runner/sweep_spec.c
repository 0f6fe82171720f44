/* sweep_spec.c — reading and checking a sweep spec (docs/sweep-format.md). Every problem is
 * reported as "SPEC: PATH: expected …" with exit code 2 before any case runs. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/json_file.h"
#include "core/json_util.h"
#include "experiments/runner/sweep.h"

static const char *const kind_names[VBC_PLOT_KINDS] = {"metric", "spatial_convergence",
                                                        "series", "convergence", "script"};

const char *vbc_plot_kind_name(vbc_plot_kind k) { return kind_names[k]; }

static int bad(vbc_sweep_spec *s, vbc_error *err, const char *path, const char *what) {
  return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s: expected %s", s->file, path, what);
}

/* A path in the spec, relative to the spec's directory unless absolute. */
static void spec_relative(const vbc_sweep_spec *s, const char *p, char *out, size_t size) {
  int n = p[0] == '/' || strcmp(s->dir, ".") == 0 ? snprintf(out, size, "%s", p)
                                                   : snprintf(out, size, "%s/%s", s->dir, p);
  if (n < 0 || (size_t)n >= size) out[0] = '\0'; /* too long: reported as missing */
}

static const char *string_at(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* An optional string key: absent -> def; present but not a string -> error. */
static int opt_string(vbc_sweep_spec *s, const cJSON *obj, const char *path, const char *key,
                      const char *def, const char **out, vbc_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  char p[256];
  *out = def;
  if (v == NULL) return VBC_OK;
  if (!cJSON_IsString(v) || v->valuestring[0] == '\0')
    return bad(s, err, vbc_path_join(p, sizeof p, path, key), "a non-empty string");
  *out = v->valuestring;
  return VBC_OK;
}

/* A string or an array of strings -> (*out)[*n]. */
static int string_list(vbc_sweep_spec *s, const cJSON *v, const char *path, const char ***out,
                       size_t *n, vbc_error *err) {
  *n = 0;
  size_t count = cJSON_IsString(v) ? 1 : cJSON_IsArray(v) ? (size_t)cJSON_GetArraySize(v) : 0;
  if (count == 0) return bad(s, err, path, "a string or a non-empty list of strings");
  *out = vbc_calloc(count, sizeof **out, err);
  if (*out == NULL) return err->code;
  if (cJSON_IsString(v)) {
    (*out)[(*n)++] = v->valuestring;
    return VBC_OK;
  }
  const cJSON *e;
  cJSON_ArrayForEach(e, v) {
    char p[256];
    if (!cJSON_IsString(e) || e->valuestring[0] == '\0')
      return bad(s, err, vbc_path_index(p, sizeof p, path, (int)*n), "a non-empty string");
    (*out)[(*n)++] = e->valuestring;
  }
  return VBC_OK;
}

static int is_varied(const vbc_sweep_spec *s, const char *key) {
  for (size_t a = 0; a < s->naxes; ++a)
    for (size_t k = 0; k < s->axes[a].nkeys; ++k)
      if (strcmp(s->axes[a].keys[k], key) == 0) return 1;
  return 0;
}

/* An object of scene keys and values as "key=json" strings, followed by cli's (may be NULL). */
static int assignments(vbc_sweep_spec *s, const cJSON *obj, const char *path,
                       const char *const *cli, int ncli, const char ***out, int *nout,
                       vbc_error *err) {
  if (obj && !cJSON_IsObject(obj)) return bad(s, err, path, "an object of scene keys and values");
  int n = obj ? cJSON_GetArraySize(obj) : 0;
  const char **sets = vbc_calloc((size_t)(n + ncli) + 1, sizeof *sets, err);
  if ((*out = sets) == NULL) return err->code;
  const cJSON *e;
  cJSON_ArrayForEach(e, obj) {
    char *value = cJSON_PrintUnformatted(e);
    size_t len = strlen(e->string) + (value ? strlen(value) : 0) + 2;
    char *a = value ? vbc_realloc(NULL, len, 1, err) : NULL;
    if (a == NULL) {
      free(value);
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
    }
    snprintf(a, len, "%s=%s", e->string, value);
    free(value);
    sets[(*nout)++] = a;
  }
  for (int i = 0; i < ncli; ++i)
    if ((sets[(*nout)++] = vbc_strdup(cli[i], err)) == NULL) return err->code;
  return VBC_OK;
}

static vbc_sweep_axis *new_axis(vbc_sweep_spec *s, size_t nkeys, vbc_error *err) {
  vbc_sweep_axis *ax = &s->axes[s->naxes++];
  ax->keys = vbc_calloc(nkeys, sizeof *ax->keys, err);
  ax->lists = vbc_calloc(nkeys, sizeof *ax->lists, err);
  return ax->keys && ax->lists ? ax : NULL;
}

/* One key of an axis: a non-empty list, as long as the axis's other lists, varied only once. */
static int axis_key(vbc_sweep_spec *s, vbc_sweep_axis *ax, const cJSON *e, const char *path,
                    vbc_error *err) {
  char p[256];
  vbc_path_join(p, sizeof p, path, e->string);
  if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) == 0)
    return bad(s, err, p, "a non-empty list of values");
  if (is_varied(s, e->string)) return bad(s, err, p, "a key varied only once");
  size_t nv = (size_t)cJSON_GetArraySize(e);
  if (ax->nkeys > 0 && nv != ax->nvalues) {
    char what[96];
    snprintf(what, sizeof what, "%zu values, as every list of this zip group", ax->nvalues);
    return bad(s, err, p, what);
  }
  ax->keys[ax->nkeys] = e->string;
  ax->lists[ax->nkeys++] = e;
  ax->nvalues = nv;
  s->nkeys++;
  return VBC_OK;
}

/* `vary` (one axis per key) and `zip` (one axis per group). */
static int load_axes(vbc_sweep_spec *s, vbc_error *err) {
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(s->root, "vary");
  const cJSON *zip = cJSON_GetObjectItemCaseSensitive(s->root, "zip");
  if (vary && !cJSON_IsObject(vary)) return bad(s, err, "vary", "an object of key: [values]");
  if (zip && !cJSON_IsArray(zip)) return bad(s, err, "zip", "a list of objects of key: [values]");
  size_t n = (vary ? (size_t)cJSON_GetArraySize(vary) : 0) +
             (zip ? (size_t)cJSON_GetArraySize(zip) : 0);
  s->axes = vbc_calloc(n ? n : 1, sizeof *s->axes, err);
  if (s->axes == NULL) return err->code;
  const cJSON *e, *k;
  cJSON_ArrayForEach(e, vary) {
    vbc_sweep_axis *ax = new_axis(s, 1, err);
    if (ax == NULL || axis_key(s, ax, e, "vary", err) != VBC_OK) return err->code;
  }
  int i = 0;
  cJSON_ArrayForEach(e, zip) {
    char p[64];
    vbc_path_index(p, sizeof p, "zip", i++);
    if (!cJSON_IsObject(e) || cJSON_GetArraySize(e) == 0)
      return bad(s, err, p, "an object of key: [values] (values that move together)");
    vbc_sweep_axis *ax = new_axis(s, (size_t)cJSON_GetArraySize(e), err);
    if (ax == NULL) return err->code;
    cJSON_ArrayForEach(k, e) if (axis_key(s, ax, k, p, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

static int load_from_state(vbc_sweep_spec *s, vbc_error *err) {
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(s->root, "from_state");
  if (f == NULL) return VBC_OK;
  if (cJSON_IsString(f) && f->valuestring[0]) {
    spec_relative(s, f->valuestring, s->from_state, sizeof s->from_state);
    return VBC_OK;
  }
  static const char *const keys[] = {"step", "set", NULL};
  vbc_jctx c = {s->file, err};
  if (!cJSON_IsObject(f) || vbc_json_check_keys(&c, f, "from_state", keys) != VBC_OK ||
      vbc_json_integer(&c, (cJSON *)f, "from_state", "step", -1, 1, LONG_MAX, &s->state_step))
    return err->code ? err->code
                     : bad(s, err, "from_state", "a state file or {\"step\": N, \"set\": {...}}");
  /* from_state.set: settings of the replays only (the solver's), not of the run that dumps */
  return assignments(s, cJSON_GetObjectItemCaseSensitive(f, "set"), "from_state.set", NULL, 0,
                     &s->replay_sets, &s->nreplay_sets, err);
}

static int load_refs(vbc_sweep_spec *s, vbc_sweep_plot *pl, const cJSON *ref, const char *path,
                     vbc_error *err) {
  static const char *const keys[] = {"file", "x", "y", "title", "style", NULL};
  vbc_jctx c = {s->file, err};
  size_t n = cJSON_IsArray(ref) ? (size_t)cJSON_GetArraySize(ref) : 1;
  pl->refs = vbc_calloc(n, sizeof *pl->refs, err);
  if (pl->refs == NULL) return err->code;
  for (size_t i = 0; i < n; ++i) {
    const cJSON *r = cJSON_IsArray(ref) ? cJSON_GetArrayItem(ref, (int)i) : ref;
    char p[256];
    if (cJSON_IsArray(ref)) vbc_path_index(p, sizeof p, path, (int)i);
    else snprintf(p, sizeof p, "%s", path);
    if (!cJSON_IsObject(r)) return bad(s, err, p, "an object {file, x, y, title, style}");
    if (vbc_json_check_keys(&c, r, p, keys) != VBC_OK) return err->code;
    vbc_plot_reference *rf = &pl->refs[pl->nrefs++];
    const char *file = string_at(r, "file");
    char q[300];
    if (file == NULL) return bad(s, err, vbc_path_join(q, sizeof q, p, "file"), "a file name");
    spec_relative(s, file, rf->file, sizeof rf->file);
    rf->x = cJSON_GetObjectItemCaseSensitive(r, "x");
    rf->y = cJSON_GetObjectItemCaseSensitive(r, "y");
    for (int k = 0; k < 2; ++k) {
      const cJSON *col = k ? rf->y : rf->x;
      int ok = cJSON_IsString(col) || (cJSON_IsNumber(col) && col->valuedouble >= 1 &&
                                       col->valuedouble == (int)col->valuedouble);
      if (!ok)
        return bad(s, err, vbc_path_join(q, sizeof q, p, k ? "y" : "x"),
                   "a column: a header name or a number from 1");
    }
    if (opt_string(s, r, p, "title", file, &rf->title, err) ||
        opt_string(s, r, p, "style", "points", &rf->style, err))
      return err->code;
    if (strcmp(rf->style, "points") && strcmp(rf->style, "lines"))
      return bad(s, err, vbc_path_join(q, sizeof q, p, "style"), "\"points\" or \"lines\"");
  }
  return VBC_OK;
}

static int plot_kind(vbc_sweep_spec *s, const cJSON *obj, const char *path, vbc_plot_kind *k,
                     vbc_error *err) {
  const char *name = string_at(obj, "kind");
  char p[256];
  for (int i = 0; name && i < VBC_PLOT_KINDS; ++i)
    if (strcmp(name, kind_names[i]) == 0) return *k = (vbc_plot_kind)i, VBC_OK;
  return bad(s, err, vbc_path_join(p, sizeof p, path, "kind"),
             "one of metric, spatial_convergence, series, convergence, script");
}

/* The convergence.csv columns a convergence plot may draw against iteration or seconds. */
static int convergence_column(const char *name) {
  static const char *const columns[] = {"relative_residual", "residual", "mean_error",
                                        "reference_error", "reference_w_error", NULL};
  for (const char *const *c = columns; *c; ++c)
    if (strcmp(name, *c) == 0) return 1;
  return 0;
}

/* The keys each kind needs, and that x/series name varied keys where they must. */
static int plot_fields(vbc_sweep_spec *s, vbc_sweep_plot *pl, const cJSON *o, const char *path,
                       vbc_error *err) {
  char p[256];
  const char *xdef = pl->kind == VBC_PLOT_ORDER ? "spacing"
                     : pl->kind == VBC_PLOT_SERIES ? "time"
                     : pl->kind == VBC_PLOT_CONVERGENCE ? "iteration" : NULL;
  if (opt_string(s, o, path, "x", xdef, &pl->x, err) ||
      opt_string(s, o, path, "series", NULL, &pl->series, err) ||
      opt_string(s, o, path, "file", "series.csv", &pl->file, err) ||
      opt_string(s, o, path, "block", NULL, &pl->block, err))
    return err->code;
  int needs_y = pl->kind == VBC_PLOT_METRIC || pl->kind == VBC_PLOT_ORDER ||
                pl->kind == VBC_PLOT_SERIES;
  const cJSON *y = cJSON_GetObjectItemCaseSensitive(o, "y");
  if (needs_y && string_list(s, y, vbc_path_join(p, sizeof p, path, "y"), &pl->y, &pl->ny, err))
    return err->code;
  if (pl->kind == VBC_PLOT_METRIC || pl->kind == VBC_PLOT_ORDER) {
    if (pl->x == NULL) return bad(s, err, vbc_path_join(p, sizeof p, path, "x"), "a varied key");
    if (!is_varied(s, pl->x))
      return bad(s, err, vbc_path_join(p, sizeof p, path, "x"), "a key of vary or zip");
  }
  if (pl->series && !is_varied(s, pl->series))
    return bad(s, err, vbc_path_join(p, sizeof p, path, "series"), "a key of vary or zip");
  if (pl->kind == VBC_PLOT_CONVERGENCE && strcmp(pl->x, "iteration") && strcmp(pl->x, "seconds"))
    return bad(s, err, vbc_path_join(p, sizeof p, path, "x"), "\"iteration\" or \"seconds\"");
  if (pl->kind == VBC_PLOT_CONVERGENCE && y) { /* which convergence.csv column */
    if (string_list(s, y, vbc_path_join(p, sizeof p, path, "y"), &pl->y, &pl->ny, err))
      return err->code;
    if (pl->ny != 1 || !convergence_column(pl->y[0]))
      return bad(s, err, vbc_path_join(p, sizeof p, path, "y"),
                 "one of \"relative_residual\", \"residual\", \"mean_error\", "
                 "\"reference_error\", \"reference_w_error\" (the last two need "
                 "\"exact_reference\": true)");
    if (!s->exact_reference && strncmp(pl->y[0], "reference_", 10) == 0)
      return bad(s, err, vbc_path_join(p, sizeof p, path, "y"),
                 "a column the cases write: reference_error and reference_w_error need "
                 "\"exact_reference\": true in the spec");
  }
  if (pl->kind == VBC_PLOT_SCRIPT) {
    const char *script = string_at(o, "script");
    if (script == NULL)
      return bad(s, err, vbc_path_join(p, sizeof p, path, "script"), "a gnuplot script file");
    spec_relative(s, script, pl->script, sizeof pl->script);
  }
  const cJSON *step = cJSON_GetObjectItemCaseSensitive(o, "step");
  if (step && (!cJSON_IsNumber(step) || step->valuedouble < 1 ||
               step->valuedouble != (long)step->valuedouble))
    return bad(s, err, vbc_path_join(p, sizeof p, path, "step"), "a step number from 1");
  pl->step = step ? (long)step->valuedouble : 0;
  pl->where = cJSON_GetObjectItemCaseSensitive(o, "where");
  if (pl->where && !cJSON_IsObject(pl->where))
    return bad(s, err, vbc_path_join(p, sizeof p, path, "where"), "an object of key: value");
  const cJSON *e;
  cJSON_ArrayForEach(e, pl->where) if (!is_varied(s, e->string)) return bad(
      s, err, vbc_path_join(p, sizeof p, path, "where"), "keys of vary or zip");
  return VBC_OK;
}

/* The legend's place: gnuplot position words only, so the string can go into the script as is. */
static int plot_key(vbc_sweep_spec *s, vbc_sweep_plot *pl, const cJSON *o, const char *path,
                    vbc_error *err) {
  static const char *const words[] = {"top", "bottom", "left", "right", "center", NULL};
  if (opt_string(s, o, path, "key", NULL, &pl->key, err)) return err->code;
  for (const char *w = pl->key; w && *w;) {
    size_t n = strcspn(w, " "), i = 0;
    while (words[i] && (strlen(words[i]) != n || strncmp(words[i], w, n) != 0)) ++i;
    char p[256];
    if (words[i] == NULL)
      return bad(s, err, vbc_path_join(p, sizeof p, path, "key"),
                 "words of top, bottom, left, right, center (e.g. \"bottom right\")");
    w += n + strspn(w + n, " ");
  }
  return VBC_OK;
}

static int load_plot(vbc_sweep_spec *s, const cJSON *o, int index, vbc_error *err) {
  static const char *const keys[] = {"name", "kind", "title", "xlabel", "ylabel", "x", "y",
                                     "series", "logx", "logy", "key", "file", "block",
                                     "step", "script", "where", "reference", NULL};
  char path[64], p[256];
  vbc_path_index(path, sizeof path, "plots", index);
  vbc_jctx c = {s->file, err};
  if (!cJSON_IsObject(o)) return bad(s, err, path, "an object describing a plot");
  if (vbc_json_check_keys(&c, o, path, keys) != VBC_OK) return err->code;
  vbc_sweep_plot *pl = &s->plots[s->nplots++];
  if (opt_string(s, o, path, "name", NULL, &pl->name, err)) return err->code;
  if (pl->name == NULL || strspn(pl->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_-.") != strlen(pl->name))
    return bad(s, err, vbc_path_join(p, sizeof p, path, "name"),
               "a file-name-safe name (letters, digits, _ - .)");
  for (size_t i = 0; i + 1 < s->nplots; ++i)
    if (strcmp(s->plots[i].name, pl->name) == 0)
      return bad(s, err, vbc_path_join(p, sizeof p, path, "name"), "a name no other plot has");
  if (plot_kind(s, o, path, &pl->kind, err) != VBC_OK) return err->code;
  int log_default = pl->kind == VBC_PLOT_ORDER;
  if (opt_string(s, o, path, "title", pl->name, &pl->title, err) ||
      opt_string(s, o, path, "xlabel", NULL, &pl->xlabel, err) ||
      opt_string(s, o, path, "ylabel", NULL, &pl->ylabel, err) ||
      vbc_json_bool(&c, (cJSON *)o, path, "logx", log_default, &pl->logx) ||
      vbc_json_bool(&c, (cJSON *)o, path, "logy", log_default || pl->kind == VBC_PLOT_CONVERGENCE,
                    &pl->logy) ||
      plot_key(s, pl, o, path, err) || plot_fields(s, pl, o, path, err))
    return err->code;
  const cJSON *ref = cJSON_GetObjectItemCaseSensitive(o, "reference");
  if (ref && load_refs(s, pl, ref, vbc_path_join(p, sizeof p, path, "reference"), err))
    return err->code;
  return VBC_OK;
}

static int load_outputs(vbc_sweep_spec *s, vbc_error *err) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(s->root, "metrics");
  if (m && string_list(s, m, "metrics", &s->metrics, &s->nmetrics, err)) return err->code;
  const cJSON *plots = cJSON_GetObjectItemCaseSensitive(s->root, "plots");
  if (plots && !cJSON_IsArray(plots)) return bad(s, err, "plots", "a list of plot objects");
  size_t n = plots ? (size_t)cJSON_GetArraySize(plots) : 0;
  s->plots = vbc_calloc(n ? n : 1, sizeof *s->plots, err);
  if (s->plots == NULL) return err->code;
  for (size_t i = 0; i < n; ++i)
    if (load_plot(s, cJSON_GetArrayItem(plots, (int)i), (int)i, err) != VBC_OK) return err->code;
  return VBC_OK;
}

static void default_name(vbc_sweep_spec *s, char *buf, size_t size) {
  const char *base = strrchr(s->file, '/');
  snprintf(buf, size, "%.200s", base ? base + 1 : s->file);
  char *dot = strrchr(buf, '.');
  if (dot && strcmp(dot, ".json") == 0) *dot = '\0';
}

int vbc_sweep_spec_load(vbc_sweep_spec *s, const char *path, const char *const *cli_sets,
                        int ncli_sets, vbc_error *err) {
  static const char *const keys[] = {"name", "description", "scene", "set", "vary", "zip",
                                     "repeat", "from_state", "exact_reference", "metrics",
                                     "plots", "checkpoint_seconds",
                                     "cpu_limit_seconds", NULL};
  memset(s, 0, sizeof *s);
  snprintf(s->file, sizeof s->file, "%s", path);
  const char *slash = strrchr(path, '/');
  if (slash) snprintf(s->dir, sizeof s->dir, "%.*s", (int)(slash - path), path);
  else snprintf(s->dir, sizeof s->dir, ".");
  if (slash == path) snprintf(s->dir, sizeof s->dir, "/");
  s->root = vbc_json_load_file(path, err);
  if (s->root == NULL) return err->code;
  vbc_jctx c = {s->file, err};
  if (vbc_json_check_keys(&c, s->root, "", keys) != VBC_OK) return err->code;
  char unnamed[256];
  default_name(s, unnamed, sizeof unnamed);
  const char *scene = NULL;
  long repeat = 1;
  if (opt_string(s, s->root, "", "name", NULL, &s->name, err) ||
      opt_string(s, s->root, "", "description", "", &s->description, err) ||
      opt_string(s, s->root, "", "scene", NULL, &scene, err) ||
      vbc_json_integer(&c, s->root, "", "repeat", 1, 1, 1000, &repeat) ||
      vbc_json_bool(&c, s->root, "", "exact_reference", 0, &s->exact_reference) ||
      vbc_json_number(&c, s->root, "", "checkpoint_seconds", 180.0, 0.0, 0, 1e9,
                      &s->checkpoint_seconds) ||
      vbc_json_number(&c, s->root, "", "cpu_limit_seconds", 0.0, 0.0, 0, 1e12,
                      &s->cpu_limit_seconds))
    return err->code;
  if (s->name == NULL) {
    cJSON_AddStringToObject(s->root, "name", unnamed);
    s->name = string_at(s->root, "name");
  }
  if (scene == NULL) return bad(s, err, "scene", "the base scene file (relative to the spec)");
  spec_relative(s, scene, s->scene, sizeof s->scene);
  if (access(s->scene, R_OK) != 0) {
    char what[1100];
    snprintf(what, sizeof what, "a readable scene file (relative to the spec), got '%s'", s->scene);
    return bad(s, err, "scene", what);
  }
  s->repeat = (int)repeat;
  if (assignments(s, cJSON_GetObjectItemCaseSensitive(s->root, "set"), "set", cli_sets, ncli_sets,
                  &s->sets, &s->nsets, err) ||
      load_axes(s, err) || load_from_state(s, err) ||
      load_outputs(s, err))
    return err->code;
  return VBC_OK;
}

void vbc_sweep_spec_free(vbc_sweep_spec *s) {
  for (int i = 0; i < s->nsets; ++i) free((char *)s->sets[i]);
  for (int i = 0; i < s->nreplay_sets; ++i) free((char *)s->replay_sets[i]);
  free(s->sets), free(s->replay_sets);
  for (size_t a = 0; a < s->naxes; ++a) free(s->axes[a].keys), free(s->axes[a].lists);
  free(s->axes);
  free(s->metrics);
  for (size_t i = 0; i < s->nplots; ++i) free(s->plots[i].y), free(s->plots[i].refs);
  free(s->plots);
  cJSON_Delete(s->root);
  memset(s, 0, sizeof *s);
}
