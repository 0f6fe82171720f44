/* test_lemke.c — Lemke's method (solvers/schemes/lemke/lemke.c): hand LCPs with known solutions (SPD,
 * degenerate q, duplicated rows, a nonsymmetric P-matrix, n = 1), infeasible problems ending in
 * a ray, Murty's exponential example, the pivot limit, the verification that never reports an
 * unchecked solution, random contact LCPs against converged PGS, and the block adapter: the
 * assembled M = J W J^T against the blocks' own passes, and the `lemke` solver on redundant
 * contacts (two boxes face to face) and on bilateral pin rows. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "tests/support.h"
#include "registry/registry.h"
#include "solvers/blocks/contact.h"
#include "solvers/blocks/blocks.h"
#include "tests/body_world.h"
#include "solvers/blocks/lcp_matrix.h"
#include "solvers/schemes/lemke/lemke.h"

typedef struct out {
  double z[16], w[16];
  vbc_lemke_result res;
} out;

static out solve_opt(size_t n, const double *M, const double *q, const vbc_lemke_options *opt) {
  out o;
  memset(&o, 0, sizeof o);
  vbc_error err = {0};
  cr_assert_eq(vbc_lemke_dense(n, M, q, opt, o.z, o.w, &o.res, &err), VBC_OK, "%s", err.message);
  return o;
}

static out solve(size_t n, const double *M, const double *q) { return solve_opt(n, M, q, NULL); }

static void expect(const out *o, size_t n, const double *z, const double *w) {
  cr_assert_eq(o->res.status, VBC_LEMKE_SOLVED, "status %s", vbc_lemke_status_name(o->res.status));
  cr_assert_leq(o->res.error, 1e-12);
  for (size_t i = 0; i < n; ++i) {
    if (z) cr_assert_float_eq(o->z[i], z[i], 1e-12, "z[%zu] = %.17g, expected %g", i, o->z[i], z[i]);
    if (w) cr_assert_float_eq(o->w[i], w[i], 1e-12, "w[%zu] = %.17g, expected %g", i, o->w[i], w[i]);
  }
}

static const double M2[] = {2, 1, 1, 2};

Test(lemke, solves_a_2x2_spd_lcp_in_two_pivots) {
  const double q[] = {-5, -6}, z[] = {4.0 / 3, 7.0 / 3}, w[] = {0, 0};
  out o = solve(2, M2, q);
  expect(&o, 2, z, w);
  cr_assert_eq(o.res.pivots, 2);
}

Test(lemke, leaves_a_separating_row_at_zero) {
  const double q[] = {-1, 3}, z[] = {0.5, 0}, w[] = {0, 3.5};
  out o = solve(2, M2, q);
  expect(&o, 2, z, w);
  cr_assert_eq(o.res.pivots, 1);
}

Test(lemke, q_nonnegative_is_solved_by_zero_without_pivots) {
  const double q[] = {0, 2}, z[] = {0, 0}, w[] = {0, 2};
  out o = solve(2, M2, q);
  expect(&o, 2, z, w);
  cr_assert_eq(o.res.pivots, 0);
}

Test(lemke, degenerate_q_with_zeros_and_tied_first_pivot) {
  const double qa[] = {0, -3}, za[] = {0, 1.5}, wa[] = {1.5, 0};
  expect((out[]){solve(2, M2, qa)}, 2, za, wa);
  const double I2[] = {1, 0, 0, 1}, qb[] = {-1, -1}, zb[] = {1, 1}, wb[] = {0, 0};
  expect((out[]){solve(2, I2, qb)}, 2, zb, wb); /* both rows tie for z0 */
  const double M3[] = {4, 1, 0, 1, 4, 1, 0, 1, 4}, qc[] = {0, -4, 0};
  const double zc[] = {0, 1, 0}, wc[] = {1, 0, 1}; /* rows 0 and 2 end with z = w = 0 ... */
  out c = solve(3, M3, qc);
  expect(&c, 3, zc, wc);
  const double qd[] = {1, -4, 1}, zd[] = {0, 1, 0}, wd[] = {2, 0, 2};
  expect((out[]){solve(3, M3, qd)}, 3, zd, wd);
}

/* Two identical contact rows (singular PSD, the redundancy ODE's and Bullet's solvers fail on):
 * z is not unique, w is. */
Test(lemke, duplicated_rows_singular_psd) {
  const double M[] = {1, 1, 0, 1, 1, 0, 0, 0, 1}, q[] = {-1, -1, -2}, w[] = {0, 0, 0};
  out o = solve(3, M, q);
  expect(&o, 3, NULL, w);
  cr_assert_float_eq(o.z[0] + o.z[1], 1.0, 1e-12);
  cr_assert_float_eq(o.z[2], 2.0, 1e-12);
  cr_assert_geq(o.z[0], 0.0);
  cr_assert_geq(o.z[1], 0.0);
}

/* A unit cube (mass 1, I = 1/6) falling at 1 m/s onto a floor touches it at four corners:
 * M = J W J^T of rank 3 (v_y, w_x, w_z). The impulses must stop it: sum z = 1, all w = 0. */
Test(lemke, four_box_corners_on_a_plane) {
  double J[4][6], M[16], q[4];
  const double cx[] = {-0.5, 0.5, 0.5, -0.5}, cz[] = {-0.5, -0.5, 0.5, 0.5};
  for (int k = 0; k < 4; ++k) { /* n = +y, r = (cx, -0.5, cz): r x n = (-cz, 0, cx) */
    double row[6] = {0, 1, 0, -cz[k], 0, cx[k]};
    memcpy(J[k], row, sizeof row);
    q[k] = -1.0; /* J v* with v* = (0, -1, 0) */
  }
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l) {
      double a = 0.0;
      for (int c = 0; c < 6; ++c) a += J[k][c] * J[l][c] * (c < 3 ? 1.0 : 6.0);
      M[4 * k + l] = a;
    }
  const double w[] = {0, 0, 0, 0};
  out o = solve(4, M, q);
  expect(&o, 4, NULL, w);
  cr_assert_float_eq(o.z[0] + o.z[1] + o.z[2] + o.z[3], 1.0, 1e-12);
}

/* Nonsymmetric P-matrix: the solution is unique for every q. */
Test(lemke, nonsymmetric_p_matrix) {
  const double M[] = {1, 2, 0, 0, 1, 2, 2, 0, 1}, q[] = {-1, -1, -4};
  const double z[] = {1, 0, 2}, w[] = {0, 3, 0};
  expect((out[]){solve(3, M, q)}, 3, z, w);
}

/* Siconos 4.4 returned a negative z for n = 1 (docs/notes/bench-journal.md, Lemke against Siconos). */
Test(lemke, one_row) {
  const double Ma[] = {2}, qa[] = {-4}, za[] = {2}, wa[] = {0};
  out a = solve(1, Ma, qa);
  expect(&a, 1, za, wa);
  cr_assert_eq(a.res.pivots, 1);
  const double qb[] = {5}, zb[] = {0}, wb[] = {5};
  expect((out[]){solve(1, Ma, qb)}, 1, zb, wb);
}

static void expect_ray(size_t n, const double *M, const double *q) {
  out o = solve(n, M, q);
  cr_assert_eq(o.res.status, VBC_LEMKE_RAY, "status %s", vbc_lemke_status_name(o.res.status));
  for (size_t i = 0; i < n; ++i) cr_assert_eq(o.z[i], 0.0);
  cr_assert_gt(o.res.error, 0.5, "z = 0 violates w >= 0");
}

Test(lemke, infeasible_problems_end_in_a_ray) {
  expect_ray(1, (const double[]){-1}, (const double[]){-1});
  expect_ray(1, (const double[]){0}, (const double[]){-1});
  /* PSD and infeasible: w_0 + w_1 = -2 for every z */
  expect_ray(2, (const double[]){1, -1, -1, 1}, (const double[]){-1, -1});
  /* copositive: self-stressed pair of contacts pulled apart */
  expect_ray(3, (const double[]){1, -1, 0, -1, 1, 0, 0, 0, 1}, (const double[]){-1, -1, -1});
}

/* Murty (1978): M upper triangular, 1 on the diagonal, 2 above; q_i = -sum_{j=i..n} 2^j
 * (i = 1..n). Lemke with d = 1 visits 2^n - 1 bases after the start and ends at z = 2^n e_n. */
static void murty(size_t n, double *M, double *q) {
  for (size_t i = 0; i < n; ++i) {
    q[i] = 0.0;
    for (size_t j = 0; j < n; ++j) M[i * n + j] = j == i ? 1.0 : (j > i ? 2.0 : 0.0);
    for (size_t j = i + 1; j <= n; ++j) q[i] -= ldexp(1.0, (int)j);
  }
}

Test(lemke, murty_example_takes_2_to_the_n_minus_1_pivots) {
  double M[100], q[10];
  murty(10, M, q);
  out o = solve(10, M, q);
  cr_assert_eq(o.res.status, VBC_LEMKE_SOLVED);
  cr_assert_eq(o.res.pivots, 1023);
  cr_assert_eq(o.res.error, 0.0);
  for (int i = 0; i < 9; ++i) cr_assert_eq(o.z[i], 0.0);
  cr_assert_eq(o.z[9], 1024.0);
  cr_assert_geq(vbc_lemke_default_max_pivots(10), 1023);
}

Test(lemke, reports_the_pivot_limit) {
  double M[100], q[10];
  murty(10, M, q);
  vbc_lemke_options opt;
  vbc_lemke_options_default(&opt);
  opt.max_pivots = 100;
  out o = solve_opt(10, M, q, &opt);
  cr_assert_eq(o.res.status, VBC_LEMKE_MAX_PIVOTS);
  cr_assert_eq(o.res.pivots, 100);
}

Test(lemke, never_reports_solved_above_the_tolerance) {
  const double q[] = {-5, -6};
  vbc_lemke_options opt;
  vbc_lemke_options_default(&opt);
  opt.tolerance = 1e-300; /* the 2x2 solution has round-off error ~1e-16 */
  out o = solve_opt(2, M2, q, &opt);
  cr_assert_eq(o.res.status, VBC_LEMKE_INACCURATE);
  cr_assert_gt(o.res.error, 1e-300);
}

Test(lemke, error_measure_is_the_largest_violation_relative_to_q) {
  const double q[] = {-4, 1}, z[] = {-0.5, 2}, w[] = {3, -1};
  /* violations: -z_0 = 0.5, -w_1 = 1, |z_0 w_0| = 1.5, |z_1 w_1| = 2: 2 / max(1, 4) */
  cr_assert_float_eq(vbc_lcp_error(2, q, z, w), 0.5, 1e-15);
  const double q1[] = {0.5}, z1[] = {0}, w1[] = {-0.25};
  cr_assert_float_eq(vbc_lcp_error(1, q1, z1, w1), 0.25, 1e-15);
}

Test(lemke, refuses_bad_input) {
  vbc_error err = {0};
  double z[2], w[2];
  vbc_lemke_result res;
  const double M[] = {1, NAN, 0, 1}, q[] = {-1, -1};
  cr_assert_eq(vbc_lemke_dense(2, M, q, NULL, z, w, &res, &err), VBC_EXIT_INPUT);
  vbc_error_clear(&err);
  const double d[] = {1, 0};
  vbc_lemke_options opt;
  vbc_lemke_options_default(&opt);
  opt.cover = d;
  cr_assert_eq(vbc_lemke_dense(2, M2, q, &opt, z, w, &res, &err), VBC_EXIT_INPUT);
}

/* ---- random contact LCPs against converged PGS ------------------------------------------- */

static uint64_t rng = 12345;
static double uniform(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* M = J W J^T: each row a contact between two of nb bodies (3 dofs each, random unit normal)
 * or between a body and the ground; W random inverse masses in [0.1, 10]; q = J v* with random
 * v*, which keeps it solvable: a z >= 0 with J^T z = 0 has q^T z = 0. */
static void contact_lcp(size_t n, size_t nb, double *M, double *q) {
  double *J = calloc(n * 3 * nb, sizeof *J), *W = malloc(3 * nb * sizeof *W);
  double *v = malloc(3 * nb * sizeof *v);
  for (size_t d = 0; d < 3 * nb; ++d) {
    W[d] = 0.1 + 9.9 * uniform();
    v[d] = uniform() - 0.6;
  }
  for (size_t k = 0; k < n; ++k) {
    double nrm[3], len = 0.0;
    for (int c = 0; c < 3; ++c) {
      nrm[c] = uniform() - 0.5;
      len += nrm[c] * nrm[c];
    }
    size_t a = (size_t)(uniform() * nb), b = (size_t)(uniform() * nb);
    for (int c = 0; c < 3; ++c) {
      J[k * 3 * nb + 3 * a + c] += nrm[c] / sqrt(len);
      if (b != a) J[k * 3 * nb + 3 * b + c] -= nrm[c] / sqrt(len);
    }
    q[k] = 0.0;
    for (size_t d = 0; d < 3 * nb; ++d) q[k] += J[k * 3 * nb + d] * v[d];
  }
  for (size_t k = 0; k < n; ++k)
    for (size_t l = 0; l < n; ++l) {
      double s = 0.0;
      for (size_t d = 0; d < 3 * nb; ++d) s += J[k * 3 * nb + d] * W[d] * J[l * 3 * nb + d];
      M[k * n + l] = s;
    }
  free(J);
  free(W);
  free(v);
}

static void pgs_reference(size_t n, const double *M, const double *q, double *z, double *w) {
  vbc_error err = {0};
  vbc_block b;
  cr_assert_eq(vbc_lcp_matrix_block_init(&b, n, M, q, &err), VBC_OK);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "tolerance", 1e-14);
  cJSON_AddNumberToObject(params, "max_iterations", 200000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), "pgs"), params, &err), VBC_OK);
  vbc_system sys = {0};
  vbc_block *blocks[1] = {&b};
  vbc_problem pb = {&sys, blocks, 1};
  vbc_solve_result res;
  cr_assert_eq(b.type->prepare(b.state, &sys, &b.rows, &err), VBC_OK);
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), VBC_OK, "%s", err.message);
  cr_assert_neq(res.reason, VBC_STOP_MAX_ITERATIONS, "PGS did not converge");
  memcpy(z, b.rows.impulse, n * sizeof *z);
  vbc_lcp_matrix_w(&b, w);
  vbc_solver_free(&s);
  vbc_block_free(&b);
  cJSON_Delete(params);
}

static void agree_with_pgs(size_t n, size_t nb) {
  double *M = malloc(n * n * sizeof *M), *q = malloc(n * sizeof *q);
  double *z = malloc(n * sizeof *z), *w = malloc(n * sizeof *w);
  double *zp = malloc(n * sizeof *zp), *wp = malloc(n * sizeof *wp);
  contact_lcp(n, nb, M, q);
  vbc_error err = {0};
  vbc_lemke_result res;
  cr_assert_eq(vbc_lemke_dense(n, M, q, NULL, z, w, &res, &err), VBC_OK);
  cr_assert_eq(res.status, VBC_LEMKE_SOLVED, "n %zu: %s after %ld pivots, error %g", n,
               vbc_lemke_status_name(res.status), res.pivots, res.error);
  cr_assert_leq(res.error, 1e-9);
  pgs_reference(n, M, q, zp, wp);
  double qn = 1.0, ztw = 0.0, ztwp = 0.0, active = 0;
  for (size_t i = 0; i < n; ++i) qn = fmax(qn, fabs(q[i]));
  for (size_t i = 0; i < n; ++i) {
    cr_assert_float_eq(w[i], wp[i], 1e-7 * qn, "n %zu: w[%zu] lemke %g, pgs %g", n, i, w[i], wp[i]);
    ztw += z[i] * w[i];
    ztwp += zp[i] * wp[i];
    active += z[i] > 0.0;
  }
  cr_assert_leq(fabs(ztw), 1e-10 * qn * qn);
  cr_assert_leq(fabs(ztwp), 1e-6 * qn * qn);
  cr_assert_gt(active, 0.2 * n, "a problem where contacts matter: %g active", active);
  free(M), free(q), free(z), free(w), free(zp), free(wp);
}

Test(lemke, random_spd_contact_lcps_agree_with_pgs) {
  agree_with_pgs(60, 40);  /* 60 rows on 120 dofs: J has full row rank */
  agree_with_pgs(120, 60);
}

Test(lemke, random_singular_psd_contact_lcps_agree_with_pgs) {
  agree_with_pgs(80, 15);   /* 80 rows on 45 dofs: rank <= 45 */
  agree_with_pgs(150, 30);
}

/* Borders applied late, column by column (lemke_defer.c): z, w and the counts match immediate
 * updates to the bit for any log length (1, 3: frequent flushes), on SPD and singular M. */
Test(lemke, deferred_basis_updates_change_no_bit) {
  const size_t sizes[][2] = {{120, 60}, {150, 30}}, D[] = {1, 3, VBC_LEMKE_DEFERRED_UPDATES};
  for (size_t c = 0; c < 2; ++c) {
    const size_t n = sizes[c][0];
    double *M = malloc(n * n * sizeof *M), *q = malloc(n * sizeof *q);
    double *zw = malloc(4 * n * sizeof *zw); /* z, w at once; z, w deferred */
    contact_lcp(n, sizes[c][1], M, q);
    vbc_lemke_options opt;
    vbc_lemke_options_default(&opt);
    opt.deferred_updates = 0;
    vbc_lemke_result r0, r;
    vbc_error err = {0};
    cr_assert_eq(vbc_lemke_dense(n, M, q, &opt, zw, zw + n, &r0, &err), VBC_OK);
    cr_assert(r0.status == VBC_LEMKE_SOLVED && r0.basis_max > 40, "basis %zu", r0.basis_max);
    for (size_t k = 0; k < 3; ++k) {
      opt.deferred_updates = D[k];
      cr_assert_eq(vbc_lemke_dense(n, M, q, &opt, zw + 2 * n, zw + 3 * n, &r, &err), VBC_OK);
      cr_assert(r.pivots == r0.pivots && r.refactors == r0.refactors &&
                r.basis_max == r0.basis_max && r.error == r0.error &&
                memcmp(zw, zw + 2 * n, 2 * n * sizeof *zw) == 0, "n %zu, D %zu differ", n, D[k]);
    }
    free(M), free(q), free(zw);
  }
}

/* ---- the block adapter and the solver type ---------------------------------------------- */

static int world_solve(world *w, const char *solver, vbc_solve_result *res, vbc_error *err) {
  cJSON *sp = cJSON_CreateObject();
  cJSON_AddNumberToObject(sp, "tolerance", 1e-12);
  cJSON_AddNumberToObject(sp, "max_iterations", solver[0] == 'l' ? 1 : 100000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, vbc_registry_solver(test_registry(), solver), sp, err), 0);
  vbc_block *blocks[1] = {&w->block};
  vbc_problem pb = {&w->sys, blocks, 1};
  int rc = vbc_solve(&s, &pb, res, NULL, err);
  if (rc == VBC_OK && solver[0] == 'l') {
    vbc_lemke_result lr;
    size_t n = 0;
    cr_assert(vbc_lemke_solver_last(&s, &lr, &n));
    cr_assert_eq(lr.status, VBC_LEMKE_SOLVED);
    cr_assert_geq(n, w->block.rows.n);
  }
  vbc_solver_free(&s);
  cJSON_Delete(sp);
  return rc;
}


/* A small pile: a 4 x 2 box resting on a fixed floor, a 2 x 2 box falling on it off-centre. */
static void pile(world *w) {
  world_init(w);
  add_body(w, 8, 1, -0.2, -L * 0.95, 1.0, vbc_vec_zero(), VBC_MOTION_FIXED);
  add_body(w, 4, 2, 0.0, 0.0, 1.0, vbc_vec_make(0, -0.2, 0), VBC_MOTION_FREE);
  add_body(w, 2, 2, 0.2, 2 * L * 0.97, 2.0, vbc_vec_make(0.1, -0.5, 0), VBC_MOTION_FREE);
  world_block(w, &vbc_block_contact, 0.0, 0.2);
}

Test(lemke_blocks, assembled_matrix_matches_the_blocks_passes) {
  world w;
  pile(&w);
  const size_t n = w.block.rows.n;
  cr_assert_geq(n, 6u, "%zu contacts", n);
  vbc_error err = {0};
  vbc_block *blocks[1] = {&w.block};
  vbc_problem pb = {&w.sys, blocks, 1};
  vbc_lemke_lcp lcp = {0};
  cr_assert_eq(vbc_lemke_assemble(&pb, &lcp, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(lcp.n, n);
  double *r0 = malloc(n * sizeof *r0), *r1 = malloc(n * sizeof *r1), *d = calloc(n, sizeof *d);
  w.block.type->residual(w.block.state, &w.sys, &w.block.rows, r0);
  for (size_t i = 0; i < n; ++i) cr_assert_float_eq(lcp.q[i], -r0[i], 1e-15, "q = J u* - b");
  for (size_t j = 0; j < n; ++j) { /* column j of M: the residual change of a unit impulse */
    d[j] = 1.0;
    w.block.type->apply(w.block.state, &w.sys, &w.block.rows, d);
    w.block.type->residual(w.block.state, &w.sys, &w.block.rows, r1);
    d[j] = -1.0;
    w.block.type->apply(w.block.state, &w.sys, &w.block.rows, d);
    d[j] = 0.0;
    for (size_t i = 0; i < n; ++i) {
      double mij = 0.0;
      for (size_t k = lcp.M.start[i]; k < lcp.M.start[i + 1]; ++k)
        if (lcp.M.col[k] == j) mij += lcp.M.val[k];
      cr_assert_float_eq(mij, r0[i] - r1[i], 1e-10, "M[%zu][%zu]", i, j);
      if (i == j) cr_assert_float_eq(mij, w.block.rows.diag[i], 1e-12);
    }
  }
  free(r0), free(r1), free(d);
  vbc_lemke_lcp_free(&lcp);
  world_free(&w);
}

Test(lemke_blocks, solver_agrees_with_pgs_on_a_pile) {
  world a, b;
  pile(&a);
  pile(&b);
  vbc_error err = {0};
  vbc_solve_result ra, rb;
  cr_assert_eq(world_solve(&a, "lemke", &ra, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(ra.iterations, 1);
  cr_assert_leq(ra.residual, 1e-9 * ra.residual_ref);
  cr_assert_eq(world_solve(&b, "pgs", &rb, &err), VBC_OK, "%s", err.message);
  for (size_t k = 1; k < 3; ++k) {
    cr_assert_float_eq(a.bodies[k].v.x, b.bodies[k].v.x, 1e-7);
    cr_assert_float_eq(a.bodies[k].v.y, b.bodies[k].v.y, 1e-7);
    cr_assert_float_eq(a.bodies[k].w.z, b.bodies[k].w.z, 1e-6);
  }
  for (size_t k = 0; k < a.block.rows.n; ++k) cr_assert_geq(a.block.rows.impulse[k], 0.0);
  world_free(&a);
  world_free(&b);
}

/* Two 3 x 3 boxes meet face to face: three parallel, redundant contacts (singular M). */
Test(lemke_blocks, redundant_face_contacts_conserve_momentum) {
  for (int pass = 0; pass < 2; ++pass) {
    const double e = pass ? 1.0 : 0.0;
    world w;
    world_face_to_face(&w, e);
    const double rel0 = w.bodies[0].v.x - w.bodies[1].v.x;
    const double px = w.bodies[0].mass * w.bodies[0].v.x + w.bodies[1].mass * w.bodies[1].v.x;
    vbc_error err = {0};
    vbc_solve_result res;
    cr_assert_eq(world_solve(&w, "lemke", &res, &err), VBC_OK, "%s", err.message);
    const double rel1 = w.bodies[0].v.x - w.bodies[1].v.x;
    cr_assert_float_eq(rel1, -e * rel0, 1e-9, "e = %g: relative velocity %g", e, rel1);
    cr_assert_float_eq(w.bodies[0].mass * w.bodies[0].v.x + w.bodies[1].mass * w.bodies[1].v.x,
                       px, 1e-12);
    world_free(&w);
  }
}

/* Pin rows are bilateral: split into two unilateral rows each, they still stop the pin point. */
Test(lemke_blocks, bilateral_pin_rows_are_split) {
  world w;
  world_init(&w);
  add_body(&w, 5, 2, 0.0, 0.0, 1.0, vbc_vec_make(0.3, -0.5, 0), VBC_MOTION_PINNED);
  vbc_body *b = &w.bodies[0];
  b->w = vbc_vec_make(0, 0, 2.0);
  b->pin = vbc_vec_make(0.0, 0.0, 0.0);
  b->pin_offset = vbc_vec_sub(b->pin, b->x);
  world_block(&w, &vbc_block_pin, 0.0, 0.05);
  cr_assert_eq(w.block.rows.n, 2);
  vbc_error err = {0};
  vbc_block *blocks[1] = {&w.block};
  vbc_problem pb = {&w.sys, blocks, 1};
  vbc_lemke_lcp lcp = {0};
  cr_assert_eq(vbc_lemke_assemble(&pb, &lcp, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(lcp.n, 4u, "two rows, each split in two");
  cr_assert_eq(lcp.sign[1], -1);
  vbc_lemke_lcp_free(&lcp);
  vbc_solve_result res;
  cr_assert_eq(world_solve(&w, "lemke", &res, &err), VBC_OK, "%s", err.message);
  vbc_vec u = vbc_body_point_velocity(b, b->pin);
  cr_assert_lt(vbc_vec_norm(u), 1e-9, "pin point moves at %g m/s", vbc_vec_norm(u));
  cr_assert_gt(fabs(b->w.z), 0.1);
  world_free(&w);
}

Test(lemke_blocks, refuses_box_bounds_and_blocks_without_a_jacobian) {
  world w;
  pile(&w);
  w.block.rows.hi[0] = 1.0;
  vbc_error err = {0};
  vbc_block *blocks[1] = {&w.block};
  vbc_problem pb = {&w.sys, blocks, 1};
  vbc_lemke_lcp lcp = {0};
  cr_assert_eq(vbc_lemke_assemble(&pb, &lcp, &err), VBC_EXIT_INPUT);
  cr_assert_not_null(strstr(err.message, "bounds"), "%s", err.message);
  vbc_lemke_lcp_free(&lcp);
  world_free(&w);

  vbc_block m;
  vbc_error_clear(&err);
  cr_assert_eq(vbc_lcp_matrix_block_init(&m, 2, M2, (const double[]){-1, -1}, &err), VBC_OK);
  vbc_system sys = {0};
  cr_assert_eq(m.type->prepare(m.state, &sys, &m.rows, &err), VBC_OK);
  vbc_block *mb[1] = {&m};
  vbc_problem mp = {&sys, mb, 1};
  cr_assert_eq(vbc_lemke_assemble(&mp, &lcp, &err), VBC_EXIT_INPUT);
  cr_assert_not_null(strstr(err.message, "Jacobian"), "%s", err.message);
  vbc_lemke_lcp_free(&lcp);
  vbc_block_free(&m);
}
