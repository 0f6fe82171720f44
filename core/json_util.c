/* json_util.c — see json_util.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"


const char *vbc_path_join(char *buf, size_t size, const char *prefix, const char *key) {
  if (prefix == NULL || prefix[0] == '\0') snprintf(buf, size, "%s", key);
  else snprintf(buf, size, "%s.%s", prefix, key);
  return buf;
}

const char *vbc_path_index(char *buf, size_t size, const char *prefix, int index) {
  snprintf(buf, size, "%s.%d", prefix, index);
  return buf;
}

static int parse_index(const char *s, long *out) {
  if (*s == '\0') return 0;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || errno || v < 0) return 0;
  *out = v;
  return 1;
}

int vbc_json_set_path(cJSON *root, const char *file, const char *assignment, vbc_error *err) {
  const char *eq = strchr(assignment, '=');
  if (eq == NULL || eq == assignment)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: --set %s: expected KEY=VALUE", file,
                         assignment);
  char key[512], parts[512];
  size_t klen = (size_t)(eq - assignment);
  if (klen >= sizeof key)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: --set %.40s...: key too long", file,
                         assignment);
  memcpy(key, assignment, klen);
  key[klen] = '\0';
  memcpy(parts, key, klen + 1);
  const char *text = eq + 1;
  cJSON *value = cJSON_ParseWithOpts(text, NULL, 1); /* "0.05s" is a string, not 0.05 */
  if (value == NULL) value = cJSON_CreateString(text);
  if (value == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");

  cJSON *node = root;
  char *save = NULL;
  char done[512] = "";
  for (char *part = strtok_r(parts, ".", &save); part;) {
    char *next = strtok_r(NULL, ".", &save);
    char here[512];
    vbc_path_join(here, sizeof here, done, part);
    long idx;
    if (cJSON_IsArray(node)) {
      int size = cJSON_GetArraySize(node);
      if (!parse_index(part, &idx) || idx > size || (next && idx == size)) {
        cJSON_Delete(value);
        return vbc_error_set(err, VBC_EXIT_INPUT,
                             "%s: --set %s: %s: expected an index from 0 to %d", file, key, here,
                             next ? size - 1 : size);
      }
      if (next == NULL) {
        if (idx == size) cJSON_AddItemToArray(node, value);
        else cJSON_ReplaceItemInArray(node, (int)idx, value);
        return VBC_OK;
      }
      node = cJSON_GetArrayItem(node, (int)idx);
    } else if (cJSON_IsObject(node)) {
      cJSON *child = cJSON_GetObjectItemCaseSensitive(node, part);
      if (next == NULL) {
        if (child) cJSON_ReplaceItemInObjectCaseSensitive(node, part, value);
        else cJSON_AddItemToObject(node, part, value);
        return VBC_OK;
      }
      if (child == NULL) child = cJSON_AddObjectToObject(node, part);
      node = child;
    } else {
      char got[96];
      vbc_json_describe(node, got, sizeof got);
      cJSON_Delete(value);
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: --set %s: %s: expected an object or an array, got %s", file, key,
                           done, got);
    }
    snprintf(done, sizeof done, "%s", here);
    part = next;
  }
  cJSON_Delete(value);
  return vbc_error_set(err, VBC_EXIT_INPUT, "%s: --set %s: empty key", file, assignment);
}

int vbc_json_check_keys(vbc_jctx *c, const cJSON *obj, const char *path,
                        const char *const *allowed) {
  const cJSON *item;
  cJSON_ArrayForEach(item, obj) {
    for (const cJSON *prev = obj->child; prev != item; prev = prev->next)
      if (strcmp(prev->string, item->string) == 0) {
        char p[256];
        return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: duplicate key", c->file,
                             vbc_path_join(p, sizeof p, path, item->string));
      }
    int known = 0;
    for (const char *const *a = allowed; *a && !known; ++a) known = strcmp(*a, item->string) == 0;
    if (known) continue;
    char list[512] = "", p[256];
    for (const char *const *a = allowed; *a; ++a) {
      if (list[0]) strncat(list, ", ", sizeof list - strlen(list) - 1);
      strncat(list, *a, sizeof list - strlen(list) - 1);
    }
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: unknown key (expected one of: %s)",
                         c->file, vbc_path_join(p, sizeof p, path, item->string), list);
  }
  return VBC_OK;
}

void vbc_json_describe(const cJSON *item, char *buf, size_t size) {
  if (item == NULL) snprintf(buf, size, "nothing");
  else if (cJSON_IsNumber(item)) snprintf(buf, size, "%g", item->valuedouble);
  else if (cJSON_IsString(item)) snprintf(buf, size, "\"%.60s\"", item->valuestring);
  else if (cJSON_IsBool(item)) snprintf(buf, size, "%s", cJSON_IsTrue(item) ? "true" : "false");
  else if (cJSON_IsNull(item)) snprintf(buf, size, "null");
  else if (cJSON_IsArray(item)) snprintf(buf, size, "an array of %d", cJSON_GetArraySize(item));
  else snprintf(buf, size, "an object");
}

static int expected(vbc_jctx *c, const char *path, const char *key, const char *what,
                    const cJSON *got) {
  char p[256], g[96];
  vbc_json_describe(got, g, sizeof g);
  return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected %s, got %s", c->file,
                       vbc_path_join(p, sizeof p, path, key), what, g);
}

cJSON *vbc_json_object(vbc_jctx *c, cJSON *obj, const char *path, const char *key,
                       int required) {
  cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (item == NULL && !required) return cJSON_AddObjectToObject(obj, key);
  if (!cJSON_IsObject(item)) {
    expected(c, path, key, "an object", item);
    return NULL;
  }
  return item;
}

int vbc_json_number(vbc_jctx *c, cJSON *obj, const char *path, const char *key, double def,
                    double min, int min_open, double max, double *out) {
  cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (item == NULL && !isnan(def)) {
    cJSON_AddNumberToObject(obj, key, def);
    *out = def;
    return VBC_OK;
  }
  char what[128];
  if (isinf(max) && isinf(min)) snprintf(what, sizeof what, "a finite number");
  else if (isinf(max)) snprintf(what, sizeof what, "a number %s %g", min_open ? ">" : ">=", min);
  else if (isinf(min)) snprintf(what, sizeof what, "a number <= %g", max);
  else snprintf(what, sizeof what, "a number in %s%g, %g]", min_open ? "(" : "[", min, max);
  if (!cJSON_IsNumber(item)) return expected(c, path, key, what, item);
  double v = item->valuedouble;
  if (!isfinite(v) || (min_open ? v <= min : v < min) || v > max)
    return expected(c, path, key, what, item);
  *out = v;
  return VBC_OK;
}

int vbc_json_integer(vbc_jctx *c, cJSON *obj, const char *path, const char *key, long def,
                     long min, long max, long *out) {
  cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (item == NULL && def != LONG_MIN) {
    cJSON_AddNumberToObject(obj, key, (double)def);
    *out = def;
    return VBC_OK;
  }
  char what[128];
  snprintf(what, sizeof what, "an integer in [%ld, %ld]", min, max);
  if (!cJSON_IsNumber(item)) return expected(c, path, key, what, item);
  double v = item->valuedouble;
  if (v != floor(v) || v < (double)min || v > (double)max)
    return expected(c, path, key, what, item);
  *out = (long)v;
  return VBC_OK;
}

int vbc_json_bool(vbc_jctx *c, cJSON *obj, const char *path, const char *key, int def,
                  int *out) {
  cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (item == NULL && def >= 0) {
    cJSON_AddBoolToObject(obj, key, def);
    *out = def;
    return VBC_OK;
  }
  if (!cJSON_IsBool(item)) return expected(c, path, key, "true or false", item);
  *out = cJSON_IsTrue(item);
  return VBC_OK;
}

int vbc_json_string(vbc_jctx *c, cJSON *obj, const char *path, const char *key, const char *def,
                    const char **out) {
  cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (item == NULL && def != NULL) item = cJSON_AddStringToObject(obj, key, def);
  if (!cJSON_IsString(item)) return expected(c, path, key, "a string", item);
  *out = item->valuestring;
  return VBC_OK;
}

int vbc_json_vec(vbc_jctx *c, cJSON *obj, const char *path, const char *key, int dim,
                 const vbc_vec *def, vbc_vec *out) {
  cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (item == NULL && def != NULL) {
    double v[3] = {def->x, def->y, def->z};
    cJSON_AddItemToObject(obj, key, cJSON_CreateDoubleArray(v, dim));
    *out = *def;
    if (dim == 2) out->z = 0.0;
    return VBC_OK;
  }
  char what[64];
  snprintf(what, sizeof what, "an array of %d numbers", dim);
  if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != dim)
    return expected(c, path, key, what, item);
  vbc_vec v = vbc_vec_zero();
  for (int a = 0; a < dim; ++a) {
    const cJSON *e = cJSON_GetArrayItem(item, a);
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) return expected(c, path, key, what, item);
    vbc_vec_set(&v, a, e->valuedouble);
  }
  *out = v;
  return VBC_OK;
}
