/* registry.c — see registry.h. Adding a module: declare its type in its folder's header and
 * list it in the table of its kind below. */
#include <string.h>

#include "metrics/metrics.h"
#include "app/registry.h"
#include "solvers/blocks/contact.h"
#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"
#include "solvers/schemes/schemes.h"

static const vbc_block_type *const fluid_constraints[] = {&vbc_block_mps, &vbc_block_sph_density,
                                                          NULL};
static const vbc_solver_type *const solvers[] = {&vbc_solver_pgs, &vbc_solver_jacobi,
                                                 &vbc_solver_lemke, NULL};
static const vbc_coupler_type *const couplers[] = {&vbc_coupler_strong, &vbc_coupler_pms,
                                                  &vbc_coupler_akinci,
                                                  &vbc_coupler_lemke_contacts, NULL};
static const vbc_benchmark_type *const benchmarks[] = {
    &vbc_benchmark_hydrostatic, &vbc_benchmark_circular_patch, &vbc_benchmark_bodies,
    &vbc_benchmark_buoyancy, &vbc_benchmark_seesaw, &vbc_benchmark_dam_break, NULL};

#define FIND(table, name)                                                   \
  do {                                                                      \
    for (size_t i = 0; (table)[i]; ++i)                                     \
      if (strcmp((table)[i]->name, (name)) == 0) return (table)[i];         \
    return NULL;                                                            \
  } while (0)

const vbc_block_type *vbc_registry_fluid_constraint(const char *name) {
  FIND(fluid_constraints, name);
}
const vbc_block_type *vbc_registry_contact_block(void) { return &vbc_block_contact; }
const vbc_solver_type *vbc_registry_solver(const char *name) { FIND(solvers, name); }
const vbc_coupler_type *vbc_registry_coupler(const char *name) { FIND(couplers, name); }
const vbc_benchmark_type *vbc_registry_benchmark(const char *name) { FIND(benchmarks, name); }

int vbc_registry_solver_param_known(const char *key) {
  for (size_t i = 0; solvers[i]; ++i)
    if (vbc_param_find(solvers[i]->params, key)) return 1;
  return 0;
}

int vbc_registry_fluid_param_known(const char *key) {
  for (size_t i = 0; fluid_constraints[i]; ++i)
    if (vbc_param_find(fluid_constraints[i]->params, key)) return 1;
  return vbc_registry_solver_param_known(key);
}

static void append_name(char *buf, size_t size, const char *name) {
  size_t len = strlen(buf);
  snprintf(buf + len, size - len, "%s\"%s\"", len ? ", " : "", name);
}

void vbc_registry_names(const char *kind, char *buf, size_t size) {
  buf[0] = '\0';
  if (strcmp(kind, "fluid_constraint") == 0)
    for (size_t i = 0; fluid_constraints[i]; ++i) append_name(buf, size, fluid_constraints[i]->name);
  else if (strcmp(kind, "solver") == 0)
    for (size_t i = 0; solvers[i]; ++i) append_name(buf, size, solvers[i]->name);
  else if (strcmp(kind, "coupler") == 0)
    for (size_t i = 0; couplers[i]; ++i) append_name(buf, size, couplers[i]->name);
  else if (strcmp(kind, "benchmark") == 0)
    for (size_t i = 0; benchmarks[i]; ++i) append_name(buf, size, benchmarks[i]->name);
}

static void print_params(FILE *out, const vbc_param_spec *p) {
  for (; p && p->key; ++p) {
    if (p->kind == VBC_PARAM_BOOL)
      fprintf(out, "      %-20s %-6s (default %s)  %s\n", p->key, "bool",
              p->def != 0.0 ? "true" : "false", p->doc);
    else
      fprintf(out, "      %-20s %-6s (default %g)  %s\n", p->key,
              p->kind == VBC_PARAM_INTEGER ? "int" : "number", p->def, p->doc);
  }
}

void vbc_registry_print(FILE *out) {
  fprintf(out, "fluid constraints (method.fluid.constraint):\n");
  for (size_t i = 0; fluid_constraints[i]; ++i) {
    fprintf(out, "  %-16s %s\n", fluid_constraints[i]->name, fluid_constraints[i]->summary);
    print_params(out, fluid_constraints[i]->params);
  }
  fprintf(out, "contacts (method.contact):\n");
  fprintf(out, "  %-16s %s\n", vbc_block_contact.name, vbc_block_contact.summary);
  print_params(out, vbc_block_contact.params);
  fprintf(out, "solvers (method.fluid.solver):\n");
  for (size_t i = 0; solvers[i]; ++i) {
    fprintf(out, "  %-16s %s\n", solvers[i]->name, solvers[i]->summary);
    print_params(out, solvers[i]->params);
  }
  fprintf(out, "couplers (method.coupler):\n");
  for (size_t i = 0; couplers[i]; ++i)
    fprintf(out, "  %-16s %s\n", couplers[i]->name, couplers[i]->summary);
  fprintf(out, "benchmarks (benchmark.type):\n");
  for (size_t i = 0; benchmarks[i]; ++i) {
    fprintf(out, "  %-16s %s\n", benchmarks[i]->name, benchmarks[i]->summary);
    print_params(out, benchmarks[i]->params);
  }
}
