/* test_staggered_error.c — the staggered block's error measure (solvers/blocks/staggered/staggered_error.c;
 * He et al., ACM Trans. Graph. 31(6) 149, 2012, eq. 10 and 29): eq. 10's lattice factor c for
 * the cubic spline and Wendland C2 in 2D and 3D against the lattice values worked out by hand,
 * the block's own eq. 10 divergence of v = x at an interior lattice particle against c d, and
 * error_measure density dividing the rows' E by c; on a jittered block in uniform motion, the
 * rows of divergence relative_inside and of divergence_filter. */
#include <criterion/criterion.h>
#include <math.h>

#include "scene/generate.h"
#include "core/constraint.h"
#include "core/kernel.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/staggered/staggered.h"
#include "support.h"

static const double L = 0.02, DT = 0.001, RHO0 = 1000.0;

/* c on the square (cubic) lattice at H = 2 l, pairs at exactly H excluded: 2D has the 8
 * neighbours at l and sqrt(2) l, 3D the 26 at l, sqrt(2) l and sqrt(3) l, and
 * c = (l^d / (d N)) sum_j |W'(r_j / 2)| r_j. Cubic spline 2D: sigma = 40 / (7 pi H^2),
 * W'(q) = (sigma / H)(18 q^2 - 12 q) for q <= 1/2; at r = l, q = 1/4 and at r = sqrt(2) l,
 * q = sqrt(2)/4; giving 0.26676. The others the same way (with sigma = 8 / (pi H^3) in 3D;
 * Wendland C2: sigma = 7 / (pi H^2), 21 / (2 pi H^3), W'(q) = -20 (sigma / H) q (1 - q)^3). */
Test(staggered_error, lattice_factor_of_the_kernels) {
  const struct {
    vbc_sph_kernel_type type;
    int dim;
    double want;
  } cases[] = {{VBC_SPH_CUBIC_SPLINE, 2, 0.26676},
               {VBC_SPH_WENDLAND_C2, 2, 0.33498},
               {VBC_SPH_CUBIC_SPLINE, 3, 0.14345},
               {VBC_SPH_WENDLAND_C2, 3, 0.17929}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const vbc_sph_kernel ker = vbc_sph_kernel_make(cases[k].type, 2.0 * L, cases[k].dim);
    const double c = vbc_staggered_lattice_factor(&ker, cases[k].dim, L);
    cr_assert_float_eq(c, cases[k].want, 1e-5, "case %zu: c = %.5f, want %.4f", k, c,
                       cases[k].want);
  }
}

/* The cubic spline 2D value in closed form: sigma/H = 40 / (7 pi H^3), H = 2 l, so
 * c = (l^2 / 16) (sigma/H) [4 |W'(1/4)| l + 4 |W'(sqrt2/4)| sqrt2 l] / (sigma/H). */
Test(staggered_error, lattice_factor_in_closed_form) {
  const double H = 2.0 * L, sH = 40.0 / (7.0 * M_PI * H * H * H);
  const double q1 = 0.25, q2 = sqrt(2.0) / 4.0;
  const double d1 = fabs(18 * q1 * q1 - 12 * q1), d2 = fabs(18 * q2 * q2 - 12 * q2);
  const double want = L * L / 16.0 * sH * (4 * d1 * L + 4 * d2 * sqrt(2.0) * L);
  const vbc_sph_kernel ker = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, H, 2);
  cr_assert_float_eq(vbc_staggered_lattice_factor(&ker, 2, L), want, 1e-12 * want);
}

typedef struct fixture {
  vbc_particles p;
  vbc_grid grid;
  vbc_neighbors nbrs;
  vbc_system sys;
  vbc_block block;
} fixture;

/* 12 x 12 fluid particles of the 2D lattice moving with v = x (divergence 2), no walls, with
 * block parameters `measure`; the rows built. */
static void setup(fixture *f, vbc_sph_kernel_type type, const char *measure) {
  vbc_error err = {0};
  memset(f, 0, sizeof *f);
  const double H = 2.0 * L;
  cr_assert_eq(vbc_generate_fluid_box(&f->p, 2, L, vbc_vec_zero(), vbc_vec_make(12 * L, 12 * L, 0),
                                      vbc_vec_zero(), 0, &err), 0);
  for (size_t i = 0; i < f->p.n; ++i) f->p.vel[i] = f->p.pos[i];
  f->sys = (vbc_system){.dim = 2, .dt = DT, .spacing = L, .density = RHO0,
                        .fluid_mass = RHO0 * L * L, .re = 2.5 * L,
                        .sph = vbc_sph_kernel_make(type, H, 2), .particles = &f->p,
                        .grid = &f->grid, .nbrs = &f->nbrs};
  cr_assert_eq(vbc_grid_build(&f->grid, f->p.pos, f->p.n, 2, H, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&f->nbrs, &f->grid, f->p.pos, H, &err), 0);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "error_measure", measure);
  cr_assert_eq(vbc_block_init(&f->block, &vbc_block_staggered, params, &f->sys, "fluid", &err), 0,
               "%s", err.message);
  cJSON_Delete(params);
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0);
}

static void teardown(fixture *f) {
  vbc_block_free(&f->block);
  vbc_grid_free(&f->grid);
  vbc_neighbors_free(&f->nbrs);
  vbc_particles_free(&f->p);
}

/* The block's own eq. 10 at particles with a full neighbourhood is c d, and error_measure
 * density divides the block's error scale by c. */
Test(staggered_error, block_divergence_of_v_equal_x_is_c_d) {
  const vbc_sph_kernel_type types[] = {VBC_SPH_CUBIC_SPLINE, VBC_SPH_WENDLAND_C2};
  for (int k = 0; k < 2; ++k) {
    fixture f;
    setup(&f, types[k], "divergence");
    const vbc_staggered_state *s = f.block.state;
    const double c = vbc_staggered_lattice_factor(&f.sys.sph, 2, L);
    size_t checked = 0;
    for (size_t i = 0; i < f.p.n; ++i) {
      const vbc_vec x = f.p.pos[i];
      if (x.x < 3 * L || x.x > 9 * L || x.y < 3 * L || x.y > 9 * L) continue;
      const long r = s->row_of[i];
      cr_assert_geq(r, 0);
      const double div = -f.block.rows.target[r];
      cr_assert_float_eq(div, 2.0 * c, 1e-9, "kernel %d at (%g, %g): %.12g, want %.12g", k, x.x,
                         x.y, div, 2.0 * c);
      ++checked;
    }
    cr_assert_eq(checked, 36);
    const double scale_div = f.block.type->error_scale(f.block.state, &f.sys);
    teardown(&f);
    setup(&f, types[k], "density");
    const double scale_rho = f.block.type->error_scale(f.block.state, &f.sys);
    cr_assert_float_eq(scale_div, DT, 1e-15);
    cr_assert_float_eq(scale_rho, DT / c, 1e-12 * DT / c);
    teardown(&f);
  }
}

/* Under the staggered coupler the p^v stage reports E before and after the solve in both units,
 * their ratio is c (cubic spline, 2D: 0.26676), and with error_measure density error_tolerance
 * bounds the density unit: every solve stops on E <= 3e-4 there, which in the divergence unit is
 * below 3e-4 c (vbc's coarse dam break starts p^v at E ~ 1e-3 in the density unit). */
Test(staggered_error, the_coupler_reports_both_units, .timeout = 120) {
  cJSON *s = run_scene("stag_error_units", source_path("experiments/scenes/dam_break.json"),
                       SETS("spacing=0.02", "time.end=0.05", "method.coupler=staggered",
                            "method.fluid.constraint=staggered", "method.fluid.solver=cg",
                            "method.fluid.error_measure=density",
                            "method.fluid.error_tolerance=3e-4", "method.fluid.tolerance=1e-12"),
                       8);
  cr_assert_str_eq(cJSON_GetObjectItem(s, "status")->valuestring, "ok");
  const double c = 0.26676;
  cr_assert_eq(json_number(s, "solver.stages.1.stop_reasons.error_tolerance"),
               json_number(s, "solver.stages.1.solves"));
  const double fin = json_number(s, "solver.stages.1.mean_final_error_density");
  cr_assert_float_eq(fin, json_number(s, "solver.stages.1.final_mean_error_mean"), 1e-12);
  cr_assert_leq(json_number(s, "solver.stages.1.max_final_error_density"), 3e-4);
  cr_assert_float_eq(json_number(s, "solver.stages.1.mean_final_error_divergence"), c * fin,
                     1e-4 * fin);
  const double e0 = json_number(s, "solver.stages.1.mean_initial_error_density");
  cr_assert_float_eq(json_number(s, "solver.stages.1.mean_initial_error_divergence"), c * e0,
                     1e-4 * e0);
  cr_assert_gt(e0, 3e-4, "E0 = %g: the solve must have had work to do", e0);
  cr_assert_gt(json_number(s, "solver.stages.1.mean_iterated"), 0.5);
  cJSON_Delete(s);
}

/* The fixture's 12 x 12 block jittered by up to 0.1 l (a fixed sequence from `seed`), moving
 * uniformly at (1, 0.5) m/s, its block built anew with `params` (taken) and the rows prepared. */
static void jittered(fixture *f, unsigned seed, cJSON *params) {
  setup(f, VBC_SPH_WENDLAND_C2, "divergence");
  for (size_t i = 0; i < f->p.n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    f->p.pos[i].x += 0.1 * L * ((double)(seed >> 8) / (double)(1u << 23) - 1.0);
    seed = seed * 1664525u + 1013904223u;
    f->p.pos[i].y += 0.1 * L * ((double)(seed >> 8) / (double)(1u << 23) - 1.0);
    f->p.vel[i] = vbc_vec_make(1.0, 0.5, 0.0);
  }
  vbc_block_free(&f->block);
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&f->grid, f->p.pos, f->p.n, 2, f->sys.sph.H, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&f->nbrs, &f->grid, f->p.pos, f->sys.sph.H, &err), 0);
  cr_assert_eq(vbc_block_init(&f->block, &vbc_block_staggered, params, &f->sys, "fluid", &err), 0);
  cJSON_Delete(params);
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0);
}

/* divergence relative_inside (not He's): rows with a free-surface neighbour keep eq. 10 as
 * printed (pair), the others take the relative form. A 12 x 12 block of jittered water (no walls)
 * moving uniformly at (1, 0.5) m/s: the relative form sees no divergence, so every row without a
 * surface neighbour asks for none, and every row with one asks what the pair form asks. */
Test(staggered_error, relative_inside_keeps_eq_10_only_next_to_the_surface) {
  const char *forms[] = {"pair", "relative_inside"};
  double *target[2] = {NULL, NULL};
  size_t nrows = 0, inside = 0, next_to_surface = 0;
  for (int k = 0; k < 2; ++k) {
    fixture f;
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "divergence", forms[k]);
    jittered(&f, 7u, params);
    const vbc_rows *rows = &f.block.rows;
    nrows = rows->n;
    target[k] = malloc(nrows * sizeof *target[k]);
    for (size_t r = 0; r < nrows; ++r) target[k][r] = rows->target[r];
    if (k == 1) {
      const vbc_staggered_state *s = f.block.state;
      for (size_t r = 0; r < nrows; ++r) {
        const size_t i = s->particle_of[r];
        int touches = 0;
        for (size_t q = f.nbrs.start[i]; q < f.nbrs.start[i + 1]; ++q)
          touches |= vbc_staggered_is_surface(&f.block, f.nbrs.index[q]) &&
                     vbc_staggered_pair(f.nbrs.dist[q], f.sys.sph.H);
        if (touches) {
          cr_assert_eq(target[1][r], target[0][r], "row %zu next to the surface", r);
          ++next_to_surface;
        } else {
          cr_assert_float_eq(target[1][r], 0.0, 1e-12, "row %zu inside: %g", r, target[1][r]);
          cr_assert_gt(fabs(target[0][r]), 1e-6, "the pair form sees the jitter at row %zu", r);
          ++inside;
        }
      }
    }
    teardown(&f);
  }
  cr_assert_gt(inside, 20);
  cr_assert_gt(next_to_surface, 20);
  free(target[0]), free(target[1]);
}

/* divergence_filter alpha (not He's): each row asks -((1 - alpha) div_i + alpha <div>_i), <div>_i
 * the Shepard mean over row i and its row neighbours closer than H (weights W(r), W(0) for i).
 * On the jittered block of the test above (eq. 10 as printed sees the jitter of a uniform flow),
 * the targets with alpha = 1 and 0.5 against that mean taken from the unfiltered targets. */
Test(staggered_error, divergence_filter_asks_the_shepard_mean) {
  const double alpha[] = {0.0, 1.0, 0.5};
  double *target[3] = {NULL, NULL, NULL};
  size_t nrows = 0;
  fixture f;
  for (int k = 0; k < 3; ++k) {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddNumberToObject(params, "divergence_filter", alpha[k]);
    jittered(&f, 11u, params);
    nrows = f.block.rows.n;
    target[k] = malloc(nrows * sizeof *target[k]);
    for (size_t r = 0; r < nrows; ++r) target[k][r] = f.block.rows.target[r];
    if (k < 2) teardown(&f);
  }
  const vbc_staggered_state *s = f.block.state;
  const double w0 = vbc_sph_W(&f.sys.sph, 0.0);
  double spread = 0.0;
  for (size_t r = 0; r < nrows; ++r) {
    const size_t i = s->particle_of[r];
    double num = w0 * target[0][r], den = w0;
    for (size_t q = f.nbrs.start[i]; q < f.nbrs.start[i + 1]; ++q) {
      const long rj = s->row_of[f.nbrs.index[q]];
      if (rj < 0 || !vbc_staggered_pair(f.nbrs.dist[q], f.sys.sph.H)) continue;
      const double w = vbc_sph_W(&f.sys.sph, f.nbrs.dist[q]);
      num += w * target[0][rj], den += w;
    }
    const double mean = num / den;
    cr_assert_float_eq(target[1][r], mean, 1e-12 * (1.0 + fabs(mean)), "row %zu", r);
    cr_assert_float_eq(target[2][r], 0.5 * (target[0][r] + mean), 1e-12 * (1.0 + fabs(mean)));
    spread = fmax(spread, fabs(target[1][r] - target[0][r]));
  }
  cr_assert_gt(spread, 1e-3, "the jitter gives the rows different targets (%g)", spread);
  cr_assert_gt(nrows, 50, "%zu rows", nrows);
  teardown(&f);
  for (int k = 0; k < 3; ++k) free(target[k]);
}
