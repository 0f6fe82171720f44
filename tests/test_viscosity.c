/* test_viscosity.c — the explicit viscous term (standard MPS Laplacian with the weight of
 * Miyamoto eq. 3): exact on the ideal lattice for linear and quadratic velocity fields. */
#include <criterion/criterion.h>

#include "scene/generate.h"
#include "core/grid.h"
#include "core/lattice.h"
#include "core/viscosity.h"

static void laplacian_of(int dim, double l, vbc_vec (*field)(vbc_vec), double nu, vbc_vec expect) {
  vbc_particles p = {0};
  vbc_error err = {0};
  const double re = 2.1 * l;
  vbc_vec hi = vbc_vec_make(12 * l, 12 * l, dim == 3 ? 12 * l : 0.0);
  cr_assert_eq(vbc_generate_fluid_box(&p, dim, l, vbc_vec_zero(), hi, vbc_vec_zero(), 0, &err), 0);
  for (size_t i = 0; i < p.n; ++i) p.vel[i] = field(p.pos[i]);
  vbc_grid g = {0};
  vbc_neighbors nb = {0};
  cr_assert_eq(vbc_grid_build(&g, p.pos, p.n, dim, re, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&nb, &g, p.pos, re, &err), 0);
  vbc_system sys = {.dim = dim, .spacing = l, .re = re, .particles = &p, .grid = &g, .nbrs = &nb};
  vbc_mps_constants k = vbc_mps_lattice_constants(dim, l, re);
  vbc_vec *acc = calloc(p.n, sizeof *acc);
  vbc_mps_viscosity(&sys, &k, nu, 1.0, NULL, acc);
  size_t checked = 0;
  for (size_t i = 0; i < p.n; ++i) {
    vbc_vec x = p.pos[i]; /* interior: full neighbourhood */
    int interior = x.x > 3 * l && x.x < 9 * l && x.y > 3 * l && x.y < 9 * l &&
                   (dim == 2 || (x.z > 3 * l && x.z < 9 * l));
    if (!interior) continue;
    cr_assert_float_eq(acc[i].x, expect.x, 1e-9, "dim %d particle %zu", dim, i);
    cr_assert_float_eq(acc[i].y, expect.y, 1e-9);
    cr_assert_float_eq(acc[i].z, expect.z, 1e-9);
    checked++;
  }
  cr_assert_gt(checked, 10u);
  free(acc);
  vbc_grid_free(&g);
  vbc_neighbors_free(&nb);
  vbc_particles_free(&p);
}

static vbc_vec shear(vbc_vec x) { return vbc_vec_make(3.0 * x.y, -2.0 * x.x, 0.0); }
static vbc_vec parabola(vbc_vec x) { return vbc_vec_make(x.y * x.y, 0.0, 0.0); }

Test(viscosity, vanishes_for_a_linear_field) {
  laplacian_of(2, 0.01, shear, 1e-3, vbc_vec_zero());
  laplacian_of(3, 0.01, shear, 1e-3, vbc_vec_zero());
}

Test(viscosity, is_exact_for_a_parabolic_profile) {
  /* u = (y^2, 0): nu lap u = (2 nu, 0) */
  laplacian_of(2, 0.01, parabola, 1e-3, vbc_vec_make(2e-3, 0, 0));
  laplacian_of(3, 0.01, parabola, 1e-3, vbc_vec_make(2e-3, 0, 0));
}
