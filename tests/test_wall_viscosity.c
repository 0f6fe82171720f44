/* test_wall_viscosity.c — fluid.wall_viscosity: the factor on the wall and body terms of the
 * viscous Laplacian (core/viscosity.h, core/viscosity_sph.h). A small channel: fluid sliding at u
 * along two rows of wall particles at rest. no_slip (1) drags the rows next to the wall back, as
 * before; free_slip (0) leaves every fluid particle's tangential velocity exactly as it is (the
 * fluid field is uniform, so the fluid-fluid terms vanish); a factor in between scales the drag.
 * fluid.wall_viscosity_tangential (He et al. 2012 eq. 24's T): the same drag for the sliding
 * fluid, none for fluid moving straight at the wall. Then the scene keys: bad values exit 2
 * naming the path. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "scene/generate.h"
#include "core/grid.h"
#include "core/kernel.h"
#include "core/lattice.h"
#include "core/solid_normal.h"
#include "core/viscosity.h"
#include "core/viscosity_sph.h"
#include "tests/support.h"

#define L 0.01
#define N 12

typedef struct channel {
  vbc_particles p;
  vbc_grid g;
  vbc_neighbors nb;
  vbc_system sys;
  vbc_vec *acc;
} channel;

/* Fluid [0, N l]^2 at u = (0.5, 0) over two wall rows at rest; neighbour radius 2.1 l (MPS r_e,
 * and the SPH support H = 2.1 l). */
static void channel_make(channel *c) {
  vbc_error err = {0};
  *c = (channel){0};
  const double re = 2.1 * L;
  cr_assert_eq(vbc_generate_fluid_box(&c->p, 2, L, vbc_vec_zero(), vbc_vec_make(N * L, N * L, 0),
                                      vbc_vec_make(0.5, 0.0, 0.0), 0, &err),
               0);
  for (int k = 0; k < N; ++k)
    for (int r = 1; r <= 2; ++r)
      cr_assert_geq(vbc_particles_add(&c->p, vbc_vec_make((k + 0.5) * L, (0.5 - r) * L, 0.0),
                                      vbc_vec_zero(), VBC_WALL, -1, &err),
                    0);
  cr_assert_eq(vbc_grid_build(&c->g, c->p.pos, c->p.n, 2, re, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&c->nb, &c->g, c->p.pos, re, &err), 0);
  c->sys = (vbc_system){.dim = 2, .dt = 1e-3, .spacing = L, .re = re,
                        .sph = vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, re, 2),
                        .particles = &c->p, .grid = &c->g, .nbrs = &c->nb};
  c->acc = calloc(c->p.n, sizeof *c->acc);
  cr_assert_not_null(c->acc);
}

static void channel_free(channel *c) {
  free(c->acc);
  vbc_grid_free(&c->g);
  vbc_neighbors_free(&c->nb);
  vbc_particles_free(&c->p);
}

/* The viscous acceleration of every particle for the wall factor f (sph: Morris's form), of the
 * whole relative velocity (normal NULL) or of its tangential part. */
static void accelerations_of(channel *c, int sph, double f, const vbc_vec *normal) {
  for (size_t i = 0; i < c->p.n; ++i) c->acc[i] = vbc_vec_zero();
  if (sph) {
    vbc_sph_viscosity_add(&c->sys, 1e-3, f, normal, c->acc);
  } else {
    vbc_mps_constants k = vbc_mps_lattice_constants(2, L, c->sys.re);
    vbc_mps_viscosity(&c->sys, &k, 1e-3, f, normal, c->acc);
  }
}

static void accelerations(channel *c, int sph, double f) { accelerations_of(c, sph, f, NULL); }

Test(wall_viscosity, free_slip_keeps_the_tangential_velocity_and_no_slip_removes_it) {
  for (int sph = 0; sph <= 1; ++sph) {
    channel c;
    channel_make(&c);
    const size_t n = c.p.n;
    vbc_vec *no_slip = malloc(n * sizeof *no_slip);
    cr_assert_not_null(no_slip);
    accelerations(&c, sph, 1.0);
    for (size_t i = 0; i < n; ++i) no_slip[i] = c.acc[i];
    size_t dragged = 0;
    for (size_t i = 0; i < n; ++i)
      if (c.p.kind[i] == VBC_FLUID && c.p.pos[i].y < L) {
        cr_assert_lt(no_slip[i].x, -1.0, "sph %d particle %zu: a_x %g", sph, i, no_slip[i].x);
        ++dragged;
      }
    cr_assert_eq(dragged, (size_t)N);
    cr_log_info("wall_viscosity: %s, first row a_x = %.4g m/s^2 (no slip)", sph ? "sph" : "mps",
                no_slip[n / 2 - N / 2 - 1].x);
    accelerations(&c, sph, 0.0);
    for (size_t i = 0; i < n; ++i) /* free slip: nothing at all, the walls included */
      cr_assert(c.acc[i].x == 0.0 && c.acc[i].y == 0.0, "sph %d particle %zu", sph, i);
    accelerations(&c, sph, 0.25);
    for (size_t i = 0; i < n; ++i)
      cr_assert_float_eq(c.acc[i].x, 0.25 * no_slip[i].x, 1e-12 * fabs(no_slip[i].x) + 1e-15,
                         "sph %d particle %zu", sph, i);
    free(no_slip);
    channel_free(&c);
  }
}

/* Fluid particles whose wall neighbours all lie away from the ends of the two wall rows, where the
 * solid normals (eq. 20) are +-y. */
static int away_from_the_ends(const channel *c, size_t i) {
  return c->p.kind[i] == VBC_FLUID && c->p.pos[i].x > 3.0 * L && c->p.pos[i].x < (N - 3) * L;
}

Test(wall_viscosity, tangential_keeps_the_shear_drag_and_drops_the_normal_part) {
  for (int sph = 0; sph <= 1; ++sph) {
    channel c;
    channel_make(&c);
    const size_t n = c.p.n;
    vbc_vec *normal = calloc(n, sizeof *normal), *full = malloc(n * sizeof *full);
    cr_assert(normal && full);
    vbc_solid_normals(&c.sys, &c.sys.sph, c.sys.sph.H, normal);
    const size_t top = (size_t)(N * N + 2 * (N / 2)), bottom = top + 1; /* middle of each row */
    cr_assert_float_eq(normal[top].y, 1.0, 1e-12, "top row: n = (%g, %g)", normal[top].x,
                       normal[top].y);
    cr_assert_float_eq(normal[bottom].y, -1.0, 1e-12);
    cr_assert_eq(normal[0].x, 0.0); /* fluid particles have none */
    /* sliding along the wall: the relative velocity is tangential, the drag the same */
    accelerations_of(&c, sph, 1.0, NULL);
    for (size_t i = 0; i < n; ++i) full[i] = c.acc[i];
    accelerations_of(&c, sph, 1.0, normal);
    size_t checked = 0;
    for (size_t i = 0; i < n; ++i)
      if (away_from_the_ends(&c, i)) {
        cr_assert_float_eq(c.acc[i].x, full[i].x, 1e-9 * fabs(full[i].x) + 1e-12,
                           "sph %d particle %zu", sph, i);
        checked += c.p.pos[i].y < L;
      }
    cr_assert_eq(checked, (size_t)(N - 6));
    /* moving straight at the wall: the whole-velocity term pushes the first row back, the
     * tangential one leaves it alone (the uniform fluid field adds nothing either) */
    for (size_t i = 0; i < n; ++i)
      if (c.p.kind[i] == VBC_FLUID) c.p.vel[i] = vbc_vec_make(0.0, -0.5, 0.0);
    accelerations_of(&c, sph, 1.0, NULL);
    for (size_t i = 0; i < n; ++i) full[i] = c.acc[i];
    accelerations_of(&c, sph, 1.0, normal);
    for (size_t i = 0; i < n; ++i)
      if (away_from_the_ends(&c, i) && c.p.pos[i].y < L) {
        cr_assert_gt(full[i].y, 1.0, "sph %d particle %zu: a_y %g", sph, i, full[i].y);
        cr_assert_lt(fabs(c.acc[i].y), 1e-9 * full[i].y, "sph %d particle %zu: a_y %g", sph, i,
                     c.acc[i].y);
      }
    free(normal);
    free(full);
    channel_free(&c);
  }
}

Test(scene, bad_wall_viscosity_names_its_path) {
  expect_bad_input("bad_wall_visc", base_scene, SETS("fluid.wall_viscosity_tangential=1"),
                   FRAGMENTS("fluid.wall_viscosity_tangential", "true or false"));
  expect_bad_input("bad_wall_visc", base_scene, SETS("fluid.wall_viscosity=sticky"),
                   FRAGMENTS("fluid.wall_viscosity", "\"free_slip\"", "sticky"));
  expect_bad_input("bad_wall_visc", base_scene, SETS("fluid.wall_viscosity=-1"),
                   FRAGMENTS("fluid.wall_viscosity", ">= 0", "-1"));
}

Test(scene, wall_viscosity_accepts_its_words_and_factors) {
  const char *path = write_text(test_dir("wall_visc_scene"), "scene.json", base_scene);
  const char *values[] = {"fluid.wall_viscosity=free_slip", "fluid.wall_viscosity=0.5",
                          "fluid.wall_viscosity_tangential=true"};
  for (size_t k = 0; k < 3; ++k) {
    cJSON *s = run_scene("wall_visc", path, (const char *const[]){values[k], "fluid.viscosity=1e-3"},
                         2);
    cr_assert_not_null(s);
    cJSON_Delete(s);
  }
}
