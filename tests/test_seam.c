/* test_seam.c — the seam's second shape (core/coupler.h, registry/registry.h): a coupler written
 * outside the generic part as a table of three stages runs and reports every stage; the
 * registry lists blocks by kind and takes modules a program adds; the block limit of one solve
 * is a system error. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "registry/registry.h"
#include "sim/run.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/lcp_matrix.h"
#include "tests/support.h"

/* ---- a three-stage coupler, as a user would write it (the shape of He et al.'s scheme:
 * pre-pass, pressure solve, bodies) ---- */

enum { FLUID, CONTACT, PIN };

typedef struct trio_state {
  char log[256]; /* the hooks in the order they ran */
} trio_state;

static void *trio_alloc(vbc_coupling *c, vbc_error *err) {
  (void)c;
  return vbc_calloc(1, sizeof(trio_state), err);
}

static void trio_free(void *state) { free(state); }

static void note(vbc_coupling *c, const char *what) {
  trio_state *s = c->state;
  strncat(s->log, what, sizeof s->log - strlen(s->log) - 1);
}

static int begin_step(vbc_coupling *c, vbc_error *err) {
  (void)err;
  note(c, "begin;");
  return VBC_OK;
}

static int before(vbc_coupling *c, size_t stage, vbc_error *err) {
  (void)err;
  note(c, stage == 0 ? "before0;" : stage == 1 ? "before1;" : "before2;");
  return VBC_OK;
}

static int after(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  note(c, !ok ? "failed;" : stage == 0 ? "after0;" : stage == 1 ? "after1;" : "after2;");
  /* a figure of the stage, as lemke_contacts reports its LCP error */
  return vbc_solve_stats_add(&c->report->stage[stage].figures, "rows_seen",
                             (double)c->report->stage[stage].rows, VBC_FIGURE_MAX, err);
}

static const vbc_group_spec trio_groups[] = {VBC_GROUP_FLUID, VBC_GROUP_CONTACT};
static const vbc_slot_spec trio_slots[] = {
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [CONTACT] = {.label = "contact", .group = "contact", .type = &vbc_block_contact},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};
static const vbc_stage_spec trio_stages[] = {
    {.label = "prepass", VBC_STAGE_SLOTS(FLUID), .solver_group = "fluid",
     .before = before, .after = after},
    {.label = "pressure", VBC_STAGE_SLOTS(FLUID), .solver_group = "fluid",
     .before = before, .after = after},
    {.label = "bodies", VBC_STAGE_SLOTS(CONTACT, PIN), .solver_group = "fluid",
     .skip_without_rows = 1, .before = before, .after = after},
};
static const vbc_coupler_type trio = {
    .name = "trio",
    .summary = "three stages, for the test",
    .groups = trio_groups,
    .ngroups = VBC_COUNTOF(trio_groups),
    .slots = trio_slots,
    .nslots = VBC_COUNTOF(trio_slots),
    .stages = trio_stages,
    .nstages = VBC_COUNTOF(trio_stages),
    .primary = 1,
    .alloc = trio_alloc,
    .free = trio_free,
    .begin_step = begin_step,
};

/* A square of water falling freely: nothing touches, so the bodies stage never has rows. */
static const char tank[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.002, \"end\": 0.01},\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.2, 0.2]}],\n"
    " \"method\": {\"coupler\": \"trio\"}}\n";

Test(seam, a_three_stage_coupler_from_outside_runs_and_reports_every_stage) {
  vbc_registry reg = *test_registry();
  vbc_error err = {0};
  cr_assert_eq(vbc_registry_add_coupler(&reg, &trio, &err), VBC_OK, "%s", err.message);
  const char *path = write_text(test_dir("seam_trio"), "scene.json", tank);
  vbc_scene sc;
  cr_assert_eq(vbc_scene_load(&sc, path, NULL, 0, &reg, &err), VBC_OK, "%s", err.message);
  vbc_sim sim;
  cr_assert_eq(vbc_sim_init(&sim, &sc, &err), VBC_OK, "%s", err.message);
  vbc_step_report rep = {0};
  vbc_solve_trace trace = {0};
  rep.trace = &trace;
  cr_assert_eq(vbc_sim_step(&sim, &rep, &err), VBC_OK, "%s", err.message);
  cr_assert_str_eq(((trio_state *)sim.coupling.state)->log,
                   "begin;before0;after0;before1;after1;before2;",
                   "no contact rows in a free square of water: stage 3 skipped, no after");
  cr_assert_eq(rep.nstages, 3u);
  cr_assert_str_eq(rep.stage[0].label, "prepass");
  cr_assert(rep.stage[0].solved && rep.stage[1].solved && !rep.stage[2].solved);
  cr_assert_eq(rep.stage[1].rows, 100u, "one row per fluid particle");
  cr_assert_eq(rep.stage[1].figures.n, 1u);
  cr_assert_eq(rep.stage[1].figures.value[0], (double)rep.stage[1].rows);
  cr_assert_eq(rep.traced, &sim.coupling.problem[1], "the primary stage is traced");
  cr_assert_gt(trace.n, 0u);
  cr_assert_str_eq(rep.traced->blocks[0]->label, "fluid");
  /* the second solve of the same rows starts where the first left the velocities: nothing more
   * to do than round-off */
  cr_assert_leq(rep.stage[1].result.residual_ref, rep.stage[0].result.residual_ref);
  vbc_solve_trace_free(&trace);
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
}

Test(seam, the_summary_lists_every_stage_with_its_figures) {
  vbc_registry reg = *test_registry();
  vbc_error err = {0};
  cr_assert_eq(vbc_registry_add_coupler(&reg, &trio, &err), VBC_OK);
  const char *dir = test_dir("seam_trio_run");
  const char *path = write_text(dir, "scene.json", tank);
  vbc_scene sc;
  cr_assert_eq(vbc_scene_load(&sc, path, NULL, 0, &reg, &err), VBC_OK, "%s", err.message);
  char out[1100], summary[1200];
  snprintf(out, sizeof out, "%s/out", dir);
  vbc_run_options opt = {.out_dir = out, .progress = VBC_PROGRESS_OFF};
  cr_assert_eq(vbc_run(&sc, &opt, &err), VBC_OK, "%s", err.message);
  vbc_scene_free(&sc);
  snprintf(summary, sizeof summary, "%s/summary.json", out);
  cJSON *s = read_json(summary);
  cr_assert_eq(json_number(s, "steps"), 5.0);
  cr_assert_eq(json_number(s, "solver.stages.0.solves"), 5.0);
  cr_assert_eq(json_number(s, "solver.stages.1.solves"), 5.0);
  cr_assert_eq(json_number(s, "solver.stages.2.solves"), 0.0, "skipped: never solved");
  cr_assert_eq(json_number(s, "solver.solves"), json_number(s, "solver.stages.1.solves"),
               "the top-level figures are the primary stage's");
  cr_assert_eq(json_number(s, "solver.iterations_total"),
               json_number(s, "solver.stages.1.iterations_total"));
  cr_assert_eq(json_number(s, "solver.stages.1.max_rows_seen"),
               json_number(s, "solver.stages.1.rows_max"));
  cr_assert(isnan(json_number(s, "metrics.max_rows_seen")), "not a metrics stage");
  /* timing: the phases and stages add up to no more than the wall time */
  double sum = 0.0;
  const cJSON *phases = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "timing"), "phases"), *p;
  cJSON_ArrayForEach(p, phases) {
    cr_assert_geq(p->valuedouble, 0.0, "%s", p->string);
    sum += p->valuedouble;
  }
  for (int k = 0; k < 3; ++k) {
    char key[64];
    snprintf(key, sizeof key, "timing.stages.%d.solve_seconds", k);
    sum += json_number(s, key);
    snprintf(key, sizeof key, "timing.stages.%d.prepare_seconds", k);
    sum += json_number(s, key);
    snprintf(key, sizeof key, "timing.stages.%d.hook_seconds", k);
    sum += json_number(s, key);
  }
  cr_assert_float_eq(sum, json_number(s, "timing.wall_seconds"), 1e-6 + 1e-9 * sum,
                     "phases + stages + other = wall");
  cr_assert_geq(json_number(s, "timing.stages.1.us_per_row_iteration"), 0.0);
  cr_assert_eq(json_number(s, "timing.steps"), 5.0);
  cJSON_Delete(s);
}

/* pms and akinci solve the contacts between bodies as a stage of their own: it is reported. */
Test(seam, the_body_contact_solve_of_the_weak_couplers_is_reported) {
  const char *scene = source_path("experiments/scenes/seesaw.json");
  const char *couplers[] = {"method.coupler=pms", "method.coupler=akinci"};
  for (int k = 0; k < 2; ++k) {
    cJSON *s = run_scene(k ? "seam_akinci" : "seam_pms", scene,
                         k ? SETS(couplers[k], "time.end=0.005",
                                  "method.fluid.constraint=sph_density",
                                  "method.fluid.solver=jacobi")
                           : SETS(couplers[k], "time.end=0.005"),
                         k ? 4 : 2);
    cJSON *stage = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(s, "solver"), "stages"), 1);
    cr_assert_str_eq(cJSON_GetObjectItem(stage, "label")->valuestring, "body_contact");
    cr_assert_eq(json_number(s, "solver.stages.1.solves"), 1.0, "the pin's rows, one step");
    cr_assert_eq(json_number(s, "solver.stages.1.rows_max"), 2.0, "a 2D pin: two rows");
    cr_assert_eq(json_number(s, "solver.stages.1.stop_reasons.max_iterations"), 0.0);
    cJSON_Delete(s);
  }
}

Test(registry, lists_blocks_by_kind_and_takes_added_modules) {
  const vbc_registry *b = test_registry();
  cr_assert_eq(vbc_registry_block(b, VBC_BLOCK_FLUID, "mps"), &vbc_block_mps);
  cr_assert_null(vbc_registry_block(b, VBC_BLOCK_FLUID, "contact"), "contact is not a fluid block");
  cr_assert_eq(vbc_registry_block(b, VBC_BLOCK_CONTACT, "contact"), &vbc_block_contact);
  cr_assert_eq(vbc_registry_block(b, VBC_BLOCK_JOINT, "pin"), &vbc_block_pin);
  char names[256];
  vbc_registry_block_names(b, VBC_BLOCK_FLUID, names, sizeof names);
  cr_assert_str_eq(names, "\"mps\", \"mps_poisson\", \"sph_density\", \"staggered\", \"dfsph\"");
  vbc_registry r = *b;
  vbc_error err = {0};
  cr_assert_eq(vbc_registry_add_solver(&r, vbc_registry_solver(b, "pgs"), &err), VBC_EXIT_INPUT);
  cr_assert(strstr(err.message, "\"pgs\" is registered already"), "%s", err.message);
  static const vbc_solver_type mine = {.name = "my_solver", .summary = "a user's"};
  vbc_error_clear(&err);
  cr_assert_eq(vbc_registry_add_solver(&r, &mine, &err), VBC_OK);
  cr_assert_eq(vbc_registry_solver(&r, "my_solver"), &mine);
  cr_assert_null(vbc_registry_solver(b, "my_solver"), "the built-in registry is untouched");
}

/* More blocks than one solve's arrays hold is the program's limit, not bad input. */
Test(solve_loop, more_than_the_block_limit_is_a_system_error) {
  const double M[] = {1.0}, q[] = {-1.0};
  vbc_block b[VBC_MAX_BLOCKS + 1];
  vbc_block *blocks[VBC_MAX_BLOCKS + 1];
  vbc_system sys = {0};
  vbc_error err = {0};
  for (int k = 0; k <= VBC_MAX_BLOCKS; ++k) {
    cr_assert_eq(vbc_lcp_matrix_block_init(&b[k], 1, M, q, &err), VBC_OK);
    cr_assert_eq(b[k].type->prepare(b[k].state, &sys, &b[k].rows, &err), VBC_OK);
    blocks[k] = &b[k];
  }
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), "pgs"), NULL, &err),
               VBC_OK);
  vbc_problem pb = {&sys, blocks, VBC_MAX_BLOCKS + 1};
  vbc_solve_result res;
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), VBC_EXIT_SYSTEM);
  cr_assert(strstr(err.message, "VBC_MAX_BLOCKS"), "%s", err.message);
  vbc_solver_free(&s);
  for (int k = 0; k <= VBC_MAX_BLOCKS; ++k) vbc_block_free(&b[k]);
}

/* vbc run --profile prints where the wall time went. */
Test(seam, profile_prints_the_time_of_every_phase_and_stage) {
  const char *dir = test_dir("seam_profile");
  const char *args[] = {"run", source_path("experiments/scenes/hydrostatic.json"), "--set",
                        "spacing=0.05", "--set", "time.end=0.005", "--out", dir, "--quiet",
                        "--profile", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 0);
  cr_assert(err && strstr(err, "vbc profile: 5 steps") && strstr(err, "neighbour_search") &&
                strstr(err, "stage coupled: solve (pgs)") && strstr(err, "us per row-iteration"),
            "%s", err ? err : "");
  free(err);
}
