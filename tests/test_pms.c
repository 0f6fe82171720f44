/* test_pms.c — the passively moving solid coupler (couplers/pms.c; Koshizuka's PMS, Carlson et al.
 * eq. 24-26): the rigid projection keeps a body's momenta and reproduces rigid motion exactly, the
 * seesaw of Miyamoto & Koshizuka §5.6 leaves the bottom block untouched in the first step (Fig.
 * 15) where strong coupling pressurises it (Fig. 14), and a coarse floating box obeys Archimedes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "core/body.h"
#include "support.h"

enum { NX = 6, NY = 4, NZ = 3, NMAX = NX * NY * NZ };

/* A box of NX x NY (x NZ) particles of spacing l, turned by q, its centre at c. */
static vbc_body make_box(int dim, vbc_motion motion, vbc_quat q, vbc_vec c, vbc_vec *pos,
                         vbc_vec *offset) {
  const double l = 0.1;
  size_t n = 0;
  for (int k = 0; k < (dim == 3 ? NZ : 1); ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        pos[n++] = vbc_vec_make(i * l, j * l, dim == 3 ? k * l : 0.0);
  vbc_body b = {.motion = motion, .first = 0, .count = n};
  vbc_error err = {0};
  cr_assert_eq(vbc_body_init_mass(&b, dim, l, 0.7, pos, offset, &err), 0);
  b.x = c;
  b.q = q;
  b.pin = vbc_vec_add(c, vbc_quat_rotate(q, vbc_vec_make(0.15, -0.1, dim == 3 ? 0.05 : 0.0)));
  b.pin_offset = vbc_vec_make(0.15, -0.1, dim == 3 ? 0.05 : 0.0);
  vbc_body_update_inertia(&b, dim);
  vbc_vec vel[NMAX];
  vbc_body_place(&b, offset, pos, vel);
  return b;
}

/* R I R^T w: the world angular momentum of the body about its centre. */
static vbc_vec world_momentum(const vbc_body *b, int dim, vbc_vec w) {
  if (dim == 2) return vbc_vec_make(0.0, 0.0, b->inertia.a[2][2] * w.z);
  vbc_mat3 R;
  vbc_quat_to_mat3(b->q, &R);
  vbc_vec wb = vbc_vec_make(R.a[0][0] * w.x + R.a[1][0] * w.y + R.a[2][0] * w.z,
                            R.a[0][1] * w.x + R.a[1][1] * w.y + R.a[2][1] * w.z,
                            R.a[0][2] * w.x + R.a[1][2] * w.y + R.a[2][2] * w.z);
  return vbc_mat3_mul(&R, vbc_mat3_mul(&b->inertia, wb));
}

static double rel_diff(vbc_vec a, vbc_vec b) {
  return vbc_vec_norm(vbc_vec_sub(a, b)) / fmax(1e-300, vbc_vec_norm(b));
}

static vbc_quat some_turn(int dim) {
  return vbc_quat_from_rotation(dim == 3 ? vbc_vec_make(0.3, -0.5, 0.8) : vbc_vec_make(0, 0, 0.7));
}

static const vbc_vec V0 = {0.2, -0.4, 0.1}, W0 = {0.3, -0.2, 0.6};

static vbc_vec w0_for(int dim) { return dim == 3 ? W0 : vbc_vec_make(0, 0, W0.z); }
static vbc_vec v0_for(int dim) { return dim == 3 ? V0 : vbc_vec_make(V0.x, V0.y, 0); }

/* Particles that left the solve with arbitrary (deformed) velocities: the body gains exactly the
 * linear and angular momentum they gained over the rigid motion they started with. */
static void keeps_momenta(int dim) {
  vbc_vec pos[NMAX], offset[NMAX], vel[NMAX];
  vbc_body b = make_box(dim, VBC_MOTION_FREE, some_turn(dim), vbc_vec_make(1, 2, 0.5), pos,
                        offset);
  const vbc_vec v0 = v0_for(dim), w0 = w0_for(dim);
  const double m = b.mass / (double)b.count;
  vbc_vec dP = vbc_vec_zero(), dL = vbc_vec_zero();
  for (size_t k = 0; k < b.count; ++k) {
    double s = (double)k;
    vbc_vec du = vbc_vec_make(sin(1.3 * s), cos(0.7 * s * s), dim == 3 ? sin(2.1 * s + 1) : 0.0);
    vbc_vec r = vbc_vec_sub(pos[k], b.x);
    vel[k] = vbc_vec_add(vbc_vec_add(v0, vbc_vec_cross(w0, r)), du);
    dP = vbc_vec_axpy(dP, m, du);
    dL = vbc_vec_axpy(dL, m, vbc_vec_cross(r, du));
  }
  vbc_body_project(&b, dim, pos, vel, v0, w0);
  cr_assert_lt(rel_diff(vbc_vec_scale(vbc_vec_sub(b.v, v0), b.mass), dP), 1e-12,
               "linear momentum, %dD", dim);
  cr_assert_lt(rel_diff(world_momentum(&b, dim, vbc_vec_sub(b.w, w0)), dL), 1e-12,
               "angular momentum, %dD", dim);
  if (dim == 2) cr_assert(b.w.x == 0.0 && b.w.y == 0.0 && b.v.z == 0.0);
}

Test(pms_projection, keeps_linear_and_angular_momentum_in_2d_and_3d) {
  keeps_momenta(2);
  keeps_momenta(3);
}

/* Particles that come back with the rigid motion they started with leave the body unchanged, and
 * a uniform velocity change becomes exactly the body's. */
Test(pms_projection, a_rigid_field_passes_unchanged) {
  for (int dim = 2; dim <= 3; ++dim) {
    vbc_vec pos[NMAX], offset[NMAX], vel[NMAX];
    vbc_body b = make_box(dim, VBC_MOTION_FREE, some_turn(dim), vbc_vec_make(-1, 0.5, 2), pos,
                          offset);
    const vbc_vec v0 = v0_for(dim), w0 = w0_for(dim);
    const vbc_vec dv = vbc_vec_make(0.3, -2.0, dim == 3 ? 0.7 : 0.0);
    for (int change = 0; change <= 1; ++change) {
      vbc_vec v = change ? vbc_vec_add(v0, dv) : v0;
      for (size_t k = 0; k < b.count; ++k)
        vel[k] = vbc_vec_add(v, vbc_vec_cross(w0, vbc_vec_sub(pos[k], b.x)));
      vbc_body_project(&b, dim, pos, vel, v0, w0);
      cr_assert_lt(rel_diff(b.v, v), 1e-14, "v, %dD, change %d", dim, change);
      cr_assert_lt(rel_diff(b.w, w0), 1e-14, "w, %dD, change %d", dim, change);
    }
  }
}

/* A pinned body only turns about its pin: the pin point stays still, the body gains the angular
 * momentum about the pin its particles gained, and a push straight through the pin does
 * nothing. */
Test(pms_projection, a_pinned_body_turns_about_its_pin) {
  for (int dim = 2; dim <= 3; ++dim) {
    vbc_vec pos[NMAX], offset[NMAX], vel[NMAX];
    vbc_body b = make_box(dim, VBC_MOTION_PINNED, some_turn(dim), vbc_vec_make(0, 0, 0), pos,
                          offset);
    const vbc_vec o = vbc_body_pin_point(&b), d = vbc_vec_sub(b.x, o), w0 = w0_for(dim);
    const vbc_vec v0 = vbc_vec_cross(w0, d); /* turning about the pin */
    const double m = b.mass / (double)b.count;
    vbc_vec dL = vbc_vec_zero();
    for (size_t k = 0; k < b.count; ++k) {
      vbc_vec u0 = vbc_vec_add(v0, vbc_vec_cross(w0, vbc_vec_sub(pos[k], b.x)));
      vbc_vec du = k == 3 ? vbc_vec_make(2.0, 1.0, dim == 3 ? -1.0 : 0.0) : vbc_vec_zero();
      vel[k] = vbc_vec_add(u0, du);
      dL = vbc_vec_axpy(dL, m, vbc_vec_cross(vbc_vec_sub(pos[k], o), du));
    }
    vbc_body_project(&b, dim, pos, vel, v0, w0);
    cr_assert_lt(vbc_vec_norm(vbc_body_point_velocity(&b, o)), 1e-14);
    /* I_o dw = I dw + M d x (dw x d): the angular momentum about o of turning about o */
    vbc_vec dw = vbc_vec_sub(b.w, w0);
    vbc_vec dLo = vbc_vec_add(world_momentum(&b, dim, dw),
                              vbc_vec_scale(vbc_vec_cross(d, vbc_vec_cross(dw, d)), b.mass));
    cr_assert_lt(rel_diff(dLo, dL), 1e-12, "angular momentum about the pin, %dD", dim);
    for (size_t k = 0; k < b.count; ++k)
      vel[k] = vbc_vec_add(v0, vbc_vec_cross(w0, vbc_vec_sub(pos[k], b.x)));
    vel[0] = vbc_vec_axpy(vel[0], 3.0, vbc_vec_sub(o, pos[0])); /* along the line to the pin */
    vbc_body_project(&b, dim, pos, vel, v0, w0);
    cr_assert_lt(rel_diff(b.w, w0), 1e-12);
    cr_assert_lt(rel_diff(b.v, v0), 1e-12);
  }
}

/* Fig. 15 against Fig. 14: under PMS the top block pushes the bar as if it were fluid, and the
 * bottom block learns of it only in the next step. Its pressure is not exactly zero: the bar,
 * solved as a fluid with a free surface on its left, carries a trace of the top block's pressure
 * down its length (measured 0.08 Pa mean against 1578 Pa in the top block, the same with the
 * solve converged to 1e-6). Strong coupling gives the bottom block 2047 Pa. */
Test(pms_run, the_seesaw_leaves_the_bottom_block_at_rest_in_the_first_step) {
  const char *pms[] = {"time.end=0.005", "method.coupler=pms"};
  cJSON *s = run_scene("seesaw_pms", source_path("experiments/scenes/seesaw.json"), pms, 2);
  double bottom = json_number(s, "metrics.bottom_pressure_mean");
  double top = json_number(s, "metrics.top_pressure_mean");
  cr_assert_gt(top, 500.0, "the top block pushes the bar: %g Pa", top);
  cr_assert_lt(bottom, 1e-3 * top, "bottom block %g Pa, top block %g Pa", bottom, top);
  cr_assert_lt(json_number(s, "metrics.bottom_velocity_mean"), 1e-4);
  cr_assert_gt(json_number(s, "metrics.body_angular_velocity"), 0.1); /* the bar turns after */
  cJSON_Delete(s);
  const char *strong[] = {"time.end=0.005", "method.coupler=strong"};
  s = run_scene("seesaw_strong", source_path("experiments/scenes/seesaw.json"), strong, 2);
  cr_assert_gt(json_number(s, "metrics.bottom_pressure_mean"), 100.0 * fmax(bottom, 1.0));
  cJSON_Delete(s);
}

/* The bottom block's trace of pressure under PMS is the tail of a pressure field in the bar
 * (a strip free on its left), not a leak: it falls off exponentially with the gap between the
 * blocks (measured: x 21 and x 49 per 0.1 m, docs/coupling.md). */
static double pms_bottom_pressure(const char *name, const char *min, const char *max) {
  const char *sets[] = {"time.end=0.005", "method.coupler=pms", "bodies.0.shape.max=[0.1,1.3]",
                        min, max};
  cJSON *s = run_scene(name, source_path("experiments/scenes/seesaw.json"), sets, 5);
  double p = json_number(s, "metrics.bottom_pressure_mean");
  cr_assert_gt(json_number(s, "metrics.top_pressure_mean"), 1000.0);
  cJSON_Delete(s);
  return p;
}

Test(pms_run, the_bottom_blocks_trace_decays_exponentially_with_the_gap) {
  double p1 = pms_bottom_pressure("seesaw_gap1", "geometry.0.min=[0.1,0.5]",
                                  "geometry.0.max=[0.5,0.9]");
  double p2 = pms_bottom_pressure("seesaw_gap2", "geometry.0.min=[0.1,0.6]",
                                  "geometry.0.max=[0.5,1.0]");
  double p3 = pms_bottom_pressure("seesaw_gap3", "geometry.0.min=[0.1,0.7]",
                                  "geometry.0.max=[0.5,1.1]");
  cr_assert_gt(p3, 0.0);
  cr_assert_gt(p1 / p2, 10.0, "gap 0.1 -> 0.2 m: %g -> %g Pa", p1, p2);
  cr_assert_gt(p2 / p3, 10.0, "gap 0.2 -> 0.3 m: %g -> %g Pa", p2, p3);
}

/* §5.5 on a coarse lattice under PMS (measured: error 0.023, strong coupling 0.010). */
Test(pms_run, a_coarse_floating_box_obeys_archimedes,
     LONG_PHYSICS /* the sanitizers: the seesaw tests, test_compatibility_walk's pms cells */) {
  const char *sets[] = {"spacing=0.04", "time.end=2.5", "method.coupler=pms"};
  cJSON *s = run_scene("buoyancy_pms", source_path("experiments/scenes/buoyancy.json"), sets, 3);
  double e = json_number(s, "metrics.submerged_error");
  cr_assert_lt(e, 0.08, "submerged_error %g (ratio %g)", e, json_number(s, "metrics.submerged_ratio"));
  cJSON_Delete(s);
}
