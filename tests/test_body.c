/* test_body.c — rigid-body mass properties and time integration (core/body.c; Miyamoto &
 * Koshizuka §3.1, §4.1): inertia of lattice boxes, disks and balls against closed forms in 2D and
 * 3D, and the quaternion update of eq. 45 on a spinning body. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "core/body.h"

typedef struct cloud {
  vbc_vec *pos, *offset;
  size_t n;
} cloud;

/* Lattice points (i + 1/2) l inside [-a/2, a/2] x [-b/2, b/2] (x [-c/2, c/2] in 3D). */
static cloud box_cloud(int dim, double l, double a, double b, double c) {
  long na = lround(a / l), nb = lround(b / l), nc = dim == 3 ? lround(c / l) : 1;
  cloud cl = {calloc((size_t)(na * nb * nc), sizeof(vbc_vec)),
              calloc((size_t)(na * nb * nc), sizeof(vbc_vec)), 0};
  for (long k = 0; k < nc; ++k)
    for (long j = 0; j < nb; ++j)
      for (long i = 0; i < na; ++i)
        cl.pos[cl.n++] = vbc_vec_make((i + 0.5) * l - a / 2 + 1.0, (j + 0.5) * l - b / 2 + 2.0,
                                      dim == 3 ? (k + 0.5) * l - c / 2 : 0.0);
  return cl;
}

static cloud ball_cloud(int dim, double l, double R) {
  long K = (long)ceil(R / l) + 1, kz = dim == 3 ? K : 0;
  size_t cap = (size_t)((2 * K + 1) * (2 * K + 1) * (2 * kz + 1));
  cloud cl = {calloc(cap, sizeof(vbc_vec)), calloc(cap, sizeof(vbc_vec)), 0};
  for (long k = -kz; k <= kz; ++k)
    for (long j = -K; j <= K; ++j)
      for (long i = -K; i <= K; ++i) {
        vbc_vec x = vbc_vec_make((i + 0.5) * l, (j + 0.5) * l, dim == 3 ? (k + 0.5) * l : 0.0);
        if (dim == 2 && k != 0) continue;
        if (vbc_vec_norm(x) < R) cl.pos[cl.n++] = x;
      }
  return cl;
}

static vbc_body body_of(cloud *cl, int dim, double l, double particle_mass) {
  vbc_body b = {.motion = VBC_MOTION_FREE, .first = 0, .count = cl->n};
  vbc_error err = {0};
  cr_assert_eq(vbc_body_init_mass(&b, dim, l, particle_mass, cl->pos, cl->offset, &err), 0);
  return b;
}

static void free_cloud(cloud *cl) {
  free(cl->pos);
  free(cl->offset);
}

Test(body_mass, box_inertia_is_exact_in_2d_and_3d) {
  const double l = 0.03;
  cloud c2 = box_cloud(2, l, 0.6, 0.24, 0.0);
  vbc_body b2 = body_of(&c2, 2, l, 1000.0 * l * l);
  double M = 1000.0 * 0.6 * 0.24;
  cr_assert_float_eq(b2.mass, M, 1e-9 * M);
  cr_assert_float_eq(b2.x.x, 1.0, 1e-12);
  cr_assert_float_eq(b2.x.y, 2.0, 1e-12);
  /* a lattice of boxes of edge l tiles the box: I_zz = M (a^2 + b^2) / 12 exactly */
  cr_assert_float_eq(b2.inertia.a[2][2], M * (0.36 + 0.0576) / 12.0, 1e-9 * M);
  cr_assert_float_eq(b2.inv_inertia.a[2][2], 12.0 / (M * (0.36 + 0.0576)), 1e-6);
  cr_assert_eq(b2.inv_inertia.a[0][0], 0.0);
  free_cloud(&c2);

  cloud c3 = box_cloud(3, l, 0.3, 0.18, 0.12);
  vbc_body b3 = body_of(&c3, 3, l, 500.0 * l * l * l);
  M = 500.0 * 0.3 * 0.18 * 0.12;
  cr_assert_float_eq(b3.inertia.a[0][0], M * (0.18 * 0.18 + 0.12 * 0.12) / 12.0, 1e-9);
  cr_assert_float_eq(b3.inertia.a[1][1], M * (0.3 * 0.3 + 0.12 * 0.12) / 12.0, 1e-9);
  cr_assert_float_eq(b3.inertia.a[2][2], M * (0.3 * 0.3 + 0.18 * 0.18) / 12.0, 1e-9);
  cr_assert_float_eq(b3.inertia.a[0][1], 0.0, 1e-12);
  cr_assert_float_eq(b3.inv_inertia.a[1][1] * b3.inertia.a[1][1], 1.0, 1e-12);
  free_cloud(&c3);
}

Test(body_mass, disk_and_ball_inertia_match_closed_forms_within_the_lattice_error) {
  const double l = 0.01, R = 0.5;
  cloud c2 = ball_cloud(2, l, R);
  vbc_body b2 = body_of(&c2, 2, l, 1.0);
  /* I = M R^2 / 2 for the lattice's own mass M; the area differs from pi R^2 by O(l/R) */
  double expect = 0.5 * b2.mass * R * R;
  cr_assert_lt(fabs(b2.inertia.a[2][2] - expect) / expect, 0.01, "I_zz %g vs %g",
               b2.inertia.a[2][2], expect);
  cr_assert_lt(fabs(b2.mass - M_PI * R * R / (l * l)) / b2.mass, 0.01);
  cr_assert_lt(vbc_vec_norm(b2.x), 1e-12);
  free_cloud(&c2);

  const double l3 = 0.05, R3 = 1.0;
  cloud c3 = ball_cloud(3, l3, R3);
  vbc_body b3 = body_of(&c3, 3, l3, 1.0);
  expect = 0.4 * b3.mass * R3 * R3;
  for (int a = 0; a < 3; ++a)
    cr_assert_lt(fabs(b3.inertia.a[a][a] - expect) / expect, 0.02, "I_%d%d %g vs %g", a, a,
                 b3.inertia.a[a][a], expect);
  free_cloud(&c3);
}

Test(body_mass, fixed_and_scripted_bodies_have_infinite_mass) {
  cloud c = box_cloud(2, 0.1, 0.4, 0.4, 0.0);
  vbc_body b = {.motion = VBC_MOTION_FIXED, .count = c.n};
  vbc_error err = {0};
  cr_assert_eq(vbc_body_init_mass(&b, 2, 0.1, 1.0, c.pos, c.offset, &err), 0);
  cr_assert_eq(b.inv_mass, 0.0);
  cr_assert_eq(b.inv_inertia.a[2][2], 0.0);
  vbc_body_push(&b, vbc_vec_make(5, 5, 0), vbc_vec_make(1e3, 1e3, 0));
  cr_assert_eq(vbc_vec_norm(b.v) + vbc_vec_norm(b.w), 0.0);
  vbc_body empty = {.motion = VBC_MOTION_FREE, .count = 0};
  cr_assert_eq(vbc_body_init_mass(&empty, 2, 0.1, 1.0, c.pos, c.offset, &err), 2);
  free_cloud(&c);
}

/* Eq. 45 with a constant w: after N steps the body has turned by N h |w| about w, and every
 * particle sits where the exact rotation puts it, to round-off (the update is exact for a fixed
 * axis). */
static void spin(int dim, vbc_vec w) {
  const double l = 0.1, h = 0.01;
  cloud c = box_cloud(dim, l, 0.6, 0.2, 0.4);
  vbc_body b = body_of(&c, dim, l, 1.0);
  b.w = w;
  b.v = vbc_vec_make(0.3, -0.2, dim == 3 ? 0.1 : 0.0);
  vbc_vec x0 = b.x;
  const int N = 250;
  for (int s = 0; s < N; ++s) vbc_body_integrate(&b, h);
  double angle = N * h * vbc_vec_norm(w);
  vbc_vec axis = vbc_vec_scale(w, 1.0 / vbc_vec_norm(w));
  vbc_vec *p = c.pos, *v = calloc(c.n, sizeof *v);
  vbc_body_place(&b, c.offset, p, v);
  for (size_t k = 0; k < c.n; ++k) {
    vbc_vec r = c.offset[k];
    vbc_vec rot = vbc_vec_add(
        vbc_vec_add(vbc_vec_scale(r, cos(angle)), vbc_vec_scale(vbc_vec_cross(axis, r), sin(angle))),
        vbc_vec_scale(axis, vbc_vec_dot(axis, r) * (1 - cos(angle))));
    vbc_vec expect = vbc_vec_add(vbc_vec_axpy(x0, N * h, b.v), rot);
    cr_assert_lt(vbc_vec_norm(vbc_vec_sub(p[k], expect)), 1e-12, "particle %zu", k);
    /* the particle velocity is the rigid field v + w x r */
    vbc_vec u = vbc_vec_add(b.v, vbc_vec_cross(w, rot));
    cr_assert_lt(vbc_vec_norm(vbc_vec_sub(v[k], u)), 1e-12);
  }
  double qn = b.q.w * b.q.w + b.q.x * b.q.x + b.q.y * b.q.y + b.q.z * b.q.z;
  cr_assert_float_eq(qn, 1.0, 1e-14);
  free(v);
  free_cloud(&c);
}

Test(body_integration, a_spinning_body_turns_by_h_w_per_step_in_2d_and_3d) {
  spin(2, vbc_vec_make(0, 0, 2.0));
  spin(3, vbc_vec_make(0.5, -1.0, 1.5));
}

Test(body_integration, kinetic_energy_of_translation_and_rotation) {
  cloud c = box_cloud(2, 0.1, 0.4, 0.2, 0.0);
  vbc_body b = body_of(&c, 2, 0.1, 2.0);
  b.v = vbc_vec_make(3, 4, 0);
  b.w = vbc_vec_make(0, 0, 2);
  double expect = 0.5 * b.mass * 25.0 + 0.5 * b.inertia.a[2][2] * 4.0;
  cr_assert_float_eq(vbc_body_kinetic_energy(&b, 2), expect, 1e-12);
  free_cloud(&c);
}
