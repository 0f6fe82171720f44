/* block_fixture.c — see block_fixture.h. The scene's numbers (jitter 0.1 l, fluid speeds up to
 * 0.3 m/s, a box of density 700 turned by 0.04 rad, its pin 0.7 l right of and 1.1 l below its
 * centre and off by 0.01 l) are arbitrary choices that make every kind of row appear; no test
 * asserts a value that depends on them beyond "non-trivial". */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/body.h"
#include "scene/generate.h"
#include "solvers/blocks/blocks.h"
#include "solvers/schemes/schemes.h"
#include "tests/block_fixture.h"

static const double SCENE_L = 0.02, SCENE_DT = 0.001, SCENE_RHO = 1000.0;

const block_scene_size block_scene_2d = {2, 14, 10, 0};
const block_scene_size block_scene_3d = {3, 7, 6, 6};
const block_scene_size block_scene_2d_large = {2, 76, 62, 0};
const block_scene_size block_scene_3d_large = {3, 18, 16, 17};

void block_fixture_system(block_fixture *f, int dim, double l, double dt, double re,
                          vbc_sph_kernel sph) {
  double mass = 1000.0;
  for (int a = 0; a < dim; ++a) mass *= l; /* rho l^d, multiplied in this order */
  f->sys = (vbc_system){.dim = dim, .dt = dt, .spacing = l, .density = 1000.0,
                        .fluid_mass = mass, .re = re, .sph = sph, .particles = &f->p,
                        .grid = &f->grid, .nbrs = &f->nbrs};
}

void block_fixture_neighbours(block_fixture *f, double radius) {
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&f->grid, f->p.pos, f->p.n, f->sys.dim, radius, &err), 0, "%s",
               err.message);
  cr_assert_eq(vbc_neighbors_build(&f->nbrs, &f->grid, f->p.pos, radius, &err), 0, "%s",
               err.message);
}

void block_fixture_block(block_fixture *f, const vbc_block_type *type, const cJSON *params) {
  vbc_error err = {0};
  cJSON *empty = params ? NULL : cJSON_CreateObject();
  cr_assert_eq(vbc_block_init(&f->block, type, params ? params : empty, &f->sys, "fluid", &err),
               0, "%s", err.message);
  cJSON_Delete(empty);
  cr_assert_eq(f->block.type->prepare(f->block.state, &f->sys, &f->block.rows, &err), 0, "%s",
               err.message);
}

/* A deterministic number in [-1, 1). */
static double jitter(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 23) - 1.0;
}

static vbc_vec random_vec(unsigned *seed, int dim, double size) {
  vbc_vec v = vbc_vec_zero();
  for (int a = 0; a < dim; ++a) vbc_vec_set(&v, a, size * jitter(seed));
  return v;
}

/* The box's lattice cells: against the left wall (x cells [0, 3)), its top row one cell above
 * the free surface, in 3D z cells [1, 4). */
static int in_box(block_scene_size s, int i, int j, int k) {
  return i < 3 && j >= s.ny - 2 && j < s.ny + 1 && (s.dim == 2 || (k >= 1 && k < 4));
}

static vbc_vec cell_centre(int i, int j, int k, int dim) {
  return vbc_vec_make((i + 0.5) * SCENE_L, (j + 0.5) * SCENE_L,
                      dim == 3 ? (k + 0.5) * SCENE_L : 0.0);
}

/* Fluid on the lattice but for the box's cells, jittered, with perturbed velocities. */
static void add_fluid(block_fixture *f, block_scene_size s, unsigned *seed) {
  vbc_error err = {0};
  const int nz = s.dim == 3 ? s.nz : 1;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i) {
        if (in_box(s, i, j, k)) continue;
        const vbc_vec x =
            vbc_vec_add(cell_centre(i, j, k, s.dim), random_vec(seed, s.dim, 0.1 * SCENE_L));
        cr_assert_geq(vbc_particles_add(&f->p, x, random_vec(seed, s.dim, 0.3), VBC_FLUID, -1,
                                        &err), 0);
      }
}

/* The pinned box: mass properties, a small turn, a velocity, and its particles placed. */
static void add_body(block_fixture *f, block_scene_size s, unsigned *seed) {
  vbc_error err = {0};
  vbc_body *b = &f->body[0];
  *b = (vbc_body){.motion = VBC_MOTION_PINNED, .first = f->p.n};
  const int nz = s.dim == 3 ? s.nz : 1;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < s.ny + 1; ++j)
      for (int i = 0; i < s.nx; ++i)
        if (in_box(s, i, j, k))
          cr_assert_geq(vbc_particles_add(&f->p, cell_centre(i, j, k, s.dim), vbc_vec_zero(),
                                          VBC_RIGID, 0, &err), 0);
  b->count = f->p.n - b->first;
  f->offset = calloc(f->p.n, sizeof *f->offset);
  cr_assert_not_null(f->offset);
  double mass = 700.0;
  for (int a = 0; a < s.dim; ++a) mass *= SCENE_L;
  cr_assert_eq(vbc_body_init_mass(b, s.dim, SCENE_L, mass, f->p.pos, f->offset, &err), 0, "%s",
               err.message);
  const vbc_vec axis = s.dim == 2 ? vbc_vec_make(0, 0, 1) : vbc_vec_make(0.27, 0.53, 0.80);
  b->q = vbc_quat_from_rotation(vbc_vec_scale(axis, 0.04));
  vbc_body_update_inertia(b, s.dim);
  b->pin_offset = vbc_vec_make(0.7 * SCENE_L, -1.1 * SCENE_L, s.dim == 3 ? 0.4 * SCENE_L : 0.0);
  b->pin = vbc_vec_add(vbc_body_pin_point(b), vbc_vec_make(0.01 * SCENE_L, -0.01 * SCENE_L, 0.0));
  b->v = random_vec(seed, s.dim, 0.2);
  b->w = s.dim == 2 ? vbc_vec_make(0, 0, 0.8 * jitter(seed)) : random_vec(seed, 3, 0.8);
  vbc_body_place(b, f->offset, f->p.pos, f->p.vel);
}

void block_fixture_scene(block_fixture *f, block_scene_size s) {
  vbc_error err = {0};
  memset(f, 0, sizeof *f);
  unsigned seed = 2024u;
  add_fluid(f, s, &seed);
  const vbc_vec lo = vbc_vec_zero();
  const vbc_vec hi = vbc_vec_make(s.nx * SCENE_L, (s.ny + 4) * SCENE_L,
                                  s.dim == 3 ? s.nz * SCENE_L : 0.0);
  cr_assert_eq(vbc_generate_tank(&f->p, s.dim, SCENE_L, lo, hi, 3, 0, &err), 0, "%s",
               err.message);
  add_body(f, s, &seed);
  block_fixture_system(f, s.dim, SCENE_L, SCENE_DT, 2.1 * SCENE_L,
                       vbc_sph_kernel_make(VBC_SPH_CUBIC_SPLINE, 2.0 * SCENE_L, s.dim));
  f->sys.density = SCENE_RHO;
  f->sys.bodies = f->body;
  f->sys.nbodies = 1;
  f->fluid_impulse = calloc(1, sizeof *f->fluid_impulse);
  f->fluid = calloc(f->p.n, sizeof *f->fluid);
  cr_assert(f->fluid_impulse && f->fluid);
  size_t nf = 0;
  for (size_t i = 0; i < f->p.n; ++i)
    if (f->p.kind[i] == VBC_FLUID) f->fluid[nf++] = (uint32_t)i;
  f->sys.fluid_impulse = f->fluid_impulse;
  f->sys.fluid = f->fluid;
  f->sys.nfluid = nf;
}

int block_fixture_scene_block(block_fixture *f, const vbc_block_type *type, const cJSON *params,
                              vbc_error *err) {
  cJSON *empty = params ? NULL : cJSON_CreateObject();
  const int rc = vbc_block_init(&f->block, type, params ? params : empty, &f->sys, "fluid", err);
  cJSON_Delete(empty);
  if (rc != VBC_OK) return rc;
  block_fixture_neighbours(f, fmax(f->sys.re, f->block.support));
  cr_assert_eq(type->prepare(f->block.state, &f->sys, &f->block.rows, err), 0, "%s: %s",
               type->name, err->message);
  return VBC_OK;
}

void block_fixture_free(block_fixture *f) {
  vbc_block_free(&f->block);
  vbc_grid_free(&f->grid);
  vbc_neighbors_free(&f->nbrs);
  vbc_particles_free(&f->p);
  free(f->offset);
  free(f->fluid_impulse);
  free(f->fluid);
}

block_fixture_start block_fixture_save(const block_fixture *f) {
  block_fixture_start s = {malloc(f->p.n * sizeof(vbc_vec)), f->body[0].v, f->body[0].w,
                           malloc(f->block.rows.n * sizeof(double))};
  cr_assert(s.vel && s.impulse);
  memcpy(s.vel, f->p.vel, f->p.n * sizeof(vbc_vec));
  memcpy(s.impulse, f->block.rows.impulse, f->block.rows.n * sizeof(double));
  return s;
}

void block_fixture_restore(block_fixture *f, const block_fixture_start *s) {
  memcpy(f->p.vel, s->vel, f->p.n * sizeof(vbc_vec));
  f->body[0].v = s->body_v, f->body[0].w = s->body_w;
  memcpy(f->block.rows.impulse, s->impulse, f->block.rows.n * sizeof(double));
}

void block_fixture_start_free(block_fixture_start *s) {
  free(s->vel), free(s->impulse);
  s->vel = NULL, s->impulse = NULL;
}

vbc_solve_result block_fixture_solve(block_fixture *f, const vbc_solver_type *type, double *out) {
  vbc_error err = {0};
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "tolerance", 1e-10);
  cJSON_AddNumberToObject(params, "max_iterations", 200000);
  vbc_solver s;
  cr_assert_eq(vbc_solver_init(&s, type, params, &err), 0, "%s", err.message);
  vbc_block *blocks[1] = {&f->block};
  vbc_problem pb = {&f->sys, blocks, 1};
  cr_assert_eq(type->check ? type->check(s.state, &pb, &err) : 0, 0, "%s", err.message);
  vbc_solve_result res;
  cr_assert_eq(vbc_solve(&s, &pb, &res, NULL, &err), 0, "%s: %s", type->name, err.message);
  memcpy(out, f->block.rows.impulse, f->block.rows.n * sizeof(double));
  vbc_solver_free(&s);
  cJSON_Delete(params);
  return res;
}

vbc_solve_result block_fixture_same_solution_as_pgs(block_scene_size size,
                                                    const vbc_solver_type *type,
                                                    int sweeps_per_iteration) {
  block_fixture f;
  vbc_error err = {0};
  block_fixture_scene(&f, size);
  cr_assert_eq(block_fixture_scene_block(&f, &vbc_block_mps, NULL, &err), 0, "%s", err.message);
  const size_t n = f.block.rows.n;
  double *ref = calloc(n, sizeof *ref), *got = calloc(n, sizeof *got);
  cr_assert(ref && got);
  block_fixture_start s = block_fixture_save(&f);
  const vbc_solve_result a = block_fixture_solve(&f, &vbc_solver_pgs, ref);
  block_fixture_restore(&f, &s);
  const vbc_solve_result b = block_fixture_solve(&f, type, got);
  double scale = 0.0, diff = 0.0;
  for (size_t k = 0; k < n; ++k) {
    scale = fmax(scale, fabs(ref[k]));
    diff = fmax(diff, fabs(got[k] - ref[k]));
    cr_assert_geq(got[k], f.block.rows.lo[k]);
  }
  cr_log_info("dim %d: %zu rows, pgs %d sweeps, %s %d, max |dz| / max |z| = %.3g", size.dim, n,
              a.iterations, type->name, sweeps_per_iteration * b.iterations, diff / scale);
  cr_assert_eq(a.reason, VBC_STOP_TOLERANCE);
  cr_assert_eq(b.reason, VBC_STOP_TOLERANCE);
  cr_assert_gt(scale, 0.0);
  cr_assert_lt(diff, 1e-6 * scale, "max |dz| %g of max |z| %g", diff, scale);
  free(ref), free(got), block_fixture_start_free(&s);
  block_fixture_free(&f);
  return b;
}
