/* jacobi_check.c — relaxed Jacobi's omega against its convergence bound on the fluid lattice.
 *
 * IISPH's omega = 0.5 (Ihmsen et al. 2014) is safe at the usual support H = 2 l but not beyond:
 * the bound 2 / lambda_max(D^-1 A) of core/jacobi_bound.h falls as the support widens (2D cubic
 * spline: 0.93 at 2 l, 0.53 at 3 l, 0.31 at 3.9 l; 3D: 0.71, 0.27, 0.12), and with omega above it
 * the interior's highest lattice mode grows every iteration: IISPH at H = 3.9 l blew up within
 * 4-9 steps (docs/iisph.md, "Wider supports"). For every method group solved by `jacobi` on the
 * `sph_density` or `mps` block this compares omega with the bound, per the solver's key
 * omega_limit: "warn" (default: one line on stderr, nothing changes), "clamp" (omega becomes 0.9
 * times the bound, written back into the resolved scene so that summary.json shows the value
 * used) or "off". */
#include <stdio.h>
#include <string.h>

#include "sim/jacobi_check.h"
#include "core/jacobi_bound.h"
#include "core/kernel.h"
#include "solvers/blocks/blocks.h"
#include "solvers/schemes/schemes.h"

static double sph_grad(double r, const void *ctx) { return vbc_sph_dW(ctx, r); }
static double mps_grad(double r, const void *ctx) { return vbc_mps_dw(r, *(const double *)ctx); }

/* 2 / lambda_max for the group's block on the scene's lattice, or 0 for another block. */
double vbc_jacobi_omega_bound(const vbc_scene *s, const vbc_block_type *block) {
  const double l = s->spacing;
  double lambda = 0.0;
  if (block == &vbc_block_sph_density) {
    const vbc_sph_kernel k = vbc_sph_kernel_make(s->sph_kernel, s->sph_support_over_l * l, s->dim);
    lambda = vbc_jacobi_lattice_lambda_max(s->dim, l, k.H, sph_grad, &k, 0);
  } else if (block == &vbc_block_mps) {
    const double re = s->re_over_l * l;
    lambda = vbc_jacobi_lattice_lambda_max(s->dim, l, re, mps_grad, &re, 0);
  }
  return lambda > 0.0 ? 2.0 / lambda : 0.0;
}

void vbc_scene_check_jacobi(vbc_scene *s) {
  static const char *const limits[] = {"warn", "clamp", "off"};
  cJSON *method = cJSON_GetObjectItemCaseSensitive(s->resolved, "method");
  for (size_t g = 0; g < s->ngroups; ++g) {
    const vbc_method_group *grp = &s->groups[g];
    cJSON *params = cJSON_GetObjectItemCaseSensitive(method, grp->key);
    if (grp->solver != &vbc_solver_jacobi || params == NULL) continue;
    const int limit = vbc_param_choice(params, grp->solver->params, "omega_limit");
    const double omega = vbc_param_number(params, grp->solver->params, "omega");
    if (limit == 2) continue;
    const double bound = vbc_jacobi_omega_bound(s, grp->constraint);
    if (bound <= 0.0 || omega < bound) continue;
    if (limit == 1) {
      cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(params, "omega"), 0.9 * bound);
      fprintf(stderr, "vbc: %s: method.%s.omega %g clamped to %.4g, 0.9 times relaxed Jacobi's "
              "convergence bound %.4g for %s rows on this lattice (core/jacobi_bound.h)\n",
              s->file, grp->key, omega, 0.9 * bound, bound, grp->constraint->name);
    } else {
      fprintf(stderr, "vbc: warning: %s: method.%s.omega %g is not below %.4g, relaxed Jacobi's "
              "convergence bound for %s rows on this lattice (core/jacobi_bound.h): the solve "
              "may diverge; lower omega or set method.%s.omega_limit to \"%s\"\n",
              s->file, grp->key, omega, bound, grp->constraint->name, grp->key, limits[1]);
    }
  }
}
