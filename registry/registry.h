/* registry.h — the modules a scene can name: blocks (by kind), solvers, couplers, benchmarks.
 *
 * A registry is a value its owner fills: the program starts from the built-in modules
 * (modules/builtin.c: vbc_registry_builtin) and a program built on the library may add its own
 * before it loads scenes (docs/architecture.md, "Adding a module"). Scene loading looks names up
 * here; `vbc list` prints it with every module's parameters. No global state: whoever loads a
 * scene passes the registry. */
#ifndef VBC_REGISTRY_H
#define VBC_REGISTRY_H

#include <stdio.h>

#include "registry/benchmark.h"
#include "core/constraint.h"
#include "core/coupler.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { VBC_REGISTRY_MAX = 32 }; /* modules of one sort */

typedef struct vbc_registry {
  const vbc_block_type *block[VBC_REGISTRY_MAX];
  const vbc_solver_type *solver[VBC_REGISTRY_MAX];
  const vbc_coupler_type *coupler[VBC_REGISTRY_MAX];
  const vbc_benchmark_type *benchmark[VBC_REGISTRY_MAX];
  size_t nblocks, nsolvers, ncouplers, nbenchmarks;
} vbc_registry;

/* An empty registry. */
void vbc_registry_init(vbc_registry *r);
/* Add a module. A name already taken by a module of the same sort is bad input (exit 2); more
 * than VBC_REGISTRY_MAX of one sort is a system error. */
int vbc_registry_add_block(vbc_registry *r, const vbc_block_type *t, vbc_error *err);
int vbc_registry_add_solver(vbc_registry *r, const vbc_solver_type *t, vbc_error *err);
int vbc_registry_add_coupler(vbc_registry *r, const vbc_coupler_type *t, vbc_error *err);
int vbc_registry_add_benchmark(vbc_registry *r, const vbc_benchmark_type *t, vbc_error *err);

/* By name; NULL if there is none. kind VBC_BLOCK_NONE: a block of any kind. */
const vbc_block_type *vbc_registry_block(const vbc_registry *r, vbc_block_kind kind,
                                         const char *name);
const vbc_solver_type *vbc_registry_solver(const vbc_registry *r, const char *name);
const vbc_coupler_type *vbc_registry_coupler(const vbc_registry *r, const char *name);
const vbc_benchmark_type *vbc_registry_benchmark(const vbc_registry *r, const char *name);

/* Comma-separated quoted names, for "expected one of ..." messages: blocks of one kind, solvers,
 * couplers or benchmarks. */
void vbc_registry_block_names(const vbc_registry *r, vbc_block_kind kind, char *buf, size_t size);
void vbc_registry_solver_names(const vbc_registry *r, char *buf, size_t size);
void vbc_registry_coupler_names(const vbc_registry *r, char *buf, size_t size);
void vbc_registry_benchmark_names(const vbc_registry *r, char *buf, size_t size);

/* Whether a registered block of the kind (VBC_BLOCK_NONE: none) or, with solvers, a registered
 * solver declares the parameter key: such keys of unselected modules are dropped from a scene's
 * parameter group, so that one scene runs under every combination with --set. */
int vbc_registry_param_known(const vbc_registry *r, vbc_block_kind kind, int solvers,
                             const char *key);
/* Whether a registered coupler declares key (a parameter or a group) of `method`. */
int vbc_registry_method_key_known(const vbc_registry *r, const char *key);

/* `vbc list`: every module with its kind and parameters, every coupler with its groups and
 * stages. */
void vbc_registry_print(const vbc_registry *r, FILE *out);

/* The registry as data: {"blocks", "solvers", "couplers", "benchmarks"}, each module with its
 * summary, parameters (key, type, default, range or choices, doc), a block's kind and what it
 * offers, a coupler's groups and stages (registry_describe.c). The caller frees it. */
cJSON *vbc_registry_json(const vbc_registry *r, vbc_error *err);
/* The same as a Markdown page (`vbc list --format markdown`, docs/modules.md). */
int vbc_registry_print_markdown(const vbc_registry *r, FILE *out, vbc_error *err);

#ifdef __cplusplus
}
#endif

#endif
