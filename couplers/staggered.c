/* staggered.c — Algorithm 1 of He, Liu, Wang, Zhang, Li, Shao & Wang, "Staggered meshless
 * solid-fluid coupling", ACM Trans. Graph. 31(6) 149, 2012 (§3, §6), as a stage table
 * (core/coupler.h):
 *
 *   1. explicit forces and prediction: u* = u + h (g + viscosity), bodies v* (the engine's
 *      explicit terms; Alg. 1 lines 2-3);
 *   2. `prepass` — the density constraint p^d (Alg. 2, line 4): He et al. take p^d from the
 *      equation of state of their LPSPH paper (He et al., Comput. Graph. Forum 2012), three
 *      iterations of density estimate, p^d >= 0, the force of eq. 23 and a velocity and position
 *      update. That paper is not among vbc's sources, so vbc substitutes the closest documented
 *      form: the IISPH density rows (block sph_density, p^d >= 0, eq. 22's density with the
 *      solids counted) solved by method.prepass.solver, by default three relaxed Jacobi
 *      iterations (omega 0.5; min_iterations = max_iterations = 3). After it the fluid particles
 *      move by h du^d, the velocity change the pre-pass gave them (Alg. 2 line 5: "update fluid
 *      velocities and positions"), du^d stays in the velocity and the neighbour lists are rebuilt
 *      at the moved positions;
 *   3. `pressure` — the velocity constraint p^v (Alg. 3, line 6): the scene's fluid block (default
 *      staggered, solvers/blocks/staggered/staggered.c) by method.fluid.solver, default cg preconditioned by
 *      SSOR with omega 1.7 (He et al. Table 1 and §7.1). Its finish remaps p^v to the particle
 *      velocities (line 7); afterwards the pressure written back is p = p^d + p^v (and the
 *      smoothed pressures likewise);
 *   4. `body_contact` — rigid bodies: every contact and pin as one LCP by method.contact.solver
 *      (Lemke by default), as the lemke_contacts coupler does; skipped without rows.
 *   5. advection r += h u^{t+1} (the engine).
 *
 * Where the fluid ends a step, method.prepass_move: He's Alg. 1 predicts the
 * positions at line 3 with u*, the pre-pass corrects them (Alg. 2 line 5) and line 7 updates only
 * the velocities, so a step moves the fluid by h (u* + du^d) and the p^v change du^v moves it in the
 * next step. `alg1` (the default) does that: after the p^v solve it takes back the pre-pass's move
 * and h du^v, and the advection's h u^{t+1} completes h (u* + du^d). `kept`, the form first
 * shipped, keeps the pre-pass's move, so the advection adds h du^d a second time and du^v too;
 * `once` takes back only the pre-pass's move (the step moves by h u^{t+1}: the pre-pass's density
 * correction is projected away and the water loses volume). docs/notes/staggered-journal.md has the
 * measurements.
 *
 * Two-way coupling: after the pre-pass every free or pinned body takes the reaction to the p^d
 * impulses on its particles (the sph_density block's boundary impulses, as couplers/akinci.c
 * does; Alg. 1 line 5: "update solid velocities by F^density"), and after the p^v solve the
 * reaction to what its staggered particles gave the fluid (eq. 21 with eq. 28's force, the mass
 * being the fluid particle's share that the remap used: solvers/blocks/staggered/staggered.c). Bodies move
 * weakly: their new velocity reaches the fluid rows in the next step, as in He's Alg. 1. A fluid
 * block without boundary impulses (mps, mps_poisson) leaves the bodies to the contact stage.
 *
 * p^d across steps, which Alg. 2 leaves open: restarted from zero (the pre-pass block's default),
 * or, under method.prepass.warm_start, begun from the pressure the last step wrote (pd_kept
 * total: p^d + p^v, so p^v's share is carried into p^d) or from the last p^d alone (pd_kept pd);
 * before the first step p^d is zero or, pd_initial hydrostatic, rho0 |g| depth (an initial
 * condition for a pool at rest). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"
#include "couplers/staggered_pd_load.h"
#include "solvers/blocks/staggered/staggered.h"

enum { DENSITY, FLUID, CONTACT, PIN };
enum { STAGE_PREPASS, STAGE_PRESSURE, STAGE_BODIES };

enum { MOVE_KEPT, MOVE_ONCE, MOVE_ALG1 };
static const char *const move_choices[] = {"kept", "once", "alg1", NULL};
enum { PD_LOAD_IMPULSES, PD_LOAD_EQ23 };
static const char *const pd_load_choices[] = {"impulses", "eq23", NULL};
static const char *const pd_solid_choices[] = {"mirrored", "zero", NULL};
static const char *const pd_force_choices[] = {"full", "muller", NULL};
enum { PD_START_ZERO, PD_START_HYDROSTATIC };
enum { PD_KEEP_TOTAL, PD_KEEP_PD };
static const char *const pd_keep_choices[] = {"total", "pd", NULL};
static const char *const pd_start_choices[] = {"zero", "hydrostatic", NULL};
static const vbc_param_spec stag_params[] = {
    {"prepass_move", VBC_PARAM_CHOICE, MOVE_ALG1, 0, 0, 0,
     "where a step leaves the fluid: alg1 (He's Alg. 1: moved by h (u* + du^d), the p^v change "
     "du^v moves it in the next step; the default), kept (as first shipped: by h du^d + h u^{t+1}, "
     "du^d counted twice) or once (by h u^{t+1})",
     move_choices},
    {"pd_body_load", VBC_PARAM_CHOICE, PD_LOAD_IMPULSES, 0, 0, 0,
     "the bodies' load from p^d (Alg. 1 line 5): impulses (the default: the reaction to the "
     "pre-pass block's impulses on their particles) or eq23 (He's eq. 23 from the fluid's p^d, "
     "couplers/staggered_pd_load.c; pd_solid_pressure and pd_force choose its open points)",
     pd_load_choices},
    {"pd_solid_pressure", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "pd_body_load eq23: p^d on a solid particle, mirrored (the Shepard average of its fluid "
     "neighbours') or zero",
     pd_solid_choices},
    {"pd_force", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "pd_body_load eq23: full (c = 1: Monaghan's symmetric gradient, the pre-pass's scale) or "
     "muller (eq. 23 as printed, (p_i + p_j)/2: half a pressure gradient)",
     pd_force_choices},
    {"pd_initial", VBC_PARAM_CHOICE, PD_START_ZERO, 0, 0, 0,
     "p^d before the first step, which a warm-started pre-pass (method.prepass.warm_start) "
     "begins from: zero (the default) or hydrostatic (rho0 |g| times the depth below the "
     "highest fluid particle plus l/2, g the fluid's mean explicit acceleration of the first "
     "step: a pool at rest with a level surface)",
     pd_start_choices},
    {"pd_kept", VBC_PARAM_CHOICE, PD_KEEP_TOTAL, 0, 0, 0,
     "what a warm-started pre-pass (method.prepass.warm_start) begins from: total (the default, "
     "the pressure the previous step wrote, p^d + p^v: p^v's share is carried into p^d) or pd "
     "(the previous step's p^d alone)",
     pd_keep_choices},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL}};

typedef struct staggered_state {
  int move;             /* method.prepass_move: MOVE_KEPT, MOVE_ONCE or MOVE_ALG1 */
  int pd_load;          /* method.pd_body_load: PD_LOAD_IMPULSES or PD_LOAD_EQ23 */
  int pd_mirrored, pd_muller; /* eq. 23's open points (pd_solid_pressure, pd_force) */
  int pd_start;         /* method.pd_initial: PD_START_ZERO or PD_START_HYDROSTATIC */
  int have_pd;          /* pd holds the previous step's p^d */
  int pd_keep;          /* method.pd_kept: PD_KEEP_TOTAL or PD_KEEP_PD */
  size_t cap;
  vbc_vec *u;           /* velocities before the pre-pass; under alg1, after it those before
                           the p^v solve */
  vbc_vec *shift;       /* per particle: h du^d, the pre-pass's move (0 for non-fluid) */
  vbc_vec *impulse;     /* per particle: the reaction a rigid particle takes (two-way coupling) */
  double *pd, *pd_smooth; /* p^d and its smoothed value, per particle */
  double initial_error;   /* staggered p^v block: E before the solve, h mean |div| (eq. 10) */
} staggered_state;

/* Eq. 28 (body_load momentum) hands a body only the momentum its staggered particles gave the
 * fluid, no static load: the weight of a floating body must come through p^d (Alg. 1 line 5).
 * When p^v is solved to a residual it iterates every step and moves the water out of the body's
 * way, the pre-pass sees no compression under it and gives it 5-17 % of its weight: the box of
 * half the water's density sinks (buoyancy scene, l = 0.02: on the floor from 0.6 s; l = 0.04:
 * submerged 0.98 at 1.5 s; docs/notes/staggered-journal.md). Stopped by He's E (eq. 29) it
 * floats (0.492, 0.288, 0.689 for density ratios 0.5, 0.3, 0.7 at l = 0.02). So eq. 28's load
 * with a p^v solve without an error test gives free bodies no static load
 * (vbc_coupler_type.static_load_missing): the set-up refuses it with this reason. p^v converged
 * under He's load path is a configuration studied in its own right (the wedge and the cylinder
 * with p^v iterating, docs/notes/staggered-journal.md): method.uncoupled_bodies opts in, and the
 * run is flagged no_static_load. */
static const char *stag_static_load_missing(const vbc_coupling *c) {
  const vbc_block *fluid = &c->block[FLUID];
  if (fluid->type != &vbc_block_staggered ||
      ((const vbc_staggered_state *)fluid->state)->body_load != VBC_LOAD_MOMENTUM ||
      c->solver[STAGE_PRESSURE].control.error_tolerance > 0.0)
    return NULL;
  return "block staggered's body_load momentum (eq. 28) gives it no static load, and a p^v "
         "solve stopped by its residual alone (method.fluid.error_tolerance 0) moves the water "
         "out of its way, so p^d carries 5-17 % of its weight and a body lighter than the water "
         "sinks. To float it, stop p^v by He's E (method.fluid.error_measure density, "
         "error_tolerance 0.01: --method staggered) or set method.fluid.body_load to implicit";
}

static void *stag_alloc(vbc_coupling *c, vbc_error *err) {
  /* alg1 and kept do not move the fluid by h u^{t+1}: rows that predict the density after that
   * move (IISPH's) are not met where the water goes, and the still tank (l = 0.02, 0.1 s) moves
   * at 0.11-0.12 m/s under sph_density, 0.03 m/s with prepass_move once
   * (docs/notes/mix-matrix.md). */
  const vbc_block *fluid = &c->block[FLUID];
  const int move = vbc_param_choice(c->params, stag_params, "prepass_move");
  if (move != MOVE_ONCE && fluid->type->traits &&
      (fluid->type->traits(fluid->state) & VBC_ROWS_ADVECTED_DENSITY)) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: method.fluid.constraint: block %s asks the density "
                  "after the advection by h u^{t+1} to be rho0, but coupler staggered with "
                  "method.prepass_move %s moves the fluid by %s, so its rows do not hold the "
                  "water (a still tank keeps moving). Set method.prepass_move to \"once\" (the "
                  "fluid then moves by h u^{t+1}), or use constraint staggered (He et al.'s p^v) "
                  "or mps under prepass_move %s",
                  c->file, fluid->type->name, move_choices[move],
                  move == MOVE_KEPT ? "h du^d + h u^{t+1}" : "h (u* + du^d) and du^v only after",
                  move_choices[move]);
    return NULL;
  }
  staggered_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->move = move;
  s->pd_load = vbc_param_choice(c->params, stag_params, "pd_body_load");
  s->pd_mirrored = vbc_param_choice(c->params, stag_params, "pd_solid_pressure") == 0;
  s->pd_muller = vbc_param_choice(c->params, stag_params, "pd_force") == 1;
  s->pd_start = vbc_param_choice(c->params, stag_params, "pd_initial");
  s->pd_keep = vbc_param_choice(c->params, stag_params, "pd_kept");
  return s;
}

static void stag_free(void *state) {
  staggered_state *s = state;
  free(s->u), free(s->shift), free(s->pd), free(s->pd_smooth), free(s->impulse);
  free(s);
}

static int grow_arrays(staggered_state *s, size_t n, vbc_error *err) {
  return vbc_grow(&s->cap, n, (void *[]){&s->u, &s->shift, &s->pd, &s->pd_smooth, &s->impulse},
                  (size_t[]){sizeof *s->u, sizeof *s->shift, sizeof *s->pd, sizeof *s->pd_smooth,
                             sizeof *s->impulse},
                  5, err);
}

/* pd_initial hydrostatic: before the first step's explicit terms, keep u^0, from which the first
 * step's explicit acceleration (gravity, for a fluid at rest) is measured. */
static int keep_initial_velocities(vbc_coupling *c, vbc_error *err) {
  staggered_state *s = c->state;
  const vbc_particles *p = c->sys->particles;
  if (s->have_pd || s->pd_start != PD_START_HYDROSTATIC) return VBC_OK;
  if (grow_arrays(s, p->n, err) != VBC_OK) return err->code;
  memcpy(s->u, p->vel, p->n * sizeof *s->u);
  return VBC_OK;
}

/* The hydrostatic p^d of a pool at rest: g the fluid's mean explicit acceleration over the first
 * step, the level l/2 above the highest fluid particle along -g, p^d = rho0 |g| depth below it
 * (every particle, walls and bodies included, 0 above the level). The substitute pre-pass holds
 * the fluid with the full symmetric gradient, so rho0 g depth is the p^d it converges to. */
static void hydrostatic_pd(const vbc_system *sys, staggered_state *s) {
  const vbc_particles *p = sys->particles;
  vbc_vec acc = vbc_vec_zero();
  size_t nf = 0;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID) acc = vbc_vec_add(acc, vbc_vec_sub(p->vel[i], s->u[i])), ++nf;
  const double g = nf ? sqrt(vbc_vec_norm2(acc)) / ((double)nf * sys->dt) : 0.0;
  const vbc_vec up = g > 0.0 ? vbc_vec_scale(acc, -1.0 / sqrt(vbc_vec_norm2(acc))) : acc;
  double level = -INFINITY;
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID) level = fmax(level, vbc_vec_dot(p->pos[i], up));
  level += 0.5 * sys->spacing;
  for (size_t i = 0; i < p->n; ++i)
    s->pd[i] = g > 0.0 ? sys->density * g * fmax(0.0, level - vbc_vec_dot(p->pos[i], up)) : 0.0;
}

/* Keep u* to measure what the pre-pass changes. A warm-started pre-pass (method.prepass.
 * warm_start) begins from the pressure on the particles, which after a step is p^d + p^v: it
 * gets p^d alone back, the previous step's (or pd_initial's), so that it is p^d that persists
 * across steps and p^v is not integrated into it. */
static int keep_velocities(vbc_coupling *c, size_t stage, vbc_error *err) {
  (void)stage;
  staggered_state *s = c->state;
  vbc_particles *p = c->sys->particles;
  if (grow_arrays(s, p->n, err) != VBC_OK) return err->code;
  if (!s->have_pd && s->pd_start == PD_START_HYDROSTATIC) {
    hydrostatic_pd(c->sys, s);
    memcpy(p->pressure, s->pd, p->n * sizeof *p->pressure);
    s->have_pd = 1;
  } else if (s->have_pd && s->pd_keep == PD_KEEP_PD) {
    memcpy(p->pressure, s->pd, p->n * sizeof *p->pressure);
  }
  memcpy(s->u, p->vel, p->n * sizeof *s->u);
  return VBC_OK;
}

/* The bodies take the reaction impulses block `slot` reports for their particles (eq. 21: force
 * and torque about the centre), and every body records them as drag and lift (core/coupler.h). */
static void push_bodies(vbc_coupling *c, int slot) {
  staggered_state *s = c->state;
  vbc_coupling_push_boundary_impulses(c->sys, &c->block[slot], s->impulse);
}

/* The force the bodies took from the block in `slot` this step, summed over the bodies, along x
 * and y: stage figures (body_force_x, body_force_y), so that the loads of p^d (eq. 23, Alg. 1
 * line 5) and p^v (eq. 28) on a body can be told apart (docs/notes/staggered-journal.md, "The
 * body's weight"; the drag's split between the stages, "The drag's 1/h"). */
static int body_force_figure(vbc_coupling *c, size_t stage, int slot, vbc_error *err) {
  const vbc_system *sys = c->sys;
  const vbc_block *blk = &c->block[slot];
  if (sys->nbodies == 0 || blk->type == NULL || blk->type->boundary_impulses == NULL)
    return VBC_OK;
  const staggered_state *s = c->state;
  vbc_vec f = vbc_vec_zero();
  for (size_t k = 0; k < sys->nbodies; ++k) {
    const vbc_body *b = &sys->bodies[k];
    for (size_t i = b->first; i < b->first + b->count; ++i) f = vbc_vec_add(f, s->impulse[i]);
  }
  vbc_solve_stats *figures = &c->report->stage[stage].figures;
  if (vbc_solve_stats_add(figures, "body_force_x", f.x / sys->dt, VBC_FIGURE_MEAN_MAX, err) !=
      VBC_OK)
    return err->code;
  return vbc_solve_stats_add(figures, "body_force_y", f.y / sys->dt, VBC_FIGURE_MEAN_MAX, err);
}

/* Alg. 2 line 5: the fluid moves by h du^d; p^d is kept for the sum p^d + p^v; the neighbour
 * lists follow the moved particles. Alg. 1 line 5: the bodies take the reaction to p^d. */
static int move_positions(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  if (!ok) return VBC_OK;
  staggered_state *s = c->state;
  vbc_particles *p = c->sys->particles;
  if (s->pd_load == PD_LOAD_EQ23 && c->sys->nbodies > 0) {
    vbc_staggered_pd_impulses(c->sys, p->pressure, s->pd_mirrored, s->pd_muller, s->impulse);
    vbc_staggered_pd_push(c->sys, s->impulse);
  } else {
    push_bodies(c, DENSITY);
  }
  if (body_force_figure(c, stage, DENSITY, err) != VBC_OK) return err->code;
  s->have_pd = 1;
  const double h = c->sys->dt;
  for (size_t i = 0; i < p->n; ++i) {
    s->pd[i] = p->pressure[i], s->pd_smooth[i] = p->pressure_smoothed[i];
    s->shift[i] = vbc_vec_zero();
    if (p->kind[i] == VBC_FLUID) {
      s->shift[i] = vbc_vec_scale(vbc_vec_sub(p->vel[i], s->u[i]), h);
      p->pos[i] = vbc_vec_add(p->pos[i], s->shift[i]);
    }
    if (s->move == MOVE_ALG1) s->u[i] = p->vel[i]; /* the velocities before the p^v solve */
  }
  return c->ops.neighbours(c->ops.ctx, err);
}

/* A staggered p^v block: E before the solve (zero impulses), in eq. 10's unit. */
static int record_initial_error(vbc_coupling *c, size_t stage, vbc_error *err) {
  (void)stage, (void)err;
  staggered_state *s = c->state;
  if (c->block[FLUID].type == &vbc_block_staggered)
    s->initial_error = vbc_staggered_initial_error(&c->block[FLUID].rows, c->sys->dt);
  return VBC_OK;
}

/* A staggered p^v block reports eq. 29's E before and after the solve in both units
 * (solvers/blocks/staggered/staggered_error.c): divergence (h mean |eq. 10 residual|) and density (that
 * over the lattice factor c, He's E), and whether the solve iterated at all. */
static int error_figures(vbc_coupling *c, size_t stage, vbc_error *err) {
  if (c->block[FLUID].type != &vbc_block_staggered) return VBC_OK;
  const staggered_state *s = c->state;
  vbc_stage_report *r = &c->report->stage[stage];
  int density = 0;
  const double factor = vbc_staggered_block_factor(&c->block[FLUID], &density);
  const double final = r->result.mean_error * (density ? factor : 1.0); /* eq. 10's unit */
  const struct {
    const char *name;
    double value;
  } fig[] = {{"initial_error_divergence", s->initial_error},
             {"final_error_divergence", final},
             {"initial_error_density", s->initial_error / factor},
             {"final_error_density", final / factor},
             {"iterated", r->result.iterations > 0 ? 1.0 : 0.0}};
  for (size_t k = 0; k < sizeof fig / sizeof fig[0]; ++k)
    if (isfinite(fig[k].value) &&
        vbc_solve_stats_add(&r->figures, fig[k].name, fig[k].value, VBC_FIGURE_MEAN_MAX, err) !=
            VBC_OK)
      return err->code;
  return VBC_OK;
}

/* The bodies take the reaction to p^v; the pressure written back is p^d + p^v (frames
 * and benchmarks see the whole). With prepass_move once the pre-pass's move is taken back: the
 * advection moves the particles by h times the whole velocity, du^d included. With alg1 the p^v
 * change h du^v is taken back too: the step moves the fluid by h (u* + du^d), the velocity the
 * pre-pass left (Alg. 1 lines 3-5), and du^v moves it in the next step. */
static int after_pv_solve(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  if (!ok) return VBC_OK;
  push_bodies(c, FLUID); /* eq. 21, 28 */
  if (body_force_figure(c, stage, FLUID, err) != VBC_OK || error_figures(c, stage, err) != VBC_OK)
    return err->code;
  const staggered_state *s = c->state;
  vbc_particles *p = c->sys->particles;
  const double h = c->sys->dt;
  for (size_t i = 0; i < p->n; ++i) {
    p->pressure[i] += s->pd[i], p->pressure_smoothed[i] += s->pd_smooth[i];
    if (s->move == MOVE_ONCE) p->pos[i] = vbc_vec_sub(p->pos[i], s->shift[i]);
    if (s->move == MOVE_ALG1 && p->kind[i] == VBC_FLUID) {
      const vbc_vec du_v = vbc_vec_sub(p->vel[i], s->u[i]);
      p->pos[i] = vbc_vec_sub(p->pos[i], vbc_vec_add(s->shift[i], vbc_vec_scale(du_v, h)));
    }
  }
  return VBC_OK;
}

static const vbc_group_spec groups[] = {
    {.key = "fluid",
     .doc = "the velocity constraint p^v (a block of kind fluid, default staggered) and the "
            "solver of its solve, with their parameters",
     .constraint_kind = VBC_BLOCK_FLUID,
     .constraint_default = "staggered",
     .solver_default = "cg",
     .solver_defaults = "{\"preconditioner\": \"ssor\", \"omega\": 1.7}"},
    {.key = "prepass",
     .doc = "the density pre-pass p^d (He et al. Alg. 2, substituted by the sph_density rows): "
            "its block's and its solver's parameters",
     .solver_default = "jacobi",
     .solver_defaults = "{\"min_iterations\": 3, \"max_iterations\": 3}"},
    {.key = "contact",
     .doc = "the contact and pin blocks' parameters and the solver of their one LCP",
     .solver_default = "lemke"},
};

static const vbc_slot_spec slots[] = {
    [DENSITY] = {.label = "density", .group = "prepass", .type = &vbc_block_sph_density},
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [CONTACT] = {.label = "contact", .group = "contact", .type = &vbc_block_contact},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};

static const vbc_stage_spec stages[] = {
    [STAGE_PREPASS] = {.label = "prepass", VBC_STAGE_SLOTS(DENSITY),
                       .solver_group = "prepass", .before = keep_velocities,
                       .after = move_positions},
    [STAGE_PRESSURE] = {.label = "pressure", VBC_STAGE_SLOTS(FLUID),
                        .solver_group = "fluid", .start = record_initial_error,
                        .after = after_pv_solve},
    [STAGE_BODIES] = {.label = "body_contact", VBC_STAGE_SLOTS(CONTACT, PIN),
                      .solver_group = "contact", .skip_without_rows = 1},
};

const vbc_coupler_type vbc_coupler_staggered = {
    .name = "staggered",
    .summary = "He et al. 2012 Alg. 1: density pre-pass p^d (sph_density rows, 3 Jacobi "
               "iterations, positions moved), velocity constraint p^v (staggered block, cg with "
               "SSOR 1.7), then contacts and pins as one LCP (Lemke)",
    .params = stag_params,
    .groups = groups,
    .ngroups = VBC_COUNTOF(groups),
    .slots = slots,
    .nslots = VBC_COUNTOF(slots),
    .stages = stages,
    .nstages = VBC_COUNTOF(stages),
    .primary = STAGE_PRESSURE,
    .alloc = stag_alloc,
    .free = stag_free,
    .begin_step = keep_initial_velocities,
    .records_fluid_impulse = 1,
    /* p^d reaches the bodies through the pre-pass; p^v only through the fluid block: its eq. 28
     * reaction (staggered), its boundary impulses (sph_density, dfsph) or its rigid rows (mps
     * with rigid_pressure). mps_poisson gives none: a box of half the water's density then
     * floats at 0.369 submerged instead of 0.5 (l = 0.04, 1.5 s). */
    .body_traits = VBC_ROWS_PUSH_BODIES | VBC_ROWS_PRESSURE_LOAD | VBC_ROWS_BODY_REACTION,
    .static_load_missing = stag_static_load_missing,
};
