/* relaxation_check.c — a relaxed scheme's omega against its convergence bound on the fluid lattice.
 *
 * IISPH's omega = 0.5 (Ihmsen et al. 2014) is safe at the usual support H = 2 l but not beyond:
 * the bound 2 / lambda_max(D^-1 A) of core/jacobi_bound.h falls as the support widens (2D cubic
 * spline: 0.93 at 2 l, 0.53 at 3 l, 0.31 at 3.9 l; 3D: 0.71, 0.27, 0.12), and with omega above it
 * the interior's highest lattice mode grows every iteration: IISPH at H = 3.9 l blew up within
 * 4-9 steps (docs/iisph.md, "Wider supports"). The check asks the modules, never names them: a
 * solver that relaxes declares its factor's key (vbc_solver_type.relaxation_key, "omega" for
 * jacobi), a block that knows its lattice operator reports lambda_max
 * (vbc_block_type.lattice_lambda_max: sph_density, mps). For every method group with both this
 * compares omega with the bound, per the solver's key KEY_limit: "warn" (default: one line on
 * stderr, nothing changes), "clamp" (omega becomes 0.9 times the bound, written back into the
 * resolved scene so that summary.json shows the value used) or "off". */
#include <stdio.h>
#include <string.h>

#include "scene/relaxation_check.h"

double vbc_relaxation_bound(const vbc_scene *s, const vbc_block_type *block, const cJSON *params) {
  if (block == NULL || block->lattice_lambda_max == NULL) return 0.0;
  /* The lattice's kernels as the simulation builds them (sim/sim.c); no particles. */
  vbc_system sys = {.dim = s->dim, .spacing = s->spacing, .dt = s->dt};
  sys.re = s->re_over_l * s->spacing;
  sys.sph = vbc_sph_kernel_make(s->sph_kernel, s->sph_support_over_l * s->spacing, s->dim);
  const double lambda = block->lattice_lambda_max(params, &sys);
  return lambda > 0.0 ? 2.0 / lambda : 0.0;
}

void vbc_scene_check_relaxation(vbc_scene *s) {
  static const char *const limits[] = {"warn", "clamp", "off"};
  cJSON *method = cJSON_GetObjectItemCaseSensitive(s->resolved, "method");
  for (size_t g = 0; g < s->ngroups; ++g) {
    const vbc_method_group *grp = &s->groups[g];
    cJSON *params = cJSON_GetObjectItemCaseSensitive(method, grp->key);
    const char *key = grp->solver ? grp->solver->relaxation_key : NULL;
    if (key == NULL || params == NULL) continue;
    char limit_key[64];
    snprintf(limit_key, sizeof limit_key, "%s_limit", key);
    const int limit = vbc_param_choice(params, grp->solver->params, limit_key);
    const double omega = vbc_param_number(params, grp->solver->params, key);
    if (limit == 2) continue;
    const double bound = vbc_relaxation_bound(s, grp->constraint, params);
    if (bound <= 0.0 || omega < bound) continue;
    if (limit == 1) {
      cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(params, key), 0.9 * bound);
      fprintf(stderr, "vbc: %s: method.%s.%s %g clamped to %.4g, 0.9 times %s's convergence "
              "bound %.4g for %s rows on this lattice (core/jacobi_bound.h)\n",
              s->file, grp->key, key, omega, 0.9 * bound, grp->solver->name, bound,
              grp->constraint->name);
    } else {
      fprintf(stderr, "vbc: warning: %s: method.%s.%s %g is not below %.4g, %s's convergence "
              "bound for %s rows on this lattice (core/jacobi_bound.h): the solve may diverge; "
              "lower %s or set method.%s.%s to \"%s\"\n",
              s->file, grp->key, key, omega, bound, grp->solver->name, grp->constraint->name,
              key, grp->key, limit_key, limits[1]);
    }
  }
}
