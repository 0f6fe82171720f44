/* method_preset.c — methods as named presets (method_preset.h). The folders are searched in a
 * fixed order so that a build tree finds its own experiments/methods and an installed vbc its
 * share/vbc/methods; $VBC_METHODS_DIR puts a user's folder first. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/json_file.h"
#include "scene/method_preset.h"
#include "scene/scene.h"

#ifndef VBC_METHODS_SOURCE_DIR
#define VBC_METHODS_SOURCE_DIR ""
#endif
#ifndef VBC_METHODS_INSTALL_DIR
#define VBC_METHODS_INSTALL_DIR ""
#endif

static int is_dir(const char *path) {
  struct stat st;
  return path && *path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The k-th folder to search (NULL past the last). */
static const char *search_dir(int k) {
  switch (k) {
  case 0: return getenv("VBC_METHODS_DIR");
  case 1: return VBC_METHODS_SOURCE_DIR;
  case 2: return VBC_METHODS_INSTALL_DIR;
  default: return NULL;
  }
}

static int is_path(const char *name) {
  const size_t n = strlen(name);
  return strchr(name, '/') != NULL || (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

int vbc_method_preset_apply(const vbc_method_preset *p, vbc_scene *s, vbc_error *err) {
  snprintf(s->method_preset, sizeof s->method_preset, "%s", p->name);
  return vbc_method_preset_check(p, s, err);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The presets in dir, by name (at most 64; the caller frees each). */
static size_t preset_names(const char *dir, char *names[64]) {
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  size_t n = 0;
  for (struct dirent *e; n < 64 && (e = readdir(d)) != NULL;) {
    const size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0 && e->d_name[0] != '.')
      if ((names[n] = strndup(e->d_name, len - 5)) != NULL) ++n;
  }
  closedir(d);
  qsort(names, n, sizeof *names, by_name);
  return n;
}

/* The first folder that exists, or NULL. */
static const char *first_dir(void) {
  for (int k = 0; k < 3; ++k)
    if (is_dir(search_dir(k))) return search_dir(k);
  return NULL;
}

static int find(vbc_method_preset *p, const char *name, vbc_error *err) {
  if (is_path(name)) {
    snprintf(p->path, sizeof p->path, "%s", name);
    const char *base = strrchr(name, '/');
    snprintf(p->name, sizeof p->name, "%s", base ? base + 1 : name);
    char *dot = strrchr(p->name, '.');
    if (dot) *dot = '\0';
    return VBC_OK;
  }
  snprintf(p->name, sizeof p->name, "%s", name);
  for (int k = 0; k < 3; ++k) {
    const char *dir = search_dir(k);
    if (!is_dir(dir)) continue;
    snprintf(p->path, sizeof p->path, "%s/%s.json", dir, name);
    struct stat st;
    if (stat(p->path, &st) == 0) return VBC_OK;
  }
  char known[1024] = "", *names[64];
  const char *dir = first_dir();
  const size_t n = dir ? preset_names(dir, names) : 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t len = strlen(known);
    snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "", names[i]);
    free(names[i]);
  }
  return vbc_error_set(err, VBC_EXIT_INPUT,
                       "--method %s: no such method preset (known: %s; or give a preset file's "
                       "path)", name, *known ? known : "none found: set VBC_METHODS_DIR");
}

static int read_requires(vbc_method_preset *p, vbc_error *err) {
  p->dims = (1u << 2) | (1u << 3);
  const cJSON *req = cJSON_GetObjectItemCaseSensitive(p->root, "requires");
  if (req == NULL) return VBC_OK;
  const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(req, "bodies");
  const cJSON *dims = cJSON_GetObjectItemCaseSensitive(req, "dims");
  int ok = cJSON_IsObject(req) && (bodies == NULL || cJSON_IsBool(bodies)) &&
           (dims == NULL || cJSON_IsArray(dims));
  p->needs_bodies = cJSON_IsTrue(bodies) ? 1 : cJSON_IsFalse(bodies) ? -1 : 0;
  if (ok && dims) {
    p->dims = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, dims) {
      if (!cJSON_IsNumber(d) || (d->valuedouble != 2.0 && d->valuedouble != 3.0)) ok = 0;
      else p->dims |= 1u << (int)d->valuedouble;
    }
  }
  if (!ok)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: requires: expected an object with \"bodies\" "
                         "(true or false) and \"dims\" (an array of 2 and 3)", p->path);
  return VBC_OK;
}

int vbc_method_preset_load(vbc_method_preset *p, const char *name, vbc_error *err) {
  memset(p, 0, sizeof *p);
  if (find(p, name, err) != VBC_OK) return err->code;
  if ((p->root = vbc_json_load_file(p->path, err)) == NULL) return err->code;
  p->method = cJSON_GetObjectItemCaseSensitive(p->root, "method");
  const cJSON *desc = cJSON_GetObjectItemCaseSensitive(p->root, "description");
  const cJSON *cite = cJSON_GetObjectItemCaseSensitive(p->root, "citation");
  if (!cJSON_IsObject(p->root) || !cJSON_IsObject(p->method) || !cJSON_IsString(desc) ||
      !cJSON_IsString(cite)) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: expected a method preset: an object with "
                  "\"description\" and \"citation\" (strings) and \"method\" (the scene's method "
                  "section)", p->path);
    vbc_method_preset_free(p);
    return err->code;
  }
  p->description = desc->valuestring;
  p->citation = cite->valuestring;
  if (read_requires(p, err) != VBC_OK) {
    vbc_method_preset_free(p);
    return err->code;
  }
  return VBC_OK;
}

void vbc_method_preset_free(vbc_method_preset *p) {
  cJSON_Delete(p->root);
  memset(p, 0, sizeof *p);
}

char *vbc_method_preset_assignment(const vbc_method_preset *p, vbc_error *err) {
  char *json = cJSON_PrintUnformatted(p->method);
  const size_t n = json ? strlen(json) + sizeof "method=" : 0;
  char *set = json ? malloc(n) : NULL;
  if (set == NULL) {
    cJSON_free(json);
    vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory reading %s", p->path);
    return NULL;
  }
  snprintf(set, n, "method=%s", json);
  cJSON_free(json);
  return set;
}

int vbc_method_preset_check(const vbc_method_preset *p, const vbc_scene *s, vbc_error *err) {
  if (p->needs_bodies > 0 && s->nbodies == 0)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: method preset %s couples fluid to rigid bodies and the scene has "
                         "none (bodies: expected at least one body)", s->file, p->name);
  for (size_t b = 0; p->needs_bodies < 0 && b < s->nbodies; ++b)
    if (s->bodies[b].motion == VBC_MOTION_FREE || s->bodies[b].motion == VBC_MOTION_PINNED)
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: method preset %s does not couple fluid to moving bodies and "
                           "bodies.%zu moves (requires.bodies false: fixed and scripted bodies "
                           "only; a preset with rigid coupling, such as mps_lcp, pms or iisph, "
                           "runs it)", s->file, p->name, b);
  if (!(p->dims & (1u << s->dim)))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: method preset %s does not run in %dD "
                         "(its requires.dims)", s->file, p->name, s->dim);
  return VBC_OK;
}

cJSON *vbc_method_presets_json(vbc_error *err) {
  cJSON *list = cJSON_CreateArray();
  if (list == NULL) {
    vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory listing method presets");
    return NULL;
  }
  const char *dir = first_dir();
  char *names[64];
  const size_t n = dir ? preset_names(dir, names) : 0;
  int rc = VBC_OK;
  for (size_t i = 0; i < n; ++i) {
    vbc_method_preset p;
    if (rc == VBC_OK && (rc = vbc_method_preset_load(&p, names[i], err)) == VBC_OK) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddItemToArray(list, o);
      cJSON_AddStringToObject(o, "name", p.name);
      cJSON_AddStringToObject(o, "description", p.description);
      cJSON_AddStringToObject(o, "citation", p.citation);
      cJSON *req = cJSON_AddObjectToObject(o, "requires");
      if (p.needs_bodies) cJSON_AddBoolToObject(req, "bodies", p.needs_bodies > 0);
      cJSON *dims = cJSON_AddArrayToObject(req, "dims");
      for (int dim = 2; dim <= 3; ++dim)
        if (p.dims & (1u << dim)) cJSON_AddItemToArray(dims, cJSON_CreateNumber(dim));
      cJSON_AddItemToObject(o, "method", cJSON_Duplicate(p.method, 1));
      vbc_method_preset_free(&p);
    }
    free(names[i]);
  }
  if (rc != VBC_OK) {
    cJSON_Delete(list);
    return NULL;
  }
  return list;
}

static const char *text_of(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* "bodies, 2D and 3D" */
static void requirements(const cJSON *p, char *out, size_t cap) {
  const cJSON *req = cJSON_GetObjectItemCaseSensitive(p, "requires");
  const cJSON *dims = cJSON_GetObjectItemCaseSensitive(req, "dims");
  const int n = cJSON_GetArraySize(dims);
  const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(req, "bodies");
  snprintf(out, cap, "%s%s", cJSON_IsTrue(bodies)    ? "a scene with bodies, "
                             : cJSON_IsFalse(bodies) ? "no moving bodies, "
                                                     : "",
           n == 2 ? "2D and 3D" : n == 1 && cJSON_GetArrayItem(dims, 0)->valuedouble == 2.0
                                      ? "2D only" : "3D only");
}

void vbc_method_presets_print(const cJSON *presets, FILE *out) {
  fprintf(out, "method presets (vbc run SCENE --method NAME; experiments/methods/NAME.json):\n");
  const cJSON *p;
  cJSON_ArrayForEach(p, presets) {
    char req[128];
    requirements(p, req, sizeof req);
    fprintf(out, "  %-16s %s\n      needs %s; %s\n", text_of(p, "name"),
            text_of(p, "description"), req, text_of(p, "citation"));
  }
}

void vbc_method_presets_print_markdown(const cJSON *presets, FILE *out) {
  fputs("## Method presets\n\nComplete `method` sections at their papers' own settings "
        "(`experiments/methods/NAME.json`): `vbc run SCENE --method NAME` replaces the scene's "
        "`method` by the preset's, then `--set` applies on top.\n\n"
        "| preset | method | needs | paper |\n|---|---|---|---|\n", out);
  const cJSON *p;
  cJSON_ArrayForEach(p, presets) {
    char req[128];
    requirements(p, req, sizeof req);
    fprintf(out, "| `%s` | %s | %s | %s |\n", text_of(p, "name"), text_of(p, "description"),
            req, text_of(p, "citation"));
  }
  fputc('\n', out);
}
