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

#ifdef __cplusplus
}
#endif

#endif
