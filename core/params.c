/* params.c — see params.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/json_util.h"
#include "core/params.h"

const vbc_param_spec *vbc_param_find(const vbc_param_spec *specs, const char *key) {
  for (const vbc_param_spec *s = specs; s && s->key; ++s)
    if (strcmp(s->key, key) == 0) return s;
  return NULL;
}

static void describe_range(const vbc_param_spec *s, char *buf, size_t size) {
  const char *what = s->kind == VBC_PARAM_INTEGER ? "an integer" : "a number";
  if (isinf(s->max))
    snprintf(buf, size, "%s %s %g", what, s->min_open ? ">" : ">=", s->min);
  else
    snprintf(buf, size, "%s in %s%g, %g]", what, s->min_open ? "(" : "[", s->min, s->max);
}

static int choice_index(const vbc_param_spec *s, const cJSON *item) {
  if (!cJSON_IsString(item)) return -1;
  for (int k = 0; s->choices[k]; ++k)
    if (strcmp(s->choices[k], item->valuestring) == 0) return k;
  return -1;
}

int vbc_params_resolve(cJSON *obj, const vbc_param_spec *specs, const char *file,
                       const char *path, vbc_error *err) {
  for (const vbc_param_spec *s = specs; s && s->key; ++s) {
    cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, s->key);
    if (item == NULL) {
      if (s->kind == VBC_PARAM_BOOL) cJSON_AddBoolToObject(obj, s->key, s->def != 0.0);
      else if (s->kind == VBC_PARAM_CHOICE)
        cJSON_AddStringToObject(obj, s->key, s->choices[(int)s->def]);
      else cJSON_AddNumberToObject(obj, s->key, s->def);
      continue;
    }
    char got[96];
    vbc_json_describe(item, got, sizeof got);
    if (s->kind == VBC_PARAM_CHOICE) {
      if (choice_index(s, item) >= 0) continue;
      char words[256] = "";
      for (const char *const *c = s->choices; *c; ++c)
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s\"%s\"",
                 c == s->choices ? "" : ", ", *c);
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s.%s: expected one of %s, got %s", file,
                           path, s->key, words, got);
    }
    if (s->kind == VBC_PARAM_BOOL) {
      if (!cJSON_IsBool(item))
        return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s.%s: expected true or false, got %s",
                             file, path, s->key, got);
      continue;
    }
    char range[128];
    describe_range(s, range, sizeof range);
    if (!cJSON_IsNumber(item))
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s.%s: expected %s, got %s", file, path,
                           s->key, range, got);
    double v = item->valuedouble;
    int ok = isfinite(v) && (s->min_open ? v > s->min : v >= s->min) && v <= s->max;
    if (s->kind == VBC_PARAM_INTEGER) ok = ok && v == floor(v);
    if (!ok)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %s.%s: expected %s, got %g", file, path,
                           s->key, range, v);
  }
  return VBC_OK;
}

double vbc_param_number(const cJSON *obj, const vbc_param_spec *specs, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (cJSON_IsNumber(item)) return item->valuedouble;
  const vbc_param_spec *s = vbc_param_find(specs, key);
  return s ? s->def : NAN;
}

int vbc_param_bool(const cJSON *obj, const vbc_param_spec *specs, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (cJSON_IsBool(item)) return cJSON_IsTrue(item);
  const vbc_param_spec *s = vbc_param_find(specs, key);
  return s ? s->def != 0.0 : 0;
}

int vbc_param_choice(const cJSON *obj, const vbc_param_spec *specs, const char *key) {
  const vbc_param_spec *s = vbc_param_find(specs, key);
  if (s == NULL || s->kind != VBC_PARAM_CHOICE) return -1;
  const int k = choice_index(s, cJSON_GetObjectItemCaseSensitive(obj, key));
  return k >= 0 ? k : (int)s->def;
}
