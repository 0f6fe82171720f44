/* builtin.c — see builtin.h: the one list of what vbc ships. It is the top of the library: it
 * names every block, solver, coupler and benchmark, so it sits above all of them (registry/ below
 * holds only the registry's type and look-ups, which scene loading uses). */
#include <stdlib.h>

#include "modules/builtin.h"
#include "scene/method_preset.h"
#include "couplers/couplers.h"
#include "metrics/metrics.h"
#include "solvers/blocks/blocks.h"
#include "solvers/schemes/schemes.h"

static const vbc_block_type *const blocks[] = {&vbc_block_mps, &vbc_block_mps_poisson,
                                               &vbc_block_sph_density, &vbc_block_staggered,
                                               &vbc_block_contact, &vbc_block_pin,
                                               &vbc_block_lcp_matrix, &vbc_block_dfsph};
static const vbc_solver_type *const solvers[] = {&vbc_solver_pgs, &vbc_solver_jacobi,
                                                 &vbc_solver_lemke, &vbc_solver_cg,
                                                 &vbc_solver_mprgp, &vbc_solver_dfsph_jacobi,
                                                 &vbc_solver_pgs_coarse, &vbc_solver_pgs_chebyshev};
static const vbc_coupler_type *const couplers[] = {&vbc_coupler_strong, &vbc_coupler_pms,
                                                  &vbc_coupler_akinci,
                                                  &vbc_coupler_lemke_contacts, &vbc_coupler_staggered,
                                                  &vbc_coupler_dfsph};
static const vbc_benchmark_type *const benchmarks[] = {
    &vbc_benchmark_hydrostatic, &vbc_benchmark_circular_patch, &vbc_benchmark_bodies,
    &vbc_benchmark_buoyancy,    &vbc_benchmark_seesaw,         &vbc_benchmark_dam_break,
    &vbc_benchmark_body_height, &vbc_benchmark_spheric_test2, &vbc_benchmark_canelas_cube,
    &vbc_benchmark_wedge_entry, &vbc_benchmark_cylinder_entry, &vbc_benchmark_cylinder_flow};

#define COUNT(a) (sizeof(a) / sizeof *(a))

int vbc_registry_builtin(vbc_registry *r, vbc_error *err) {
  vbc_registry_init(r);
  for (size_t i = 0; i < COUNT(blocks); ++i)
    if (vbc_registry_add_block(r, blocks[i], err) != VBC_OK) return err->code;
  for (size_t i = 0; i < COUNT(solvers); ++i)
    if (vbc_registry_add_solver(r, solvers[i], err) != VBC_OK) return err->code;
  for (size_t i = 0; i < COUNT(couplers); ++i)
    if (vbc_registry_add_coupler(r, couplers[i], err) != VBC_OK) return err->code;
  for (size_t i = 0; i < COUNT(benchmarks); ++i)
    if (vbc_registry_add_benchmark(r, benchmarks[i], err) != VBC_OK) return err->code;
  return VBC_OK;
}

vbc_registry *vbc_registry_new_builtin(vbc_error *err) {
  vbc_registry *r = vbc_calloc(1, sizeof *r, err);
  if (r && vbc_registry_builtin(r, err) != VBC_OK) {
    free(r);
    return NULL;
  }
  return r;
}

void vbc_registry_delete(vbc_registry *registry) { free(registry); }

char *vbc_modules_json(const vbc_registry *registry, vbc_error *err) {
  cJSON *d = vbc_registry_json(registry, err);
  cJSON *presets = d ? vbc_method_presets_json(err) : NULL;
  char *text = NULL;
  if (presets && cJSON_AddItemToObject(d, "presets", presets)) {
    presets = NULL;
    if ((text = cJSON_Print(d)) == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
  }
  cJSON_Delete(presets);
  cJSON_Delete(d);
  return text;
}
