/* body.c — see body.h. */
#include <math.h>
#include <string.h>

#include "core/body.h"

const char *vbc_motion_name(vbc_motion m) {
  static const char *const names[] = {"free", "fixed", "pinned", "scripted"};
  return (unsigned)m < 4 ? names[m] : "?";
}

/* Inverse of a symmetric positive definite 3x3 matrix by cofactors. */
static void mat3_inverse(const vbc_mat3 *m, vbc_mat3 *out) {
  const double(*a)[3] = m->a;
  double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
  double inv = 1.0 / det;
  out->a[0][0] = c00 * inv;
  out->a[1][0] = c01 * inv;
  out->a[2][0] = c02 * inv;
  out->a[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * inv;
  out->a[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * inv;
  out->a[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * inv;
  out->a[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * inv;
  out->a[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * inv;
  out->a[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * inv;
}

int vbc_body_init_mass(vbc_body *b, int dim, double l, double particle_mass, const vbc_vec *pos,
                       vbc_vec *offset, vbc_error *err) {
  if (b->count == 0)
    return vbc_error_set(err, VBC_EXIT_INPUT, "a body holds no particles at spacing %g", l);
  vbc_vec c = vbc_vec_zero();
  for (size_t k = 0; k < b->count; ++k) c = vbc_vec_add(c, pos[b->first + k]);
  c = vbc_vec_scale(c, 1.0 / (double)b->count);
  /* each particle: a point mass at its centre plus its own box of edge l (§4.1) */
  const double own = (double)b->count * particle_mass * l * l / 6.0; /* all particles' */
  memset(&b->inertia, 0, sizeof b->inertia);
  for (size_t k = 0; k < b->count; ++k) {
    vbc_vec r = vbc_vec_sub(pos[b->first + k], c);
    offset[b->first + k] = r;
    double rr[3] = {r.x, r.y, r.z}, r2 = vbc_vec_norm2(r);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        b->inertia.a[i][j] += particle_mass * ((i == j ? r2 : 0.0) - rr[i] * rr[j]);
  }
  for (int i = 0; i < 3; ++i) b->inertia.a[i][i] += own * (dim == 2 && i < 2 ? 0.5 : 1.0);
  if (dim == 2) /* a lamina in the plane z = 0: only rotations about z exist */
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (i != 2 || j != 2) b->inertia.a[i][j] = 0.0;
  b->mass = particle_mass * (double)b->count;
  b->x = c;
  b->q = (vbc_quat){1.0, 0.0, 0.0, 0.0};
  b->inv_mass = vbc_body_movable(b) ? 1.0 / b->mass : 0.0;
  vbc_body_update_inertia(b, dim);
  return VBC_OK;
}

void vbc_body_update_inertia(vbc_body *b, int dim) {
  memset(&b->inv_inertia, 0, sizeof b->inv_inertia);
  if (!vbc_body_movable(b)) return;
  if (dim == 2) {
    if (!(b->lock & VBC_LOCK_ROT_Z)) b->inv_inertia.a[2][2] = 1.0 / b->inertia.a[2][2];
    return;
  }
  vbc_mat3 inv_body, R;
  mat3_inverse(&b->inertia, &inv_body);
  vbc_quat_to_mat3(b->q, &R);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k)
        for (int m = 0; m < 3; ++m) s += R.a[i][k] * inv_body.a[k][m] * R.a[j][m];
      b->inv_inertia.a[i][j] = s;
    }
  for (int i = 0; i < 3; ++i) /* locked rotation axes: P_rot I^-1 P_rot */
    if (b->lock & (VBC_LOCK_ROT_X << i))
      for (int j = 0; j < 3; ++j) b->inv_inertia.a[i][j] = b->inv_inertia.a[j][i] = 0.0;
}

vbc_quat vbc_quat_mul(vbc_quat a, vbc_quat b) {
  return (vbc_quat){a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                    a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                    a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

vbc_quat vbc_quat_from_rotation(vbc_vec axis_times_angle) {
  double angle = vbc_vec_norm(axis_times_angle);
  if (angle == 0.0) return (vbc_quat){1.0, 0.0, 0.0, 0.0};
  double s = sin(0.5 * angle) / angle;
  return (vbc_quat){cos(0.5 * angle), s * axis_times_angle.x, s * axis_times_angle.y,
                    s * axis_times_angle.z};
}

void vbc_quat_to_mat3(vbc_quat q, vbc_mat3 *R) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  R->a[0][0] = 1 - 2 * (y * y + z * z);
  R->a[0][1] = 2 * (x * y - w * z);
  R->a[0][2] = 2 * (x * z + w * y);
  R->a[1][0] = 2 * (x * y + w * z);
  R->a[1][1] = 1 - 2 * (x * x + z * z);
  R->a[1][2] = 2 * (y * z - w * x);
  R->a[2][0] = 2 * (x * z - w * y);
  R->a[2][1] = 2 * (y * z + w * x);
  R->a[2][2] = 1 - 2 * (x * x + y * y);
}

vbc_vec vbc_quat_rotate(vbc_quat q, vbc_vec v) {
  vbc_mat3 R;
  vbc_quat_to_mat3(q, &R);
  return vbc_mat3_mul(&R, v);
}

void vbc_body_integrate(vbc_body *b, double h) {
  if (b->motion == VBC_MOTION_FIXED) return;
  b->x = vbc_vec_axpy(b->x, h, b->v);                                      /* eq. 44 */
  vbc_quat q = vbc_quat_mul(vbc_quat_from_rotation(vbc_vec_scale(b->w, h)), b->q); /* eq. 45 */
  double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  b->q = (vbc_quat){q.w / n, q.x / n, q.y / n, q.z / n};
}

void vbc_body_place(const vbc_body *b, const vbc_vec *offset, vbc_vec *pos, vbc_vec *vel) {
  vbc_mat3 R;
  vbc_quat_to_mat3(b->q, &R);
  for (size_t k = b->first; k < b->first + b->count; ++k) {
    pos[k] = vbc_vec_add(b->x, vbc_mat3_mul(&R, offset[k]));
    vel[k] = vbc_body_point_velocity(b, pos[k]);
  }
}

/* I about the centre in the world frame, R I R^T. */
static void world_inertia(const vbc_body *b, vbc_mat3 *out) {
  vbc_mat3 R;
  vbc_quat_to_mat3(b->q, &R);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k)
        for (int m = 0; m < 3; ++m) s += R.a[i][k] * b->inertia.a[k][m] * R.a[j][m];
      out->a[i][j] = s;
    }
}

void vbc_body_project(vbc_body *b, int dim, const vbc_vec *pos, const vbc_vec *vel, vbc_vec v0,
                      vbc_vec w0) {
  if (!vbc_body_movable(b)) return;
  const int pinned = b->motion == VBC_MOTION_PINNED;
  const vbc_vec o = pinned ? vbc_body_pin_point(b) : b->x;
  const double m = b->mass / (double)b->count;
  vbc_vec dP = vbc_vec_zero(), dL = vbc_vec_zero(); /* momenta of u_k - (v0 + w0 x r_k) */
  for (size_t k = b->first; k < b->first + b->count; ++k) {
    vbc_vec r = vbc_vec_sub(pos[k], b->x);
    vbc_vec du = vbc_vec_sub(vel[k], vbc_vec_add(v0, vbc_vec_cross(w0, r)));
    dP = vbc_vec_add(dP, du);
    dL = vbc_vec_add(dL, vbc_vec_cross(vbc_vec_sub(pos[k], o), du));
  }
  dP = vbc_vec_scale(dP, m);
  dL = vbc_vec_scale(dL, m);
  if (!pinned) {
    b->v = vbc_vec_axpy(v0, b->inv_mass, vbc_body_unlocked(b, dP)); /* eq. 24 */
    b->w = vbc_vec_add(w0, vbc_mat3_mul(&b->inv_inertia, dL)); /* eq. 25 */
    return;
  }
  /* rotation about o only: I_o dw = dL_o, I_o = I + M (|d|^2 1 - d d^T) (parallel axes) */
  const vbc_vec d = vbc_vec_sub(b->x, o);
  if (dim == 2) {
    b->w = vbc_vec_make(0.0, 0.0, w0.z + dL.z / (b->inertia.a[2][2] + b->mass * vbc_vec_norm2(d)));
  } else {
    vbc_mat3 I, inv;
    world_inertia(b, &I);
    const double dd[3] = {d.x, d.y, d.z}, d2 = vbc_vec_norm2(d);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) I.a[i][j] += b->mass * ((i == j ? d2 : 0.0) - dd[i] * dd[j]);
    mat3_inverse(&I, &inv);
    b->w = vbc_vec_add(w0, vbc_mat3_mul(&inv, dL));
  }
  b->v = vbc_vec_cross(b->w, d);
}

double vbc_body_kinetic_energy(const vbc_body *b, int dim) {
  if (!vbc_body_movable(b)) return 0.0;
  vbc_mat3 R;
  vbc_quat_to_mat3(b->q, &R);
  /* w . I_world w = (R^T w) . I_body (R^T w) */
  vbc_vec wb = vbc_vec_make(R.a[0][0] * b->w.x + R.a[1][0] * b->w.y + R.a[2][0] * b->w.z,
                            R.a[0][1] * b->w.x + R.a[1][1] * b->w.y + R.a[2][1] * b->w.z,
                            R.a[0][2] * b->w.x + R.a[1][2] * b->w.y + R.a[2][2] * b->w.z);
  double rot = dim == 2 ? b->inertia.a[2][2] * b->w.z * b->w.z
                        : vbc_vec_dot(wb, vbc_mat3_mul(&b->inertia, wb));
  return 0.5 * b->mass * vbc_vec_norm2(b->v) + 0.5 * rot;
}
