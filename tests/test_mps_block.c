/* test_mps_block.c — the MPS-LCP incompressibility block (Miyamoto eq. 15-41) through the
 * constraint interface: one solve on a compressed lattice, consistency of the matrix-free passes
 * with the assembled Jacobian, PGS against the same LCP assembled as a matrix. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "core/parallel.h"
#include "scene/generate.h"
#include "registry/registry.h"
#include "solvers/blocks/lcp_matrix.h"
#include "solvers/blocks/blocks.h"
#include "solvers/schemes/schemes.h"
#include "tests/block_fixture.h"
#include "support.h"

typedef block_fixture fixture;

/* A 2D block of nx x ny fluid particles on a lattice of spacing `squeeze` l (compressed when
 * < 1) resting in a tank, at rest, with gravity already applied to u* when `gravity` is set. */
static void setup_scaled(fixture *f, int nx, int ny, double squeeze, int wall_pressure,
                         int gravity, double n0_scale) {
  vbc_error err = {0};
  const double l = 0.02, dt = 0.001;
  memset(f, 0, sizeof *f);
  vbc_vec lo = vbc_vec_zero(), hi = vbc_vec_make(nx * l * squeeze, ny * l * squeeze, 0);
  cr_assert_eq(vbc_generate_fluid_box(&f->p, 2, l * squeeze, lo, hi, vbc_vec_zero(), 0, &err), 0);
  cr_assert_eq(vbc_generate_tank(&f->p, 2, l, vbc_vec_zero(),
                                 vbc_vec_make(nx * l, (ny + 2) * l, 0), 3, 0, &err), 0);
  block_fixture_system(f, 2, l, dt, 2.1 * l, (vbc_sph_kernel){0});
  if (gravity)
    for (size_t i = 0; i < f->p.n; ++i)
      if (f->p.kind[i] == VBC_FLUID) f->p.vel[i].y = -10.0 * dt;
  block_fixture_neighbours(f, f->sys.re);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddBoolToObject(params, "wall_pressure", wall_pressure);
  cJSON_AddNumberToObject(params, "n0_scale", n0_scale);
  block_fixture_block(f, &vbc_block_mps, params);
  cJSON_Delete(params);
}

static void setup_sized(fixture *f, int nx, int ny, double squeeze, int wall_pressure,
                        int gravity) {
  setup_scaled(f, nx, ny, squeeze, wall_pressure, gravity, 1.0);
}

static void setup(fixture *f, double squeeze, int wall_pressure, int gravity) {
  setup_sized(f, 12, 10, squeeze, wall_pressure, gravity);
}

static void teardown(fixture *f) { block_fixture_free(f); }

static vbc_solve_result run_solver(fixture *f, const char *name, double omega, double tol) {
  return solve_block(&f->sys, &f->block, name, omega, tol, 0.0); /* the residual test */
}

Test(mps_block, one_step_on_a_compressed_lattice_gives_nonnegative_pressure_and_less_divergence) {
  fixture f;
  setup(&f, 0.97, 1, 0);
  vbc_solve_result res = run_solver(&f, "pgs", 1.0, 1e-8);
  f.block.type->finish(f.block.state, &f.sys, &f.block.rows);
  cr_assert_eq(res.reason, VBC_STOP_TOLERANCE);
  cr_assert_lt(res.residual, 1e-6 * res.residual_ref);
  size_t positive = 0, fluid = 0;
  for (size_t i = 0; i < f.p.n; ++i) {
    cr_assert_geq(f.p.pressure[i], 0.0);
    if (f.p.kind[i] != VBC_FLUID) continue;
    fluid++;
    positive += f.p.pressure[i] > 0.0;
    cr_assert_gt(f.p.number_density[i], 0.0);
  }
  cr_assert_gt(positive, fluid / 2, "a compressed block pushes back: %zu of %zu", positive, fluid);
  /* the compressed fluid now expands: its velocity divergence (-dn/dt) is positive on average */
  double expansion = 0.0;
  double *r = malloc(f.block.rows.n * sizeof *r);
  f.block.type->residual(f.block.state, &f.sys, &f.block.rows, r);
  for (size_t k = 0; k < f.block.rows.n; ++k) expansion += f.block.rows.target[k] - r[k];
  cr_assert_gt(expansion, 0.0);
  free(r);
  teardown(&f);
}

Test(mps_block, matrix_free_passes_agree_with_the_assembled_jacobian) {
  fixture f;
  setup(&f, 0.97, 1, 1);
  const size_t n = f.block.rows.n;
  vbc_sparse J = {0};
  vbc_error err = {0};
  cr_assert_eq(f.block.type->jacobian(f.block.state, &f.sys, &J, &err), 0);
  cr_assert_eq(J.nrows, n);
  double *r0 = malloc(n * sizeof *r0), *r1 = malloc(n * sizeof *r1), *e = calloc(n, sizeof *e);
  double *Jv = calloc(n, sizeof *Jv);
  for (size_t k = 0; k < n; k += 7) { /* columns of A = J M^-1 J^T, every 7th */
    f.block.type->residual(f.block.state, &f.sys, &f.block.rows, r0);
    e[k] = 1.0;
    f.block.type->apply(f.block.state, &f.sys, &f.block.rows, e);
    f.block.type->residual(f.block.state, &f.sys, &f.block.rows, r1);
    e[k] = 0.0;
    /* column k assembled: sum over dofs J_i,d (1/m_d) J_k,d */
    for (size_t i = 0; i < n; ++i) {
      double a = 0.0;
      for (size_t p = J.start[i]; p < J.start[i + 1]; ++p)
        for (size_t q = J.start[k]; q < J.start[k + 1]; ++q)
          if (J.col[p] == J.col[q])
            a += J.val[p] * J.val[q] * vbc_system_inv_mass(&f.sys, J.col[p] / 2);
      cr_assert_float_eq(r0[i] - r1[i], a, 1e-9 * (1.0 + fabs(a)), "A[%zu][%zu]", i, k);
      if (i == k) cr_assert_float_eq(f.block.rows.diag[k], a, 1e-9 * a);
    }
  }
  /* the residual pass is b - J v with the assembled J */
  f.block.type->residual(f.block.state, &f.sys, &f.block.rows, r0);
  for (size_t i = 0; i < n; ++i) {
    double jv = 0.0;
    for (size_t p = J.start[i]; p < J.start[i + 1]; ++p)
      jv += J.val[p] * vbc_vec_get(f.p.vel[J.col[p] / 2], (int)(J.col[p] % 2));
    cr_assert_float_eq(r0[i], f.block.rows.target[i] - jv, 1e-9);
  }
  free(r0), free(r1), free(e), free(Jv);
  vbc_sparse_free(&J);
  teardown(&f);
}

/* Assemble A and q = -(b - J u*) and solve LCP(A, q) as a matrix: the same impulses. */
Test(mps_block, pgs_and_jacobi_on_the_block_match_pgs_on_the_assembled_lcp) {
  fixture f;
  setup(&f, 1.0, 0, 1);
  const size_t n = f.block.rows.n;
  double *A = calloc(n * n, sizeof *A), *q = malloc(n * sizeof *q), *e = calloc(n, sizeof *e);
  double *r0 = malloc(n * sizeof *r0), *r1 = malloc(n * sizeof *r1);
  f.block.type->residual(f.block.state, &f.sys, &f.block.rows, r0);
  for (size_t k = 0; k < n; ++k) q[k] = -r0[k];
  vbc_vec *u = malloc(f.p.n * sizeof *u);
  memcpy(u, f.p.vel, f.p.n * sizeof *u);
  for (size_t k = 0; k < n; ++k) {
    e[k] = 1.0;
    f.block.type->apply(f.block.state, &f.sys, &f.block.rows, e);
    f.block.type->residual(f.block.state, &f.sys, &f.block.rows, r1);
    for (size_t i = 0; i < n; ++i) A[i * n + k] = r0[i] - r1[i];
    memcpy(f.p.vel, u, f.p.n * sizeof *u);
    e[k] = 0.0;
  }
  vbc_error err = {0};
  vbc_block mat;
  cr_assert_eq(vbc_lcp_matrix_block_init(&mat, n, A, q, &err), 0);
  cr_assert_eq(mat.type->prepare(mat.state, &f.sys, &mat.rows, &err), 0);
  cJSON *sp = cJSON_CreateObject();
  cJSON_AddNumberToObject(sp, "tolerance", 1e-13);
  cJSON_AddNumberToObject(sp, "max_iterations", 200000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, &vbc_solver_pgs, sp, &err), 0);
  vbc_block *blocks[1] = {&mat};
  vbc_problem pb = {&f.sys, blocks, 1};
  vbc_solve_result res;
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), 0);
  double zmax = 0.0;
  for (size_t k = 0; k < n; ++k) zmax = fmax(zmax, mat.rows.impulse[k]);
  cr_assert_gt(zmax, 0.0);
  run_solver(&f, "pgs", 1.0, 1e-13);
  for (size_t k = 0; k < n; ++k)
    cr_assert_float_eq(f.block.rows.impulse[k], mat.rows.impulse[k], 1e-6 * zmax, "row %zu", k);
  /* Jacobi converges to the same LCP solution on MPS rows only with a small relaxation */
  f.block.type->prepare(f.block.state, &f.sys, &f.block.rows, &err);
  memcpy(f.p.vel, u, f.p.n * sizeof *u);
  run_solver(&f, "jacobi", 0.2, 1e-11);
  for (size_t k = 0; k < n; ++k)
    cr_assert_float_eq(f.block.rows.impulse[k], mat.rows.impulse[k], 1e-4 * zmax, "row %zu", k);
  vbc_solver_free(&s);
  vbc_block_free(&mat);
  cJSON_Delete(sp);
  free(A), free(q), free(e), free(r0), free(r1), free(u);
  teardown(&f);
}

Test(mps_block, wall_rows_exist_only_when_asked_and_only_next_to_fluid) {
  fixture a, b;
  setup(&a, 1.0, 1, 0);
  setup(&b, 1.0, 0, 0);
  size_t fluid = vbc_particles_count(&a.p, VBC_FLUID), walls = vbc_particles_count(&a.p, VBC_WALL);
  cr_assert_eq(b.block.rows.n, fluid);
  cr_assert_gt(a.block.rows.n, fluid);
  cr_assert_lt(a.block.rows.n, fluid + walls, "the outer wall layers have no fluid neighbour");
  teardown(&a);
  teardown(&b);
}

/* n0_scale moves the fluid rows' target to (alpha/h)(n_i - scale n0) and leaves the wall rows
 * at n0: a wall's lattice cannot thin out, so a lower n0 there would press on the fluid for
 * ever. */
Test(mps_block, n0_scale_moves_the_fluid_rows_target_and_not_the_walls) {
  fixture a, b;
  setup_scaled(&a, 12, 10, 1.0, 1, 0, 1.0);
  setup_scaled(&b, 12, 10, 1.0, 1, 0, 0.98);
  const double n0 = vbc_mps_lattice_constants(2, 0.02, 2.1 * 0.02).n0;
  const double shift = 0.05 / a.sys.dt * 0.02 * n0; /* alpha = 0.05 */
  cr_assert_eq(a.block.rows.n, b.block.rows.n);
  size_t moved = 0, kept = 0;
  for (size_t r = 0; r < a.block.rows.n; ++r) {
    const double d = b.block.rows.target[r] - a.block.rows.target[r];
    if (fabs(d - shift) < 1e-9 * shift) ++moved;
    else if (d == 0.0) ++kept;
  }
  cr_assert_eq(moved, vbc_particles_count(&a.p, VBC_FLUID));
  cr_assert_eq(moved + kept, a.block.rows.n);
  cr_assert_gt(kept, 0);
  teardown(&a);
  teardown(&b);
}

/* Symmetric PGS (forward then backward sweep: SSOR) on the coloured MPS sweep: `iterations`
 * iterations from zero impulses (tolerance 0: the cap stops it), or to a tight tolerance. */
static void symmetric_pgs(fixture *f, int symmetric, int iterations, double *impulse) {
  vbc_error err = {0};
  cJSON *sp = cJSON_CreateObject();
  cJSON_AddBoolToObject(sp, "symmetric", symmetric);
  cJSON_AddNumberToObject(sp, "tolerance", iterations ? 1e-300 : 1e-13);
  cJSON_AddNumberToObject(sp, "max_iterations", iterations ? iterations : 200000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, &vbc_solver_pgs, sp, &err), 0);
  vbc_block *blocks[1] = {&f->block};
  vbc_problem pb = {&f->sys, blocks, 1};
  vbc_solve_result res;
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0);
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), 0, "%s", err.message);
  if (iterations) cr_assert_eq(res.reason, VBC_STOP_MAX_ITERATIONS);
  else cr_assert(res.reason == VBC_STOP_TOLERANCE || res.reason == VBC_STOP_ROUND_OFF);
  memcpy(impulse, f->block.rows.impulse, f->block.rows.n * sizeof *impulse);
  vbc_solver_free(&s);
  cJSON_Delete(sp);
}

/* On a tank large enough for the sweep to run its colours in parallel (forward, and reversed in
 * the backward half), the impulses are the same bit for bit with one and two threads. */
Test(mps_block, symmetric_pgs_is_the_same_for_any_thread_count) {
  fixture f;
  setup_sized(&f, 48, 44, 0.97, 1, 0);
  const size_t n = f.block.rows.n;
  cr_assert_gt(n, (size_t)VBC_PARALLEL_MIN / 2, "large enough for the parallel sweep");
  vbc_vec *u = malloc(f.p.n * sizeof *u);
  double *one = malloc(n * sizeof *one), *two = malloc(n * sizeof *two);
  memcpy(u, f.p.vel, f.p.n * sizeof *u);
  omp_set_num_threads(1);
  symmetric_pgs(&f, 1, 20, one);
  memcpy(f.p.vel, u, f.p.n * sizeof *u);
  omp_set_num_threads(2);
  symmetric_pgs(&f, 1, 20, two);
  cr_assert_eq(memcmp(one, two, n * sizeof *one), 0, "bit-identical for 1 and 2 threads");
  free(u), free(one), free(two);
  teardown(&f);
}

/* ... and it converges to the LCP solution forward PGS finds. */
Test(mps_block, symmetric_pgs_solves_the_same_lcp_as_forward_pgs) {
  fixture f;
  setup(&f, 0.97, 1, 1);
  const size_t n = f.block.rows.n;
  vbc_vec *u = malloc(f.p.n * sizeof *u);
  double *sym = malloc(n * sizeof *sym), *forward = malloc(n * sizeof *forward);
  memcpy(u, f.p.vel, f.p.n * sizeof *u);
  symmetric_pgs(&f, 1, 0, sym);
  memcpy(f.p.vel, u, f.p.n * sizeof *u);
  symmetric_pgs(&f, 0, 0, forward);
  double zmax = 0.0;
  for (size_t k = 0; k < n; ++k) zmax = fmax(zmax, forward[k]);
  cr_assert_gt(zmax, 0.0);
  for (size_t k = 0; k < n; ++k) cr_assert_float_eq(sym[k], forward[k], 1e-6 * zmax, "row %zu", k);
  free(u), free(sym), free(forward);
  teardown(&f);
}

/* PGS to a relative residual (tolerance 1e-4), untraced or traced; the impulses and the result. */
static vbc_solve_result pgs_to(fixture *f, int traced, double *impulse) {
  vbc_error err = {0};
  cJSON *sp = cJSON_CreateObject();
  cJSON_AddNumberToObject(sp, "tolerance", 1e-4);
  cJSON_AddNumberToObject(sp, "max_iterations", 5000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, &vbc_solver_pgs, sp, &err), 0);
  vbc_block *blocks[1] = {&f->block};
  vbc_problem pb = {&f->sys, blocks, 1};
  vbc_solve_result res;
  vbc_solve_trace trace = {0};
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0);
  cr_assert_eq(vbc_solve(&s, &pb, &res, traced ? &trace : NULL, &err), 0, "%s", err.message);
  memcpy(impulse, f->block.rows.impulse, f->block.rows.n * sizeof *impulse);
  vbc_solve_trace_free(&trace);
  vbc_solver_free(&s);
  cJSON_Delete(sp);
  return res;
}

/* An untraced PGS solve leaves out the residual pass after the sweeps while the residual they
 * saw is far above the bound (core/solve.c); a traced one makes every pass. Both stop at the
 * same iteration with the same impulses, bit for bit. */
Test(mps_block, pgs_without_some_residual_passes_stops_where_it_did_with_all) {
  fixture f;
  setup_sized(&f, 40, 30, 0.97, 1, 1);
  const size_t n = f.block.rows.n;
  vbc_vec *u = malloc(f.p.n * sizeof *u);
  double *some = malloc(n * sizeof *some), *all = malloc(n * sizeof *all);
  memcpy(u, f.p.vel, f.p.n * sizeof *u);
  const vbc_solve_result a = pgs_to(&f, 0, some);
  memcpy(f.p.vel, u, f.p.n * sizeof *u);
  const vbc_solve_result b = pgs_to(&f, 1, all);
  cr_assert_gt(b.iterations, 50, "a solve long enough to leave passes out");
  cr_assert_eq(a.iterations, b.iterations);
  cr_assert_eq(a.reason, VBC_STOP_TOLERANCE);
  cr_assert_eq(memcmp(&a.residual, &b.residual, sizeof a.residual), 0);
  cr_assert_eq(memcmp(some, all, n * sizeof *some), 0, "the same impulses");
  free(u), free(some), free(all);
  teardown(&f);
}
