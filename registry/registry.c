/* registry.c — see registry.h. */
#include <string.h>

#include "registry/registry.h"

void vbc_registry_init(vbc_registry *r) { memset(r, 0, sizeof *r); }

/* Append t to table[n] unless a module of the sort has its name (a macro: the four tables have
 * four element types). */
#define ADD(table, n, t, sort)                                                                 \
  do {                                                                                         \
    for (size_t i = 0; i < (n); ++i)                                                           \
      if (strcmp((table)[i]->name, (t)->name) == 0)                                            \
        return vbc_error_set(err, VBC_EXIT_INPUT,                                              \
                             "registry: a " sort " named \"%s\" is registered already",        \
                             (t)->name);                                                       \
    if ((n) == VBC_REGISTRY_MAX)                                                               \
      return vbc_error_set(err, VBC_EXIT_SYSTEM,                                               \
                           "registry: more than VBC_REGISTRY_MAX (%d) " sort "s",              \
                           VBC_REGISTRY_MAX);                                                  \
    (table)[(n)++] = (t);                                                                      \
    return VBC_OK;                                                                             \
  } while (0)

int vbc_registry_add_block(vbc_registry *r, const vbc_block_type *t, vbc_error *err) {
  ADD(r->block, r->nblocks, t, "block");
}
int vbc_registry_add_solver(vbc_registry *r, const vbc_solver_type *t, vbc_error *err) {
  ADD(r->solver, r->nsolvers, t, "solver");
}
int vbc_registry_add_coupler(vbc_registry *r, const vbc_coupler_type *t, vbc_error *err) {
  ADD(r->coupler, r->ncouplers, t, "coupler");
}
int vbc_registry_add_benchmark(vbc_registry *r, const vbc_benchmark_type *t, vbc_error *err) {
  ADD(r->benchmark, r->nbenchmarks, t, "benchmark");
}

const vbc_block_type *vbc_registry_block(const vbc_registry *r, vbc_block_kind kind,
                                         const char *name) {
  for (size_t i = 0; i < r->nblocks; ++i)
    if ((kind == VBC_BLOCK_NONE || r->block[i]->kind == kind) &&
        strcmp(r->block[i]->name, name) == 0)
      return r->block[i];
  return NULL;
}

#define FIND(table, n, name)                                                \
  do {                                                                      \
    for (size_t i = 0; i < (n); ++i)                                        \
      if (strcmp((table)[i]->name, (name)) == 0) return (table)[i];         \
    return NULL;                                                            \
  } while (0)

const vbc_solver_type *vbc_registry_solver(const vbc_registry *r, const char *name) {
  FIND(r->solver, r->nsolvers, name);
}
const vbc_coupler_type *vbc_registry_coupler(const vbc_registry *r, const char *name) {
  FIND(r->coupler, r->ncouplers, name);
}
const vbc_benchmark_type *vbc_registry_benchmark(const vbc_registry *r, const char *name) {
  FIND(r->benchmark, r->nbenchmarks, name);
}

static void append_name(char *buf, size_t size, const char *name) {
  size_t len = strlen(buf);
  snprintf(buf + len, size - len, "%s\"%s\"", len ? ", " : "", name);
}

void vbc_registry_block_names(const vbc_registry *r, vbc_block_kind kind, char *buf,
                              size_t size) {
  buf[0] = '\0';
  for (size_t i = 0; i < r->nblocks; ++i)
    if (kind == VBC_BLOCK_NONE || r->block[i]->kind == kind)
      append_name(buf, size, r->block[i]->name);
}

#define NAMES(table, n)                                                 \
  do {                                                                  \
    buf[0] = '\0';                                                      \
    for (size_t i = 0; i < (n); ++i) append_name(buf, size, (table)[i]->name);  \
  } while (0)

void vbc_registry_solver_names(const vbc_registry *r, char *buf, size_t size) {
  NAMES(r->solver, r->nsolvers);
}
void vbc_registry_coupler_names(const vbc_registry *r, char *buf, size_t size) {
  NAMES(r->coupler, r->ncouplers);
}
void vbc_registry_benchmark_names(const vbc_registry *r, char *buf, size_t size) {
  NAMES(r->benchmark, r->nbenchmarks);
}

int vbc_registry_param_known(const vbc_registry *r, vbc_block_kind kind, int solvers,
                             const char *key) {
  if (kind != VBC_BLOCK_NONE)
    for (size_t i = 0; i < r->nblocks; ++i)
      if (r->block[i]->kind == kind && vbc_param_find(r->block[i]->params, key)) return 1;
  if (solvers)
    for (size_t i = 0; i < r->nsolvers; ++i)
      if (vbc_param_find(r->solver[i]->params, key)) return 1;
  return 0;
}

int vbc_registry_method_key_known(const vbc_registry *r, const char *key) {
  for (size_t i = 0; i < r->ncouplers; ++i) {
    const vbc_coupler_type *t = r->coupler[i];
    if (vbc_param_find(t->params, key) || vbc_coupler_group(t, key)) return 1;
  }
  return 0;
}
