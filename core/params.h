/* params.h — declared parameters of modules.
 *
 * Every block, solver, coupler and benchmark declares the scene keys it reads in a table of
 * vbc_param_spec (terminated by a {NULL} entry). The scene loader validates the keys against these
 * tables (unknown keys are errors), fills in the defaults so that summary.json shows every value
 * that was used, and `vbc list` prints the tables. Modules then read values with vbc_param_*. */
#ifndef VBC_PARAMS_H
#define VBC_PARAMS_H

#include <cjson/cJSON.h>

#include "core/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vbc_param_kind {
  VBC_PARAM_NUMBER,
  VBC_PARAM_INTEGER,
  VBC_PARAM_BOOL,
  VBC_PARAM_CHOICE /* one of the words in `choices`; def is the index of the default */
} vbc_param_kind;

typedef struct vbc_param_spec {
  const char *key;
  vbc_param_kind kind;
  double def;
  double min, max;  /* inclusive range, unless min_open (min < value) */
  int min_open;
  const char *doc;
  const char *const *choices; /* VBC_PARAM_CHOICE: NULL-terminated words */
} vbc_param_spec;

const vbc_param_spec *vbc_param_find(const vbc_param_spec *specs, const char *key);

/* Validate obj[key] for every spec (range, type), adding defaults to obj for missing keys.
 * Keys of obj that no table knows are not checked here: see vbc_json_check_keys. */
int vbc_params_resolve(cJSON *obj, const vbc_param_spec *specs, const char *file,
                       const char *path, vbc_error *err);

/* Read a resolved value (callers pass an object that went through vbc_params_resolve). */
double vbc_param_number(const cJSON *obj, const vbc_param_spec *specs, const char *key);
int vbc_param_bool(const cJSON *obj, const vbc_param_spec *specs, const char *key);
/* The index of a VBC_PARAM_CHOICE value in its spec's choices. */
int vbc_param_choice(const cJSON *obj, const vbc_param_spec *specs, const char *key);

#ifdef __cplusplus
}
#endif

#endif
