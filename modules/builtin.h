/* builtin.h — the modules vbc ships, as a registry (registry/registry.h). */
#ifndef VBC_BUILTIN_H
#define VBC_BUILTIN_H

#include "registry/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r gets every built-in block, solver, coupler and benchmark. Adding a module to vbc is one line
 * in the table of its sort (modules/builtin.c). */
int vbc_registry_builtin(vbc_registry *r, vbc_error *err);

/* The built-in registry as a heap handle, for bindings without C structs (the Python package). */
vbc_registry *vbc_registry_new_builtin(vbc_error *err);
void vbc_registry_delete(vbc_registry *registry);

/* Everything a scene can name, as JSON text (free with free()): the registry's description
 * (vbc_registry_json) and "presets", the method presets (scene/method_preset.h). What
 * `vbc list --format json` prints. */
char *vbc_modules_json(const vbc_registry *registry, vbc_error *err);

/* Every coupler x fluid constraint x fluid solver of the registry, set up on two tiny scenes as
 * vbc validate does: "runs" or the refusal, as a Markdown page (`vbc list --format
 * compatibility`, docs/compatibility.md; modules/compatibility.c). */
int vbc_compatibility_print_markdown(const vbc_registry *registry, FILE *out, vbc_error *err);

#ifdef __cplusplus
}
#endif

#endif
