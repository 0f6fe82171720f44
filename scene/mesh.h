/* mesh.h — closed triangle meshes as rigid-body shapes (scene shape `mesh`, 3D only,
 * docs/scene-format.md#mesh-bodies): the checks a mesh must pass, placing it in the scene, the
 * inside test and the mesh's own volume integrals.
 *
 * Inside test: the generalised winding number of Jacobson, Kavan & Sorkine-Hornung, "Robust
 * inside-outside segmentation using generalized winding numbers", ACM TOG 32(4), 2013:
 * w(p) = (1 / 4 pi) sum_t Omega_t(p), Omega_t the signed solid angle of triangle t seen from p
 * (Van Oosterom & Strackee's formula, IEEE Trans. Biomed. Eng. 30(2), 1983:
 * tan(Omega / 2) = a.(b x c) / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|), a, b, c the corners
 * relative to p). For a closed, outward-oriented mesh w is 1 inside and 0 outside; a small gap
 * or a non-manifold edge changes w only near the defect, so the threshold w > 1/2 stays a robust
 * answer where a ray-crossing parity would flip. The rule of scene/body_shape.h holds: a point
 * within tol = 1e-9 x the mesh's largest extent of any triangle is outside.
 *
 * Volume integrals (for the cross-check of the particles' mass properties): the divergence
 * theorem over the triangles, i.e. the sum of the signed tetrahedra (0, a, b, c):
 * V = sum a.(b x c) / 6, first moment sum V_t (a + b + c) / 4, second moments
 * sum V_t / 20 (a a^T + b b^T + c c^T + s s^T), s = a + b + c. */
#ifndef VBC_MESH_H
#define VBC_MESH_H

#include <stddef.h>

#include "core/body.h"
#include "core/error.h"
#include "core/vec.h"

typedef struct vbc_mesh {
  vbc_vec *v;         /* corners, 3 per triangle (v[3 t], v[3 t + 1], v[3 t + 2]) */
  size_t ntriangles;
  vbc_vec *normal;    /* unit normal of each triangle (set by vbc_mesh_place) */
  vbc_vec lo, hi;     /* bounds of the corners */
  double tol;         /* the boundary rule's distance: 1e-9 x the largest extent */
} vbc_mesh;

void vbc_mesh_free(vbc_mesh *m);

/* Why the mesh cannot be a body, written into why (after "got "); 0 if it can. In the file's
 * own coordinates, corners being equal when their coordinates are (STL repeats each corner per
 * triangle). Drops degenerate triangles (two equal corners, or area <= 1e-12 x the squared
 * longest edge); rejects: no triangles, only degenerate ones, an open mesh (an edge used by
 * triangles that do not pair up, a -> b with b -> a: a hole, or neighbours oriented inconsistently)
 * and a mesh that encloses no volume. A mesh oriented inside out (negative volume) is turned
 * around. Returns VBC_EXIT_SYSTEM (err set) if memory runs out, VBC_EXIT_INPUT if why is set. */
int vbc_mesh_check(vbc_mesh *m, char *why, size_t size, vbc_error *err);

/* x -> translate + R(rotate) (scale x), rotate a rotation vector (axis times angle in radians);
 * then the normals, bounds and tolerance. */
int vbc_mesh_place(vbc_mesh *m, double scale, vbc_vec rotate, vbc_vec translate,
                   vbc_error *err);

/* The generalised winding number at p (see above). */
double vbc_mesh_winding(const vbc_mesh *m, vbc_vec p);

/* 1 if p is inside: w(p) > 1/2 and p farther than tol from every triangle. */
int vbc_mesh_contains(const vbc_mesh *m, vbc_vec p);

/* Volume, centroid and the inertia tensor about the centroid per unit density, from the
 * triangles (see above). */
void vbc_mesh_mass(const vbc_mesh *m, double *volume, vbc_vec *centroid, vbc_mat3 *inertia);

/* Read an STL file, ASCII or binary, into m (triangles only: normals in the file are ignored,
 * the corners' order gives the orientation). Binary when the size is 84 + 50 n for the count n
 * in the header, ASCII when it starts with "solid"; anything else is bad input. Returns 0, or
 * VBC_EXIT_INPUT with why set ("the file cannot be read: ...", "a binary STL truncated ...",
 * "an ASCII STL with ... at line N", ...), or VBC_EXIT_SYSTEM (err set). */
int vbc_stl_read(const char *path, vbc_mesh *m, char *why, size_t size, vbc_error *err);

#endif
