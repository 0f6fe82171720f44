/* test_state.c — frozen states (sim/state_file.h): the file round-trips every array
 * and skips sections it does not know; `vbc run --dump-state` then `--from-state` replays the
 * dumped step's solve bit for bit, other solvers run on the same problem, and bad state files or
 * dump steps exit 2 naming what is wrong. All on the coarse hydrostatic tank (l = 0.04 m). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene.h"
#include "sim/sim.h"
#include "sim/state_file.h"
#include "tests/support.h"

#define HYDRO "experiments/scenes/hydrostatic.json"

/* ---- the file itself ---- */

static void load_sim(vbc_scene *sc, vbc_sim *sim) {
  const char *sets[] = {"spacing=0.04"};
  vbc_error err = {0};
  cr_assert_eq(vbc_scene_load(sc, source_path(HYDRO), sets, 1, test_registry(), &err), 0, "%s", err.message);
  cr_assert_eq(vbc_sim_init(sim, sc, &err), 0, "%s", err.message);
}

/* Values no generated state has, so a field read into the wrong array shows. */
static void scramble(vbc_sim *sim) {
  vbc_particles *p = &sim->particles;
  for (size_t i = 0; i < p->n; ++i) {
    p->pos[i].x += 1e-3 * (double)i;
    p->vel[i] = vbc_vec_make(0.1 * (double)i, -0.2 * (double)i, 0.0);
    p->pressure[i] = 1.5 * (double)i;
    p->pressure_smoothed[i] = 2.5 * (double)i;
    p->number_density[i] = 3.5 + (double)i;
  }
  sim->step = 7;
  sim->time = 0.007;
}

static void expect_same_particles(const vbc_particles *a, const vbc_particles *b) {
  cr_assert_eq(a->n, b->n);
  cr_assert_eq(memcmp(a->pos, b->pos, a->n * sizeof *a->pos), 0);
  cr_assert_eq(memcmp(a->vel, b->vel, a->n * sizeof *a->vel), 0);
  cr_assert_eq(memcmp(a->kind, b->kind, a->n * sizeof *a->kind), 0);
  cr_assert_eq(memcmp(a->body, b->body, a->n * sizeof *a->body), 0);
  cr_assert_eq(memcmp(a->pressure, b->pressure, a->n * sizeof(double)), 0);
  cr_assert_eq(memcmp(a->pressure_smoothed, b->pressure_smoothed, a->n * sizeof(double)), 0);
  cr_assert_eq(memcmp(a->number_density, b->number_density, a->n * sizeof(double)), 0);
}

Test(state_file, write_read_and_apply_round_trip_every_array) {
  vbc_scene sc;
  vbc_sim sim, fresh;
  load_sim(&sc, &sim);
  scramble(&sim);
  char path[1100];
  snprintf(path, sizeof path, "%s/state.bin", test_dir("state_rt"));
  vbc_error err = {0};
  cr_assert_eq(vbc_state_write(path, &sim, &err), 0, "%s", err.message);
  vbc_state st;
  cr_assert_eq(vbc_state_read(path, &st, &err), 0, "%s", err.message);
  cr_assert_eq(st.h.dim, 2);
  cr_assert_eq(st.h.step, 7);
  cr_assert_eq(st.h.time, 0.007);
  cr_assert_eq(st.h.spacing, 0.04);
  cr_assert_eq(st.h.dt, 0.001);
  cr_assert_str_eq(st.h.scene, "hydrostatic");
  expect_same_particles(&st.particles, &sim.particles);
  cr_assert_eq(memcmp(&st.domain_min, &sim.domain_min, sizeof st.domain_min), 0);
  cr_assert_eq(memcmp(&st.domain_max, &sim.domain_max, sizeof st.domain_max), 0);

  vbc_error init = {0};
  cr_assert_eq(vbc_sim_init(&fresh, &sc, &init), 0, "%s", init.message); /* same scene */
  cr_assert_eq(vbc_state_apply(&st, path, &fresh, &err), 0, "%s", err.message);
  expect_same_particles(&fresh.particles, &sim.particles);
  cr_assert_eq(fresh.step, 7);
  cr_assert_eq(fresh.time, 0.007);
  vbc_state_free(&st);
  vbc_sim_free(&fresh);
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
}

/* Named sections let later issues add state (rigid bodies) that older readers skip. */
Test(state_file, unknown_sections_are_skipped) {
  vbc_scene sc;
  vbc_sim sim;
  load_sim(&sc, &sim);
  const vbc_particles *p = &sim.particles;
  const double future[3] = {1, 2, 3};
  const vbc_vec domain[2] = {sim.domain_min, sim.domain_max};
  const vbc_state_section s[] = {
      {"pos", p->n, sizeof *p->pos, p->pos},
      {"rigid_bodies", 3, sizeof(double), future},
      {"vel", p->n, sizeof *p->vel, p->vel},
      {"kind", p->n, 1, p->kind},
      {"body", p->n, sizeof *p->body, p->body},
      {"pressure", p->n, sizeof(double), p->pressure},
      {"pressure_smoothed", p->n, sizeof(double), p->pressure_smoothed},
      {"number_density", p->n, sizeof(double), p->number_density},
      {"domain", 2, sizeof(vbc_vec), domain},
      {"empty_future_section", 0, 8, NULL},
  };
  vbc_state_header h = {.dim = 2, .n = p->n, .step = 3, .time = 0.003, .spacing = 0.04,
                        .dt = 0.001, .scene = "hydrostatic"};
  char path[1100];
  snprintf(path, sizeof path, "%s/state.bin", test_dir("state_unknown"));
  vbc_error err = {0};
  cr_assert_eq(vbc_state_write_sections(path, &h, s, sizeof s / sizeof *s, &err), 0);
  vbc_state st;
  cr_assert_eq(vbc_state_read(path, &st, &err), 0, "%s", err.message);
  expect_same_particles(&st.particles, p);
  vbc_state_free(&st);
  /* and a missing one is named */
  cr_assert_eq(vbc_state_write_sections(path, &h, s, 3, &err), 0);
  cr_assert_eq(vbc_state_read(path, &st, &err), 2);
  cr_assert_not_null(strstr(err.message, "no section 'kind'"), "%s", err.message);
  vbc_state_free(&st);
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
}

Test(state_file, apply_names_the_first_particle_whose_kind_differs) {
  vbc_scene sc;
  vbc_sim sim, other;
  load_sim(&sc, &sim);
  vbc_error init = {0};
  cr_assert_eq(vbc_sim_init(&other, &sc, &init), 0, "%s", init.message); /* same scene */
  size_t wall = sim.nfluid; /* walls follow the fluid */
  other.particles.kind[wall] = VBC_FLUID;
  char path[1100];
  snprintf(path, sizeof path, "%s/state.bin", test_dir("state_kind"));
  vbc_error err = {0};
  cr_assert_eq(vbc_state_write(path, &other, &err), 0);
  vbc_state st;
  cr_assert_eq(vbc_state_read(path, &st, &err), 0);
  cr_assert_eq(vbc_state_apply(&st, path, &sim, &err), 2);
  char expect[64];
  snprintf(expect, sizeof expect, "particle %zu is fluid", wall);
  cr_assert_not_null(strstr(err.message, expect), "%s", err.message);
  cr_assert_not_null(strstr(err.message, path), "%s", err.message);
  vbc_state_free(&st);
  vbc_sim_free(&other);
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
}

/* ---- through the binary ---- */

static char *run_expect(int expected, const char *const *args) {
  char *err = NULL;
  int rc = run_vbc(args, &err);
  cr_assert_eq(rc, expected, "exit %d, expected %d: %s", rc, expected, err);
  return err;
}

/* The coarse tank for 10 steps, every solve traced, dumped before step 5: dir/state.bin. */
static const char *dump_state(const char *dir) {
  static char path[4][1100];
  static int k = 0;
  char *state = path[k++ % 4], orig[1100];
  snprintf(state, 1100, "%s/state.bin", dir);
  snprintf(orig, sizeof orig, "%s/orig", dir);
  free(run_expect(0, (const char *[]){"run", source_path(HYDRO), "--out", orig, "--quiet",
                                      "--set", "spacing=0.04", "--set", "time.end=0.01", "--set",
                                      "output.convergence_every=1", "--dump-state", "5", state,
                                      NULL}));
  cr_assert(file_exists(state), "%s written", state);
  return state;
}

static cJSON *replay(const char *state, const char *out, const char *set1, const char *set2) {
  const char *args[16] = {"run", source_path(HYDRO), "--out", out, "--quiet", "--set",
                          "spacing=0.04", "--from-state", state};
  int n = 9;
  if (set1) args[n++] = "--set", args[n++] = set1;
  if (set2) args[n++] = "--set", args[n++] = set2;
  args[n] = NULL;
  free(run_expect(0, args));
  char path[1100];
  snprintf(path, sizeof path, "%s/summary.json", out);
  cJSON *s = read_json(path);
  cr_assert_not_null(s);
  return s;
}

/* convergence.csv rows of one step (all of them for step < 0), without header and seconds. */
static char *convergence_rows(const char *dir, long step) {
  char path[1100];
  snprintf(path, sizeof path, "%s/convergence.csv", dir);
  char *text = read_text(path);
  cr_assert_not_null(text, "%s", path);
  strip_last_field(text);
  char *out = calloc(strlen(text) + 1, 1), *o = out;
  cr_assert_not_null(out);
  for (char *line = strchr(text, '\n') + 1; *line;) {
    size_t len = strcspn(line, "\n") + 1;
    if (step < 0 || strtol(line, NULL, 10) == step) memcpy(o, line, len), o += len;
    line += len;
  }
  free(text);
  return out;
}

/* The largest value of the iteration column (the fourth) of rows from convergence_rows. */
static long max_iteration(const char *rows) {
  long m = -1;
  for (const char *line = rows; *line; line += strcspn(line, "\n") + 1) {
    const char *c = line;
    for (int commas = 0; commas < 3; ++c) commas += *c == ',';
    long it = strtol(c, NULL, 10);
    if (it > m) m = it;
  }
  return m;
}

Test(from_state, replay_reproduces_the_dumped_solve_bit_for_bit, .timeout = 60) {
  const char *dir = test_dir("replay");
  const char *state = dump_state(dir);
  char orig[1100], out[1100];
  snprintf(orig, sizeof orig, "%s/orig", dir);
  snprintf(out, sizeof out, "%s/replay", dir);
  cJSON *s = replay(state, out, NULL, NULL);
  char *want = convergence_rows(orig, 5), *got = convergence_rows(out, -1);
  cr_assert_gt(strlen(want), 0u);
  cr_assert_str_eq(got, want, "the replay solves the problem of step 5 exactly");
  cr_assert_eq(json_number(s, "metrics.iterations"), (double)max_iteration(want));
  cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "metrics"), "stop_reason")
                       ->valuestring, "tolerance");
  cr_assert_leq(json_number(s, "metrics.final_relative_residual"), 1e-3);
  cr_assert_gt(json_number(s, "metrics.solve_seconds"), 0.0);
  cr_assert(isnan(json_number(s, "metrics.max_density_deviation")), "no benchmark metrics");
  cr_assert_str_eq(cJSON_GetObjectItem(s, "from_state")->valuestring, state);
  cr_assert_eq(json_number(s, "steps"), 5.0);
  cr_assert_eq(json_number(s, "solver.solves"), 1.0);
  char path[1200];
  snprintf(path, sizeof path, "%s/frames.pvd", out);
  cr_assert(!file_exists(path), "no frames");
  snprintf(path, sizeof path, "%s/hydrostatic_profile.csv", out);
  cr_assert(!file_exists(path), "the benchmark does not run");
  free(want), free(got);
  cJSON_Delete(s);
}

/* Relaxed Jacobi on the same state: its own iterations, from the same starting residual. */
Test(from_state, jacobi_solves_the_same_problem, .timeout = 60) {
  const char *dir = test_dir("replay_jacobi");
  const char *state = dump_state(dir);
  char pgs[1100], jac[1100];
  snprintf(pgs, sizeof pgs, "%s/pgs", dir);
  snprintf(jac, sizeof jac, "%s/jacobi", dir);
  cJSON *sp = replay(state, pgs, NULL, NULL);
  cJSON *sj = replay(state, jac, "method.fluid.solver=jacobi", "method.fluid.omega=0.2");
  cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(sj, "solver"), "solver")->valuestring,
                   "jacobi");
  double ij = json_number(sj, "metrics.iterations");
  cr_assert_gt(ij, 0.0);
  cr_assert_neq(ij, json_number(sp, "metrics.iterations"));
  char *rp = convergence_rows(pgs, -1), *rj = convergence_rows(jac, -1);
  cr_assert_eq((double)max_iteration(rj), ij);
  /* iteration 0 (reference residual and warm start) is the problem, not the scheme */
  size_t head = 0;
  for (int line = 0; line < 3; ++line) head += strcspn(rp + head, "\n") + 1;
  cr_assert_eq(strncmp(rp, rj, head), 0, "iteration 0 differs:\n%.*s\n%.*s", (int)head, rp,
               (int)head, rj);
  free(rp), free(rj);
  cJSON_Delete(sp), cJSON_Delete(sj);
}

static void expect_bad_state(const char *state, const char *const *fragments) {
  char out[1100];
  snprintf(out, sizeof out, "%s.out", state);
  char *err = run_expect(2, (const char *[]){"run", source_path(HYDRO), "--out", out, "--quiet",
                                             "--set", "spacing=0.04", "--from-state", state,
                                             NULL});
  cr_assert_not_null(strstr(err, state), "the file is named: %s", err);
  for (const char *const *f = fragments; *f; ++f)
    cr_assert_not_null(strstr(err, *f), "'%s' not in: %s", *f, err);
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", out);
  cr_assert(!file_exists(path), "bad input writes no summary");
  free(err);
}

static void write_bytes(const char *path, const char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(data, 1, n, f), n);
  fclose(f);
}

Test(from_state, a_file_with_a_wrong_magic_or_version_exits_2) {
  const char *dir = test_dir("bad_magic");
  expect_bad_state(write_text(dir, "text.bin", "hello, I am not a state\n"),
                   FRAGMENTS("not a vbc state file"));
  const char *state = dump_state(dir);
  char *bytes = read_text(state);
  cr_assert_not_null(bytes);
  bytes[8] = 99; /* the format version follows the 8-byte magic */
  char path[1100];
  snprintf(path, sizeof path, "%s/v99.bin", dir);
  write_bytes(path, bytes, 16);
  expect_bad_state(path, FRAGMENTS("version 99", "reads version 1"));
  free(bytes);
}

Test(from_state, a_truncated_file_exits_2) {
  const char *dir = test_dir("bad_trunc");
  const char *state = dump_state(dir);
  FILE *f = fopen(state, "rb");
  cr_assert_not_null(f);
  static char bytes[1 << 16];
  size_t n = fread(bytes, 1, sizeof bytes, f);
  fclose(f);
  cr_assert_gt(n, 1000u);
  char path[1100];
  snprintf(path, sizeof path, "%s/short.bin", dir);
  write_bytes(path, bytes, n - 100); /* ends inside the last section */
  expect_bad_state(path, FRAGMENTS("truncated", "section 'number_density'"));
  write_bytes(path, bytes, 30); /* ends inside the header */
  expect_bad_state(path, FRAGMENTS("truncated", "header"));
}

Test(from_state, a_state_of_another_scene_exits_2_naming_the_difference) {
  const char *dir = test_dir("bad_scene");
  const char *state = dump_state(dir);
  char out[1100];
  snprintf(out, sizeof out, "%s/other", dir);
  char *err = run_expect(2, (const char *[]){"run", source_path(HYDRO), "--out", out, "--quiet",
                                             "--set", "spacing=0.05", "--from-state", state,
                                             NULL});
  cr_assert_not_null(strstr(err, state), "%s", err);
  cr_assert_not_null(strstr(err, "390 particles in the state"), "%s", err);
  cr_assert_not_null(strstr(err, "generated by the scene"), "%s", err);
  free(err);
}

Test(dump_state, a_step_outside_the_run_exits_2_before_running) {
  const char *dir = test_dir("bad_step");
  const char *steps[] = {"0", "11", "-3"};
  for (int k = 0; k < 3; ++k) {
    char out[1100], state[1100];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(state, sizeof state, "%s/state.bin", dir);
    char *err = run_expect(2, (const char *[]){"run", source_path(HYDRO), "--out", out,
                                               "--quiet", "--set", "spacing=0.04", "--set",
                                               "time.end=0.01", "--dump-state", steps[k], state,
                                               NULL});
    cr_assert_not_null(strstr(err, "--dump-state"), "%s", err);
    cr_assert_not_null(strstr(err, "1..10"), "%s", err);
    cr_assert(!file_exists(out), "nothing is written before the check");
    cr_assert(!file_exists(state));
    free(err);
  }
  free(run_expect(2, (const char *[]){"run", source_path(HYDRO), "--dump-state", "five", "x",
                                      NULL}));
}

/* Found by fuzz/state.c: a state with a particle far outside its domain (1e208) overflowed the
 * neighbour grid's cell count; such a state, or one with a non-finite value, is bad input. */
Test(state_errors, values_outside_the_domain_or_not_finite_are_bad_input) {
  const char *dir = test_dir("state_values");
  for (int k = 0; k < 2; ++k) {
    vbc_scene sc;
    vbc_sim sim;
    load_sim(&sc, &sim);
    if (k == 0) sim.particles.pos[3].x = 1e208;
    else sim.particles.vel[3].y = NAN;
    char path[1200];
    snprintf(path, sizeof path, "%s/bad%d.state", dir, k);
    vbc_error err = {0};
    cr_assert_eq(vbc_state_write(path, &sim, &err), 0, "%s", err.message);
    vbc_sim_free(&sim);
    vbc_scene_free(&sc);
    const char *args[] = {"run", source_path(HYDRO), "--set", "spacing=0.04", "--from-state",
                          path, "--out", dir, "--quiet", NULL};
    char *msg = NULL;
    cr_assert_eq(run_vbc(args, &msg), 2, "%s", msg ? msg : "");
    cr_assert(msg && strstr(msg, "particle 3: expected finite values and a position inside the "
                                 "state's domain"), "%s", msg ? msg : "");
    free(msg);
  }
}
