/* test_viscosity_sph.c — the SPH explicit terms of core/viscosity_sph.c on ideal lattices:
 * XSPH (Ihmsen et al. 2014 step 4) keeps a uniform field, damps a checkerboard towards the mean,
 * conserves the fluid's momentum and ignores walls; the SPH viscosity (Morris, Fox & Zhu) vanishes
 * on linear fields, approximates nu lap u on a parabola, makes walls no-slip and reads rigid
 * particles' velocities from their body. Then the scene keys fluid.xsph and
 * fluid.viscosity_model: bad input exits 2 naming the JSON path, and the neighbour radius
 * reaches H when an SPH term is on. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/generate.h"
#include "core/grid.h"
#include "core/kernel.h"
#include "sim/sim.h"
#include "core/viscosity_sph.h"
#include "tests/support.h"

#define L 0.01 /* lattice spacing */
#define N 12   /* the fluid box is N l on every side */

/* A fluid box [0, N l]^dim on the lattice (k + 1/2) l, with neighbour lists of radius H. */
typedef struct fixture {
  vbc_particles p;
  vbc_grid g;
  vbc_neighbors nb;
  vbc_system sys;
  vbc_vec *acc;
} fixture;

static void fluid_box(fixture *f, int dim, double H_over_l) {
  vbc_error err = {0};
  memset(f, 0, sizeof *f);
  vbc_vec hi = vbc_vec_make(N * L, N * L, dim == 3 ? N * L : 0.0);
  cr_assert_eq(vbc_generate_fluid_box(&f->p, dim, L, vbc_vec_zero(), hi, vbc_vec_zero(), 0, &err),
               0);
  f->sys = (vbc_system){.dim = dim, .dt = 1e-3, .spacing = L, .re = 2.1 * L,
                        .sph = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, H_over_l * L, dim),
                        .particles = &f->p};
}

/* Neighbour lists of radius H; acc zeroed. Call after adding every particle. */
static void build(fixture *f) {
  vbc_error err = {0};
  const double H = f->sys.sph.H;
  cr_assert_eq(vbc_grid_build(&f->g, f->p.pos, f->p.n, f->sys.dim, H, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&f->nb, &f->g, f->p.pos, H, &err), 0);
  f->sys.grid = &f->g;
  f->sys.nbrs = &f->nb;
  f->acc = calloc(f->p.n, sizeof *f->acc);
  cr_assert_not_null(f->acc);
}

static void release(fixture *f) {
  free(f->acc);
  vbc_grid_free(&f->g);
  vbc_neighbors_free(&f->nb);
  vbc_particles_free(&f->p);
}

/* At least `margin` l from every face of the fluid box: a full kernel support of fluid. */
static int interior(const fixture *f, size_t i, double margin) {
  vbc_vec x = f->p.pos[i];
  for (int a = 0; a < f->sys.dim; ++a) {
    double c = vbc_vec_get(x, a);
    if (c < margin * L || c > (N - margin) * L) return 0;
  }
  return 1;
}

static vbc_vec uniform(vbc_vec x) { (void)x; return vbc_vec_make(0.3, -0.2, 0.1); }
static vbc_vec shear(vbc_vec x) { return vbc_vec_make(3.0 * x.y, -2.0 * x.x, 0.0); }
static vbc_vec stretch(vbc_vec x) { return vbc_vec_make(2.0 * x.x + x.y, -x.y, 0.5 * x.z); }
static vbc_vec parabola(vbc_vec x) { return vbc_vec_make(x.y * x.y, 0.0, 0.0); }

static void set_field(fixture *f, vbc_vec (*field)(vbc_vec)) {
  for (size_t i = 0; i < f->p.n; ++i) f->p.vel[i] = field(f->p.pos[i]);
}

/* ---- XSPH ---- */

Test(xsph, leaves_a_uniform_field_unchanged) {
  for (int dim = 2; dim <= 3; ++dim) {
    fixture f;
    fluid_box(&f, dim, 2.0);
    build(&f);
    set_field(&f, uniform);
    vbc_xsph_add(&f.sys, 0.5, f.acc);
    for (size_t i = 0; i < f.p.n; ++i) /* everywhere, surface included: v_j - v_i = 0 */
      cr_assert(vbc_vec_norm(f.acc[i]) == 0.0, "dim %d particle %zu", dim, i);
    release(&f);
  }
}

/* sum of l^d W(|k| l) over lattice offsets k with odd k_x + k_y [+ k_z]: the neighbours of the
 * other colour of a checkerboard (2D, H = 2 l: the 4 at r = l; 3D also the 8 at sqrt 3 l). */
static double other_colour_weight(int dim, double H) {
  const vbc_sph_kernel k = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, H, dim);
  double sum = 0.0;
  const int K = (int)ceil(H / L);
  for (int a = -K; a <= K; ++a)
    for (int b = -K; b <= K; ++b)
      for (int c = dim == 3 ? -K : 0; c <= (dim == 3 ? K : 0); ++c)
        if ((a + b + c) % 2 != 0)
          sum += pow(L, dim) * vbc_sph_W(&k, L * sqrt(a * a + b * b + c * c));
  return sum;
}

/* v = m + d (-1)^(ix + iy [+ iz]) on the lattice. At an interior particle the neighbours of the
 * same colour add nothing and those of the other colour add -2 d W, so one step gives
 * v* - m = d (1 - 2 alpha sum_other l^d W): the perturbation shrinks by that factor (0.545 in 2D,
 * 0.510 in 3D at alpha = 0.5, H = 2 l) without changing sign, and the total momentum is kept. */
Test(xsph, damps_a_checkerboard_towards_the_mean) {
  const double alpha = 0.5;
  for (int dim = 2; dim <= 3; ++dim) {
    fixture f;
    fluid_box(&f, dim, 2.0);
    build(&f);
    const vbc_vec m = vbc_vec_make(0.2, -0.1, 0.05), d = vbc_vec_make(0.04, 0.03, -0.02);
    for (size_t i = 0; i < f.p.n; ++i) {
      vbc_vec x = f.p.pos[i];
      long k = lround(floor(x.x / L) + floor(x.y / L) + (dim == 3 ? floor(x.z / L) : 0.0));
      f.p.vel[i] = vbc_vec_axpy(m, k % 2 ? -1.0 : 1.0, d);
    }
    vbc_xsph_add(&f.sys, alpha, f.acc);
    const double factor = 1.0 - 2.0 * alpha * other_colour_weight(dim, f.sys.sph.H);
    cr_log_info("checkerboard: dim %d, alpha %g: factor %.4f", dim, alpha, factor);
    cr_assert(factor > 0.0 && factor < 0.6, "dim %d: factor %g", dim, factor);
    vbc_vec total = vbc_vec_zero();
    size_t checked = 0;
    for (size_t i = 0; i < f.p.n; ++i) {
      total = vbc_vec_add(total, f.acc[i]);
      if (!interior(&f, i, 2.0)) continue;
      vbc_vec dv = vbc_vec_sub(vbc_vec_axpy(f.p.vel[i], f.sys.dt, f.acc[i]), m);
      vbc_vec d0 = vbc_vec_sub(f.p.vel[i], m);
      for (int a = 0; a < dim; ++a)
        cr_assert_float_eq(vbc_vec_get(dv, a), factor * vbc_vec_get(d0, a), 1e-12,
                           "dim %d particle %zu axis %d", dim, i, a);
      ++checked;
    }
    cr_assert_gt(checked, 10u);
    /* pairwise equal and opposite: sum_i a_i = 0 up to round-off of |a| ~ 20 m/s^2 */
    cr_assert_lt(vbc_vec_norm(total), 1e-9, "dim %d: total %g", dim, vbc_vec_norm(total));
    release(&f);
  }
}

/* A wall row below the fluid (walls are added after the fluid, as vbc_generate orders them). */
static void add_wall_row(fixture *f, vbc_kind kind, int body) {
  vbc_error err = {0};
  for (int k = 0; k < N; ++k)
    for (int r = 1; r <= 2; ++r)
      cr_assert_geq(vbc_particles_add(&f->p, vbc_vec_make((k + 0.5) * L, (0.5 - r) * L, 0.0),
                                      vbc_vec_zero(), kind, body, &err),
                    0);
}

Test(xsph, ignores_walls) {
  fixture f;
  fluid_box(&f, 2, 2.0);
  add_wall_row(&f, VBC_WALL, -1);
  build(&f);
  for (size_t i = 0; i < f.p.n; ++i)
    f.p.vel[i] = f.p.kind[i] == VBC_FLUID ? uniform(f.p.pos[i]) : vbc_vec_zero();
  vbc_xsph_add(&f.sys, 1.0, f.acc);
  for (size_t i = 0; i < f.p.n; ++i) cr_assert(vbc_vec_norm(f.acc[i]) == 0.0, "particle %zu", i);
  release(&f);
}

/* ---- SPH viscosity ---- */

/* Largest |acc - expect| over interior particles (a full support of fluid), and their count. */
static double max_error(const fixture *f, vbc_vec expect, size_t *count) {
  double worst = 0.0;
  *count = 0;
  for (size_t i = 0; i < f->p.n; ++i) {
    if (f->p.kind[i] != VBC_FLUID || !interior(f, i, f->sys.sph.H / L + 0.5)) continue;
    worst = fmax(worst, vbc_vec_norm(vbc_vec_sub(f->acc[i], expect)));
    ++*count;
  }
  return worst;
}

Test(sph_viscosity, vanishes_for_linear_fields) {
  vbc_vec (*fields[])(vbc_vec) = {uniform, shear, stretch};
  for (int dim = 2; dim <= 3; ++dim)
    for (size_t k = 0; k < 3; ++k) {
      fixture f;
      fluid_box(&f, dim, 2.0);
      build(&f);
      set_field(&f, fields[k]);
      vbc_sph_viscosity_add(&f.sys, 1e-3, 1.0, NULL, f.acc);
      size_t n;
      /* odd in x_ij: cancels by lattice symmetry; |terms| ~ nu |grad v| / l ~ 0.3 */
      cr_assert_lt(max_error(&f, vbc_vec_zero(), &n), 1e-12, "dim %d field %zu", dim, k);
      cr_assert_gt(n, 10u);
      release(&f);
    }
}

/* u = (y^2, 0, 0) and u = (x^2, 0, 0): nu lap u = (2 nu, 0, 0) exactly. The lattice sum misses
 * it by the lattice's quadrature of grad W and by eta. Measured relative error
 * |a - 2 nu e_x| / (2 nu), the same at every interior particle and for both fields:
 *   H / l   2.0     2.5     3.0     3.5     4.0
 *   2D     0.47 %  0.94 %  0.48 %  1.85 %  1.33 %
 *   3D     1.27 %  2.66 %  0.10 %  1.13 %  0.95 %
 * (Monaghan's form, for comparison, misses u_x = y^2 by 35 % in 2D at H = 2 l.) We assert 1 % and
 * 2 % at the default H = 2 l and 3 % across the range of fluid.sph_support_over_l we allow above
 * 2. */
static vbc_vec parabola_x(vbc_vec x) { return vbc_vec_make(x.x * x.x, 0.0, 0.0); }

static double parabola_error(int dim, double H_over_l, vbc_vec (*field)(vbc_vec)) {
  fixture f;
  fluid_box(&f, dim, H_over_l);
  build(&f);
  set_field(&f, field);
  const double nu = 1e-3;
  vbc_sph_viscosity_add(&f.sys, nu, 1.0, NULL, f.acc);
  size_t n;
  double rel = max_error(&f, vbc_vec_make(2.0 * nu, 0.0, 0.0), &n) / (2.0 * nu);
  cr_assert_gt(n, 0u);
  cr_log_info("parabola: dim %d, H = %g l: relative error %.3f %% at %zu particles", dim,
              H_over_l, 100.0 * rel, n);
  release(&f);
  return rel;
}

Test(sph_viscosity, approximates_the_laplacian_of_a_parabola) {
  cr_assert_lt(parabola_error(2, 2.0, parabola), 0.01);
  cr_assert_lt(parabola_error(3, 2.0, parabola), 0.02);
  cr_assert_lt(parabola_error(2, 2.0, parabola_x), 0.01);
  cr_assert_lt(parabola_error(3, 2.0, parabola_x), 0.02);
  for (int dim = 2; dim <= 3; ++dim)
    for (double H = 2.5; H <= 4.0; H += 0.5)
      cr_assert_lt(parabola_error(dim, H, parabola), 0.03, "dim %d H %g l", dim, H);
}

/* Fluid sliding at u over two rows of wall particles at rest: the rows next to the wall are
 * dragged backwards (no-slip), the rest of the fluid feels nothing. The same rows as particles of
 * a rigid body moving at 2 u (their own vel[] left at 0): the fluid now sees the boundary move at
 * +u relative to it instead of -u, so every acceleration flips sign exactly; that holds only if
 * the body's velocity is read (vel[] = 0 would drag backwards) and rigid particles are counted. */
static vbc_vec *drag_over_rows(int rigid, double nu, fixture *f) {
  const vbc_vec u = vbc_vec_make(0.5, 0.0, 0.0);
  fluid_box(f, 2, 2.0);
  add_wall_row(f, rigid ? VBC_RIGID : VBC_WALL, rigid ? 0 : -1);
  static vbc_body body;
  body = (vbc_body){.motion = VBC_MOTION_SCRIPTED, .x = vbc_vec_make(0.06, -0.01, 0.0),
                    .v = vbc_vec_scale(u, 2.0)};
  if (rigid) f->sys.bodies = &body, f->sys.nbodies = 1;
  build(f);
  for (size_t i = 0; i < f->p.n; ++i) f->p.vel[i] = f->p.kind[i] == VBC_FLUID ? u : vbc_vec_zero();
  vbc_sph_viscosity_add(&f->sys, nu, 1.0, NULL, f->acc);
  return f->acc;
}

Test(sph_viscosity, walls_are_no_slip_and_bodies_count_with_their_velocity) {
  fixture w, r;
  const vbc_vec *aw = drag_over_rows(0, 1e-3, &w), *ar = drag_over_rows(1, 1e-3, &r);
  size_t dragged = 0;
  for (size_t i = 0; i < w.p.n; ++i) {
    if (w.p.kind[i] != VBC_FLUID) continue;
    vbc_vec x = w.p.pos[i];
    if (x.y > w.sys.sph.H) { /* beyond the walls' reach */
      cr_assert(vbc_vec_norm(aw[i]) == 0.0 && vbc_vec_norm(ar[i]) == 0.0, "particle %zu", i);
      continue;
    }
    if (x.y < L && x.x > 3 * L && x.x < (N - 3) * L) { /* first row, away from the corners */
      /* measured: -5.02 m/s^2, i.e. -1.00 nu u / l^2 */
      cr_assert(aw[i].x < -4.0 && aw[i].x > -6.0, "particle %zu: a_x %g", i, aw[i].x);
      ++dragged;
    }
    cr_assert_lt(fabs(aw[i].y), 1e-12, "particle %zu", i);
    cr_assert_float_eq(ar[i].x, -aw[i].x, 1e-12 * fabs(aw[i].x), "particle %zu", i);
    cr_assert_float_eq(ar[i].y, -aw[i].y, 1e-12);
  }
  cr_assert_gt(dragged, 3u);
  release(&w);
  release(&r);
}

/* ---- scene keys (base_scene: tests/support.c) ---- */

Test(scene, bad_viscosity_model_xsph_and_kernel_name_their_path) {
  expect_bad_input("bad_visc", base_scene, SETS("fluid.viscosity_model=foo"),
                   FRAGMENTS("fluid.viscosity_model", "\"mps\"", "\"sph\"", "foo"));
  expect_bad_input("bad_visc", base_scene, SETS("fluid.viscosity_model=1"),
                   FRAGMENTS("fluid.viscosity_model", "a string"));
  expect_bad_input("bad_visc", base_scene, SETS("fluid.xsph=2"),
                   FRAGMENTS("fluid.xsph", "[0, 1]", "2"));
  expect_bad_input("bad_visc", base_scene, SETS("fluid.xsph=-0.1"), FRAGMENTS("fluid.xsph"));
  expect_bad_input("bad_kernel", base_scene, SETS("fluid.sph_kernel=wendland"),
                   FRAGMENTS("fluid.sph_kernel", "\"cubic_spline\"", "\"wendland_c2\"",
                             "wendland"));
  expect_bad_input("bad_kernel", base_scene, SETS("fluid.sph_kernel=2"),
                   FRAGMENTS("fluid.sph_kernel", "a string"));
}

/* The neighbour radius: r_e alone, H when an SPH term is on (r_e = 2.1 l < H = 3 l). */
static double support_of(const char *const *sets, int nsets) {
  const char *path = write_text(test_dir("support"), "scene.json", base_scene);
  vbc_scene sc;
  vbc_sim sim;
  vbc_error err = {0};
  cr_assert_eq(vbc_scene_load(&sc, path, sets, nsets, test_registry(), &err), 0, "%s", err.message);
  cr_assert_eq(vbc_sim_init(&sim, &sc, &err), 0, "%s", err.message);
  double s = sim.support / sc.spacing;
  vbc_sim_free(&sim);
  vbc_scene_free(&sc);
  return s;
}

Test(scene, neighbour_radius_covers_the_sph_support_when_needed) {
  cr_assert_float_eq(support_of(SETS("fluid.sph_support_over_l=3"), 1), 2.1, 1e-12);
  cr_assert_float_eq(support_of(SETS("fluid.sph_support_over_l=3", "fluid.viscosity=1e-3"), 2),
                     2.1, 1e-12);
  cr_assert_float_eq(support_of(SETS("fluid.sph_support_over_l=3", "fluid.xsph=0.1"), 2), 3.0,
                     1e-12);
  cr_assert_float_eq(support_of(SETS("fluid.sph_support_over_l=3", "fluid.viscosity=1e-3",
                                     "fluid.viscosity_model=sph"),
                                3),
                     3.0, 1e-12);
}

/* A run with both terms on writes the resolved keys, and the defaults when they are absent. */
Test(scene, runs_with_both_terms_and_resolves_the_defaults) {
  const char *path = write_text(test_dir("run_visc_scene"), "scene.json", base_scene);
  cJSON *s = run_scene("run_visc", path,
                       SETS("fluid.viscosity=1e-3", "fluid.viscosity_model=sph", "fluid.xsph=0.1"),
                       3);
  const cJSON *fl = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "scene"), "fluid");
  cr_assert_not_null(fl, "summary.json has scene.fluid");
  cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(fl, "viscosity_model")), "sph");
  cr_assert_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(fl, "xsph")), 0.1, 1e-15);
  cJSON_Delete(s);
  s = run_scene("run_default", path, NULL, 0);
  fl = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "scene"), "fluid");
  cr_assert_not_null(fl);
  cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(fl, "viscosity_model")), "mps");
  cr_assert_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(fl, "xsph")), 0.0, 0.0);
  cJSON_Delete(s);
}
