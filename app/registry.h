/* registry.h — modules by name. Scenes select blocks, solvers, couplers and benchmarks by the
 * names listed here; `vbc list` prints this table with every module's parameters. */
#ifndef VBC_REGISTRY_H
#define VBC_REGISTRY_H

#include <stdio.h>

#include "app/benchmark.h"
#include "core/constraint.h"
#include "core/coupler.h"

const vbc_block_type *vbc_registry_fluid_constraint(const char *name);
const vbc_block_type *vbc_registry_contact_block(void);
const vbc_solver_type *vbc_registry_solver(const char *name);
const vbc_coupler_type *vbc_registry_coupler(const char *name);
const vbc_benchmark_type *vbc_registry_benchmark(const char *name);

/* Whether some registered fluid constraint or solver declares the parameter key: a scene's
 * method.fluid may hold keys of modules it does not select (the loader drops them), so that one
 * scene runs under every combination with --set. */
int vbc_registry_fluid_param_known(const char *key);
/* Whether some registered solver declares the parameter key (method.contact under a coupler with
 * its own contact solver drops those of the solvers it does not select). */
int vbc_registry_solver_param_known(const char *key);

/* Comma-separated names of one kind ("fluid_constraint", "solver", "coupler", "benchmark"). */
void vbc_registry_names(const char *kind, char *buf, size_t size);
void vbc_registry_print(FILE *out);

#endif
