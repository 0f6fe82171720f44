/* method_preset.h — methods as named presets: experiments/methods/NAME.json holds a complete
 * `method` section at its paper's own settings, with its citation and a one-line description.
 * `vbc run SCENE --method NAME` replaces the scene's `method` wholesale (no key of the scene's
 * own method survives: a stale stopping test of another solver cannot leak in), then --set
 * applies on top. A preset may say what a scene needs for it ("requires": {"bodies": true,
 * "dims": [2]}); a scene without it is refused (exit 2) before anything runs. */
#ifndef VBC_METHOD_PRESET_H
#define VBC_METHOD_PRESET_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/error.h"

struct vbc_scene;

typedef struct vbc_method_preset {
  char name[128];
  char path[1024];
  cJSON *root;         /* the file */
  const cJSON *method; /* its `method` object */
  const char *description, *citation;
  int needs_bodies; /* requires.bodies: 1 true (at least one body), -1 false (no free or pinned
                       body: the method does not couple fluid to bodies), 0 absent (either) */
  unsigned dims; /* bit d set: runs in d dimensions */
} vbc_method_preset;

/* Find and read a preset: NAME with a '/' or ending in ".json" is a path; else NAME.json in the
 * first of these folders that holds it: $VBC_METHODS_DIR, the source tree's experiments/methods,
 * the installed share/vbc/methods. VBC_EXIT_INPUT naming the preset, the file and the fault
 * (unknown name with the list of known ones, malformed file). */
int vbc_method_preset_load(vbc_method_preset *p, const char *name, vbc_error *err);
void vbc_method_preset_free(vbc_method_preset *p);

/* The --set assignment that replaces a scene's method by the preset's: "method={...}"
 * (malloc'd; the caller frees it). */
char *vbc_method_preset_assignment(const vbc_method_preset *p, vbc_error *err);

/* Whether the loaded scene has what the preset requires; VBC_EXIT_INPUT saying why not. */
int vbc_method_preset_check(const vbc_method_preset *p, const struct vbc_scene *s,
                            vbc_error *err);
/* After the scene was loaded with the preset's assignment: record the preset's name in it
 * (summary.json's method_preset) and check what the preset requires. */
int vbc_method_preset_apply(const vbc_method_preset *p, struct vbc_scene *s, vbc_error *err);

/* Every preset of the first folder that holds any, by name: {"name", "description", "citation",
 * "requires", "method"} objects in an array (the caller frees it). */
cJSON *vbc_method_presets_json(vbc_error *err);
/* That list for `vbc list`: as text, and as the Markdown section of docs/modules.md. */
void vbc_method_presets_print(const cJSON *presets, FILE *out);
void vbc_method_presets_print_markdown(const cJSON *presets, FILE *out);

#endif
