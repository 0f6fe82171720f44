/* test_contact.c — the contact block (Miyamoto & Koshizuka eq. 46-72) and the pin joint between
 * rigid bodies made of particles, through the constraint interface and under both solvers:
 * the impulse of one contact is m_n (b - v_n) with the effective mass of eq. 60; a free collision
 * conserves linear momentum for e = 1 and e = 0; a pinned body's pin point stops. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "core/constraint.h"
#include "registry/registry.h"
#include "solvers/blocks/contact.h"
#include "solvers/blocks/blocks.h"
#include "tests/body_world.h"
#include "tests/support.h"


static vbc_solve_result world_solve(world *w, const char *solver, double omega) {
  return solve_block(&w->sys, &w->block, solver, omega, 1e-12, 0.0);
}


static vbc_vec momentum(const world *w) {
  vbc_vec P = vbc_vec_zero();
  for (size_t b = 0; b < w->sys.nbodies; ++b)
    P = vbc_vec_axpy(P, w->bodies[b].mass, w->bodies[b].v);
  return P;
}

/* A dumbbell A (particles at (0,0) and (0,l)) hit on its upper particle by a one-particle body B
 * from the left: one contact, 0.1 l deep, whose normal misses A's centre by l/2, so the
 * rotational term of eq. 60 counts. */
static void single_contact(const char *solver, double omega) {
  world w;
  world_init(&w);
  const double m = 2.0, e = 0.5, alpha = 0.2, u = 1.5;
  add_body(&w, 1, 2, 0.0, 0.0, m, vbc_vec_zero(), VBC_MOTION_FREE);
  add_body(&w, 1, 1, -0.9 * L, L, m, vbc_vec_make(u, 0, 0), VBC_MOTION_FREE);
  world_block(&w, &vbc_block_contact, e, alpha);
  cr_assert_eq(w.block.rows.n, 1, "one touching pair, got %zu", w.block.rows.n);
  /* by hand: n from B to A is +x (A is the lower particle index), r_A = (-0.45 l, l/2) */
  const vbc_body *A = &w.bodies[0];
  double IA = A->inertia.a[2][2];
  cr_assert_float_eq(IA, 2 * m * (0.25 * L * L) + 2 * m * L * L / 6, 1e-15);
  double inv_mn = 1 / (2 * m) + 1 / m + (0.5 * L) * (0.5 * L) / IA; /* eq. 60 */
  double vn = -u;                                                   /* v_A - v_B along +x */
  double b = fmax(-e * vn, alpha / DT * 0.1 * L);                   /* eq. 64 */
  cr_assert_float_eq(w.block.rows.diag[0], inv_mn, 1e-12);
  cr_assert_float_eq(w.block.rows.target[0], b, 1e-12);
  world_solve(&w, solver, omega);
  double N = (b - vn) / inv_mn;
  cr_assert_float_eq(w.block.rows.impulse[0], N, 1e-9 * N, "%s: N %g vs %g", solver,
                     w.block.rows.impulse[0], N);
  cr_assert_float_eq(A->v.x, N / (2 * m), 1e-9);                            /* eq. 46 */
  cr_assert_float_eq(A->w.z, ((-0.45 * L) * 0 - (0.5 * L) * N) / IA, 1e-9); /* eq. 47 */
  cr_assert_float_eq(w.bodies[1].v.x, u - N / m, 1e-9);                     /* eq. 48 */
  world_free(&w);
}

Test(contact, one_contact_gives_the_impulse_of_the_effective_mass_formula) {
  single_contact("pgs", 1.0);
  single_contact("jacobi", 0.5);
}

/* Two 3 x 3 boxes meet face to face (three parallel contacts) at relative speed 2. */
static void collision(const char *solver, double omega, double e) {
  world w;
  world_face_to_face(&w, e);
  vbc_vec P0 = momentum(&w);
  double rel0 = w.bodies[0].v.x - w.bodies[1].v.x;
  vbc_solve_result res = world_solve(&w, solver, omega);
  vbc_vec P1 = momentum(&w);
  cr_assert_lt(vbc_vec_norm(vbc_vec_sub(P1, P0)), 1e-12, "%s e=%g: momentum changed by %g",
               solver, e, vbc_vec_norm(vbc_vec_sub(P1, P0)));
  double rel1 = w.bodies[0].v.x - w.bodies[1].v.x;
  cr_assert_float_eq(rel1, -e * rel0, 1e-8, "%s e=%g: relative velocity %g after %d iterations",
                     solver, e, rel1, res.iterations);
  cr_assert_lt(fabs(w.bodies[0].w.z) + fabs(w.bodies[1].w.z), 1e-8); /* symmetric: no spin */
  world_free(&w);
}

Test(contact, a_free_collision_conserves_momentum_for_e_1_and_e_0) {
  collision("pgs", 1.0, 1.0);
  collision("pgs", 1.0, 0.0);
  collision("jacobi", 0.3, 1.0);
  collision("jacobi", 0.3, 0.0);
}

static void pinned(const char *solver, double omega) {
  world w;
  world_init(&w);
  add_body(&w, 5, 2, 0.0, 0.0, 1.0, vbc_vec_make(0.3, -0.5, 0), VBC_MOTION_PINNED);
  vbc_body *b = &w.bodies[0];
  b->w = vbc_vec_make(0, 0, 2.0);
  b->pin = vbc_vec_make(0.0, 0.0, 0.0); /* the lower-left particle, off the centre of mass */
  b->pin_offset = vbc_vec_sub(b->pin, b->x);
  world_block(&w, &vbc_block_pin, 0.0, 0.05);
  cr_assert_eq(w.block.rows.n, 2);
  world_solve(&w, solver, omega);
  vbc_vec u = vbc_body_point_velocity(b, b->pin);
  cr_assert_lt(vbc_vec_norm(u), 1e-9, "%s: pin point moves at %g m/s", solver, vbc_vec_norm(u));
  cr_assert_gt(fabs(b->w.z), 0.1, "the body still turns about the pin");
  world_free(&w);
}

Test(pin, a_pinned_body_stops_its_pin_point_under_pgs_and_jacobi) {
  pinned("pgs", 1.0);
  pinned("jacobi", 0.5);
}
