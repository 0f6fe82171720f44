/* body_world.c — see body_world.h. */
#include <criterion/criterion.h>
#include <string.h>

#include "solvers/blocks/contact.h"
#include "tests/body_world.h"

void world_init(world *w) {
  memset(w, 0, sizeof *w);
  w->sys = (vbc_system){.dim = 2, .dt = DT, .spacing = L, .density = 1000.0,
                        .fluid_mass = 1000.0 * L * L, .re = 2.1 * L, .particles = &w->p,
                        .grid = &w->grid, .nbrs = &w->nbrs, .bodies = w->bodies};
}

void add_body(world *w, int nx, int ny, double x, double y, double particle_mass, vbc_vec v,
              vbc_motion motion) {
  vbc_error err = {0};
  size_t b = w->sys.nbodies++;
  w->bodies[b] = (vbc_body){.motion = motion, .first = w->p.n};
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      cr_assert_geq(vbc_particles_add(&w->p, vbc_vec_make(x + i * L, y + j * L, 0), v, VBC_RIGID,
                                      (int)b, &err), 0);
  w->bodies[b].count = w->p.n - w->bodies[b].first;
  cr_assert_eq(vbc_body_init_mass(&w->bodies[b], 2, L, particle_mass, w->p.pos, w->offset, &err),
               0);
  if (motion != VBC_MOTION_FIXED) w->bodies[b].v = v;
}

void world_face_to_face(world *w, double e) {
  world_init(w);
  add_body(w, 3, 3, 0.0, 0.0, 1.0, vbc_vec_make(1.0, 0.1, 0), VBC_MOTION_FREE);
  add_body(w, 3, 3, 2.95 * L, 0.0, 2.0, vbc_vec_make(-1.0, 0.0, 0), VBC_MOTION_FREE);
  world_block(w, &vbc_block_contact, e, 0.0);
  cr_assert_eq(w->block.rows.n, 3);
}

void world_block(world *w, const vbc_block_type *type, double e, double alpha) {
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&w->grid, w->p.pos, w->p.n, 2, w->sys.re, &err), 0);
  cr_assert_eq(vbc_neighbors_build(&w->nbrs, &w->grid, w->p.pos, w->sys.re, &err), 0);
  w->params = cJSON_CreateObject();
  cJSON_AddNumberToObject(w->params, "restitution", e);
  cJSON_AddNumberToObject(w->params, "alpha", alpha);
  cJSON_AddNumberToObject(w->params, "margin", 0.0); /* the paper's contacts: r < l */
  cr_assert_eq(vbc_block_init(&w->block, type, w->params, &w->sys, "b", &err), 0);
  cr_assert_eq(w->block.type->prepare(w->block.state, &w->sys, &w->block.rows, &err), 0);
}

void world_free(world *w) {
  vbc_block_free(&w->block);
  vbc_grid_free(&w->grid);
  vbc_neighbors_free(&w->nbrs);
  vbc_particles_free(&w->p);
  cJSON_Delete(w->params);
}
