/* body_shape.h — inside/outside and bounds of the shapes of rigid bodies (scene key `bodies`,
 * scene/scene.h vbc_body_shape, docs/scene-format.md).
 *
 * A body's particles are the points of the global lattice inside its shape (scene/generate.h), so
 * the only thing a shape must answer is "is this point inside?". Lattice points can lie exactly
 * on a boundary (a box face at (k + 1/2) l, a polygon edge through lattice points), and the
 * computed answer must not then depend on round-off. The rule: **the boundary is outside**, and
 * so is every point within tol = 1e-9 x the shape's size of it (size: the largest box extent,
 * the disk radius, the cross length, the largest extent of the polygon or mesh; scene/mesh.h has
 * the mesh's inside test, the generalised winding number). A point is inside only
 * if it is more than tol inside the shape. Strict like the `fluid_disk` rule |x - c| < R; the
 * tolerance is far above round-off (1e-16 of the coordinates) and far below the lattice spacing.
 * Consequence: a box whose min and max are multiples of l never has a lattice point on a face
 * and holds exactly (max - min) / l points per axis; a box with faces at (k + 1/2) l loses the
 * points on its faces. */
#ifndef VBC_BODY_SHAPE_H
#define VBC_BODY_SHAPE_H

#include "scene/scene.h"

/* 1 if x is inside s (boundary excluded, see above), else 0. In 2D x.z is ignored. */
int vbc_body_shape_contains(const vbc_body_shape *s, int dim, vbc_vec x);

/* Axis-aligned bounds of s (z = 0 in 2D). Every point that contains() accepts lies in
 * [lo, hi]. */
void vbc_body_shape_bounds(const vbc_body_shape *s, int dim, vbc_vec *lo, vbc_vec *hi);

/* A polygon's area (2D) or, extruded over [min.z, max.z], its volume (3D). */
double vbc_body_polygon_measure(const vbc_body_shape *s, int dim);

#endif
