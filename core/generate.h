/* generate.h — particles of the scene's shapes on the lattice of spacing l. */
#ifndef VBC_GENERATE_H
#define VBC_GENERATE_H

#include "core/particles.h"
#include "core/scene.h"

/* Append the particles of every shape of the scene. Fluid comes first, then walls, so that fluid
 * particle indices do not depend on the walls. */
int vbc_generate(const vbc_scene *scene, vbc_particles *p, vbc_error *err);

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
