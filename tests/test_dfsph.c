/* test_dfsph.c — DFSPH behind the seam (Bender & Koschier 2015, 2017): the dfsph block
 * (solvers/blocks/dfsph.c) under the dfsph_jacobi solver (solvers/schemes/dfsph_jacobi.c) and the
 * dfsph coupler (couplers/dfsph.c). The divergence solve removes a compressing block's velocity
 * divergence to its tolerance and leaves an expanding one alone; the constant-density solve keeps
 * a collapsing 2D column's average density error below eta in every step; a still tank stays
 * still; a run is bit-identical on 1 and 2 threads; a floating box floats near Archimedes; bad
 * keys and a wrong fluid block exit 2; the block's own residual and apply passes (its sums in
 * another order, dfsph_passes.c) equal sph_density's to round-off; the warm start's residual pass
 * serves as the solve's reference with the bits of a fresh one; the kernel values the rows'
 * prepare leaves for XSPH are the kernel's, and XSPH reads them only for the lists they belong
 * to; the divergence rows' neighbour count within H is the lists'. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/constraint.h"
#include "core/kernel.h"
#include "core/viscosity_sph.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/dfsph_passes.h"
#include "solvers/schemes/schemes.h"
#include "support.h"

static const double L = 0.02, DT = 0.001, RHO0 = 1000.0;

typedef struct fixture {
  vbc_particles p;
  vbc_grid grid;
  vbc_neighbors nbrs;
  vbc_system sys;
  vbc_block block;
} fixture;

/* A 2D block of n x n fluid particles (no walls) moving with v = rate (x - centre): rate < 0
 * compresses it, rate > 0 expands it; the dfsph block's divergence rows on it (with or without
 * its warm start), prepared. */
static void setup_block_warm(fixture *f, int n, double rate, int warm) {
  vbc_error err = {0};
  memset(f, 0, sizeof *f);
  const double H = 2.0 * L;
  const vbc_vec centre = vbc_vec_make(0.5 * n * L, 0.5 * n * L, 0);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const vbc_vec x = vbc_vec_make((a + 0.5) * L, (b + 0.5) * L, 0);
      cr_assert_geq(vbc_particles_add(&f->p, x, vbc_vec_scale(vbc_vec_sub(x, centre), rate),
                                      VBC_FLUID, -1, &err), 0, "%s", err.message);
    }
  f->sys = (vbc_system){.dim = 2, .dt = DT, .spacing = L, .density = RHO0,
                        .fluid_mass = RHO0 * L * L, .re = H,
                        .sph = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, H, 2),
                        .particles = &f->p, .grid = &f->grid, .nbrs = &f->nbrs};
  cr_assert_eq(vbc_grid_build(&f->grid, f->p.pos, f->p.n, 2, H, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&f->nbrs, &f->grid, f->p.pos, H, &err), 0);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "rows", "divergence");
  cJSON_AddBoolToObject(params, "warm_start", warm);
  cr_assert_eq(vbc_block_init(&f->block, &vbc_block_dfsph, params, &f->sys, "fluid", &err), 0,
               "%s", err.message);
  cJSON_Delete(params);
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0);
}

static void setup_block(fixture *f, int n, double rate) { setup_block_warm(f, n, rate, 0); }

static void teardown(fixture *f) {
  vbc_block_free(&f->block);
  vbc_grid_free(&f->grid);
  vbc_neighbors_free(&f->nbrs);
  vbc_particles_free(&f->p);
}

/* SPlisHSPlasH's divergence error, recomputed here from the rows' residual r = D rho_i/Dt (b = 0)
 * rather than through the block's error_sum: the sum over non-inert fluid rows of
 * max(h r / rho0, 0), over all fluid rows. */
static double divergence_error(fixture *f) {
  vbc_block *blocks[1] = {&f->block};
  vbc_problem pb = {&f->sys, blocks, 1};
  vbc_problem_residual(&pb, NULL);
  const vbc_rows *r = &f->block.rows;
  double sum = 0.0;
  for (size_t k = 0; k < r->n; ++k)
    if (r->diag[k] > 0.0 && r->residual[k] > 0.0) sum += DT * r->residual[k] / RHO0;
  return sum / (double)r->n;
}

static vbc_solve_result solve(fixture *f, double error_tolerance) {
  vbc_error err = {0};
  cJSON *sp = cJSON_CreateObject();
  cJSON_AddNumberToObject(sp, "error_tolerance", error_tolerance);
  cJSON_AddNumberToObject(sp, "min_iterations", 1);
  cJSON_AddNumberToObject(sp, "max_iterations", 1000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, &vbc_solver_dfsph_jacobi, sp, &err), 0, "%s", err.message);
  vbc_block *blocks[1] = {&f->block};
  vbc_problem pb = {&f->sys, blocks, 1};
  vbc_solve_result res;
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), 0, "%s", err.message);
  vbc_solver_free(&s);
  cJSON_Delete(sp);
  return res;
}

/* A 16 x 16 block compressing at 1/s: h D rho/Dt / rho0 = 2e-3 per particle inside (div v = -2/s),
 * less at the rim, whose rows with fewer than 7 neighbours are inert; DFSPH's solve brings the
 * mean under eta_v = 1e-4 (measured: 1.65e-3 before, 8.5e-5 after 17 iterations). The same
 * block expanding violates no row: the solve changes no velocity at all (DFSPH corrects only
 * compressing divergence). */
Test(dfsph, divergence_solve_removes_a_compression) {
  fixture f;
  setup_block(&f, 16, -1.0);
  const double before = divergence_error(&f);
  cr_assert_gt(before, 1e-3, "compression before the solve: %g", before);
  vbc_solve_result res = solve(&f, 1e-4);
  const double after = divergence_error(&f);
  cr_assert_eq(res.reason, VBC_STOP_ERROR, "stopped by %s", vbc_stop_reason_name(res.reason));
  cr_assert_lt(after, 1e-4, "divergence error %g after %d iterations", after, res.iterations);
  cr_assert_float_eq(after, res.mean_error, 1e-15, "the block's measure %g", res.mean_error);
  teardown(&f);

  setup_block(&f, 16, 1.0);
  vbc_vec *before_v = malloc(f.p.n * sizeof *before_v);
  cr_assert_not_null(before_v);
  memcpy(before_v, f.p.vel, f.p.n * sizeof *before_v);
  cr_assert_eq(divergence_error(&f), 0.0);
  solve(&f, 1e-4);
  cr_assert_eq(memcmp(before_v, f.p.vel, f.p.n * sizeof *before_v), 0,
               "an expanding block's velocities changed");
  free(before_v);
  teardown(&f);
}

/* The warm start's residual pass (on the velocities the solve starts from) is the solve's
 * reference: prepare leaves it in rows.residual with residual_known, the same bits as a fresh
 * pass, and vbc_solve takes it instead of passing over the rows again. A warm-started solve that
 * takes it and one made to recompute it (residual_known cleared) end with the same bits. */
Test(dfsph, warm_start_residual_is_the_reference) {
  fixture f[2];
  for (int k = 0; k < 2; ++k) {
    setup_block_warm(&f[k], 16, -1.0, 1);
    vbc_rows *rows = &f[k].block.rows;
    cr_assert_eq(rows->residual_known, 1);
    double *fresh = malloc(rows->n * sizeof *fresh);
    cr_assert_not_null(fresh);
    f[k].block.type->residual(f[k].block.state, &f[k].sys, rows, fresh);
    cr_assert_eq(memcmp(fresh, rows->residual, rows->n * sizeof *fresh), 0);
    free(fresh);
    vbc_vec *v0 = malloc(f[k].p.n * sizeof *v0);
    cr_assert_not_null(v0);
    memcpy(v0, f[k].p.vel, f[k].p.n * sizeof *v0);
    solve(&f[k], 1e-4);
    cr_assert_eq(rows->residual_known, 0, "vbc_solve clears the flag");
    f[k].block.type->finish(f[k].block.state, &f[k].sys, rows); /* keeps the warm start */
    memcpy(f[k].p.vel, v0, f[k].p.n * sizeof *v0); /* compressing again: rows start violated */
    free(v0);
    vbc_error err = {0};
    cr_assert_eq(f[k].block.type->prepare(f[k].block.state, &f[k].sys, rows, &err), 0);
    size_t warmed = 0;
    for (size_t r = 0; r < rows->n; ++r) warmed += rows->impulse[r] > 0.0;
    cr_assert_gt(warmed, rows->n / 2, "warm-started rows: %zu of %zu", warmed, rows->n);
  }
  f[1].block.rows.residual_known = 0; /* the second makes the reference pass itself */
  const vbc_solve_result a = solve(&f[0], 1e-4), b = solve(&f[1], 1e-4);
  cr_assert_eq(a.iterations, b.iterations);
  cr_assert_eq(memcmp(&a.residual_ref, &b.residual_ref, sizeof a.residual_ref), 0);
  cr_assert_eq(memcmp(&a.residual, &b.residual, sizeof a.residual), 0);
  cr_assert_eq(memcmp(f[0].block.rows.impulse, f[1].block.rows.impulse,
                      f[0].block.rows.n * sizeof(double)), 0);
  cr_assert_eq(memcmp(f[0].p.vel, f[1].p.vel, f[0].p.n * sizeof(vbc_vec)), 0);
  teardown(&f[0]), teardown(&f[1]);
}

/* The error measures on density rows of a block at rest with a free surface all round: the
 * interior is at rho0 (the lattice volume makes it exact), the rim is short of neighbours and
 * under-dense. compression (SPlisHSPlasH's) counts only positive errors: about 0; average (the
 * papers' rho_avg - rho0) counts the rim's deficit: negative; active_rows counts the |error| of
 * rows whose impulse could still move, and a clamped under-dense row cannot: about 0 too, while
 * the same block compressed shows the same positive error under compression and average. */
static double measure(fixture *f, const char *name) {
  vbc_error err = {0};
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "error_measure", name);
  cJSON_AddBoolToObject(params, "warm_start", 0);
  vbc_block b;
  cr_assert_eq(vbc_block_init(&b, &vbc_block_dfsph, params, &f->sys, "fluid", &err), 0, "%s",
               err.message);
  cJSON_Delete(params);
  cr_assert_eq(b.type->prepare(b.state, &f->sys, &b.rows, &err), 0);
  vbc_block *blocks[1] = {&b};
  vbc_problem pb = {&f->sys, blocks, 1};
  vbc_problem_residual(&pb, NULL);
  const double e = vbc_problem_mean_error(&pb, NULL);
  vbc_block_free(&b);
  return e;
}

Test(dfsph, error_measures_follow_their_definitions) {
  fixture f;
  setup_block(&f, 12, 0.0);
  const double compression = measure(&f, "compression"), average = measure(&f, "average");
  cr_assert_lt(fabs(compression), 1e-12, "compression %g", compression);
  cr_assert_lt(average, -1e-2, "average %g: the rim's deficit", average);
  cr_assert_lt(fabs(measure(&f, "active_rows")), 1e-12);
  teardown(&f);
  setup_block(&f, 12, -1.0); /* compressing: every row's error is >= 0 */
  const double c = measure(&f, "compression"), a = measure(&f, "average");
  cr_assert_gt(c, 1e-4);
  cr_assert_lt(a, c, "the rim's deficit still counts under average");
  teardown(&f);
}

/* A 0.3 x 0.6 m water column collapsing in a 1 m tank (l = 0.02, h = 1 ms, 0.2 s) under the
 * dfsph coupler with eta = 0.01 %: every constant-density solve stops on its error test (none on
 * max_iterations) with the average density error (SPlisHSPlasH's definition) below eta, and the
 * divergence solve below eta_v = 0.1 %. Measured: up to 0.99992e-4, 5.5 iterations a step (at
 * most 16); the divergence solve up to 2.5e-4. */
static const char column_scene[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.001, \"end\": 0.2},"
    " \"fluid\": {\"xsph\": 0.01},"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.3, 0.6]},"
    "  {\"type\": \"tank\", \"min\": [0, 0], \"max\": [1.0, 0.8]}],"
    " \"method\": {\"coupler\": \"dfsph\"}}";

Test(dfsph, density_solve_keeps_a_column_below_eta, .timeout = 300) {
  const char *scene = write_text(test_dir("dfsph_column_scene"), "scene.json", column_scene);
  cJSON *s = run_scene("dfsph_column", scene, SETS("time.output_interval=0.1"), 1);
  const double eta = json_number(s, "scene.method.fluid.error_tolerance");
  const double eta_v = json_number(s, "scene.method.divergence.error_tolerance");
  cr_assert_float_eq(eta, 1e-4, 1e-15);
  cr_assert_float_eq(eta_v, 1e-3, 1e-15);
  cr_assert_eq(json_number(s, "solver.stages.1.stop_reasons.max_iterations"), 0.0);
  cr_assert_eq(json_number(s, "solver.stages.1.stop_reasons.error_tolerance"), 200.0);
  const double worst = json_number(s, "solver.stages.1.final_mean_error_max");
  cr_assert_leq(worst, eta, "average density error up to %g", worst);
  cr_assert_gt(json_number(s, "solver.stages.1.iterations_mean"), 2.0, "never worked");
  cr_assert_leq(json_number(s, "solver.stages.0.final_mean_error_max"), eta_v);
  /* the warm start (half the previous step's kappa) saves iterations: measured 5.5 a step with
   * it, 9.8 from zero */
  cJSON *cold = run_scene("dfsph_column_cold", scene,
                          SETS("time.output_interval=0.1", "method.fluid.warm_start=false"), 2);
  const double warm_it = json_number(s, "solver.stages.1.iterations_mean");
  const double cold_it = json_number(cold, "solver.stages.1.iterations_mean");
  cr_assert_gt(cold_it, 1.5 * warm_it, "iterations: warm %g, cold %g", warm_it, cold_it);
  cr_assert_leq(json_number(cold, "solver.stages.1.final_mean_error_max"), eta);
  cJSON_Delete(cold);
  cJSON_Delete(s);
}

/* The hydrostatic tank of Miyamoto §5.2 (l = 0.02) under DFSPH for 0.5 s: the water stays at rest
 * and at its depth. Measured: largest speed 0.020 m/s, free surface 0.5998 m, mean density
 * deviation 1.7e-4. */
Test(dfsph, still_tank_stays_still, .timeout = 300) {
  cJSON *s = run_scene("dfsph_still", source_path("experiments/scenes/hydrostatic.json"),
                       SETS("method={\"coupler\": \"dfsph\"}", "time.end=0.5"), 2);
  char series[1200];
  snprintf(series, sizeof series, "%s/dfsph_still.%ld/out/series.csv", VBC_TEST_TMP,
           (long)getpid());
  char *text = read_text(series);
  cr_assert_not_null(text);
  /* the largest max_speed over the output times (the series' 7th column) */
  double worst = 0.0;
  for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
    const char *field = line + 1;
    for (int c = 0; c < 6 && field; ++c) field = strchr(field, ',') ? strchr(field, ',') + 1 : NULL;
    cr_assert_not_null(field);
    worst = fmax(worst, atof(field));
  }
  free(text);
  cr_assert_lt(worst, 0.05, "largest speed %g m/s", worst);
  cr_assert_lt(fabs(json_number(s, "metrics.free_surface_height") - 0.6), 0.002);
  cr_assert_lt(json_number(s, "metrics.mean_density_deviation"), 1e-3);
  cJSON_Delete(s);
}

/* SPlisHSPlasH's dam break (6859 fluid particles, 33 072 wall particles: every pass of the block
 * runs in parallel) for 0.1 s under DFSPH: series.csv and convergence.csv identical on 1 and 2
 * threads (all but the wall-clock seconds). */
Test(dfsph, one_and_two_threads_give_identical_files, .timeout = 300) {
  char *text[2][2];
  for (int t = 0; t < 2; ++t) {
    const char *dir = test_dir(t ? "dfsph_thr2" : "dfsph_thr1");
    char out[1100];
    snprintf(out, sizeof out, "%s/out", dir);
    const char *scene = source_path("experiments/scenes/bench_splishsplash_dambreak_3d.json");
    const char *args[] = {"run", scene,
                          "--set", "method={\"coupler\": \"dfsph\"}", "--set", "time.end=0.1",
                          "--set", "time.output_interval=0.004",
                          "--set", "output.convergence_every=5",
                          "--threads", t ? "2" : "1", "--quiet", "--out", out, NULL};
    char *err = NULL;
    cr_assert_eq(run_vbc(args, &err), 0, "%s", err ? err : "");
    free(err);
    text[t][0] = read_text(path_in(out, "series.csv"));
    text[t][1] = read_text(path_in(out, "convergence.csv"));
    cr_assert(text[t][0] && text[t][1]);
    strip_last_field(text[t][1]);
  }
  cr_assert_str_eq(text[0][0], text[1][0], "series.csv differs");
  cr_assert_str_eq(text[0][1], text[1][1], "convergence.csv differs");
  for (int t = 0; t < 2; ++t) free(text[t][0]), free(text[t][1]);
}

/* Miyamoto & Koshizuka §5.5's floating box at l = 0.04, density ratio 0.5, under DFSPH with
 * Akinci's two-way coupling after both solves. Measured: submerged ratio 0.479 (error 0.021)
 * after 3 s. */
Test(dfsph, box_floats_near_archimedes, .timeout = 600,
     LONG_PHYSICS /* the sanitizers: still_tank_stays_still, and test_compatibility_walk's dfsph
                     cells, where the coupler holds a box up */) {
  cJSON *s = run_scene("dfsph_buoyancy", source_path("experiments/scenes/buoyancy.json"),
                       SETS("spacing=0.04", "method={\"coupler\": \"dfsph\"}"), 2);
  const double err = json_number(s, "metrics.submerged_error");
  cr_assert_lt(err, 0.04, "submerged error %g", err);
  cJSON_Delete(s);
}

/* A 3D block of n^3 fluid particles on a jittered lattice with a swirling, compressing velocity
 * field, its lists and an sph_density block's rows on it: the operator both dfsph passes must
 * reproduce. */
static void setup_cube(fixture *f, int n) {
  vbc_error err = {0};
  memset(f, 0, sizeof *f);
  const double H = 2.0 * L;
  unsigned seed = 7u;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c) {
        double jitter[6];
        for (int k = 0; k < 6; ++k) {
          seed = seed * 1103515245u + 12345u;
          jitter[k] = (double)(seed >> 8) / (double)(1u << 24) - 0.5;
        }
        const vbc_vec x = vbc_vec_make((a + 0.1 * jitter[0]) * L, (b + 0.1 * jitter[1]) * L,
                                       (c + 0.1 * jitter[2]) * L);
        const vbc_vec v = vbc_vec_make(-x.y + 0.3 * jitter[3], x.x - x.z + 0.3 * jitter[4],
                                       -2.0 * x.z + 0.3 * jitter[5]);
        cr_assert_geq(vbc_particles_add(&f->p, x, v, VBC_FLUID, -1, &err), 0, "%s", err.message);
      }
  f->sys = (vbc_system){.dim = 3, .dt = DT, .spacing = L, .density = RHO0,
                        .fluid_mass = RHO0 * L * L * L, .re = H,
                        .sph = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, H, 3),
                        .particles = &f->p, .grid = &f->grid, .nbrs = &f->nbrs};
  cr_assert_eq(vbc_grid_build(&f->grid, f->p.pos, f->p.n, 3, H, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&f->nbrs, &f->grid, f->p.pos, H, &err), 0);
  cJSON *params = cJSON_CreateObject();
  cr_assert_eq(vbc_block_init(&f->block, &vbc_block_sph_density, params, &f->sys, "fluid", &err),
               0, "%s", err.message);
  cJSON_Delete(params);
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0);
}

/* The dfsph block's own passes (dfsph_passes.c) against sph_density's on the same rows: the same
 * operator summed in another order, so equal to round-off (1e-13 of the largest value), with the
 * volume factored out or not; the AVX-512VL form, where the processor has it, the plain form's
 * bits. */
Test(dfsph, own_passes_match_sph_density) {
  fixture f;
  setup_cube(&f, 7);
  vbc_sph_rows_view view;
  vbc_sph_density_view(f.block.state, &view);
  const vbc_rows *rows = &f.block.rows;
  const size_t n = rows->n, np = f.p.n;
  cr_assert_gt(n, 300);
  cr_assert(vbc_dfsph_uniform_volume(&view, np));
  double *ref = calloc(n, sizeof *ref), *res = calloc(n, sizeof *res), *d = calloc(n, sizeof *d);
  vbc_vec *v0 = calloc(np, sizeof *v0), *vref = calloc(np, sizeof *vref);
  cr_assert(ref && res && d && v0 && vref);
  vbc_block_sph_density.residual(f.block.state, &f.sys, rows, ref);
  double size = 0.0;
  for (size_t k = 0; k < n; ++k) size = fmax(size, fabs(ref[k]));
  cr_assert_gt(size, 0.0);
  const int wide_here = vbc_dfsph_wide_available();
  for (int uniform = 0; uniform <= 1; ++uniform)
    for (int wide = 0; wide <= wide_here; ++wide) {
      vbc_dfsph_residual_pass(&view, &f.sys, rows, uniform, wide, res);
      for (size_t k = 0; k < n; ++k)
        cr_assert_leq(fabs(res[k] - ref[k]), 1e-13 * size, "row %zu (uniform %d, wide %d): "
                      "%.17g against %.17g", k, uniform, wide, res[k], ref[k]);
    }
  double *plain = calloc(n, sizeof *plain);
  cr_assert(plain);
  vbc_dfsph_residual_pass(&view, &f.sys, rows, 1, 0, plain);
  if (wide_here) {
    vbc_dfsph_residual_pass(&view, &f.sys, rows, 1, 1, res);
    cr_assert_eq(memcmp(plain, res, n * sizeof *res), 0, "AVX-512VL residual: other bits");
  }
  for (size_t k = 0; k < n; ++k) d[k] = (k % 3 == 1 ? 0.0 : 1e-3 * (double)(k % 11)) / RHO0;
  memcpy(v0, f.p.vel, np * sizeof *v0);
  vbc_block_sph_density.apply(f.block.state, &f.sys, rows, d);
  memcpy(vref, f.p.vel, np * sizeof *vref);
  double vsize = 0.0;
  for (size_t i = 0; i < np; ++i) vsize = fmax(vsize, vbc_vec_norm(vbc_vec_sub(vref[i], v0[i])));
  cr_assert_gt(vsize, 0.0);
  vbc_vec *vplain = calloc(np, sizeof *vplain);
  cr_assert(vplain);
  for (int wide = 0; wide <= wide_here; ++wide) {
    memcpy(f.p.vel, v0, np * sizeof *v0);
    vbc_dfsph_apply_pass(&view, &f.sys, wide, d);
    for (size_t i = 0; i < np; ++i)
      cr_assert_leq(vbc_vec_norm(vbc_vec_sub(f.p.vel[i], vref[i])), 1e-13 * vsize,
                    "particle %zu (wide %d)", i, wide);
    if (wide == 0) memcpy(vplain, f.p.vel, np * sizeof *vplain);
    else cr_assert_eq(memcmp(vplain, f.p.vel, np * sizeof *vplain), 0,
                      "AVX-512VL apply: other bits");
  }
  free(ref), free(res), free(d), free(v0), free(vref), free(plain), free(vplain);
  teardown(&f);
}

Test(dfsph, bad_keys_exit_2) {
  expect_bad_input("dfsph_bad_measure", base_scene,
                   SETS("method.coupler=dfsph", "method.fluid.error_measure=positive_pressure"),
                   FRAGMENTS("method.fluid.error_measure", "compression"));
  expect_bad_input("dfsph_bad_tolerance", base_scene,
                   SETS("method.coupler=dfsph", "method.divergence.error_tolerance=2"),
                   FRAGMENTS("method.divergence.error_tolerance"));
  expect_bad_input("dfsph_bad_neighbours", base_scene,
                   SETS("method.coupler=dfsph", "method.fluid.divergence_min_neighbours=-3"),
                   FRAGMENTS("method.fluid.divergence_min_neighbours"));
  expect_bad_input("dfsph_bad_key", base_scene,
                   SETS("method.coupler=dfsph", "method.divergence.eta_v=0.001"),
                   FRAGMENTS("method.divergence", "eta_v"));
}

/* The coupler needs the dfsph block's two row modes: another fluid block is refused with exit 2
 * naming the key; DFSPH's solver refuses bilateral rows (sph_density's equality form). */
Test(dfsph, wrong_blocks_exit_2) {
  const char *scene = write_text(test_dir("dfsph_wrong"), "scene.json", base_scene);
  const char *cases[][3] = {
      {"method.fluid.constraint=sph_density", "method.fluid.constraint", "\"sph_density\""},
      {"method.fluid.constraint=mps", "method.fluid.constraint", "\"mps\""}};
  for (int c = 0; c < 2; ++c) {
    char *err = NULL;
    const int code = run_vbc((const char *[]){"run", scene, "--quiet", "--out",
                                              test_dir("dfsph_wrong_out"), "--set",
                                              "method.coupler=dfsph", "--set", cases[c][0], NULL},
                             &err);
    cr_assert_eq(code, 2, "exit %d: %s", code, err ? err : "");
    cr_assert(err && strstr(err, "scene.json") && strstr(err, cases[c][1]) &&
                  strstr(err, cases[c][2]),
              "message: %s", err ? err : "");
    free(err);
  }
  char *err = NULL;
  const int code = run_vbc(
      (const char *[]){"run", scene, "--quiet", "--out", test_dir("dfsph_wrong_out"), "--set",
                       "method.coupler=akinci", "--set", "method.fluid.constraint=sph_density",
                       "--set", "method.fluid.equality=true", "--set",
                       "method.fluid.solver=dfsph_jacobi", NULL},
      &err);
  cr_assert_eq(code, 2, "exit %d: %s", code, err ? err : "");
  cr_assert(err && strstr(err, "method.fluid.solver") && strstr(err, "\"sph_density\"") &&
                strstr(err, "bilateral"),
            "message: %s", err ? err : "");
  free(err);
}

/* XSPH on the block's particles, acc zeroed first. */
static void xsph(fixture *f, vbc_vec *acc) {
  memset(acc, 0, f->p.n * sizeof *acc);
  vbc_xsph_add(&f->sys, 0.01, acc);
}

/* The prepare leaves W_ij of every pair of the fluid's lists (vbc_system.pair_w) with the kernel's
 * bits, for this build of the lists; XSPH with them gives the bits it gives with the kernel, and
 * does not read them once the lists are rebuilt. */
Test(dfsph, prepare_leaves_the_kernel_values_for_xsph) {
  fixture f;
  setup_block(&f, 12, -1.0);
  const vbc_neighbors *nb = &f.nbrs;
  cr_assert_not_null(f.sys.pair_w);
  cr_assert_eq(f.sys.pair_w_build, nb->build);
  for (size_t i = 0; i < f.p.n; ++i)
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      cr_assert(f.sys.pair_w[q] == vbc_sph_W(&f.sys.sph, nb->dist[q]), "pair %zu", q);
  vbc_vec *with = calloc(f.p.n, sizeof *with), *without = calloc(f.p.n, sizeof *without);
  double *poison = calloc(nb->npairs, sizeof *poison);
  cr_assert(with && without && poison);
  xsph(&f, with);
  f.sys.pair_w = NULL;
  xsph(&f, without);
  cr_assert_eq(memcmp(with, without, f.p.n * sizeof *with), 0, "XSPH: other bits with pair_w");
  double largest = 0.0;
  for (size_t i = 0; i < f.p.n; ++i) largest = fmax(largest, vbc_vec_norm(without[i]));
  cr_assert_gt(largest, 0.0);
  for (size_t q = 0; q < nb->npairs; ++q) poison[q] = 1.0;
  f.sys.pair_w = poison; /* values of these lists: read */
  xsph(&f, with);
  cr_assert_neq(memcmp(with, without, f.p.n * sizeof *with), 0, "pair_w not read");
  vbc_error err = {0};
  cr_assert_eq(vbc_neighbors_build(&f.nbrs, &f.grid, f.p.pos, f.sys.sph.H, &err), 0);
  cr_assert_eq(nb->build, f.sys.pair_w_build + 1);
  xsph(&f, with); /* the lists rebuilt: the values of the old ones are not read */
  cr_assert_eq(memcmp(with, without, f.p.n * sizeof *with), 0, "stale pair_w read");
  free(with), free(without), free(poison);
  teardown(&f);
}

/* The divergence rows of particles with fewer than 7 neighbours within H (2D; counted by
 * sph_density's prepare) are inert, every other row is not: the count is the lists'. */
Test(dfsph, divergence_rows_count_the_neighbours_within_h) {
  fixture f;
  setup_block(&f, 12, -1.0);
  const vbc_neighbors *nb = &f.nbrs;
  cr_assert_eq(f.block.rows.n, f.p.n); /* fluid only: row r is particle r */
  size_t sparse = 0;
  for (size_t r = 0; r < f.block.rows.n; ++r) {
    size_t n = 0;
    for (size_t q = nb->start[r]; q < nb->start[r + 1]; ++q) n += nb->dist[q] < f.sys.sph.H;
    sparse += n < 7;
    cr_assert_eq(f.block.rows.diag[r] == 0.0, n < 7, "row %zu: %zu neighbours", r, n);
  }
  cr_assert_gt(sparse, 0); /* the rim */
  teardown(&f);
}
