/* modules.h — the modules vbc ships, as a registry (app/registry.h). */
#ifndef VBC_MODULES_H
#define VBC_MODULES_H

#include "app/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r gets every built-in block, solver, coupler and benchmark. Adding a module to vbc is one line
 * in the table of its sort (cli/modules.c). */
int vbc_registry_builtin(vbc_registry *r, vbc_error *err);

#ifdef __cplusplus
}
#endif

#endif
