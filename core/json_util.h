/* json_util.h — reading scene JSON with messages that name the file and the JSON path.
 *
 * Paths are dotted, as on the command line: `time.dt`, `geometry.0.min`. Getters fill in the
 * default when a key is missing (so the resolved scene written to summary.json shows every value
 * used) and fail with VBC_EXIT_INPUT and "FILE: PATH: expected WHAT, got VALUE" otherwise. */
#ifndef VBC_JSON_UTIL_H
#define VBC_JSON_UTIL_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/vec.h"

typedef struct vbc_jctx {
  const char *file;
  vbc_error *err;
} vbc_jctx;


/* `--set a.b.0.c=VALUE`: VALUE is parsed as JSON, else taken as a string. Missing object keys
 * are created (the validator then decides whether they are allowed). */
int vbc_json_set_path(cJSON *root, const char *file, const char *assignment, vbc_error *err);

/* Join a path prefix and a key or index into buf. */
const char *vbc_path_join(char *buf, size_t size, const char *prefix, const char *key);
const char *vbc_path_index(char *buf, size_t size, const char *prefix, int index);

/* Unknown and duplicate keys are errors: every key of obj must be listed once in `allowed`
 * (NULL-terminated). */
int vbc_json_check_keys(vbc_jctx *c, const cJSON *obj, const char *path,
                        const char *const *allowed);

/* Object at obj[key] (created empty when missing and optional). */
cJSON *vbc_json_object(vbc_jctx *c, cJSON *obj, const char *path, const char *key,
                       int required);
/* Number in [min, max] (min excluded when min_open); missing -> def, or error if isnan(def). */
int vbc_json_number(vbc_jctx *c, cJSON *obj, const char *path, const char *key, double def,
                    double min, int min_open, double max, double *out);
int vbc_json_integer(vbc_jctx *c, cJSON *obj, const char *path, const char *key, long def,
                     long min, long max, long *out);
int vbc_json_bool(vbc_jctx *c, cJSON *obj, const char *path, const char *key, int def,
                  int *out);
/* String; missing -> def (NULL: required). The returned pointer lives as long as obj. */
int vbc_json_string(vbc_jctx *c, cJSON *obj, const char *path, const char *key, const char *def,
                    const char **out);
/* Array of exactly dim finite numbers; missing -> def (NULL: required). z = 0 in 2D. */
int vbc_json_vec(vbc_jctx *c, cJSON *obj, const char *path, const char *key, int dim,
                 const vbc_vec *def, vbc_vec *out);

/* Short rendering of a JSON value for messages. */
void vbc_json_describe(const cJSON *item, char *buf, size_t size);

#endif
