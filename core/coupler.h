/* coupler.h — one time step's orchestration as a table of stages (docs/architecture.md).
 *
 * A coupler type is data: the blocks it owns (slots), the scene objects their parameters come
 * from (groups: method.fluid, method.contact, ...), and the stages of a step, each one solve of
 * some of those blocks by one group's solver, with optional hooks around it (momentum between
 * bodies and fluid, statistics). The generic part below — vbc_coupling — allocates the blocks,
 * solvers and problems, runs the step skeleton and reports every solve:
 *
 *   begin_step hook (optional) -> [stages_before_explicit stages] -> explicit terms (u*, v*) ->
 *   for each stage: before -> prepare rows -> [skip when it has no rows and says so] ->
 *                   start -> solve -> finish -> after
 *   -> advect
 *
 * The neighbour search, explicit terms and advection belong to the simulation (sim/sim.c),
 * which hands them over as vbc_step_ops; a coupler sees the system, its blocks and its declared
 * parameters, never the scene. docs/architecture.md sketches a three-stage coupler (He et al.'s
 * staggered scheme) in this form. */
#ifndef VBC_COUPLER_H
#define VBC_COUPLER_H

#include "core/constraint.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  VBC_MAX_SLOTS = 8,  /* blocks one coupler owns */
  VBC_MAX_STAGES = 8, /* solves in one step */
  VBC_MAX_GROUPS = 4  /* method.<group> objects one coupler reads */
};

typedef struct vbc_coupling vbc_coupling;

/* A parameter group: the object method.<key> of the scene. It may choose a block by name (the
 * key `constraint`, among the registered blocks of one kind) and a solver (the key `solver`);
 * it always holds the parameters of the blocks of its slots and of its solver. */
typedef struct vbc_group_spec {
  const char *key;                /* "fluid", "contact" */
  const char *doc;                /* for `vbc list` */
  vbc_block_kind constraint_kind; /* VBC_BLOCK_NONE: no `constraint` key */
  const char *constraint_default;
  const char *solver_default; /* NULL: no `solver` key; its blocks are solved by the solver of the
                                 group that their stage names */
  /* NULL, or a JSON object of solver parameters whose default differs in this group (the
   * staggered coupler's "fluid": SSOR-preconditioned cg, He et al. Table 1; its "prepass": three
   * Jacobi iterations). A key applies when the scene chose the group's default solver, which
   * declares it, and left the key out; summary.json's resolved scene shows it like any default. */
  const char *solver_defaults;
} vbc_group_spec;

/* A group as the scene chose it (scene/scene.c resolves it from the declarations above). */
typedef struct vbc_method_group {
  const char *key;
  const vbc_block_type *constraint; /* NULL without a `constraint` key */
  const vbc_solver_type *solver;    /* NULL without a `solver` key */
  const cJSON *params;              /* method.<key>, every parameter resolved */
} vbc_method_group;

/* A block the coupler owns. */
typedef struct vbc_slot_spec {
  const char *label;          /* convergence.csv, --dump-lcp, summary.json */
  const char *group;          /* its parameters come from method.<group> */
  const vbc_block_type *type; /* NULL: the block the group's `constraint` chose */
  /* Optional, right after the block is created (which pairs a contact block gives rows). */
  void (*setup)(vbc_block *b);
} vbc_slot_spec;

/* The number of elements of an array: the coupler tables' counts are never written by hand. */
#define VBC_COUNTOF(a) (sizeof(a) / sizeof *(a))
/* A stage's blocks, in sweep order, as .slots and .nslots from one list. */
#define VBC_STAGE_SLOTS(...) \
  .slots = {__VA_ARGS__}, .nslots = VBC_COUNTOF(((const int[]){__VA_ARGS__}))

/* Hooks around a stage. They see the coupling (system, blocks, problems, the coupler's own
 * state) and the stage's report, to which they may add figures (vbc_solve_stats_add). */
typedef int (*vbc_stage_hook)(vbc_coupling *c, size_t stage, vbc_error *err);

typedef struct vbc_stage_spec {
  const char *label;
  int slots[VBC_MAX_BLOCKS]; /* the blocks solved together, in sweep order */
  size_t nslots;
  const char *solver_group; /* whose `solver` (and stopping test) runs the stage */
  int skip_without_rows;    /* no rows this step: no solve, no finish, no start/after hooks */
  int figures_in_metrics;   /* its figures also go to summary.json's metrics (sim/summary.c) */
  vbc_stage_hook before;    /* before the rows are built */
  vbc_stage_hook start;     /* rows built, the solve about to start */
  /* After finish; also when the stage failed (then with ok = 0, only to restore what `before`
   * changed: its return is ignored). */
  int (*after)(vbc_coupling *c, size_t stage, int ok, vbc_error *err);
} vbc_stage_spec;

typedef struct vbc_coupler_type {
  const char *name;
  const char *summary;
  const vbc_param_spec *params; /* its own keys, in `method` beside `coupler` (may be NULL) */
  const vbc_group_spec *groups;
  size_t ngroups;
  const vbc_slot_spec *slots;
  size_t nslots;
  const vbc_stage_spec *stages;
  size_t nstages;
  /* The stage series.csv, convergence.csv, the progress line and the summary's top-level solver
   * figures follow (the pressure solve). */
  size_t primary;
  /* Optional: the hooks' own state, created once the blocks exist (it may check them: akinci
   * needs a fluid block that reports boundary impulses) and freed with the coupling. */
  void *(*alloc)(vbc_coupling *c, vbc_error *err);
  void (*free)(void *state);
  /* Optional: before the explicit terms of every step (pms keeps the bodies' velocities). */
  int (*begin_step)(vbc_coupling *c, vbc_error *err);
  /* 1: every step writes vbc_system.fluid_impulse, the fluid's impulse on each body, fixed and
   * scripted ones too (the drag and lift of the cylinder_flow benchmark); vbc_coupling_step
   * zeroes it before the step, and the coupler's hooks add to it. */
  int records_fluid_impulse;
  /* How many of the first stages run before the explicit terms (0: all run after them). DFSPH
   * solves the divergence of v^t before the non-pressure forces act (Bender & Koschier 2015,
   * Algorithm 1; couplers/dfsph.c). */
  size_t stages_before_explicit;
  /* What the fluid block must report (vbc_block_type.traits: VBC_ROWS_PUSH_BODIES,
   * VBC_ROWS_WEAK_MASSES or VBC_ROWS_PRESSURE_LOAD) for this coupler to carry the fluid's load,
   * buoyancy included, to free bodies; 0: the coupler carries it itself. With a free body and a
   * fluid block without it the set-up refuses the scene, unless method.uncoupled_bodies is true
   * (an ablation that wants bodies the fluid cannot hold up). */
  unsigned body_traits;
  /* Optional: where the block has those traits but the scene's other choices still give free
   * bodies no static load, why and what would (NULL: they get it). The set-up refuses the scene
   * with that reason, unless method.uncoupled_bodies is true: then it prints it and the run is
   * flagged no_static_load from its first step (sim/monitors.c). */
  const char *(*static_load_missing)(const vbc_coupling *c);
} vbc_coupler_type;

/* What the simulation does around the stages (sim/sim.c). */
typedef struct vbc_step_ops {
  int (*neighbours)(void *ctx, vbc_error *err);
  void (*explicit_terms)(void *ctx);
  void (*advect)(void *ctx);
  void *ctx;
} vbc_step_ops;

/* One stage of one step. */
typedef struct vbc_stage_report {
  const char *label;
  const vbc_solver_type *solver;
  int solved;  /* 0: skipped (no rows) or not reached */
  size_t rows; /* of all its blocks */
  vbc_solve_result result;
  vbc_solve_stats figures; /* the stage's hooks' (the solver's are in result.stats) */
  /* wall seconds of the rows' preparation and finish, and of the hooks (the solve's own are in
   * result.seconds) */
  double prepare_seconds, hook_seconds;
} vbc_stage_report;

/* What one step did, for statistics, series.csv and convergence.csv. */
typedef struct vbc_step_report {
  size_t nstages;
  vbc_stage_report stage[VBC_MAX_STAGES];
  vbc_solve_trace *trace;    /* set by the caller: the primary stage's solve is traced into it */
  const vbc_problem *traced; /* the primary stage's problem once its solve started (its blocks'
                                labels name convergence.csv's rows), NULL before */
  /* wall seconds of the simulation's parts of the step (vbc_step_ops) */
  double neighbours_seconds, explicit_seconds, advect_seconds;
} vbc_step_report;

struct vbc_coupling {
  const vbc_coupler_type *type;
  vbc_system *sys;
  const cJSON *params; /* the scene's `method`, resolved (the coupler's own keys) */
  const char *file;    /* the scene file, for messages */
  vbc_step_ops ops;
  vbc_block block[VBC_MAX_SLOTS];
  vbc_solver solver[VBC_MAX_STAGES];
  vbc_block *members[VBC_MAX_STAGES][VBC_MAX_BLOCKS];
  vbc_problem problem[VBC_MAX_STAGES];
  double support;          /* the largest neighbour radius its blocks need */
  vbc_step_report *report; /* the step being reported, while vbc_coupling_step runs */
  void *state;             /* the coupler's own (vbc_coupler_type.alloc) */
};

/* Create the blocks, solvers and problems of coupler `type` for sys. groups are the scene's
 * choices for every group the type declares (matched by key); params is `method`. On failure
 * everything created is freed again. */
int vbc_coupling_init(vbc_coupling *c, const vbc_coupler_type *type, vbc_system *sys,
                      const vbc_method_group *groups, size_t ngroups, const cJSON *params,
                      const char *file, const vbc_step_ops *ops, vbc_error *err);
void vbc_coupling_free(vbc_coupling *c);

/* Advance the system by one time step. rep->trace is the caller's; every other field is set.
 * On failure the report holds the stages up to the failing one. */
int vbc_coupling_step(vbc_coupling *c, vbc_step_report *rep, vbc_error *err);

/* The named figure (vbc_block_type.figures) of the first of the coupling's blocks that reports
 * it, as its last prepare left it (a contact block's depth_body); fallback if none does. */
double vbc_coupling_block_figure(const vbc_coupling *c, const char *name, double fallback);

/* For weak couplers' hooks: the reaction block blk reports on wall and rigid particles
 * (vbc_block_type.boundary_impulses, gathered into scratch, one entry per particle) passed on to
 * the bodies. Each free or pinned body takes its particles' impulses in particle order (force and
 * torque about its centre; deterministic), and every body, fixed and scripted ones too, adds them
 * to sys->fluid_impulse (drag and lift; vbc_coupling_step zeroes it). Does nothing without
 * bodies or without boundary_impulses. */
void vbc_coupling_push_boundary_impulses(vbc_system *sys, const vbc_block *blk, vbc_vec *scratch);

/* The group of `type` named key, and the scene's choice for it, NULL if absent. */
const vbc_group_spec *vbc_coupler_group(const vbc_coupler_type *type, const char *key);
const vbc_method_group *vbc_method_group_find(const vbc_method_group *groups, size_t n,
                                              const char *key);

#ifdef __cplusplus
}
#endif

#endif
