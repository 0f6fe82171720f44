/* test_staggered.c — the staggered block (solvers/blocks/staggered/staggered.c; He et al., ACM Trans.
 * Graph. 31(6) 149, 2012) through the constraint interface: its assembled operator (eq. 12-13)
 * is symmetric with non-positive off-diagonal entries and is the one its matrix-free passes
 * iterate on; the free surface of eq. 25 on the hydrostatic lattice, a droplet and a blob; the
 * regions without surface of §5.2; the remap of eq. 19 against its normalised form on a linear
 * pressure, and the divergence it leaves; bad values of the block's keys. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "scene/generate.h"
#include "core/constraint.h"
#include "core/kernel.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/staggered/staggered.h"
#include "tests/block_fixture.h"
#include "support.h"

typedef block_fixture fixture;

static const double L = 0.02, DT = 0.001, RHO0 = 1000.0, H = 2.0 * 0.02;

/* A deterministic number in [-1, 1). */
static double jitter(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 23) - 1.0;
}

/* The system, neighbours and block rows over the particles f->p holds, with block parameters
 * `params` (NULL: none). */
static void build(fixture *f, const cJSON *params) {
  block_fixture_system(f, 2, L, DT, 2.5 * L, vbc_sph_kernel_make(VBC_SPH_WENDLAND_C2, H, 2));
  block_fixture_neighbours(f, H);
  block_fixture_block(f, &vbc_block_staggered, params);
}

/* nx x ny fluid particles on the lattice (plus `shake` l of jitter and velocities of up to
 * `speed` m/s), in a tank of `layers` wall layers (0: none), closed on top when `lid`; then the
 * block's rows with the given remap. */
static void setup(fixture *f, int nx, int ny, int layers, int lid, double shake, double speed,
                  const char *remap) {
  vbc_error err = {0};
  memset(f, 0, sizeof *f);
  const vbc_vec lo = vbc_vec_zero(), hi = vbc_vec_make(nx * L, ny * L, 0);
  cr_assert_eq(vbc_generate_fluid_box(&f->p, 2, L, lo, hi, vbc_vec_zero(), 0, &err), 0);
  if (layers > 0)
    cr_assert_eq(vbc_generate_tank(&f->p, 2, L, lo, vbc_vec_make(nx * L, (ny + 4) * L, 0),
                                   layers, 0, &err), 0);
  if (lid)
    for (int a = 0; a < nx; ++a)
      for (int b = 0; b < layers; ++b)
        cr_assert_geq(vbc_particles_add(&f->p, vbc_vec_make((a + 0.5) * L, (ny + b + 0.5) * L, 0),
                                        vbc_vec_zero(), VBC_WALL, 0, &err), 0);
  unsigned seed = 12345u;
  for (size_t i = 0; i < f->p.n; ++i) {
    if (f->p.kind[i] != VBC_FLUID) continue;
    f->p.pos[i].x += shake * L * jitter(&seed), f->p.pos[i].y += shake * L * jitter(&seed);
    f->p.vel[i] = vbc_vec_make(speed * jitter(&seed), speed * jitter(&seed), 0);
  }
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "remap", remap);
  build(f, params);
  cJSON_Delete(params);
}

static void teardown(fixture *f) { block_fixture_free(f); }

static size_t surface_count(const fixture *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->p.n; ++i)
    n += f->p.kind[i] == VBC_FLUID && vbc_staggered_is_surface(&f->block, i);
  return n;
}

/* (A x) through the matrix-free passes: y = 0 after prepare, apply adds A x to y, the residual
 * pass gives b - y. */
static void matrix_free_product(fixture *f, const double *x, double *out) {
  const vbc_rows *r = &f->block.rows;
  double *res = calloc(r->n, sizeof *res);
  f->block.type->apply(f->block.state, &f->sys, r, x);
  f->block.type->residual(f->block.state, &f->sys, r, res);
  for (size_t k = 0; k < r->n; ++k) out[k] = r->target[k] - res[k];
  free(res);
}

static double csr_entry(const vbc_sparse *A, size_t r, size_t c) {
  for (size_t e = A->start[r]; e < A->start[r + 1]; ++e)
    if (A->col[e] == c) return A->val[e];
  return 0.0;
}

/* Eq. 12-13 on a shaken tank with a free surface and random velocities: A is symmetric (to the
 * bit: c_ij is computed from symmetric quantities), A_ij <= 0 off the diagonal, weakly
 * diagonally dominant with strict dominance where a surface neighbour is; apply/residual give
 * A x to 1e-12 of |A x|. */
Test(staggered, assembled_operator_is_symmetric_and_matches_matrix_free) {
  fixture f;
  setup(&f, 20, 15, 3, 0, 0.15, 0.5, "normalised");
  const vbc_rows *rows = &f.block.rows;
  cr_assert_gt(rows->n, 200);
  vbc_sparse A = {0};
  vbc_error err = {0};
  cr_assert_eq(f.block.type->assemble(f.block.state, &f.sys, rows, &A, &err), 0);
  cr_assert_eq(A.nrows, rows->n);
  size_t strict = 0;
  for (size_t r = 0; r < A.nrows; ++r) {
    double off = 0.0;
    for (size_t e = A.start[r]; e < A.start[r + 1]; ++e) {
      if (A.col[e] == r) {
        cr_assert_gt(A.val[e], 0.0);
        continue;
      }
      cr_assert_leq(A.val[e], 0.0, "A[%zu][%zu] = %g", r, A.col[e], A.val[e]);
      cr_assert_eq(A.val[e], csr_entry(&A, A.col[e], r), "symmetric at (%zu, %zu)", r, A.col[e]);
      off -= A.val[e];
    }
    cr_assert_geq(rows->diag[r], off * (1.0 - 1e-14), "row %zu dominant", r);
    strict += rows->diag[r] > off * (1.0 + 1e-9);
  }
  cr_assert_gt(strict, 0, "rows next to the surface are strictly dominant");
  unsigned seed = 7u;
  double *x = calloc(rows->n, sizeof *x), *ax = calloc(rows->n, sizeof *ax);
  double *mf = calloc(rows->n, sizeof *mf);
  for (size_t k = 0; k < rows->n; ++k) x[k] = jitter(&seed);
  double scale = 0.0;
  for (size_t r = 0; r < A.nrows; ++r) {
    for (size_t e = A.start[r]; e < A.start[r + 1]; ++e) ax[r] += A.val[e] * x[A.col[e]];
    scale = fmax(scale, fabs(ax[r]));
  }
  matrix_free_product(&f, x, mf);
  for (size_t r = 0; r < rows->n; ++r)
    cr_assert_leq(fabs(mf[r] - ax[r]), 1e-12 * scale, "row %zu: %.17g vs %.17g", r, mf[r], ax[r]);
  free(x), free(ax), free(mf);
  vbc_sparse_free(&A);
  teardown(&f);
}

/* One Gauss–Seidel sweep keeps the block's y = A lambda: its residual afterwards is b - A lambda
 * with the assembled A. */
Test(staggered, sweep_keeps_the_product_of_the_operator) {
  fixture f;
  setup(&f, 12, 10, 3, 0, 0.1, 0.3, "normalised");
  vbc_rows *rows = &f.block.rows;
  vbc_sparse A = {0};
  vbc_error err = {0};
  cr_assert_eq(f.block.type->assemble(f.block.state, &f.sys, rows, &A, &err), 0);
  f.block.type->sweep(f.block.state, &f.sys, rows, 1.0, VBC_SWEEP_FORWARD);
  f.block.type->sweep(f.block.state, &f.sys, rows, 1.7, VBC_SWEEP_BACKWARD);
  double *res = calloc(rows->n, sizeof *res);
  f.block.type->residual(f.block.state, &f.sys, rows, res);
  for (size_t r = 0; r < rows->n; ++r) {
    double ax = 0.0;
    for (size_t e = A.start[r]; e < A.start[r + 1]; ++e) ax += A.val[e] * rows->impulse[A.col[e]];
    cr_assert_leq(fabs(rows->target[r] - ax - res[r]), 1e-12 * (fabs(ax) + fabs(rows->target[r])));
  }
  free(res);
  vbc_sparse_free(&A);
  teardown(&f);
}

/* The hydrostatic lattice (30 x 30 in a three-layer tank, walls above the water): the top layer
 * and only it is free surface (eq. 25; a top particle has Asy = 0.394 l > 0.3 h, h = l), so the
 * particles next to the side walls and the floor are not, and every other particle has a row. */
Test(staggered, only_the_top_layer_of_the_tank_is_surface) {
  fixture f;
  setup(&f, 30, 30, 3, 0, 0.0, 0.0, "normalised");
  for (size_t i = 0; i < f.p.n; ++i) {
    if (f.p.kind[i] != VBC_FLUID) continue;
    const int top = f.p.pos[i].y > 29 * L;
    cr_assert_eq(vbc_staggered_is_surface(&f.block, i), top, "particle at (%g, %g)", f.p.pos[i].x,
                 f.p.pos[i].y);
  }
  cr_assert_eq(surface_count(&f), 30);
  cr_assert_eq(f.block.rows.n, 870);
  teardown(&f);
}

/* A droplet of 2 x 2 particles has nothing but surface, so no rows; a blob of 6 x 6 in the void
 * has its outer ring on the surface (20) and its 4 x 4 core inside (at H = 2 l a particle sees
 * only its nearest ring). */
Test(staggered, an_isolated_droplet_is_all_surface) {
  fixture f;
  setup(&f, 2, 2, 0, 0, 0.0, 0.0, "normalised");
  cr_assert_eq(surface_count(&f), 4);
  cr_assert_eq(f.block.rows.n, 0);
  teardown(&f);
  setup(&f, 6, 6, 0, 0, 0.0, 0.0, "normalised");
  cr_assert_eq(surface_count(&f), 20);
  cr_assert_eq(f.block.rows.n, 16);
  teardown(&f);
}

/* Water sealed in by walls on every side shows no surface to eq. 25 (the walls fill every
 * neighbourhood); §5.2 marks such a region surface as a whole, so the block has no rows and the
 * pressure equation no singular (pure Neumann) part. */
Test(staggered, a_region_without_surface_is_marked_surface) {
  fixture f;
  setup(&f, 10, 8, 3, 1, 0.0, 0.0, "normalised");
  cr_assert_eq(surface_count(&f), 80);
  cr_assert_eq(f.block.rows.n, 0);
  teardown(&f);
}

/* The remap on a linear pressure p = G . x in the interior of the lattice: the normalised form
 * gives every deep particle dv = -h G / rho0 to round-off; eq. 19 as printed gives half of it in
 * 2D ((1/N) sum n n^T = I/2 on the lattice). */
Test(staggered, remap_of_a_linear_pressure) {
  const char *remaps[] = {"normalised", "literal"};
  const double factor[] = {1.0, 0.5};
  const vbc_vec G = vbc_vec_make(3000.0, -10000.0, 0.0);
  for (int k = 0; k < 2; ++k) {
    fixture f;
    setup(&f, 16, 16, 3, 0, 0.0, 0.0, remaps[k]);
    vbc_rows *rows = &f.block.rows;
    for (size_t r = 0; r < rows->n; ++r) rows->impulse[r] = 0.0;
    for (size_t i = 0; i < f.p.n; ++i) {
      const long r = ((const vbc_staggered_state *)f.block.state)->row_of[i];
      if (r >= 0) rows->impulse[r] = DT * vbc_vec_dot(G, f.p.pos[i]);
    }
    f.block.type->finish(f.block.state, &f.sys, rows);
    size_t checked = 0;
    for (size_t i = 0; i < f.p.n; ++i) {
      const vbc_vec x = f.p.pos[i];
      if (f.p.kind[i] != VBC_FLUID || x.x < 3 * L || x.x > 13 * L || x.y < 3 * L || x.y > 13 * L)
        continue;
      const vbc_vec want = vbc_vec_scale(G, -factor[k] * DT / RHO0);
      cr_assert_leq(vbc_vec_norm(vbc_vec_sub(f.p.vel[i], want)), 1e-9 * vbc_vec_norm(want),
                    "%s at (%g, %g): (%.17g, %.17g) want (%g, %g)", remaps[k], x.x, x.y, f.p.vel[i].x,
                    f.p.vel[i].y, want.x, want.y);
      ++checked;
    }
    cr_assert_eq(checked, 100);
    teardown(&f);
  }
}

/* Splash particles: a lone particle gets no velocity change (no 0/0), a pair gets the change of
 * its one staggered particle along the pair, -(h / rho_{i-j}) (p_j - p_i) / r_ij (eq. 11, 14), in
 * both remaps: the normalised one raises the missing direction's eigenvalue instead of
 * dividing by zero. */
Test(staggered, splash_particles_get_finite_changes) {
  const char *remaps[] = {"normalised", "literal"};
  for (int k = 0; k < 2; ++k) {
    fixture f;
    setup(&f, 1, 1, 0, 0, 0.0, 0.0, remaps[k]);
    const vbc_vec dv = vbc_staggered_remap(f.block.state, &f.sys, 0);
    cr_assert(dv.x == 0.0 && dv.y == 0.0 && dv.z == 0.0, "%s", remaps[k]);
    teardown(&f);
    setup(&f, 2, 1, 0, 0, 0.0, 0.0, remaps[k]);
    cr_assert_eq(f.block.rows.n, 0);
    f.p.pressure[0] = 0.0, f.p.pressure[1] = 500.0;
    const vbc_vec d0 = vbc_staggered_remap(f.block.state, &f.sys, 0);
    /* the two particles have one density, so rho_{i-j} (eq. 9) is theirs */
    const double rho = ((const vbc_staggered_state *)f.block.state)->rho[0];
    cr_assert_float_eq(d0.x, -DT / rho * 500.0 / L, 1e-12 * fabs(d0.x), "%s: %g", remaps[k], d0.x);
    cr_assert_eq(d0.y, 0.0);
    teardown(&f);
  }
}

/* unilateral: rows p^v >= 0 (an LCP for mprgp or pgs), not the bilateral system cg needs; either
 * way the block hands the bodies eq. 28's reaction. */
Test(staggered, unilateral_rows_are_one_sided) {
  vbc_error err = {0};
  fixture f;
  setup(&f, 6, 6, 3, 0, 0.0, 0.0, "normalised");
  cr_assert_eq(f.block.type->traits(f.block.state), VBC_ROWS_BILATERAL | VBC_ROWS_BODY_REACTION);
  cr_assert_eq(f.block.rows.lo[0], -INFINITY);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddBoolToObject(params, "unilateral", 1);
  vbc_block b;
  cr_assert_eq(vbc_block_init(&b, &vbc_block_staggered, params, &f.sys, "fluid", &err), 0);
  cr_assert_eq(b.type->prepare(b.state, &f.sys, &b.rows, &err), 0);
  cr_assert_eq(b.type->traits(b.state), VBC_ROWS_BODY_REACTION);
  cr_assert_eq(b.rows.n, f.block.rows.n);
  for (size_t r = 0; r < b.rows.n; ++r) cr_assert(b.rows.lo[r] == 0.0 && b.rows.hi[r] == INFINITY);
  vbc_block_free(&b);
  cJSON_Delete(params);
  teardown(&f);
}

/* A channel: a strip of water 40 l long and 6 l deep sliding at 1 m/s over a floor of three wall
 * layers at rest, open at both ends and on top. Mean horizontal velocity of the bottom row and of
 * the row above it, over the middle 20 l, after one solve (cg to 1e-12) and the remap. */
static void channel_with(const char *slip, const char *divergence, double *bottom, double *second,
                         double *all) {
  vbc_error err = {0};
  fixture f;
  memset(&f, 0, sizeof f);
  cr_assert_eq(vbc_generate_fluid_box(&f.p, 2, L, vbc_vec_zero(), vbc_vec_make(40 * L, 6 * L, 0),
                                      vbc_vec_make(1.0, 0.0, 0.0), 0, &err), 0);
  for (int a = -3; a < 43; ++a)
    for (int b = 0; b < 3; ++b)
      cr_assert_geq(vbc_particles_add(&f.p, vbc_vec_make((a + 0.5) * L, -(b + 0.5) * L, 0),
                                      vbc_vec_zero(), VBC_WALL, 0, &err), 0);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "slip", slip);
  cJSON_AddStringToObject(params, "divergence", divergence);
  build(&f, params);
  cJSON_Delete(params);
  solve_block(&f.sys, &f.block, "cg", 1.0, 1e-12, 0.0);
  f.block.type->finish(f.block.state, &f.sys, &f.block.rows);
  double sum[2] = {0, 0}, total = 0.0;
  int n[2] = {0, 0}, nf = 0;
  for (size_t i = 0; i < f.p.n; ++i) {
    const vbc_vec x = f.p.pos[i];
    if (f.p.kind[i] == VBC_FLUID) total += f.p.vel[i].x, ++nf;
    if (f.p.kind[i] != VBC_FLUID || x.x < 10 * L || x.x > 30 * L || x.y > 2 * L) continue;
    const int row = x.y > L;
    sum[row] += f.p.vel[i].x, ++n[row];
  }
  cr_assert(n[0] == 20 && n[1] == 20);
  *bottom = sum[0] / n[0], *second = sum[1] / n[1], *all = total / nf;
  teardown(&f);
}

static void channel(const char *slip, double *bottom, double *second) {
  double all;
  channel_with(slip, "pair", bottom, second, &all);
}

/* Free slip (eq. 27) leaves the tangential velocity of water sliding over a floor alone; no slip
 * (eq. 26) takes it off the row next to the floor: its three floor pairs ask for v_x = 0 and its
 * five fluid pairs for no change, and the least-squares remap halves it in one step (the row
 * above has no floor pair at H = 2 l). Measured: free slip 1.0017 (bottom) and 1.0016 (second
 * row; a little pressure from the strip's open ends pushes both), no slip 0.5008 and 1.0016. */
Test(staggered, free_slip_keeps_and_no_slip_removes_the_tangential_velocity) {
  double bottom, second;
  channel("free_slip", &bottom, &second);
  cr_log_info("free slip: bottom %.17g, second %.17g", bottom, second);
  cr_assert_float_eq(bottom, 1.0, 5e-3, "free slip, bottom row %.17g", bottom);
  cr_assert_float_eq(second, 1.0, 5e-3, "free slip, second row %.17g", second);
  channel("no_slip", &bottom, &second);
  cr_log_info("no slip: bottom %g, second %g", bottom, second);
  cr_assert_float_eq(bottom, 0.5, 0.02, "no slip, bottom row %.17g", bottom);
  cr_assert_float_eq(second, 1.0, 0.02, "no slip, second row %.17g", second);
}

/* Eq. 10 as printed sums v_{i-j} . n_ij, which is not zero for a uniform velocity where the
 * neighbourhood is one-sided: the strip's open ends look like sources and sinks, and the solve
 * brakes the whole strip (whole runs: a slug sliding at 1 m/s over a free-slip floor keeps
 * 0.17 m/s after 0.2 s). The relative form, of (v_{i-j} - v_i) . n_ij, sees no divergence in a
 * uniform flow and leaves it alone. */
Test(staggered, relative_divergence_leaves_a_uniform_flow_alone) {
  double bottom, second, pair, relative;
  channel_with("free_slip", "pair", &bottom, &second, &pair);
  channel_with("free_slip", "relative", &bottom, &second, &relative);
  cr_log_info("mean u_x of the strip after one solve: pair %.17g, relative %.17g", pair, relative);
  /* measured: pair 0.99477, relative 1.00007 (what is left comes from the floor pairs, whose
   * wall particles beyond the strip's ends have fewer neighbours, so eq. 7-9 weigh the two
   * diagonal floor pairs of an end particle differently) */
  cr_assert_lt(fabs(relative - 1.0), 2e-4, "relative: %.17g", relative);
  cr_assert_gt(fabs(pair - 1.0), 20.0 * fabs(relative - 1.0), "pair: %.17g", pair);
  cr_assert_float_eq(bottom, 1.0, 1e-3, "relative, bottom row %.17g", bottom);
}

static const char staggered_scene[] =
    "{\n"
    "  \"dim\": 2, \"spacing\": 0.05,\n"
    "  \"time\": {\"dt\": 0.002, \"end\": 0.01},\n"
    "  \"geometry\": [\n"
    "    {\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.3, 0.3]},\n"
    "    {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.3, 0.4]}\n"
    "  ],\n"
    "  \"method\": {\"coupler\": \"lemke_contacts\",\n"
    "    \"fluid\": {\"constraint\": \"staggered\", \"solver\": \"cg\"}}\n"
    "}\n";

/* Bad values of every key of the block: exit 2 naming the file, the JSON path and what was
 * expected. */
Test(staggered_input, bad_values_of_the_blocks_keys) {
  expect_bad_input("stag_slip", staggered_scene, SETS("method.fluid.slip=sticky"),
                   FRAGMENTS("method.fluid.slip", "free_slip", "no_slip"));
  expect_bad_input("stag_remap", staggered_scene, SETS("method.fluid.remap=average"),
                   FRAGMENTS("method.fluid.remap", "normalised", "literal"));
  expect_bad_input("stag_density", staggered_scene, SETS("method.fluid.surface_density=1.5"),
                   FRAGMENTS("method.fluid.surface_density"));
  expect_bad_input("stag_asym", staggered_scene, SETS("method.fluid.surface_asymmetry=-2"),
                   FRAGMENTS("method.fluid.surface_asymmetry"));
  expect_bad_input("stag_sticking", staggered_scene, SETS("method.fluid.no_sticking=3"),
                   FRAGMENTS("method.fluid.no_sticking"));
  expect_bad_input("stag_share", staggered_scene, SETS("method.fluid.wall_share=\"yes\""),
                   FRAGMENTS("method.fluid.wall_share"));
  expect_bad_input("stag_floor", staggered_scene, SETS("method.fluid.remap_floor=0"),
                   FRAGMENTS("method.fluid.remap_floor"));
  expect_bad_input("stag_unilateral", staggered_scene, SETS("method.fluid.unilateral=1"),
                   FRAGMENTS("method.fluid.unilateral"));
  expect_bad_input("stag_divergence", staggered_scene, SETS("method.fluid.divergence=mean"),
                   FRAGMENTS("method.fluid.divergence", "pair", "relative"));
  expect_bad_input("stag_body_slip", staggered_scene, SETS("method.fluid.body_slip=sticky"),
                   FRAGMENTS("method.fluid.body_slip", "as_walls", "sticky"));
  expect_bad_input("stag_body_load", staggered_scene, SETS("method.fluid.body_load=weight"),
                   FRAGMENTS("method.fluid.body_load", "momentum", "implicit", "weight"));
  expect_bad_input("stag_surface_pressure", staggered_scene,
                   SETS("method.fluid.surface_pressure=ghost"),
                   FRAGMENTS("method.fluid.surface_pressure", "particles", "interface"));
}

/* The staggered coupler's own group: the pre-pass's block and solver keys are checked like any
 * other (jacobi's omega in (0, 1], an unknown key, an unknown solver). */
Test(staggered_input, bad_values_of_the_prepass_group) {
  expect_bad_input("stag_prepass_omega", staggered_scene,
                   SETS("method.coupler=staggered", "method.prepass.omega=1.5"),
                   FRAGMENTS("method.prepass.omega"));
  expect_bad_input("stag_prepass_key", staggered_scene,
                   SETS("method.coupler=staggered", "method.prepass.iterations=3"),
                   FRAGMENTS("method.prepass", "iterations"));
  expect_bad_input("stag_prepass_solver", staggered_scene,
                   SETS("method.coupler=staggered", "method.prepass.solver=newton"),
                   FRAGMENTS("method.prepass.solver", "\"jacobi\"", "newton"));
}

static double target_norm(const vbc_rows *r) {
  double s = 0.0;
  for (size_t k = 0; k < r->n; ++k) s += r->target[k] * r->target[k];
  return sqrt(s);
}

/* He's projection is not idempotent. p^v removes eq. 10's divergence of the staggered
 * velocities to round-off, but the particles take the remap of those changes (eq. 15-19) and
 * eq. 8 builds the next staggered velocities from the particles, so at the very same positions
 * part of the divergence is back (docs/notes/staggered-journal.md, "The force on a moving body grows as
 * 1/h"). Shaken tank (0.1 l), random velocities up to 1 m/s, cg to 1e-12: the rows' divergence
 * (L2) after the remap is 0.594 of what the solve removed with the normalised remap, 0.772 with
 * eq. 19's literal one. */
Test(staggered, the_remap_brings_back_part_of_the_divergence) {
  const char *remaps[] = {"normalised", "literal"};
  double ratio[2];
  for (int k = 0; k < 2; ++k) {
    fixture f;
    setup(&f, 16, 16, 3, 0, 0.1, 1.0, remaps[k]);
    const double before = target_norm(&f.block.rows);
    vbc_solve_result res = solve_block(&f.sys, &f.block, "cg", 1.0, 1e-12, 0.0);
    cr_assert_leq(res.residual, 1e-10 * res.residual_ref);
    f.block.type->finish(f.block.state, &f.sys, &f.block.rows);
    vbc_error err = {0};
    cr_assert_eq(f.block.type->prepare(f.block.state, &f.sys, &f.block.rows, &err), 0);
    ratio[k] = target_norm(&f.block.rows) / before;
    teardown(&f);
  }
  cr_log_info("divergence left by the remap: normalised %g, literal %g of the first", ratio[0],
              ratio[1]);
  cr_assert(ratio[0] > 0.5 && ratio[0] < 0.7, "%g", ratio[0]);
  cr_assert(ratio[1] > 0.7 && ratio[1] < 0.85, "%g", ratio[1]);
}
