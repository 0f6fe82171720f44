/* atlas_spec.c — reading and checking an atlas spec and its case files (docs/atlas-format.md). Every
 * problem is reported as "FILE: PATH: expected …" with exit code 2 before anything runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep_csv.h"
#include "io/json_file.h"
#include "scene/method_preset.h"

static int bad(const char *file, vbc_error *err, const char *path, const char *what) {
  return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s: expected %s", file, path, what);
}

/* The directory of a file ("." for a bare name). */
static void dir_of(const char *file, char *dir, size_t size) {
  const char *slash = strrchr(file, '/');
  if (slash == NULL) snprintf(dir, size, ".");
  else snprintf(dir, size, "%.*s", (int)(slash == file ? 1 : slash - file), file);
}

/* p relative to dir unless absolute; "" when it does not fit (then reported as missing). */
static void relative_to(const char *dir, const char *p, char *out, size_t size) {
  int n = p[0] == '/' || strcmp(dir, ".") == 0 ? snprintf(out, size, "%s", p)
                                                : snprintf(out, size, "%s/%s", dir, p);
  if (n < 0 || (size_t)n >= size) out[0] = '\0';
}

static int is_name(const char *s) {
  if (s == NULL || s[0] == '\0' || strlen(s) > 64) return 0;
  for (const char *p = s; *p; ++p)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return 0;
  return 1;
}

static const char *string_at(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

/* Unknown and duplicate keys are errors (core/json_util.h). */
static int known_keys(const char *file, const cJSON *obj, const char *path,
                      const char *const *keys, vbc_error *err) {
  vbc_jctx c = {file, err};
  return vbc_json_check_keys(&c, obj, path, keys);
}

/* {"metric": NAME, "label": TEXT} */
static int load_error(vbc_atlas_case *k, const cJSON *v, const char *path, vbc_error *err) {
  static const char *const keys[] = {"metric", "label", NULL};
  char p[256];
  if (!cJSON_IsObject(v)) return bad(k->file, err, path, "an object {\"metric\", \"label\"}");
  if (known_keys(k->file, v, path, keys, err) != VBC_OK) return err->code;
  vbc_atlas_error *e = &k->errors[k->nerrors];
  if ((e->metric = string_at(v, "metric")) == NULL)
    return bad(k->file, err, vbc_path_join(p, sizeof p, path, "metric"),
               "the name of a metric of the scene's benchmark");
  if ((e->label = string_at(v, "label")) == NULL)
    return bad(k->file, err, vbc_path_join(p, sizeof p, path, "label"),
               "a text saying what the error measures");
  k->nerrors++;
  return VBC_OK;
}

static int load_errors(vbc_atlas_case *k, vbc_error *err) {
  if (load_error(k, cJSON_GetObjectItemCaseSensitive(k->root, "error"), "error", err) != VBC_OK)
    return err->code;
  const cJSON *more = cJSON_GetObjectItemCaseSensitive(k->root, "errors");
  if (more == NULL) return VBC_OK;
  if (!cJSON_IsArray(more) || cJSON_GetArraySize(more) > VBC_ATLAS_MAX_ERRORS - 1)
    return bad(k->file, err, "errors", "a list of at most 7 objects {\"metric\", \"label\"}");
  const cJSON *e;
  int i = 0;
  cJSON_ArrayForEach(e, more) {
    char p[64];
    if (load_error(k, e, vbc_path_index(p, sizeof p, "errors", i++), err) != VBC_OK)
      return err->code;
  }
  return VBC_OK;
}

/* levels: a non-empty list of objects with the same keys, one of them "spacing" (a number). */
static int load_levels(vbc_atlas_case *k, vbc_error *err) {
  k->levels = cJSON_GetObjectItemCaseSensitive(k->root, "levels");
  int n = cJSON_IsArray(k->levels) ? cJSON_GetArraySize(k->levels) : 0;
  if (n < 1 || n > 8)
    return bad(k->file, err, "levels",
               "a list of 1 to 8 objects of assignments, coarsest first, each with \"spacing\"");
  const cJSON *first = cJSON_GetArrayItem(k->levels, 0);
  double previous = 0.0;
  for (int i = 0; i < n; ++i) {
    const cJSON *level = cJSON_GetArrayItem(k->levels, i);
    char p[64], q[128];
    vbc_path_index(p, sizeof p, "levels", i);
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(level, "spacing");
    if (!cJSON_IsObject(level) || !cJSON_IsNumber(h) || h->valuedouble <= 0.0)
      return bad(k->file, err, p, "an object of assignments with \"spacing\" > 0");
    if (i > 0 && h->valuedouble >= previous)
      return bad(k->file, err, vbc_path_join(q, sizeof q, p, "spacing"),
                 "a spacing finer than the level before (coarsest first)");
    previous = h->valuedouble;
    if (cJSON_GetArraySize(level) != cJSON_GetArraySize(first))
      return bad(k->file, err, p, "the same keys as levels[0]");
    const cJSON *e;
    cJSON_ArrayForEach(e, level) {
      if (!cJSON_GetObjectItemCaseSensitive(first, e->string))
        return bad(k->file, err, vbc_path_join(q, sizeof q, p, e->string),
                   "only keys that levels[0] has");
      if (strncmp(e->string, "method", 6) == 0)
        return bad(k->file, err, vbc_path_join(q, sizeof q, p, e->string),
                   "no method key (a preset replaces the whole method: nothing is tuned per "
                   "case)");
    }
  }
  k->nlevels = (size_t)n;
  return VBC_OK;
}

static int load_set(vbc_atlas_case *k, vbc_error *err) {
  k->set = cJSON_GetObjectItemCaseSensitive(k->root, "set");
  if (k->set == NULL) return VBC_OK;
  if (!cJSON_IsObject(k->set)) return bad(k->file, err, "set", "an object of key: value");
  const cJSON *e;
  cJSON_ArrayForEach(e, k->set) {
    char p[256];
    if (strncmp(e->string, "method", 6) == 0 || strcmp(e->string, "spacing") == 0)
      return bad(k->file, err, vbc_path_join(p, sizeof p, "set", e->string),
                 "neither a method key (a preset replaces the whole method: nothing is tuned "
                 "per case) nor spacing (the levels set it)");
  }
  return VBC_OK;
}

/* A reference file is read as the plots read it (experiments/runner/sweep_csv.h: `#` comments,
 * then a header line of names) and must have the columns x and y name. */
static int reference_columns(const vbc_atlas_case *k, const cJSON *r, const char *p,
                             const char *path, vbc_error *err) {
  char q[128];
  vbc_table t = {0};
  vbc_error inner = {0};
  if (path[0] == '\0' || vbc_table_read(&t, path, &inner) != VBC_OK) {
    vbc_table_free(&t);
    return bad(k->file, err, vbc_path_join(q, sizeof q, p, "file"),
               "a readable data file (relative to the case file)");
  }
  int ok = 1;
  for (int i = 0; i < 2 && ok; ++i) {
    const cJSON *col = cJSON_GetObjectItemCaseSensitive(r, i ? "y" : "x");
    if (col == NULL || vbc_table_column(&t, col) < 0) {
      ok = 0;
      bad(k->file, err, vbc_path_join(q, sizeof q, p, i ? "y" : "x"),
          "a column of the file: a name of its header line (after the # comments) or a number "
          "from 1");
    }
  }
  vbc_table_free(&t);
  return ok ? VBC_OK : err->code;
}

static int load_plot_parts(vbc_atlas_case *k, vbc_error *err) {
  static const char *const obs_keys[] = {"file", "x", "y", "xlabel", "ylabel", NULL};
  static const char *const ref_keys[] = {"file", "x", "y", "title", "style", NULL};
  k->observable = cJSON_GetObjectItemCaseSensitive(k->root, "observable");
  if (!cJSON_IsObject(k->observable) || !string_at(k->observable, "file") ||
      !string_at(k->observable, "x") || !string_at(k->observable, "y"))
    return bad(k->file, err, "observable",
               "an object {\"file\", \"x\", \"y\", \"xlabel\", \"ylabel\"}: columns of a CSV "
               "the run writes");
  if (known_keys(k->file, k->observable, "observable", obs_keys, err) != VBC_OK) return err->code;
  k->references = cJSON_GetObjectItemCaseSensitive(k->root, "references");
  if (k->references == NULL) return VBC_OK;
  if (!cJSON_IsArray(k->references))
    return bad(k->file, err, "references", "a list of {\"file\", \"x\", \"y\", \"title\"}");
  const cJSON *r;
  int i = 0;
  cJSON_ArrayForEach(r, k->references) {
    char p[64], path[1024];
    vbc_path_index(p, sizeof p, "references", i++);
    if (!cJSON_IsObject(r) || !string_at(r, "file") || !string_at(r, "title"))
      return bad(k->file, err, p, "an object {\"file\", \"x\", \"y\", \"title\", \"style\"}");
    if (known_keys(k->file, r, p, ref_keys, err) != VBC_OK) return err->code;
    relative_to(k->dir, string_at(r, "file"), path, sizeof path);
    if (reference_columns(k, r, p, path, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

static int load_about(vbc_atlas_case *k, vbc_error *err) {
  static const char *const keys[] = {"reference", "error", "reading", NULL};
  const cJSON *about = cJSON_GetObjectItemCaseSensitive(k->root, "about");
  if (!cJSON_IsObject(about) || !string_at(about, "reference") || !string_at(about, "error") ||
      !string_at(about, "reading"))
    return bad(k->file, err, "about",
               "an object {\"reference\", \"error\", \"reading\"}: what the reference is, how "
               "the error is defined, how to read the figures");
  if (known_keys(k->file, about, "about", keys, err) != VBC_OK) return err->code;
  k->about_reference = string_at(about, "reference");
  k->about_error = string_at(about, "error");
  k->about_reading = string_at(about, "reading");
  return VBC_OK;
}

static int load_case(vbc_atlas_case *k, const char *path, vbc_error *err) {
  static const char *const keys[] = {"name", "title", "dim", "scene", "set", "levels", "error",
                                     "errors", "observable", "references", "about", NULL};
  snprintf(k->file, sizeof k->file, "%s", path);
  dir_of(k->file, k->dir, sizeof k->dir);
  if ((k->root = vbc_json_load_file(k->file, err)) == NULL) return err->code;
  if (!cJSON_IsObject(k->root)) return bad(k->file, err, "(top level)", "an object");
  if (known_keys(k->file, k->root, "", keys, err) != VBC_OK) return err->code;
  k->name = string_at(k->root, "name");
  if (!is_name(k->name))
    return bad(k->file, err, "name", "a name of lower-case letters, digits and _");
  if ((k->title = string_at(k->root, "title")) == NULL)
    return bad(k->file, err, "title", "a non-empty string");
  const cJSON *dim = cJSON_GetObjectItemCaseSensitive(k->root, "dim");
  if (!cJSON_IsNumber(dim) || (dim->valueint != 2 && dim->valueint != 3))
    return bad(k->file, err, "dim", "2 or 3 (the scene's dimension)");
  k->dim = dim->valueint;
  const char *scene = string_at(k->root, "scene");
  if (scene == NULL) return bad(k->file, err, "scene", "a scene file (relative to the case)");
  relative_to(k->dir, scene, k->scene, sizeof k->scene);
  if (load_set(k, err) || load_levels(k, err) || load_errors(k, err) ||
      load_plot_parts(k, err) || load_about(k, err))
    return err->code;
  return VBC_OK;
}

static int load_methods(vbc_atlas_spec *s, vbc_error *err) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(s->root, "methods");
  int n = cJSON_IsArray(m) ? cJSON_GetArraySize(m) : 0;
  if (n < 1) return bad(s->file, err, "methods", "a non-empty list of method preset names");
  if ((s->methods = vbc_calloc((size_t)n, sizeof *s->methods, err)) == NULL) return err->code;
  const cJSON *e;
  cJSON_ArrayForEach(e, m) {
    char p[64];
    vbc_path_index(p, sizeof p, "methods", (int)s->nmethods);
    if (!cJSON_IsString(e)) return bad(s->file, err, p, "a method preset name");
    vbc_method_preset preset;
    vbc_error inner = {0};
    int rc = vbc_method_preset_load(&preset, e->valuestring, &inner);
    vbc_method_preset_free(&preset);
    if (rc != VBC_OK) return vbc_error_set(err, rc, "%s: %s: %s", s->file, p, inner.message);
    for (size_t i = 0; i < s->nmethods; ++i)
      if (strcmp(s->methods[i], e->valuestring) == 0)
        return bad(s->file, err, p, "each preset once");
    s->methods[s->nmethods++] = e->valuestring;
  }
  return VBC_OK;
}

static int load_cases(vbc_atlas_spec *s, vbc_error *err) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(s->root, "cases");
  int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
  if (n < 1) return bad(s->file, err, "cases", "a non-empty list of case files");
  if ((s->cases = vbc_calloc((size_t)n, sizeof *s->cases, err)) == NULL) return err->code;
  const cJSON *e;
  cJSON_ArrayForEach(e, list) {
    char p[64], path[1024];
    vbc_path_index(p, sizeof p, "cases", (int)s->ncases);
    if (!cJSON_IsString(e) || e->valuestring[0] == '\0')
      return bad(s->file, err, p, "a case file (relative to the spec)");
    relative_to(s->dir, e->valuestring, path, sizeof path);
    vbc_atlas_case *k = &s->cases[s->ncases++];
    if (load_case(k, path, err) != VBC_OK) return err->code;
    for (size_t i = 0; i + 1 < s->ncases; ++i)
      if (strcmp(s->cases[i].name, k->name) == 0)
        return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s: case name '%s' is already used by %s",
                             s->file, p, k->name, s->cases[i].file);
  }
  return VBC_OK;
}

int vbc_atlas_spec_load(vbc_atlas_spec *s, const char *path, vbc_error *err) {
  static const char *const keys[] = {"name", "description", "methods", "cases",
                                     "cell_budget_cpu_seconds", NULL};
  memset(s, 0, sizeof *s);
  snprintf(s->file, sizeof s->file, "%s", path);
  dir_of(s->file, s->dir, sizeof s->dir);
  if ((s->root = vbc_json_load_file(s->file, err)) == NULL) return err->code;
  if (!cJSON_IsObject(s->root)) return bad(s->file, err, "(top level)", "an object");
  if (known_keys(s->file, s->root, "", keys, err) != VBC_OK) return err->code;
  s->name = string_at(s->root, "name");
  if (!is_name(s->name))
    return bad(s->file, err, "name", "a name of lower-case letters, digits and _");
  s->description = string_at(s->root, "description");
  if (s->description == NULL) return bad(s->file, err, "description", "a non-empty string");
  const cJSON *budget = cJSON_GetObjectItemCaseSensitive(s->root, "cell_budget_cpu_seconds");
  if (budget && !(cJSON_IsNumber(budget) && budget->valuedouble >= 0.0))
    return bad(s->file, err, "cell_budget_cpu_seconds", "a number of CPU seconds >= 0 (0: none)");
  s->cell_budget = budget ? budget->valuedouble : 0.0;
  if (load_methods(s, err) != VBC_OK) return err->code;
  return load_cases(s, err);
}

void vbc_atlas_spec_free(vbc_atlas_spec *s) {
  for (size_t i = 0; i < s->ncases; ++i) cJSON_Delete(s->cases[i].root);
  free(s->cases);
  free(s->methods);
  cJSON_Delete(s->root);
  memset(s, 0, sizeof *s);
}

double vbc_atlas_level_number(const vbc_atlas_case *k, size_t level, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(k->levels, (int)level), key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}
