/* test_agitation.c — the random displacements of core/agitation.h: unit directions spread evenly,
 * every interior fluid particle moved by exactly fluid.agitation l, the free surface left alone,
 * and bad values rejected. */
#include <criterion/criterion.h>
#include <math.h>

#include "scene/scene.h"
#include "sim/sim.h"
#include "core/agitation.h"
#include "tests/support.h"

Test(agitation, directions_are_unit_vectors_spread_evenly) {
  for (int dim = 2; dim <= 3; ++dim) {
    const size_t n = 20000;
    vbc_vec mean = vbc_vec_zero();
    double zz = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const vbc_vec d = vbc_agitation_direction(dim, i, 7);
      cr_assert_float_eq(vbc_vec_norm(d), 1.0, 1e-12);
      if (dim == 2) cr_assert_eq(d.z, 0.0);
      mean = vbc_vec_axpy(mean, 1.0 / (double)n, d);
      zz += d.z * d.z / (double)n;
    }
    /* the mean of n unit vectors in random directions is about 1/sqrt(n) = 0.007 long */
    cr_assert_lt(vbc_vec_norm(mean), 0.03, "dim %d: mean %g", dim, vbc_vec_norm(mean));
    if (dim == 3) cr_assert_float_eq(zz, 1.0 / 3.0, 0.02);
  }
  const vbc_vec a = vbc_agitation_direction(2, 5, 10), b = vbc_agitation_direction(2, 5, 10);
  cr_assert(a.x == b.x && a.y == b.y, "the same particle and step give the same direction");
  const vbc_vec c = vbc_agitation_direction(2, 5, 11), d = vbc_agitation_direction(2, 6, 10);
  cr_assert(c.x != a.x && d.x != a.x, "another step or particle gives another direction");
}

/* The base scene's 6 x 6 square of water without gravity stays on its lattice for a step; with
 * agitation 0.05 every particle but the top row moves 0.05 l, the top row (n < 0.97 n0) not. */
Test(agitation, interior_particles_move_by_the_amplitude_and_the_surface_stays) {
  vbc_scene sa, sb;
  vbc_sim a, b;
  sim_start(&sa, &a, "agitation_off", base_scene, SETS("gravity=[0,0]"), 1);
  sim_start(&sb, &b, "agitation_on", base_scene, SETS("gravity=[0,0]", "fluid.agitation=0.05"), 2);
  sim_step(&a, NULL);
  sim_step(&b, NULL);
  cr_assert_eq(a.particles.n, b.particles.n);
  size_t moved = 0, still = 0;
  double top = -INFINITY;
  for (size_t i = 0; i < a.particles.n; ++i)
    if (a.particles.kind[i] == VBC_FLUID) top = fmax(top, a.particles.pos[i].y);
  for (size_t i = 0; i < a.particles.n; ++i) {
    const double s = vbc_vec_norm(vbc_vec_sub(b.particles.pos[i], a.particles.pos[i]));
    if (a.particles.kind[i] != VBC_FLUID) {
      cr_assert_eq(s, 0.0, "walls do not move");
    } else if (a.particles.pos[i].y > top - 0.5 * sa.spacing) {
      cr_assert_eq(s, 0.0, "surface particle %zu moved %g", i, s);
      ++still;
    } else {
      cr_assert_float_eq(s, 0.05 * sa.spacing, 1e-12, "particle %zu moved %g", i, s);
      ++moved;
    }
  }
  cr_assert_eq(still, 6);
  cr_assert_eq(moved, 30);
  sim_stop(&sa, &a);
  sim_stop(&sb, &b);
}

Test(agitation_input, values_outside_zero_to_half_are_bad_input) {
  expect_bad_input("agitation_negative", base_scene, SETS("fluid.agitation=-0.1"),
                   FRAGMENTS("fluid.agitation"));
  expect_bad_input("agitation_large", base_scene, SETS("fluid.agitation=0.6"),
                   FRAGMENTS("fluid.agitation"));
  expect_bad_input("agitation_text", base_scene, SETS("fluid.agitation=\"lots\""),
                   FRAGMENTS("fluid.agitation", "number"));
}
