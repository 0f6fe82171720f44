/* sim.h — the state of one simulation: scene, particles, neighbour search, the system the
 * constraint blocks act on, the coupler, time. The time loop (sim/run.c) drives it. */
#ifndef VBC_SIM_H
#define VBC_SIM_H

#include "core/constraint.h"
#include "core/coupler.h"
#include "core/grid.h"
#include "core/lattice.h"
#include "core/particles.h"
#include "scene/scene.h"
#include "sim/time_step.h"

typedef struct vbc_sim {
  const vbc_scene *scene;
  vbc_particles particles;
  vbc_grid grid;
  vbc_neighbors nbrs;
  unsigned char *seed, *active, *cell_mark; /* vbc_sim_neighbours: which particles get lists */
  size_t cap_cell_mark;
  double list_reach; /* walls nearer a fluid or rigid particle get lists; -1: two cells */
  vbc_system sys;
  vbc_mps_constants mps; /* n0, C, lambda of the initial lattice at r_e */
  double support;        /* neighbour radius: max of r_e and every block's support */
  vbc_vec domain_min, domain_max;
  size_t nfluid;
  uint32_t *fluid_index; /* nfluid + 1: the fluid particles' indices in order (sys.fluid) */
  vbc_body *bodies;   /* scene->nbodies rigid bodies (sys.bodies points here) */
  vbc_vec *offset;    /* per particle: body-frame offset of a rigid particle */
  vbc_vec *acc; /* scratch: explicit accelerations */
  vbc_vec *wall_normal; /* fluid.wall_viscosity_tangential: solid normals (He eq. 20), else NULL */
  long step, nsteps;   /* nsteps: VBC_SCHEDULE_OPEN with adaptive steps (sim/schedule.h) */
  double time;
  vbc_time_steps time_steps; /* sizes of the steps so far (sim/time_step.h) */
  double body_seconds; /* wall time of the bodies' integration (vbc_sim_advect), a timing */
  vbc_coupling coupling; /* the scene's coupler: its blocks, solvers and stages */
} vbc_sim;

/* Generate particles and create the coupler (which creates its blocks and solvers). */
int vbc_sim_init(vbc_sim *sim, const vbc_scene *scene, vbc_error *err);
void vbc_sim_free(vbc_sim *sim);
/* One time step by the scene's coupler (vbc_coupling_step). */
int vbc_sim_step(vbc_sim *sim, vbc_step_report *rep, vbc_error *err);

/* Grid and neighbour lists at the current positions (radius sim->support), for every fluid and
 * rigid particle and the walls near one: those closer than list_reach when every block of the
 * coupling bounds how far it reads wall lists (vbc_block_type.list_reach; the simulation's own
 * passes read the lists of fluid particles and, with the tangential wall viscosity, the normals
 * of the walls in them), else every wall within two cell edges (2 support radii). Walls farther
 * away get empty lists; frames show n = 0 for them. */
int vbc_sim_neighbours(vbc_sim *sim, vbc_error *err);
/* Explicit terms: u* = u + h (g + nu lap u + a_xsph) for fluid particles (Miyamoto §2.5; lap by
 * fluid.viscosity_model, XSPH by Ihmsen et al. 2014 step 4, core/viscosity_sph.h); v* = v + h g
 * for free and pinned bodies (§3.1), the prescribed velocities for scripted ones; the bodies'
 * world inverse inertia at r^t. */
void vbc_sim_explicit(vbc_sim *sim);
/* r^{t+1} = r^t + h u^{t+1} for fluid particles (§2.5); bodies by eq. 44-45, their particles
 * placed at x + R offset with the body's point velocity. */
void vbc_sim_advect(vbc_sim *sim);
/* Place every body's particles at its current state (after loading a frozen state). */
void vbc_sim_place_bodies(vbc_sim *sim);
/* Non-finite values or a particle outside the domain: VBC_EXIT_FAILED naming the particle (the
 * time loop adds the step and time). */
int vbc_sim_check(const vbc_sim *sim, vbc_error *err);
/* Sums over the fluid particles, in particle order: the kinetic energy sum m |u|^2 / 2, the
 * potential energy -sum m g.x and the largest |u|^2 (series.csv's kinetic_energy and max_speed,
 * the entry benchmarks' energy check). */
void vbc_sim_fluid_energy(const vbc_sim *sim, double *kinetic, double *potential,
                          double *max_speed2);

#endif
