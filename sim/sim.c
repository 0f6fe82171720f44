/* sim.c — see sim.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/generate.h"
#include "core/agitation.h"
#include "core/clock.h"
#include "core/parallel.h"
#include "sim/schedule.h"
#include "sim/sim.h"
#include "core/solid_normal.h"
#include "core/viscosity.h"
#include "core/viscosity_sph.h"

/* Without a `domain` in the scene, particles may travel one initial extent beyond the initial
 * bounding box on every side before the run counts as failed. */
static void default_domain(vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  vbc_vec lo = p->pos[0], hi = p->pos[0];
  for (size_t i = 1; i < p->n; ++i)
    for (int a = 0; a < 3; ++a) {
      vbc_vec_set(&lo, a, fmin(vbc_vec_get(lo, a), vbc_vec_get(p->pos[i], a)));
      vbc_vec_set(&hi, a, fmax(vbc_vec_get(hi, a), vbc_vec_get(p->pos[i], a)));
    }
  for (int a = 0; a < sim->sys.dim; ++a) {
    double ext = fmax(vbc_vec_get(hi, a) - vbc_vec_get(lo, a), 10.0 * sim->sys.spacing);
    vbc_vec_set(&lo, a, vbc_vec_get(lo, a) - ext);
    vbc_vec_set(&hi, a, vbc_vec_get(hi, a) + ext);
  }
  sim->domain_min = lo;
  sim->domain_max = hi;
}

/* A body placed far from the rest (a coordinate off by a factor of a thousand) spreads the
 * particles over more neighbour-grid cells than the grid takes: bad input naming the body that
 * lies farthest from the others, before anything runs, instead of a failed neighbour search. */
static int check_spread(vbc_sim *sim, vbc_error *err) {
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing;
  double limit, cells = vbc_grid_cells_spanned(p->pos, p->n, sim->sys.dim, l, &limit);
  if (cells <= limit) return VBC_OK;
  /* the particles that are no body's, and each body's distance from their box */
  vbc_vec lo = vbc_vec_make(INFINITY, INFINITY, INFINITY), hi = vbc_vec_scale(lo, -1.0);
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] != VBC_RIGID)
      for (int a = 0; a < 3; ++a) {
        vbc_vec_set(&lo, a, fmin(vbc_vec_get(lo, a), vbc_vec_get(p->pos[i], a)));
        vbc_vec_set(&hi, a, fmax(vbc_vec_get(hi, a), vbc_vec_get(p->pos[i], a)));
      }
  size_t worst = sim->sys.nbodies;
  double far = -1.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_RIGID) continue;
    double d = 0.0;
    for (int a = 0; a < sim->sys.dim; ++a) {
      const double x = vbc_vec_get(p->pos[i], a);
      d = fmax(d, fmax(vbc_vec_get(lo, a) - x, x - vbc_vec_get(hi, a)));
    }
    if (d > far) far = d, worst = p->body[i];
  }
  if (worst < sim->sys.nbodies && far > 0.0)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: bodies.%zu: expected a body near the rest of the scene, got one "
                         "%.3g m outside the box of the fluid and walls ([%g, %g] x [%g, %g]): "
                         "the particles would span %.3g neighbour-grid cells of %g m, more than "
                         "the %.3g the grid takes; check its coordinates",
                         sim->scene->file, worst, far, vbc_vec_get(lo, 0), vbc_vec_get(hi, 0),
                         vbc_vec_get(lo, 1), vbc_vec_get(hi, 1), cells, l, limit);
  return vbc_error_set(err, VBC_EXIT_INPUT,
                       "%s: geometry: expected the scene's shapes near each other, got particles "
                       "spanning %.3g neighbour-grid cells of %g m, more than the %.3g the grid "
                       "takes; check the shapes' coordinates", sim->scene->file, cells, l, limit);
}

/* Overlapping shapes put particles on top of each other: refuse them as bad input. Lattices
 * offset by exactly l/2 count as overlapping (the 1e-6 keeps that independent of round-off). */
static int check_overlaps(vbc_sim *sim, vbc_error *err) {
  const vbc_particles *p = &sim->particles;
  const double l = sim->sys.spacing;
  if (vbc_grid_build(&sim->grid, p->pos, p->n, sim->sys.dim, l, err) != VBC_OK ||
      vbc_neighbors_build(&sim->nbrs, &sim->grid, p->pos, 0.5 * l * (1.0 + 1e-6), err) != VBC_OK)
    return err->code;
  if (sim->nbrs.npairs == 0) return VBC_OK;
  size_t i = 0;
  while (sim->nbrs.start[i + 1] == 0) ++i;
  size_t j = sim->nbrs.index[0];
  return vbc_error_set(err, VBC_EXIT_INPUT,
                       "%s: geometry: expected shapes that do not overlap, got %zu particle pairs "
                       "closer than l/2, e.g. %s particle %zu at (%g, %g, %g) and %s particle %zu",
                       sim->scene->file, sim->nbrs.npairs / 2, vbc_kind_name(p->kind[i]), i,
                       p->pos[i].x, p->pos[i].y, p->pos[i].z, vbc_kind_name(p->kind[j]), j);
}

/* Bodies from the scene's specs and their generated particles (contiguous, in spec order). */
static int init_bodies(vbc_sim *sim, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  const vbc_particles *p = &sim->particles;
  if (sc->nbodies == 0) return VBC_OK;
  sim->bodies = vbc_calloc(sc->nbodies, sizeof *sim->bodies, err);
  sim->offset = vbc_calloc(p->n, sizeof *sim->offset, err);
  sim->sys.fluid_impulse = vbc_calloc(sc->nbodies, sizeof *sim->sys.fluid_impulse, err);
  if (sim->bodies == NULL || sim->offset == NULL || sim->sys.fluid_impulse == NULL)
    return err->code;
  const double cell = pow(sc->spacing, sc->dim);
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_RIGID) continue;
    vbc_body *b = &sim->bodies[p->body[i]];
    if (b->count == 0) b->first = i;
    ++b->count;
  }
  for (size_t k = 0; k < sc->nbodies; ++k) {
    const vbc_body_spec *spec = &sc->bodies[k];
    vbc_body *b = &sim->bodies[k];
    b->motion = spec->motion;
    b->lock = spec->lock;
    /* mass per particle: rho_B l^d, or the given mass shared equally; infinite masses get a
     * density of 1, their mass properties are never used. vbc_generate has refused empty
     * bodies, so count >= 1. */
    double pm = spec->mass > 0.0 ? spec->mass / (double)b->count
                                 : (spec->density > 0.0 ? spec->density : 1.0) * cell;
    if (vbc_body_init_mass(b, sc->dim, sc->spacing, pm, p->pos, sim->offset, err) != VBC_OK)
      return err->code;
    b->pin = spec->has_pin ? spec->pin : b->x;
    b->pin_offset = vbc_vec_sub(b->pin, b->x);
    b->script_v = spec->velocity;
    b->script_w = spec->angular_velocity;
    if (b->motion != VBC_MOTION_FIXED) b->v = spec->velocity, b->w = spec->angular_velocity;
  }
  sim->sys.bodies = sim->bodies;
  sim->sys.nbodies = sc->nbodies;
  vbc_sim_place_bodies(sim);
  return VBC_OK;
}

/* How far from a fluid or rigid particle wall lists are read: the largest list_reach of the
 * coupling's blocks, and the whole radius when the tangential wall viscosity reads the normals of
 * the walls in the fluid's lists (core/solid_normal.h); -1 when a block sets no bound. */
static double wall_list_reach(const vbc_sim *sim) {
  const vbc_coupling *c = &sim->coupling;
  double reach = sim->wall_normal ? sim->support : 0.0;
  for (size_t k = 0; k < c->type->nslots; ++k) {
    const vbc_block *b = &c->block[k];
    if (b->type == NULL) continue;
    const double r = b->type->list_reach ? b->type->list_reach(b->state, &sim->sys) : -1.0;
    if (r < 0.0) return -1.0;
    reach = fmax(reach, r);
  }
  return reach;
}

/* What the coupler calls around its stages (core/coupler.h: vbc_step_ops). */
static int step_neighbours(void *sim, vbc_error *err) { return vbc_sim_neighbours(sim, err); }
static void step_explicit(void *sim) { vbc_sim_explicit(sim); }
static void step_advect(void *sim) { vbc_sim_advect(sim); }

int vbc_sim_init(vbc_sim *sim, const vbc_scene *scene, vbc_error *err) {
  memset(sim, 0, sizeof *sim);
  sim->scene = scene;
  if (vbc_generate(scene, &sim->particles, err) != VBC_OK) return err->code;
  sim->nfluid = vbc_particles_count(&sim->particles, VBC_FLUID);
  if (sim->nfluid == 0 && scene->nbodies == 0)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: geometry: expected fluid particles, the "
                         "fluid shapes hold none at spacing %g: the fluid is empty", scene->file,
                         scene->spacing);
  vbc_system *sys = &sim->sys;
  sys->dim = scene->dim;
  sys->dt = scene->dt;
  sys->spacing = scene->spacing;
  sys->density = scene->density;
  sys->fluid_mass = scene->density * pow(scene->spacing, scene->dim);
  sys->re = scene->re_over_l * scene->spacing;
  sys->sph = vbc_sph_kernel_make(scene->sph_kernel, scene->sph_support_over_l * scene->spacing,
                                 scene->dim);
  sys->particles = &sim->particles;
  sys->grid = &sim->grid;
  sys->nbrs = &sim->nbrs;
  sim->mps = vbc_mps_lattice_constants(sys->dim, sys->spacing, sys->re);
  sim->support = sys->re;
  /* the SPH explicit terms sum over the kernel's support H (couplers raise it further) */
  if (scene->xsph > 0.0 ||
      (scene->viscosity > 0.0 && scene->viscosity_model == VBC_VISCOSITY_SPH))
    sim->support = fmax(sim->support, sys->sph.H);
  /* XSPH evaluates W on every fluid pair: the lists then carry r / H, which sph_density's
   * prepare reads too, one division per pair and step instead of one per pass */
  if (scene->xsph > 0.0) sim->nbrs.q_scale = sys->sph.H;
  /* the solid normals of the tangential wall viscosity sum over H too (core/solid_normal.h) */
  const int tangential = scene->viscosity > 0.0 && scene->wall_viscosity_tangential;
  if (tangential) sim->support = fmax(sim->support, sys->sph.H);
  if (scene->has_domain) {
    sim->domain_min = scene->domain_min;
    sim->domain_max = scene->domain_max;
  } else {
    default_domain(sim);
  }
  /* the last step ends at or just after time.end */
  sim->nsteps = scene->cfl > 0.0 ? VBC_SCHEDULE_OPEN : (long)ceil(scene->t_end / scene->dt - 1e-9);
  vbc_time_steps_init(&sim->time_steps, scene);
  sim->acc = vbc_calloc(sim->particles.n, sizeof *sim->acc, err);
  sim->seed = vbc_calloc(sim->particles.n + 1, 1, err);
  sim->active = sim->seed ? vbc_calloc(sim->particles.n + 1, 1, err) : NULL;
  sim->fluid_index = sim->active ? vbc_calloc(sim->nfluid + 1, sizeof *sim->fluid_index, err)
                                 : NULL;
  if (sim->acc == NULL || sim->fluid_index == NULL) return err->code;
  size_t nf = 0;
  for (size_t i = 0; i < sim->particles.n; ++i) {
    sim->seed[i] = sim->particles.kind[i] != VBC_WALL; /* walls never move (scene/generate.c) */
    if (sim->particles.kind[i] == VBC_FLUID) sim->fluid_index[nf++] = (uint32_t)i;
  }
  /* kinds change only inside a pms stage, which restores them: the list holds for the run */
  sys->fluid = sim->fluid_index;
  sys->nfluid = nf;
  if (tangential) {
    sim->wall_normal = vbc_calloc(sim->particles.n, sizeof *sim->wall_normal, err);
    if (sim->wall_normal == NULL) return err->code;
  }
  if (init_bodies(sim, err) != VBC_OK) return err->code;
  if (check_spread(sim, err) != VBC_OK || check_overlaps(sim, err) != VBC_OK) return err->code;
  const vbc_step_ops ops = {step_neighbours, step_explicit, step_advect, sim};
  if (vbc_coupling_init(&sim->coupling, scene->coupler, sys, scene->groups, scene->ngroups,
                        scene->method, scene->file, &ops, err) != VBC_OK)
    return err->code;
  sim->support = fmax(sim->support, sim->coupling.support);
  sim->list_reach = wall_list_reach(sim);
  return VBC_OK;
}

int vbc_sim_step(vbc_sim *sim, vbc_step_report *rep, vbc_error *err) {
  return vbc_coupling_step(&sim->coupling, rep, err);
}

void vbc_sim_free(vbc_sim *sim) {
  vbc_coupling_free(&sim->coupling);
  vbc_particles_free(&sim->particles);
  free(sim->acc);
  free(sim->wall_normal);
  free(sim->seed);
  free(sim->active);
  free(sim->fluid_index);
  free(sim->cell_mark);
  free(sim->bodies);
  free(sim->offset);
  free(sim->sys.fluid_impulse);
  vbc_grid_free(&sim->grid);
  vbc_neighbors_free(&sim->nbrs);
  memset(sim, 0, sizeof *sim);
}

int vbc_sim_neighbours(vbc_sim *sim, vbc_error *err) {
  const vbc_particles *p = &sim->particles;
  if (vbc_grid_build(&sim->grid, p->pos, p->n, sim->sys.dim, sim->support, err) != VBC_OK)
    return err->code;
  if (sim->list_reach >= 0.0 && sim->list_reach <= sim->support)
    return vbc_neighbors_build_near(&sim->nbrs, &sim->grid, p->pos, sim->support, sim->seed,
                                    sim->list_reach, sim->active, err);
  if (vbc_grow(&sim->cap_cell_mark, sim->grid.ncells, (void *[]){&sim->cell_mark},
               (size_t[]){sizeof *sim->cell_mark}, 1, err) != VBC_OK)
    return err->code;
  vbc_grid_near(&sim->grid, sim->seed, 2, sim->cell_mark, sim->active);
  return vbc_neighbors_build_active(&sim->nbrs, &sim->grid, p->pos, sim->support, sim->active,
                                    err);
}

/* The non-gravity explicit accelerations into sim->acc, all from the velocities u^t (so their
 * order does not matter): viscosity by the scene's Laplacian, then XSPH (Ihmsen et al. 2014,
 * step 4). Returns whether there are any. */
static int explicit_accelerations(vbc_sim *sim) {
  const vbc_scene *sc = sim->scene;
  const vbc_particles *p = &sim->particles;
  const int mps = sc->viscosity > 0.0 && sc->viscosity_model == VBC_VISCOSITY_MPS;
  const int sph = sc->viscosity > 0.0 && sc->viscosity_model == VBC_VISCOSITY_SPH;
  if (!mps && !sph && sc->xsph <= 0.0) return 0;
  if (sim->wall_normal) /* allocated with the viscosity on: He eq. 24's T needs n^s (eq. 20) */
    vbc_solid_normals(&sim->sys, &sim->sys.sph, sim->sys.sph.H, sim->wall_normal);
  if (mps) {
    vbc_mps_viscosity(&sim->sys, &sim->mps, sc->viscosity, sc->wall_viscosity, sim->wall_normal,
                      sim->acc); /* writes every acc[i] */
  } else {
#pragma omp parallel for schedule(static) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
    for (size_t i = 0; i < p->n; ++i) sim->acc[i] = vbc_vec_zero();
  }
  if (sph)
    vbc_sph_viscosity_add(&sim->sys, sc->viscosity, sc->wall_viscosity, sim->wall_normal,
                          sim->acc);
  if (sc->xsph > 0.0) vbc_xsph_add(&sim->sys, sc->xsph, sim->acc);
  return 1;
}

void vbc_sim_explicit(vbc_sim *sim) {
  vbc_particles *p = &sim->particles;
  const double h = sim->sys.dt;
  const vbc_vec g = sim->scene->gravity;
  const int extra = explicit_accelerations(sim);
  const size_t nf = vbc_fluid_count(&sim->sys);
#pragma omp parallel for schedule(static) if (nf >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t m = 0; m < nf; ++m) {
    const size_t i = vbc_fluid_at(&sim->sys, m);
    if (p->kind[i] != VBC_FLUID) continue;
    vbc_vec a = extra ? vbc_vec_add(g, sim->acc[i]) : g;
    p->vel[i] = vbc_vec_axpy(p->vel[i], h, a);
  }
  for (size_t k = 0; k < sim->sys.nbodies; ++k) {
    vbc_body *b = &sim->bodies[k];
    if (vbc_body_movable(b))
      b->v = vbc_vec_axpy(b->v, h, vbc_body_unlocked(b, g));
    else if (b->motion == VBC_MOTION_SCRIPTED)
      b->v = b->script_v, b->w = b->script_w;
    vbc_body_update_inertia(b, sim->sys.dim);
  }
}

void vbc_sim_place_bodies(vbc_sim *sim) {
  for (size_t k = 0; k < sim->sys.nbodies; ++k)
    vbc_body_place(&sim->bodies[k], sim->offset, sim->particles.pos, sim->particles.vel);
}

void vbc_sim_advect(vbc_sim *sim) {
  vbc_particles *p = &sim->particles;
  const double h = sim->sys.dt;
  const size_t nf = vbc_fluid_count(&sim->sys);
#pragma omp parallel for schedule(static) if (nf >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t m = 0; m < nf; ++m) {
    const size_t i = vbc_fluid_at(&sim->sys, m);
    if (p->kind[i] == VBC_FLUID) p->pos[i] = vbc_vec_axpy(p->pos[i], h, p->vel[i]);
  }
  if (sim->scene->agitation > 0.0) { /* sim->acc is free until the next step's explicit terms */
    vbc_agitation_displacements(&sim->sys, sim->scene->agitation, sim->mps.n0, sim->step,
                                sim->acc);
#pragma omp parallel for schedule(static) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
    for (size_t i = 0; i < p->n; ++i) p->pos[i] = vbc_vec_add(p->pos[i], sim->acc[i]);
  }
  const double t0 = vbc_now();
  for (size_t k = 0; k < sim->sys.nbodies; ++k) vbc_body_integrate(&sim->bodies[k], h);
  vbc_sim_place_bodies(sim);
  sim->body_seconds += vbc_now() - t0;
}

static int outside(const vbc_sim *sim, vbc_vec x) {
  for (int a = 0; a < sim->sys.dim; ++a) {
    double v = vbc_vec_get(x, a);
    if (v < vbc_vec_get(sim->domain_min, a) || v > vbc_vec_get(sim->domain_max, a)) return 1;
  }
  return 0;
}

int vbc_sim_check(const vbc_sim *sim, vbc_error *err) {
  const vbc_particles *p = &sim->particles;
  size_t bad = p->n;
#pragma omp parallel for schedule(static) reduction(min : bad) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] == VBC_WALL) continue;
    if (!vbc_vec_isfinite(p->pos[i]) || !vbc_vec_isfinite(p->vel[i]) || outside(sim, p->pos[i]))
      bad = i < bad ? i : bad;
  }
  if (bad == p->n) return VBC_OK;
  vbc_vec x = p->pos[bad], u = p->vel[bad];
  char who[64];
  if (p->kind[bad] == VBC_RIGID)
    snprintf(who, sizeof who, "particle %zu of body %d", bad, p->body[bad]);
  else
    snprintf(who, sizeof who, "fluid particle %zu", bad);
  if (!vbc_vec_isfinite(x) || !vbc_vec_isfinite(u))
    return vbc_error_set(err, VBC_EXIT_FAILED, "%s has a non-finite position or velocity", who);
  return vbc_error_set(err, VBC_EXIT_FAILED,
                       "%s left the domain at (%.4g, %.4g, %.4g) with speed %.4g m/s", who, x.x,
                       x.y, x.z, vbc_vec_norm(u));
}

void vbc_sim_fluid_energy(const vbc_sim *sim, double *kinetic, double *potential,
                          double *max_speed2) {
  const vbc_particles *p = &sim->particles;
  const double m = sim->sys.fluid_mass;
  double ke = 0.0, pe = 0.0, v2max = 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    const double v2 = vbc_vec_norm2(p->vel[i]);
    ke += 0.5 * m * v2;
    pe -= m * vbc_vec_dot(sim->scene->gravity, p->pos[i]);
    v2max = fmax(v2max, v2);
  }
  *kinetic = ke, *potential = pe, *max_speed2 = v2max;
}
