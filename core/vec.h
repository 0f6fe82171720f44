/* vec.h — 3-component double vectors used for positions and velocities in 2D and 3D.
 *
 * The dimension is a runtime property of a scene (dim = 2 or 3). In 2D the z component is kept
 * at exactly 0, so every formula is written once for three components and stays correct in 2D. */
#ifndef VBC_VEC_H
#define VBC_VEC_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vbc_vec {
  double x, y, z;
} vbc_vec;

static inline vbc_vec vbc_vec_make(double x, double y, double z) {
  vbc_vec v = {x, y, z};
  return v;
}
static inline vbc_vec vbc_vec_zero(void) { return vbc_vec_make(0.0, 0.0, 0.0); }
static inline vbc_vec vbc_vec_add(vbc_vec a, vbc_vec b) {
  return vbc_vec_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline vbc_vec vbc_vec_sub(vbc_vec a, vbc_vec b) {
  return vbc_vec_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline vbc_vec vbc_vec_scale(vbc_vec a, double s) {
  return vbc_vec_make(a.x * s, a.y * s, a.z * s);
}
/* a + s b */
static inline vbc_vec vbc_vec_axpy(vbc_vec a, double s, vbc_vec b) {
  return vbc_vec_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline double vbc_vec_dot(vbc_vec a, vbc_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double vbc_vec_norm2(vbc_vec a) { return vbc_vec_dot(a, a); }
static inline double vbc_vec_norm(vbc_vec a) { return sqrt(vbc_vec_norm2(a)); }
static inline vbc_vec vbc_vec_cross(vbc_vec a, vbc_vec b) {
  return vbc_vec_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double vbc_vec_get(vbc_vec a, int axis) {
  return axis == 0 ? a.x : (axis == 1 ? a.y : a.z);
}
static inline void vbc_vec_set(vbc_vec *a, int axis, double value) {
  if (axis == 0) a->x = value;
  else if (axis == 1) a->y = value;
  else a->z = value;
}
static inline int vbc_vec_isfinite(vbc_vec a) {
  return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
}

#ifdef __cplusplus
}
#endif

#endif
