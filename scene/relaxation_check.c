/* relaxation_check.c — a relaxed scheme's omega against its convergence bound: on the ideal
 * fluid lattice, and on the rows the scene assembles at t = 0.
 *
 * IISPH's omega = 0.5 (Ihmsen et al. 2014) is safe at the usual support H = 2 l but not beyond:
 * the bound 2 / lambda_max(D^-1 A) of core/jacobi_bound.h falls as the support widens (2D cubic
 * spline: 0.93 at 2 l, 0.53 at 3 l, 0.31 at 3.9 l; 3D: 0.71, 0.27, 0.12), and with omega above it
 * the interior's highest lattice mode grows every iteration: IISPH at H = 3.9 l blew up within
 * 4-9 steps (docs/iisph.md, "Wider supports"). The interior is not the whole story: an MPS wall
 * row (Miyamoto eq. 15 with wall_pressure) holds only its fluid neighbours in its diagonal, so
 * D^-1 A is larger at the walls than anywhere on the lattice, and the still tank under the strong
 * or pms coupler with relaxed Jacobi diverged at step 2 with omega 0.5 above a rows' bound of
 * about 0.45 while the lattice bound (0.535) was met. So the check also measures lambda_max on
 * the rows themselves: a throw-away copy of the simulation is set up and stepped, and at the
 * start of each relaxed solve of its first PROBE_STEPS steps the power iteration of
 * core/jacobi_bound.h (vbc_problem_lambda_max) runs on the rows that solve moves (every block of
 * the stage); the copy is abandoned at the start of the last one's solve. Two steps, because a
 * tank at rest has its first fluid-wall contact rows at step 2, and under the strong and pms
 * couplers they raise lambda_max from 3.50 to 4.46 (the still tank at l = 0.02: bound 0.449,
 * omega 0.5 diverged at step 2, 0.4 converged; under lemke_contacts, whose fluid stage has no
 * contact rows, the bound is 0.519 and omega 0.5 converges).
 *
 * The check asks the modules, never names them: a solver that relaxes declares its factor's key
 * (vbc_solver_type.relaxation_key, "omega" for jacobi), a block that knows its lattice operator
 * reports lambda_max (vbc_block_type.lattice_lambda_max: sph_density, mps). Per the solver's key
 * KEY_limit: "warn" (default) refuses an omega at or above the rows' bound (exit 2, before step
 * 1: the iteration diverges on the rows it moves) and warns on stderr about one at or above the
 * lattice bound only; "clamp" sets omega to 0.9 times the lower of the two bounds, written back
 * into the resolved scene so that summary.json shows the value used; "off" checks nothing.
 * Choices left open: POWER_STEPS power steps (the Rayleigh quotient is within 1 % of lambda_max
 * by then on the tanks measured: it rises monotonically and had settled to 3 digits), and the
 * rows of the first steps, not of later states (a body that moves changes them; clamp's 0.9
 * leaves room).
 *
 * A solve of a fixed few sweeps (min_iterations = max_iterations = n, the staggered coupler's
 * three-sweep density pre-pass) is refused by the same bound, although from a zero start its
 * top mode's error grows only by g^n, g = omega lambda_max - 1 per sweep: its result is no
 * scratch value but moves the fluid (He et al. 2012 Alg. 2 line 5), and the next step's rows
 * start from the state it left, so g^n > 1 compounds over steps as more sweeps would within one
 * solve. Measured on the still tank (staggered coupler, l = 0.02, 0.3 s) with a support widened
 * until the wall rows' bound falls below 0.5: g^3 = 1.14 ran but doubled the residual speed
 * (0.064 against 0.032 m/s clamped), g^3 = 2.0 and 5.9 ended with exit 3 at steps 128 and 13.
 * The refusal prints g and n so that the case is visible. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jacobi_bound.h"
#include "core/number_density.h"
#include "core/operator.h"
#include "scene/relaxation_check.h"
#include "sim/sim.h"

#define POWER_STEPS 60
#define PROBE_STEPS 2

double vbc_relaxation_bound(const vbc_scene *s, const vbc_block_type *block, const cJSON *params) {
  if (block == NULL || block->lattice_lambda_max == NULL) return 0.0;
  /* The lattice's kernels as the simulation builds them (sim/sim.c); no particles. */
  vbc_system sys = {.dim = s->dim, .spacing = s->spacing, .dt = s->dt};
  sys.re = s->re_over_l * s->spacing;
  sys.sph = vbc_sph_kernel_make(s->sph_kernel, s->sph_support_over_l * s->spacing, s->dim);
  const double lambda = block->lattice_lambda_max(params, &sys);
  return lambda > 0.0 ? 2.0 / lambda : 0.0;
}

/* The throw-away simulation's solve hook: lambda_max of each relaxed stage's rows. */
typedef struct rows_probe {
  const vbc_coupling *c;
  const int *watched; /* per stage: 1 when its solver relaxes and its group is checked */
  double lambda[VBC_MAX_STAGES];
  size_t rows[VBC_MAX_STAGES];
  size_t pending; /* watched stages not measured yet */
  int done;       /* every watched stage measured: the step was abandoned on purpose */
  int failed;     /* a throw-away step failed otherwise (a solve diverged) */
  long step;
} rows_probe;

static int probe_solve(void *ctx, vbc_problem *pb, const vbc_solver *solver, vbc_error *err) {
  (void)solver;
  rows_probe *p = ctx;
  for (size_t s = 0; s < p->c->type->nstages; ++s) {
    if (pb != &p->c->problem[s] || !p->watched[s]) continue;
    p->rows[s] = vbc_problem_rows(pb);
    double lam = vbc_problem_lambda_max(pb, POWER_STEPS, err);
    if (isnan(lam)) return err->code;
    if (lam > p->lambda[s]) p->lambda[s] = lam;
    if (p->step < PROBE_STEPS) continue;
    if (--p->pending == 0) {
      p->done = 1; /* nothing more to learn from this step */
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "relaxation check: measured");
    }
  }
  return VBC_OK;
}

/* The rows' lambda_max of every stage whose solver relaxes and whose group is checked (watched),
 * the largest over the first PROBE_STEPS steps of a throw-away copy of the simulation. A scene the simulation refuses, or a first
 * step that fails before a watched solve, measures nothing (the run reports it itself). */
static void measure_rows(const vbc_scene *s, const int *group_checked, rows_probe *p) {
  vbc_sim *sim = calloc(1, sizeof *sim);
  vbc_step_report *rep = calloc(1, sizeof *rep);
  vbc_error err = {0};
  int watched[VBC_MAX_STAGES] = {0};
  if (sim && rep && vbc_sim_init(sim, s, &err) == VBC_OK) {
    const vbc_coupling *c = &sim->coupling;
    *p = (rows_probe){.c = c, .watched = watched};
    for (size_t st = 0; st < c->type->nstages; ++st) {
      const char *group = c->type->stages[st].solver_group;
      for (size_t g = 0; g < s->ngroups; ++g)
        watched[st] |= group_checked[g] && strcmp(s->groups[g].key, group) == 0 &&
                       c->solver[st].type->relaxation_key != NULL;
      p->pending += (size_t)watched[st];
    }
    sim->sys.solve_hook = probe_solve;
    sim->sys.solve_hook_ctx = p;
    if (p->pending && vbc_sim_neighbours(sim, &err) == VBC_OK) {
      vbc_number_density(&sim->sys);
      for (p->step = 1; p->step <= PROBE_STEPS && !p->done; ++p->step) {
        sim->step = p->step;
        if (vbc_sim_step(sim, rep, &err) != VBC_OK) {
          p->failed = !p->done;
          break;
        }
      }
    }
    p->c = NULL;
  }
  if (sim) vbc_sim_free(sim);
  free(sim);
  free(rep);
}

/* 2 / lambda_max of the rows of group key's relaxed stages (the lowest over them), 0 if none
 * was measured. */
static double rows_bound(const vbc_scene *s, const rows_probe *p, const char *key, size_t *rows,
                         const char **stage, const char **coupler) {
  double bound = 0.0;
  const vbc_coupler_type *t = s->coupler;
  for (size_t st = 0; t && st < t->nstages; ++st) {
    if (p->rows[st] == 0 || !(p->lambda[st] > 0.0) ||
        strcmp(t->stages[st].solver_group, key) != 0)
      continue;
    const double b = 2.0 / p->lambda[st];
    if (bound == 0.0 || b < bound) bound = b, *rows = p->rows[st], *stage = t->stages[st].label;
  }
  *coupler = t ? t->name : "";
  return bound;
}

/* measure_rows, again when a throw-away step failed before every watched solve was measured: a
 * factor above the rows' bound of step 1 diverges in step 1, and the rows of step 2 (the first
 * fluid-wall contacts) then went unmeasured; clamp took 0.9 times the bound of step 1 and the
 * run diverged at step 2 (pms/mps on the floating box, l = 0.04: omega 0.99 clamped to 0.617,
 * step 2's rows' bound 0.529). So after such a probe every checked group's factor at or above
 * the bound found so far is set to 0.9 times that bound and the probe runs again (the rows of
 * step 1 do not depend on the factor); every probe's lambda_max counts, and the factors asked
 * are restored afterwards. A probe that completes (any factor whose steps do not fail, as a
 * fixed few sweeps) is the only one, as before. */
static void measure_rows_converging(vbc_scene *s, const int *checked, rows_probe *p) {
  cJSON *method = cJSON_GetObjectItemCaseSensitive(s->resolved, "method");
  double asked[VBC_MAX_GROUPS] = {0};
  for (size_t g = 0; g < s->ngroups && g < VBC_MAX_GROUPS; ++g) {
    const vbc_solver_type *sv = s->groups[g].solver;
    if (checked[g])
      asked[g] = vbc_param_number(cJSON_GetObjectItemCaseSensitive(method, s->groups[g].key),
                                  sv->params, sv->relaxation_key);
  }
  /* the throw-away steps run at the factor asked: without omega_limit off a solve that diverges
   * on them would lower it itself (solvers/schemes/jacobi.c) and the probe would measure the
   * rows of a step that went otherwise */
  cJSON *kept_limit[VBC_MAX_GROUPS] = {0};
  for (size_t g = 0; g < s->ngroups && g < VBC_MAX_GROUPS; ++g) {
    cJSON *params = cJSON_GetObjectItemCaseSensitive(method, s->groups[g].key);
    char limit_key[64];
    if (!checked[g] || params == NULL) continue;
    snprintf(limit_key, sizeof limit_key, "%s_limit", s->groups[g].solver->relaxation_key);
    const cJSON *limit = cJSON_GetObjectItemCaseSensitive(params, limit_key);
    kept_limit[g] = limit ? cJSON_Duplicate(limit, 1) : NULL; /* in place, so the order stays */
    if (limit) cJSON_ReplaceItemInObjectCaseSensitive(params, limit_key, cJSON_CreateString("off"));
    else cJSON_AddStringToObject(params, limit_key, "off");
  }
  rows_probe all = {0};
  for (int round = 0; round < 4; ++round) {
    rows_probe one = {0};
    measure_rows(s, checked, &one);
    for (size_t st = 0; st < VBC_MAX_STAGES; ++st)
      if (one.rows[st] && one.lambda[st] > all.lambda[st])
        all.lambda[st] = one.lambda[st], all.rows[st] = one.rows[st];
    int lowered = 0;
    for (size_t g = 0; one.failed && g < s->ngroups && g < VBC_MAX_GROUPS; ++g) {
      if (!checked[g]) continue;
      const vbc_solver_type *sv = s->groups[g].solver;
      cJSON *params = cJSON_GetObjectItemCaseSensitive(method, s->groups[g].key);
      cJSON *factor = cJSON_GetObjectItemCaseSensitive(params, sv->relaxation_key);
      size_t nrows = 0;
      const char *stage = "", *coupler = "";
      const double bound = rows_bound(s, &all, s->groups[g].key, &nrows, &stage, &coupler);
      const double now = vbc_param_number(params, sv->params, sv->relaxation_key);
      if (cJSON_IsNumber(factor) && bound > 0.0 && now >= bound)
        cJSON_SetNumberValue(factor, 0.9 * bound), lowered = 1;
    }
    if (!lowered) break;
  }
  for (size_t g = 0; g < s->ngroups && g < VBC_MAX_GROUPS; ++g) {
    cJSON *params = cJSON_GetObjectItemCaseSensitive(method, s->groups[g].key);
    cJSON *factor =
        checked[g] ? cJSON_GetObjectItemCaseSensitive(params, s->groups[g].solver->relaxation_key)
                   : NULL;
    if (cJSON_IsNumber(factor)) cJSON_SetNumberValue(factor, asked[g]);
    char limit_key[64];
    if (!checked[g] || params == NULL) continue;
    snprintf(limit_key, sizeof limit_key, "%s_limit", s->groups[g].solver->relaxation_key);
    if (kept_limit[g]) cJSON_ReplaceItemInObjectCaseSensitive(params, limit_key, kept_limit[g]);
    else cJSON_DeleteItemFromObjectCaseSensitive(params, limit_key);
  }
  *p = all;
}

/* n when the group's solve runs exactly n iterations (min_iterations = max_iterations = n), else
 * 0. */
static int fixed_sweeps(const cJSON *params) {
  const cJSON *lo = cJSON_GetObjectItemCaseSensitive(params, "min_iterations");
  const cJSON *hi = cJSON_GetObjectItemCaseSensitive(params, "max_iterations");
  if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) || lo->valuedouble != hi->valuedouble) return 0;
  return hi->valuedouble >= 1.0 && hi->valuedouble <= 100.0 ? (int)hi->valuedouble : 0;
}

int vbc_scene_check_relaxation(vbc_scene *s, vbc_error *err) {
  static const char *const limits[] = {"warn", "clamp", "off"};
  cJSON *method = cJSON_GetObjectItemCaseSensitive(s->resolved, "method");
  int checked[VBC_MAX_GROUPS] = {0}, any = 0;
  for (size_t g = 0; g < s->ngroups && g < VBC_MAX_GROUPS; ++g) {
    const vbc_method_group *grp = &s->groups[g];
    const char *key = grp->solver ? grp->solver->relaxation_key : NULL;
    cJSON *params = cJSON_GetObjectItemCaseSensitive(method, grp->key);
    if (key == NULL || params == NULL) continue;
    char limit_key[64];
    snprintf(limit_key, sizeof limit_key, "%s_limit", key);
    any |= checked[g] = vbc_param_choice(params, grp->solver->params, limit_key) != 2;
  }
  rows_probe probe = {0};
  if (any) measure_rows_converging(s, checked, &probe);
  for (size_t g = 0; g < s->ngroups && g < VBC_MAX_GROUPS; ++g) {
    if (!checked[g]) continue;
    const vbc_method_group *grp = &s->groups[g];
    const char *key = grp->solver->relaxation_key;
    cJSON *params = cJSON_GetObjectItemCaseSensitive(method, grp->key);
    char limit_key[64];
    snprintf(limit_key, sizeof limit_key, "%s_limit", key);
    const int limit = vbc_param_choice(params, grp->solver->params, limit_key);
    const double omega = vbc_param_number(params, grp->solver->params, key);
    const double lattice = vbc_relaxation_bound(s, grp->constraint, params);
    size_t nrows = 0;
    const char *stage = "", *coupler = "";
    const double measured = rows_bound(s, &probe, grp->key, &nrows, &stage, &coupler);
    double bound = lattice;
    if (measured > 0.0 && (bound <= 0.0 || measured < bound)) bound = measured;
    if (bound <= 0.0 || omega < bound) continue;
    if (limit == 1) {
      cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(params, key), 0.9 * bound);
      s->relaxation_clamped = fmax(s->relaxation_clamped, omega / (0.9 * bound));
      fprintf(stderr, "vbc: warning: %s: method.%s.%s %g clamped to %.4g, 0.9 times %s's "
              "convergence bound %.4g (%s; core/jacobi_bound.h)\n", s->file, grp->key, key, omega,
              0.9 * bound, grp->solver->name, bound,
              bound == measured ? "measured on the rows of the first steps"
                                : "for its rows on the interior lattice");
    } else if (measured > 0.0 && omega >= measured) {
      char sweeps[256] = "";
      const int n = fixed_sweeps(params);
      if (n > 0)
        snprintf(sweeps, sizeof sweeps, " (its %d fixed sweeps grow the top mode's error %.3g "
                 "times per sweep, %.3g times a step, and each step's result is the next "
                 "one's start)", n, omega * 2.0 / measured - 1.0,
                 pow(omega * 2.0 / measured - 1.0, n));
      return vbc_error_set(err, VBC_EXIT_INPUT,
                           "%s: method.%s.%s: expected a relaxation factor below %.4g, the "
                           "convergence bound 2 / lambda_max(D^-1 A) of the %zu rows of stage %s "
                           "(coupler %s) in its first steps, walls and bodies included "
                           "(core/jacobi_bound.h), got %g: %s would diverge%s. Set method.%s.%s "
                           "to %.3g (0.9 times the bound) or method.%s.%s to \"%s\"",
                           s->file, grp->key, key, measured, nrows, stage, coupler, omega,
                           grp->solver->name, sweeps, grp->key, key, 0.9 * measured, grp->key,
                           limit_key, limits[1]);
    } else {
      fprintf(stderr, "vbc: warning: %s: method.%s.%s %g is not below %.4g, %s's convergence "
              "bound for %s rows on this lattice (core/jacobi_bound.h): the solve may diverge; "
              "lower %s or set method.%s.%s to \"%s\"\n",
              s->file, grp->key, key, omega, lattice, grp->solver->name, grp->constraint->name,
              key, grp->key, limit_key, limits[1]);
    }
  }
  return VBC_OK;
}
