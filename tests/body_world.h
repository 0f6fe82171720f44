/* body_world.h — a small 2D world of rigid bodies made of particles (spacing L = 0.1, step
 * DT = 0.01) with one constraint block over it, for the block-level tests of contacts, pins and
 * the Lemke adapter. */
#ifndef VBC_TEST_BODY_WORLD_H
#define VBC_TEST_BODY_WORLD_H

#include <cjson/cJSON.h>

#include "core/constraint.h"

#define L 0.1
#define DT 0.01

typedef struct world {
  vbc_particles p;
  vbc_body bodies[4];
  vbc_vec offset[256];
  vbc_grid grid;
  vbc_neighbors nbrs;
  vbc_system sys;
  vbc_block block;
  cJSON *params;
} world;

void world_init(world *w);
/* A body of nx x ny particles with its lower-left particle at (x, y), each of mass
 * particle_mass, moving at v unless fixed. */
void add_body(world *w, int nx, int ny, double x, double y, double particle_mass, vbc_vec v,
              vbc_motion motion);
/* Neighbour lists, then one block of `type` with restitution e and alpha, margin 0 (the paper's
 * contacts, r < l), prepared. */
void world_block(world *w, const vbc_block_type *type, double e, double alpha);
/* Two free 3 x 3 boxes (particle masses 1 and 2) meeting face to face at relative speed 2, one
 * also sliding at 0.1: three parallel, redundant contacts (a singular M), in a contact block
 * with restitution e, alpha 0. */
void world_face_to_face(world *w, double e);
void world_free(world *w);

#endif
