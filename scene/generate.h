/* generate.h — particles of the scene's shapes on the lattice of spacing l. */
#ifndef VBC_GENERATE_H
#define VBC_GENERATE_H

#include "core/particles.h"
#include "scene/scene.h"

/* Append the particles of every shape and body of the scene, in this order: fluid (shape by
 * shape), then tank walls (tank by tank), then rigid bodies (in `bodies` order, each body's
 * particles contiguous), so that fluid particle indices do not depend on walls or bodies.
 *
 * Body k's particles are the points ((i + 1/2) l, (j + 1/2) l[, (k + 1/2) l]) of the *global*
 * lattice inside its shape (scene/body_shape.h: the boundary is outside), kind VBC_RIGID, `body`
 * = k (the index in `bodies`; wall particles' `body` is the tank number, told apart by kind).
 * Their velocity is v + w x (x - c), c the mean of the body's points, for free, pinned and
 * scripted bodies, and zero for fixed ones.
 *
 * Bodies displace fluid: a fluid particle closer than l (1 - 1e-6) to a body particle is not
 * generated (on an aligned lattice, exactly the fluid particles on the body's points go).
 *
 * Bad input (VBC_EXIT_INPUT, naming the scene file and the JSON path): more particles than the
 * limit (scene/limits.h, checked from the shapes before anything is allocated); a body whose shape holds
 * no lattice point; two bodies sharing a lattice point; a body particle closer than
 * l/2 (1 + 1e-6) to a tank wall particle; a pinned body's `pin` farther than l/2 (+ 1e-9 l, per
 * axis) from every particle of the body. Fluid on fluid and fluid in walls are checked later by
 * sim/sim.c on all particles. */
int vbc_generate(const vbc_scene *scene, vbc_particles *p, vbc_error *err);

/* Append the lattice points of the global lattice inside the shape, in lattice order (x fastest,
 * then y, then z), as VBC_RIGID particles of body `body` with zero velocity. VBC_EXIT_INPUT if
 * the shape's bounds span more than 1e9 lattice cells (a sanity limit). */
int vbc_generate_body(vbc_particles *p, int dim, double l, const vbc_body_shape *shape, int body,
                      vbc_error *err);

/* The lattice rule, shared with the particle-count estimate (scene/limits.c): the number of lattice
 * points along an extent (floor of extent / l, forgiving round-off), and the number of lattice
 * points in a body's bounding box, INFINITY when its indices would not be exact. A body beyond
 * VBC_MAX_BODY_CELLS is refused (a sanity limit that keeps a mistyped size from exhausting
 * memory), naming its shape. */
#define VBC_MAX_BODY_CELLS 1e9
double vbc_lattice_points(double extent, double l);
double vbc_body_lattice_cells(const vbc_body_shape *shape, int dim, double l);

/* Lattice points min + (k + 1/2) l inside the box [min, max] (count per axis: floor of the
 * extent over l), or inside the ball |x - c| < R (points c + (k + 1/2) l). */
int vbc_generate_fluid_box(vbc_particles *p, int dim, double l, vbc_vec min, vbc_vec max,
                           vbc_vec vel, double strain_rate, vbc_error *err);
int vbc_generate_fluid_ball(vbc_particles *p, int dim, double l, vbc_vec c, double radius,
                            vbc_vec vel, double strain_rate, vbc_error *err);
/* `layers` layers of wall particles around the interior box [min, max], open at the top (+y):
 * the lattice continues the interior's, so the first wall layer sits l from the first fluid. */
int vbc_generate_tank(vbc_particles *p, int dim, double l, vbc_vec min, vbc_vec max, long layers,
                      int body, vbc_error *err);

#endif
