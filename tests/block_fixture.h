/* block_fixture.h — one small particle scene with one constraint block over it, for the tests
 * that drive a block through the interface of core/constraint.h (the contract tests and the
 * block tests of mps, sph_density and staggered).
 *
 * Two ways in. A test that builds its own particles (a tank of its own size, a squeezed lattice)
 * fills f->p itself and calls block_fixture_system, block_fixture_neighbours and
 * block_fixture_block in that order, as the block tests always did. block_fixture_scene builds
 * the shared scene instead: a fluid lattice with a free surface in a tank of three wall layers
 * and one pinned rigid box, half submerged against the left wall and turned a little, every
 * fluid particle's position jittered and its velocity perturbed, the box moving and turning, so
 * that the rows of every block are non-trivial: fluid-fluid, fluid-wall, fluid-body, body-wall
 * (speculative) and pin rows, a free surface, a body that moves, and a non-diagonal world
 * inverse inertia in 3D. The system is set up as sim/sim.c sets it up (fluid mass rho l^d,
 * r_e = 2.1 l, the cubic spline with H = 2 l, the fluid list, the bodies' fluid impulses), and
 * block_fixture_scene_block builds the neighbour lists at the radius the simulation would use,
 * max(r_e, the block's support). */
#ifndef VBC_TEST_BLOCK_FIXTURE_H
#define VBC_TEST_BLOCK_FIXTURE_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/constraint.h"

typedef struct block_fixture {
  vbc_particles p;
  vbc_grid grid;
  vbc_neighbors nbrs;
  vbc_system sys;
  vbc_block block;
  /* block_fixture_scene only: */
  vbc_body body[1];
  vbc_vec *offset;       /* body-frame offsets of the rigid particles (core/body.h) */
  vbc_vec *fluid_impulse; /* sys.fluid_impulse, one per body */
  uint32_t *fluid;       /* sys.fluid */
} block_fixture;

/* The sizes of the shared scene: fluid lattice cells per axis (nz only in 3D). */
typedef struct block_scene_size {
  int dim, nx, ny, nz;
} block_scene_size;

/* Small scenes every check runs on (a few hundred fluid particles), and scenes with more than
 * VBC_PARALLEL_MIN fluid rows, where the blocks' passes run as OpenMP teams (core/parallel.h). */
extern const block_scene_size block_scene_2d, block_scene_3d;
extern const block_scene_size block_scene_2d_large, block_scene_3d_large;

/* f->sys over f's particles, grid and lists: dimension dim, spacing l, step dt, rest density
 * 1000, fluid mass 1000 l^dim, MPS radius re and SPH kernel sph. Clears nothing else. */
void block_fixture_system(block_fixture *f, int dim, double l, double dt, double re,
                          vbc_sph_kernel sph);
/* Grid and neighbour lists of f->p within radius. */
void block_fixture_neighbours(block_fixture *f, double radius);
/* f->block of the given type with params (NULL: none), label "fluid", and its rows prepared. */
void block_fixture_block(block_fixture *f, const vbc_block_type *type, const cJSON *params);
/* The shared scene (head comment): f is cleared first. */
void block_fixture_scene(block_fixture *f, block_scene_size size);
/* Create the block (label "fluid"), build the lists at max(r_e, its support), prepare its rows.
 * Returns the code of vbc_block_init (its message in *err) without touching the lists when the
 * block cannot be made from a scene; fails the test on any later error. */
int block_fixture_scene_block(block_fixture *f, const vbc_block_type *type, const cJSON *params,
                              vbc_error *err);
/* Everything f holds (the block too, if made). */
void block_fixture_free(block_fixture *f);

/* What a solve of f's block changes (fluid velocities, the box's velocity, the impulses), saved
 * so that two solvers can start from the same state; block_fixture_start_free releases it. */
typedef struct block_fixture_start {
  vbc_vec *vel, body_v, body_w;
  double *impulse;
} block_fixture_start;
block_fixture_start block_fixture_save(const block_fixture *f);
void block_fixture_restore(block_fixture *f, const block_fixture_start *s);
void block_fixture_start_free(block_fixture_start *s);
/* f's block solved by the solver (its check first, where it has one) to a relative residual of
 * 1e-10 from its current state; the impulses copied into out. */
vbc_solve_result block_fixture_solve(block_fixture *f, const vbc_solver_type *type, double *out);
/* The shared scene of the given size with an mps block, solved by pgs and by type from the same
 * start to 1e-10: both stop on the tolerance, every impulse of type's is admissible, and the two
 * agree to 1e-6 of the largest (the LCP's solution is unique where A is definite). Logs both
 * sweep counts (type's iterations times sweeps_per_iteration); returns type's result. */
vbc_solve_result block_fixture_same_solution_as_pgs(block_scene_size size,
                                                    const vbc_solver_type *type,
                                                    int sweeps_per_iteration);

#endif
