/* body.h — rigid bodies made of particles (Miyamoto & Koshizuka §3.1, §4.1).
 *
 * A body is a set of particles on the fluid lattice. Its mass, centre of mass and inertia tensor
 * are computed with every particle as an axis-aligned box of edge l (§4.1): a particle of mass m
 * at offset r from the centre of mass adds m (|r|^2 1 - r r^T) + (m l^2 / 6) 1, the second term
 * being a cube's (in 3D) or a square's polar moment (in 2D, where only I_zz is used). The body
 * frame is the world frame at t = 0, so the initial orientation is the identity quaternion and
 * the body-frame offsets are the initial offsets.
 *
 * State: centre x, orientation q, linear velocity v, angular velocity w (world frame; in 2D only
 * w.z is non-zero). Time integration (eq. 44-45): x += h v^{t+1}; q = dq q with dq the rotation
 * of angle h |w^{t+1}| about w^{t+1}. Like the paper, w changes only through impulses and external
 * torques (no gyroscopic term).
 *
 * Motion types:
 *   free      gravity and every impulse act on it;
 *   fixed     infinite mass (inv_mass = 0, inv_inertia = 0), never moves: floors and obstacles;
 *   pinned    a free body plus a pin joint (solvers/blocks/pin.c) that holds the pin point still, so
 *             it only rotates about that point (the seesaw, the crosses of §5.7);
 *   scripted  infinite mass, moves with a prescribed constant linear and angular velocity.
 * Impulses on fixed and scripted bodies change nothing because their inverse mass and inertia
 * are zero; constraint rows read their (possibly scripted) velocity.
 *
 * Locks (scene key bodies.N.lock, free bodies only): a locked world axis of translation or
 * rotation has zero inverse mass / inverse inertia, M^-1 = (1/m) P_lin and I^-1 = P_rot I^-1 P_rot
 * with P the projection onto the unlocked axes. Every impulse goes through vbc_body_push,
 * vbc_body_inv_mass_along, the inverse inertia or vbc_body_project, so every coupler respects
 * them; gravity is projected the same way (sim/sim.c). The locked components of v and w stay
 * zero (the scene refuses an initial velocity along a locked axis). He et al. 2012 §7.2 let the
 * wedge move vertically only. */
#ifndef VBC_BODY_H
#define VBC_BODY_H

#include <stddef.h>

#include "core/error.h"
#include "core/vec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vbc_motion {
  VBC_MOTION_FREE = 0,
  VBC_MOTION_FIXED = 1,
  VBC_MOTION_PINNED = 2,
  VBC_MOTION_SCRIPTED = 3
} vbc_motion;

const char *vbc_motion_name(vbc_motion m);

/* Bits of vbc_body.lock: translations along x, y, z and rotations about x, y, z (world axes). */
enum {
  VBC_LOCK_X = 1, VBC_LOCK_Y = 2, VBC_LOCK_Z = 4,
  VBC_LOCK_ROT_X = 8, VBC_LOCK_ROT_Y = 16, VBC_LOCK_ROT_Z = 32
};

typedef struct vbc_quat {
  double w, x, y, z;
} vbc_quat;

typedef struct vbc_mat3 {
  double a[3][3];
} vbc_mat3;

typedef struct vbc_body {
  vbc_motion motion;
  double mass, inv_mass;  /* inv_mass = 0 for fixed and scripted bodies */
  vbc_mat3 inertia;       /* about the centre of mass, body frame (2D: only a[2][2]) */
  vbc_mat3 inv_inertia;   /* world frame at the current orientation; 0 if it cannot rotate */
  vbc_vec x;              /* centre of mass */
  vbc_quat q;             /* orientation, body frame -> world */
  vbc_vec v, w;           /* linear and angular velocity */
  vbc_vec pin;            /* pinned: the world point held still */
  vbc_vec pin_offset;     /* pinned: the material pin point in the body frame */
  vbc_vec script_v, script_w; /* scripted: the prescribed velocities */
  size_t first, count;    /* its particles are [first, first + count) */
  unsigned lock;          /* VBC_LOCK_* bits: axes along which it cannot move */
} vbc_body;

/* v with the components along locked translation axes set to zero (P_lin v). */
static inline vbc_vec vbc_body_unlocked(const vbc_body *b, vbc_vec v) {
  if (b->lock & VBC_LOCK_X) v.x = 0.0;
  if (b->lock & VBC_LOCK_Y) v.y = 0.0;
  if (b->lock & VBC_LOCK_Z) v.z = 0.0;
  return v;
}

/* Whether forces move the body (free and pinned bodies); fixed and scripted ones are walls. */
static inline int vbc_body_movable(const vbc_body *b) {
  return b->motion == VBC_MOTION_FREE || b->motion == VBC_MOTION_PINNED;
}

static inline vbc_vec vbc_mat3_mul(const vbc_mat3 *m, vbc_vec v) {
  return vbc_vec_make(m->a[0][0] * v.x + m->a[0][1] * v.y + m->a[0][2] * v.z,
                      m->a[1][0] * v.x + m->a[1][1] * v.y + m->a[1][2] * v.z,
                      m->a[2][0] * v.x + m->a[2][1] * v.y + m->a[2][2] * v.z);
}

/* Velocity of the body's material point at world position p: v + w x (p - x) (eq. 50). */
static inline vbc_vec vbc_body_point_velocity(const vbc_body *b, vbc_vec p) {
  return vbc_vec_add(b->v, vbc_vec_cross(b->w, vbc_vec_sub(p, b->x)));
}

/* An impulse P at world point p: v += P / m, w += I^-1 ((p - x) x P) (eq. 46-49), locked axes
 * excluded. */
static inline void vbc_body_push(vbc_body *b, vbc_vec p, vbc_vec P) {
  b->v = vbc_vec_axpy(b->v, b->inv_mass, vbc_body_unlocked(b, P));
  b->w = vbc_vec_add(b->w, vbc_mat3_mul(&b->inv_inertia, vbc_vec_cross(vbc_vec_sub(p, b->x), P)));
}

/* Inverse effective mass of the body along direction n at world point p:
 * 1/m + |(p - x) x n|^2_{I^-1}, one body's part of eq. 60. */
static inline double vbc_body_inv_mass_along(const vbc_body *b, vbc_vec p, vbc_vec n) {
  vbc_vec rn = vbc_vec_cross(vbc_vec_sub(p, b->x), n);
  const double lin = b->lock ? b->inv_mass * vbc_vec_norm2(vbc_body_unlocked(b, n)) : b->inv_mass;
  return lin + vbc_vec_dot(rn, vbc_mat3_mul(&b->inv_inertia, rn));
}

/* Quaternion helpers. */
vbc_quat vbc_quat_mul(vbc_quat a, vbc_quat b);
vbc_quat vbc_quat_from_rotation(vbc_vec axis_times_angle);
vbc_vec vbc_quat_rotate(vbc_quat q, vbc_vec v);
void vbc_quat_to_mat3(vbc_quat q, vbc_mat3 *R);

/* The material pin point in the world: x + R pin_offset (it should sit on `pin`). */
static inline vbc_vec vbc_body_pin_point(const vbc_body *b) {
  return vbc_vec_add(b->x, vbc_quat_rotate(b->q, b->pin_offset));
}

/* Mass properties from the body's particles pos[first .. first + count), each of mass
 * particle_mass standing for a box of edge l: sets mass, x, inertia (and inv_mass, inv_inertia
 * according to b->motion, which the caller sets first), q = identity, and the body-frame offsets
 * offset[first + k] = pos[first + k] - x. VBC_EXIT_INPUT if the body has no particles. */
int vbc_body_init_mass(vbc_body *b, int dim, double l, double particle_mass, const vbc_vec *pos,
                       vbc_vec *offset, vbc_error *err);

/* World inverse inertia R I^-1 R^T at the current orientation (zero for fixed and scripted
 * bodies; in 2D only the zz entry). */
void vbc_body_update_inertia(vbc_body *b, int dim);

/* Eq. 44-45: x += h v, q = dq(h w) q (normalised). */
void vbc_body_integrate(vbc_body *b, double h);

/* pos[k] = x + R offset[k] and vel[k] = the point velocity there, for the body's particles. */
void vbc_body_place(const vbc_body *b, const vbc_vec *offset, vbc_vec *pos, vbc_vec *vel);

/* The rigid projection of weak coupling (Koshizuka's passively moving solid; Carlson et al.
 * eq. 24-26). The body's particles started a solve with the rigid motion (v0, w0) and came out of
 * it with velocities vel[first .. first + count), moved as independent point masses of equal mass
 * m = M / count. The body takes the momentum they gained, du_k = u_k - (v0 + w0 x r_k):
 *   free     M (v - v0) = sum_k m du_k (eq. 24),  I (w - w0) = sum_k m r_k x du_k (eq. 25);
 *   pinned   a rotation about the material pin point o only: I_o (w - w0) = sum_k m (x_k - o) x
 *            du_k with I_o = I + M (|d|^2 1 - d d^T), d = x - o, and v = w x d (the pin takes
 *            the rest of the linear momentum);
 *   fixed, scripted: unchanged.
 * Eq. 24-25 as written fit the whole field, with the particles' point inertia sum m |r|^2 in
 * place of the body's I (whose cells add m l^2/6 each, body.h): a spinning body would then slow
 * by that ratio every step, and a one-particle body could not turn at all. Fitting the change
 * keeps what the fluid gave the body exactly, uses the body's own inertia, and returns a rigid
 * motion unchanged. Eq. 26, every particle moving with v + w x r_k, is then vbc_body_place. */
void vbc_body_project(vbc_body *b, int dim, const vbc_vec *pos, const vbc_vec *vel, vbc_vec v0,
                      vbc_vec w0);

/* Kinetic energy 1/2 m |v|^2 + 1/2 w . I_world w (0 for infinite-mass bodies). */
double vbc_body_kinetic_energy(const vbc_body *b, int dim);

#ifdef __cplusplus
}
#endif

#endif
