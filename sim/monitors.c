/* monitors.c — see monitors.h. Eleven monitors, cheap enough to be always on:
 *  - iteration_zero: a solve stopped by its mean-error test before its first iteration while its
 *    largest row error was more than ten times the tolerance. A mean over many rows at rest can
 *    pass while a few rows are far off: a wedge entering a large tank under PGS with the
 *    staggered scene's error_tolerance 0.01 kept its 45 000 rows' mean below it, stopped at
 *    iteration 0 in 66 of 67 steps and fell through the water at g. The row error is the one the
 *    test averages (the residual times the block's error_scale) over the rows the mean counts,
 *    those free to move (vbc_problem_max_error), from the residual pass the test read: a row held
 *    at its bound is no error (counting them, an IISPH dam break at l = 0.04 whose every row was
 *    clamped at one step read 475 times the tolerance).
 *  - row_error: the same largest row error after any solve stopped by its mean-error test, above
 *    30 times the tolerance; every solve's largest row error also goes to summary.json
 *    (solver.stages[].final_max_error_mean and _max). Why 30, measured on 0.3 s at l = 0.04 with
 *    the iisph and dfsph presets (largest over the run / tol): IISPH (tol 1e-3) 1.8-8.2 on the
 *    still tank, dam break, floating box and cylinder entry; DFSPH's density stage (tol 1e-4) 3.0
 *    (dam break), 7.0 (still tank), 26 (cylinder entry), 52 (floating box) and 1155 (SPHERIC Test 2,
 *    coarse for that scene); the stale wedge above 23-52 (34 of its 42 steps above 30). A factor of
 *    30 leaves the sane IISPH runs and all but the floating box under DFSPH alone, and flags the
 *    wedge in most steps: a local error 30 times what the mean allows, 3 % of density at IISPH's
 *    tolerance. A factor cannot separate all cases (DFSPH's box reaches the wedge's ratio): the
 *    flag says the mean hid a large local violation, not that the run is wrong.
 *  - fluid_in_body: a fluid particle more than l/2 inside a rigid body, by the contact block's
 *    largest fluid-body depth l - r (vbc_block_type.figures); couplers without fluid-body contact
 *    rows give no such figure and are not watched by it.
 *  - compression: more than 1 % of the fluid particles with an MPS number density more than 10 %
 *    above the lattice's, n_i / n0 - 1 > 0.1 (Koshizuka & Oka 1996; Miyamoto eq. 4). Every
 *    fluid block holds the water at n0 (or rho0, which the lattice calibrates to the same
 *    packing). A share, not the largest particle: with w = (1 - r/r_e)^2 at r_e = 2.1 l one pair
 *    at l/2 instead of l adds 20 % to n_i, so splashes and the fluid between boxes give single
 *    particles 6-29 % in shipped scenes whose columns hold (seesaw 6 %, many_contacts 14 %,
 *    kurose_bodies 29 %, in 0.3 % / 1.7 % / 2.5 % of the fluid above 5 %), while a collapsing
 *    column has most of its particles above 10 % (the staggered block under strong/jacobi: 82 %).
 *    The worst value is the largest n_i / n0 - 1 of a step that fired. n_i is summed over fluid
 *    and wall neighbours (rigid particles sit at their own spacing and fluid_in_body watches
 *    them) from the distances the step's neighbour lists stored, i.e. the state at the start of
 *    the step: a pass over the fluid's lists without vector arithmetic whatever the block (the
 *    MPS blocks compute a like sum in their prepare, the SPH blocks a density of their own
 *    kernel that a monitor must not read from their state). That pass costs 3-4 % of a cheap
 *    step (IISPH stopped at a density error of 1 % after a few iterations), so it runs every
 *    4th step: a collapse builds over many steps, and the count is of the steps checked.
 *  - uncoupled_bodies: method.uncoupled_bodies let the set-up accept a fluid block that gives
 *    the free or pinned bodies no load under the coupler (core/coupler.h, body_traits): the run
 *    is flagged from its start (the set-up printed the stderr line), and --strict fails it.
 *  - no_static_load: the coupler says the scene's choices give the free or pinned bodies no
 *    static load (vbc_coupler_type.static_load_missing: the staggered coupler's eq. 28 load with
 *    a p^v solve stopped by its residual alone), which the set-up refuses unless
 *    method.uncoupled_bodies opts in; flagged from its start like uncoupled_bodies.
 *  - omega_clamped: omega_limit "clamp" lowered a relaxed solver's factor at load below the one
 *    asked (scene/relaxation_check.c printed the line), so the run is not at, say, IISPH's
 *    omega 0.5: flagged from its start like uncoupled_bodies.
 *  - energy_rise: the total energy of the fluid and the moving bodies, kinetic plus potential
 *    in gravity (so gravity doing work moves energy between the two and is no rise), above the
 *    lowest it has been in the run by more than 2 % of the energy scale E_s = M |g| H + K_0
 *    (M the mass of fluid and moving bodies, H their vertical extent at the start, K_0 their
 *    kinetic energy at the start). Without a source the pressure, viscosity and contacts only
 *    take energy out; what symplectic Euler itself gains, h^2 g^2 / 2 per unit mass and step
 *    in free fall (T h g^2 / 2 over a time T: 0.05 J/kg after 1 s at h = 1e-3 s against
 *    g H = 5.9 J/kg for a 0.6 m column), and the energy a compressed column gives back stay
 *    well below 2 %. Scenes with a source are not watched: scripted bodies (a prescribed
 *    velocity does work) and agitation (core/agitation.h).
 *  - tension: more than 5 % of the fluid particles with a pressure below -0.1 rho0 |g| H after
 *    the step (p as the blocks write it back; the staggered coupler's p^d + p^v), H the fluid's
 *    height at the start. The pressure is gauge pressure, zero at the free surface; water driven
 *    by gravity against walls and bodies is compressed, not stretched (a column at rest has
 *    p = rho0 |g| depth >= 0; a collapsing one, Martin & Moyce's, falls and spreads with p >= 0).
 *    A solve whose rows may pull (bilateral rows: He's p^v, equality forms) and does so over a
 *    share of the fluid is holding it together where it would spread: the staggered block under
 *    its own coupler on the dam break (l = 0.02, 0.2 s; pgs, jacobi, cg, mprgp) had more than
 *    5 % of the fluid below -0.1 rho0 |g| H first at t = 0.013 s, up to 54-76 % in single
 *    steps, pressures down to -4.5 to -10.8 rho0 |g| H, and its front lagged Martin & Moyce's
 *    by 33-37 %. The shipped scenes of
 *    the staggered method stay far below (largest share over their runs: cylinder_entry 0.03 %,
 *    lowest p -0.51 rho0 |g| H near the entering cylinder; wedge_entry, cylinder_flow's first
 *    0.3 s and the staggered preset's dam break none); the unilateral blocks (MPS-LCP, IISPH,
 *    DFSPH) and mps_poisson's clamped pressures never write a negative one. A share, because a
 *    single row can pull where a splash separates or a body leaves the water; 0.1 rho0 |g| H,
 *    about the pressure one particle layer deep (rho0 |g| l with l/H = 0.07 on the dam break at
 *    l = 0.02), so that the pull is more than free-surface noise. Scenes without gravity are
 *    not watched (no scale, and a driven flow may have its gauge pressure below zero).
 *  - body_jitter: a moving body whose velocity change reversed its direction in JITTER_RUN (5)
 *    steps in a row, each change and the one before it above |g| h: an oscillation of period 2h,
 *    which no motion the step resolves has. It is the signature of a partitioned coupling's
 *    added-mass instability (Causin, Gerbeau & Nobile 2005): the body moves, the incompressible
 *    fluid answers within the step with an impulse m_a dv that the body takes whole in the next
 *    update, so a body lighter than the fluid it moves (m_a > m) overshoots by m_a / m each step
 *    until the unilateral pressure caps it (the fluid lets go of the body). Measured on the
 *    compatibility walk's box (0.2 m, density ratio 0.5, l = 0.04) under the akinci coupler with
 *    every SPH block and solver, converged or not: its velocity change reverses in 36-60 of 99
 *    steps at h = 2 ms, runs of 7-10 in a row, the largest 31-48 |g| h; at h = 1 ms with PGS to
 *    1e-8 the box goes +0.045, -0.067, +0.283 m/s in its first three steps, the pressure under it
 *    0 and over it 5 330 Pa in the second (the fluid above pushed away by a box that had risen
 *    45 um). Under strong, pms, lemke_contacts and He's staggered coupling the same box's largest
 *    change is 0.2-0.6 |g| h and it never reverses above |g| h, nor does any body of the atlas's
 *    first-level cases with fluid (floating boxes, Qiu's blocks, the wedge, both cylinders) under
 *    the mps_lcp, pms, kurose_lemke and staggered presets. Why five: a body landing on the floor
 *    or on another gives one or two reversals, and contacts solved to a tolerance a few more
 *    (runs of at most 3 in the rigid pile of Miyamoto & Koshizuka §5.1 under every preset, and 4
 *    in Qiu's falling block's landing under the SPH presets, at the atlas's first level); the Qiu
 *    floating block under IISPH and DFSPH makes runs of 7-9. Linear velocity only; scenes without
 *    gravity are not watched (no scale).
 *  - omega_lowered: relaxed Jacobi lowered its factor in the middle of the run, where rows that
 *    came later lowered their convergence bound below it (solvers/schemes/jacobi.c; the solve's
 *    figure omega_lowered, the factor asked over the factor used). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/body.h"
#include "core/kernel.h"
#include "core/parallel.h"
#include "sim/monitors.h"

static const struct {
  const char *code, *what;
} monitors[VBC_WARNINGS] = {
    [VBC_WARNING_ITERATION_ZERO] = {"iteration_zero",
                                    "a solve stopped by its mean-error test at iteration 0 while "
                                    "its largest row error was above 10 times the tolerance "
                                    "(worst: that error over the tolerance; min_iterations 1 or "
                                    "more, as IISPH's 2, makes every solve iterate)"},
    [VBC_WARNING_FLUID_IN_BODY] = {"fluid_in_body",
                                   "a fluid particle more than l/2 inside a rigid body (worst: "
                                   "the deepest contact depth over l)"},
    [VBC_WARNING_COMPRESSION] = {"compression",
                                 "more than 1 % of the fluid particles with a number density more "
                                 "than 10 % above the lattice's n0 (worst: the largest n_i / n0 - "
                                 "1 in such a step)"},
    [VBC_WARNING_ENERGY_RISE] = {"energy_rise",
                                 "the kinetic plus potential energy of the fluid and the moving "
                                 "bodies rose more than 2 % of M |g| H + K_0 above its lowest, "
                                 "with no source of energy in the scene (worst: the rise over "
                                 "that scale)"},
    [VBC_WARNING_UNCOUPLED_BODIES] = {"uncoupled_bodies",
                                      "method.uncoupled_bodies: the fluid block gives the free "
                                      "or pinned bodies no load under this coupler (no "
                                      "buoyancy), as the ablation asked (worst: how many such "
                                      "bodies)"},
    [VBC_WARNING_ROW_ERROR] = {"row_error",
                               "a solve stopped by its mean-error test while its largest row "
                               "error was above 30 times the tolerance (worst: that error "
                               "over the tolerance; a smaller error_tolerance lowers it, and 0 "
                               "leaves the residual test alone)"},
    [VBC_WARNING_TENSION] = {"tension",
                             "more than 5 % of the fluid particles with a pressure below -0.1 "
                             "rho0 |g| H (H the fluid's height at the start): the pressure solve "
                             "pulls the fluid together where water at a free surface carries no "
                             "tension (worst: the largest such share)"},
    [VBC_WARNING_NO_STATIC_LOAD] = {"no_static_load",
                                    "the coupler's load path, as the scene chose it, gives the "
                                    "free or pinned bodies no static load: a body lighter than "
                                    "the water sinks (the set-up printed why and what floats "
                                    "it; worst: how many such bodies)"},
    [VBC_WARNING_BODY_JITTER] = {"body_jitter",
                                 "a moving body's velocity change reversed its direction in 5 "
                                 "steps in a row, each above |g| h: an oscillation of period 2h "
                                 "that the step does not resolve, the sign of a weak coupling's "
                                 "added-mass instability with a body lighter than the fluid it "
                                 "moves (worst: the largest change over |g| h; the couplers that "
                                 "solve the body with the fluid, strong, pms, lemke_contacts and "
                                 "staggered, do not have it)"},
    [VBC_WARNING_OMEGA_LOWERED] = {"omega_lowered",
                                   "a relaxed Jacobi solve diverged on the rows of a later "
                                   "step, whose convergence bound fell below the factor the "
                                   "set-up accepted, and went on at 0.9 times the bound "
                                   "measured on them for the rest of the run (worst: the factor "
                                   "asked over the factor used; set the factor below the one "
                                   "used to run at one factor throughout)"},
    [VBC_WARNING_OMEGA_CLAMPED] = {"omega_clamped",
                                   "omega_limit \"clamp\" lowered a relaxed solver's factor to "
                                   "0.9 times the convergence bound measured at load: the run "
                                   "is not at the factor asked (worst: the factor asked over "
                                   "the factor used)"},
};

#define COMPRESSION_LIMIT 0.10
#define COMPRESSION_SHARE 0.01
#define COMPRESSION_EVERY 4 /* steps: the pass over the lists costs 3-4 % of an IISPH step */
#define ENERGY_RISE_LIMIT 0.02
#define ROW_ERROR_FACTOR 30.0 /* the head comment: row_error, and its `what` above */
#define TENSION_LIMIT 0.1     /* times rho0 |g| H; the head comment: tension */
#define TENSION_SHARE 0.05
#define JITTER_RUN 5 /* reversals in a row; the head comment: body_jitter */

/* The largest n_i / n0 - 1 over the fluid particles, n_i from the neighbour lists' distances
 * (fluid and wall neighbours), and in *share the fraction of fluid particles compressed by more
 * than COMPRESSION_LIMIT. A maximum and a count, so the same on any number of threads. */
static double largest_compression(const vbc_sim *sim, double *share) {
  const vbc_particles *p = &sim->particles;
  const vbc_neighbors *nb = &sim->nbrs;
  const double re = sim->sys.re, over = (1.0 + COMPRESSION_LIMIT) * sim->mps.n0;
  const int rigid = sim->sys.nbodies > 0; /* else no neighbour's kind needs looking up */
  double largest = 0.0;
  size_t fluid = 0, compressed = 0;
#pragma omp parallel for reduction(max : largest) reduction(+ : fluid, compressed) \
    schedule(static) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    double n = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      n += !rigid || p->kind[nb->index[q]] != VBC_RIGID ? vbc_mps_w(nb->dist[q], re) : 0.0;
    largest = fmax(largest, n);
    fluid++;
    compressed += n > over;
  }
  *share = fluid ? (double)compressed / (double)fluid : 0.0;
  return sim->mps.n0 > 0.0 ? largest / sim->mps.n0 - 1.0 : 0.0;
}

/* The share of fluid particles whose pressure is below -limit (a count, so the same on any
 * number of threads). */
static double tension_share(const vbc_sim *sim, double limit) {
  const vbc_particles *p = &sim->particles;
  size_t fluid = 0, pulled = 0;
#pragma omp parallel for reduction(+ : fluid, pulled) schedule(static) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    fluid++;
    pulled += p->pressure[i] < -limit;
  }
  return fluid ? (double)pulled / (double)fluid : 0.0;
}

/* Kinetic plus potential energy of the moving bodies (free and pinned), in body order. */
static double bodies_energy(const vbc_sim *sim, double *kinetic, double *mass) {
  double e = 0.0;
  *kinetic = *mass = 0.0;
  for (size_t b = 0; b < sim->sys.nbodies; ++b) {
    const vbc_body *bd = &sim->bodies[b];
    if (!vbc_body_movable(bd)) continue;
    const vbc_quat to_body = {bd->q.w, -bd->q.x, -bd->q.y, -bd->q.z};
    const vbc_vec w = vbc_quat_rotate(to_body, bd->w); /* the inertia is the body frame's */
    const double k = 0.5 * bd->mass * vbc_vec_norm2(bd->v) +
                     0.5 * vbc_vec_dot(w, vbc_mat3_mul(&bd->inertia, w));
    *kinetic += k;
    *mass += bd->mass;
    e += k - bd->mass * vbc_vec_dot(sim->scene->gravity, bd->x);
  }
  return e;
}

static double total_energy(const vbc_sim *sim, double *kinetic) {
  double fk, fp, v2, bk, bm;
  vbc_sim_fluid_energy(sim, &fk, &fp, &v2);
  const double be = bodies_energy(sim, &bk, &bm);
  if (kinetic) *kinetic = fk + bk;
  return fk + fp + be;
}

/* Whether the scene has a source of energy the monitor cannot account for. */
static int has_energy_source(const vbc_sim *sim) {
  if (sim->scene->agitation > 0.0) return 1;
  for (size_t b = 0; b < sim->sys.nbodies; ++b)
    if (sim->bodies[b].motion == VBC_MOTION_SCRIPTED) return 1;
  return 0;
}

/* Free or pinned bodies that get no fluid load because method.uncoupled_bodies let the set-up
 * accept a fluid block without the coupler's body trait (core/coupler.c refuses it otherwise). */
static size_t uncoupled_bodies(const vbc_sim *sim) {
  const vbc_coupling *c = &sim->coupling;
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(sim->scene->resolved, "method");
  if (c->type->body_traits == 0 ||
      !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(method, "uncoupled_bodies")))
    return 0;
  int lacking = 0;
  for (size_t k = 0; k < c->type->nslots; ++k) {
    const vbc_block *b = &c->block[k];
    if (c->type->slots[k].type != NULL || b->type->kind != VBC_BLOCK_FLUID) continue;
    const unsigned have = b->type->traits ? b->type->traits(b->state) : 0u;
    lacking |= (have & c->type->body_traits) == 0;
  }
  size_t n = 0;
  for (size_t b = 0; lacking && b < sim->sys.nbodies; ++b) n += vbc_body_movable(&sim->bodies[b]);
  return n;
}

/* A warning that holds from the start of the run (the set-up printed its line). */
static void flag_from_start(vbc_run_stats *st, int m, double worst) {
  st->warning[m] = (vbc_warning){.count = 1, .first_step = 0, .first_time = 0.0, .worst = worst};
}

/* rho0 |g| H, H the fluid's extent along g at the start plus one spacing (the particles sit l/2
 * inside the water's surface and bottom); 0 without gravity or fluid. */
static double tension_scale(const vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  const vbc_vec g = sim->scene->gravity;
  const double gn = sqrt(vbc_vec_norm2(g));
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; gn > 0.0 && i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    const double h = -vbc_vec_dot(g, p->pos[i]) / gn;
    lo = fmin(lo, h), hi = fmax(hi, h);
  }
  return hi >= lo ? sim->sys.density * gn * (hi - lo + sim->sys.spacing) : 0.0;
}

/* Free or pinned bodies whose coupler says the scene's choices give them no static load
 * (vbc_coupler_type.static_load_missing; core/coupler.c printed why at set-up). */
static size_t unloaded_bodies(const vbc_sim *sim) {
  const vbc_coupling *c = &sim->coupling;
  size_t n = 0;
  if (c->type->static_load_missing && c->type->static_load_missing(c) != NULL)
    for (size_t b = 0; b < sim->sys.nbodies; ++b) n += vbc_body_movable(&sim->bodies[b]);
  return n;
}

/* body_jitter's records from the bodies' velocities at the start. */
static int start_jitter(vbc_run_stats *st, const vbc_sim *sim, vbc_error *err) {
  vbc_run_stats_free(st);
  if (sim->sys.nbodies == 0 || vbc_vec_norm2(sim->scene->gravity) == 0.0) return VBC_OK;
  st->jitter = vbc_calloc(sim->sys.nbodies, sizeof *st->jitter, err);
  if (st->jitter == NULL) return err->code;
  st->njitter = sim->sys.nbodies;
  for (size_t b = 0; b < st->njitter; ++b)
    st->jitter[b] = (vbc_body_jitter){.v = sim->bodies[b].v, .dv = vbc_vec_zero()};
  return VBC_OK;
}

int vbc_monitors_start(vbc_run_stats *st, const vbc_sim *sim, vbc_error *err) {
  if (start_jitter(st, sim, err) != VBC_OK) return err->code;
  const size_t uncoupled = uncoupled_bodies(sim);
  if (uncoupled) flag_from_start(st, VBC_WARNING_UNCOUPLED_BODIES, (double)uncoupled);
  const size_t unloaded = unloaded_bodies(sim);
  if (unloaded) flag_from_start(st, VBC_WARNING_NO_STATIC_LOAD, (double)unloaded);
  if (sim->scene->relaxation_clamped > 0.0)
    flag_from_start(st, VBC_WARNING_OMEGA_CLAMPED, sim->scene->relaxation_clamped);
  st->energy_scale = 0.0;
  st->energy_low = NAN;
  st->tension_scale = tension_scale(sim);
  if (has_energy_source(sim)) return VBC_OK;
  const vbc_particles *p = &sim->particles;
  const vbc_vec g = sim->scene->gravity;
  const double gn = sqrt(vbc_vec_norm2(g));
  double lo = INFINITY, hi = -INFINITY, mass = 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID && !(p->kind[i] == VBC_RIGID && p->body[i] >= 0 &&
                                     vbc_body_movable(&sim->bodies[p->body[i]])))
      continue;
    const double h = gn > 0.0 ? -vbc_vec_dot(g, p->pos[i]) / gn : 0.0;
    lo = fmin(lo, h), hi = fmax(hi, h);
  }
  double kinetic, bk, bm;
  bodies_energy(sim, &bk, &bm);
  mass = (double)sim->nfluid * sim->sys.fluid_mass + bm;
  st->energy_low = total_energy(sim, &kinetic);
  st->energy_scale = (hi > lo ? mass * gn * (hi - lo) : 0.0) + kinetic;
  return VBC_OK;
}

/* body_jitter: each moving body's velocity change of this step against the last one; the
 * largest change over |g| h among the bodies whose change has now reversed JITTER_RUN times in a
 * row, each above |g| h (0: none). */
static double body_jitter(vbc_run_stats *st, const vbc_sim *sim) {
  const double unit = sqrt(vbc_vec_norm2(sim->scene->gravity)) * sim->sys.dt;
  double worst = 0.0;
  for (size_t b = 0; b < st->njitter; ++b) {
    const vbc_body *bd = &sim->bodies[b];
    vbc_body_jitter *j = &st->jitter[b];
    if (!vbc_body_movable(bd)) continue;
    const vbc_vec dv = vbc_vec_sub(bd->v, j->v);
    const double now = sqrt(vbc_vec_norm2(dv)), before = sqrt(vbc_vec_norm2(j->dv));
    j->run = vbc_vec_dot(dv, j->dv) < 0.0 && now > unit && before > unit ? j->run + 1 : 0;
    j->v = bd->v;
    j->dv = dv;
    if (j->run >= JITTER_RUN) worst = fmax(worst, now / unit);
  }
  return worst;
}

/* Count one occurrence; 1 when it is the first. */
static int flag(vbc_run_stats *st, int m, const vbc_sim *sim, double value) {
  vbc_warning *w = &st->warning[m];
  const int first = w->count == 0;
  if (first) w->first_step = sim->step, w->first_time = sim->time;
  w->count++;
  w->worst = fmax(w->worst, value);
  return first;
}

static int report(const vbc_sim *sim, int m, double value, int strict, vbc_error *err) {
  if (strict)
    return vbc_error_set(err, VBC_EXIT_FAILED, "--strict: warning %s (%g): %s", monitors[m].code,
                         value, monitors[m].what);
  fprintf(stderr, "vbc: warning: step %ld (t = %.6g s): %s (%g): %s; summary.json counts every "
          "step it fires\n", sim->step, sim->time, monitors[m].code, value, monitors[m].what);
  return VBC_OK;
}

/* The largest row error of every solve with an error measure, into the stage's statistics; a
 * stop by the mean-error test with it above ROW_ERROR_FACTOR times the tolerance is flagged. */
static int watch_row_errors(vbc_run_stats *st, const vbc_sim *sim, const vbc_step_report *rep,
                            int strict, vbc_error *err) {
  const vbc_coupling *c = &sim->coupling;
  for (size_t s = 0; s < rep->nstages && s < st->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
    if (!r->solved) continue;
    const double worst = vbc_problem_max_error(&c->problem[s]);
    if (isnan(worst)) continue;
    vbc_stage_stats *g = &st->stage[s];
    g->max_error_sum += worst;
    g->max_error_max = fmax(g->max_error_max, worst);
    const double tol = c->solver[s].control.error_tolerance;
    if (r->result.reason != VBC_STOP_ERROR || !(tol > 0.0)) continue;
    const double ratio = worst / tol;
    if (ratio > ROW_ERROR_FACTOR && flag(st, VBC_WARNING_ROW_ERROR, sim, ratio) &&
        report(sim, VBC_WARNING_ROW_ERROR, ratio, strict, err) != VBC_OK)
      return err->code;
  }
  return VBC_OK;
}

int vbc_monitors_step(vbc_run_stats *st, const vbc_sim *sim, const vbc_step_report *rep,
                      int strict, vbc_error *err) {
  const vbc_coupling *c = &sim->coupling;
  static const int from_start[] = {VBC_WARNING_UNCOUPLED_BODIES, VBC_WARNING_OMEGA_CLAMPED};
  for (size_t k = 0; strict && sim->step == 1 && k < sizeof from_start / sizeof *from_start; ++k)
    if (st->warning[from_start[k]].count)
      return report(sim, from_start[k], st->warning[from_start[k]].worst, strict, err);
  if (watch_row_errors(st, sim, rep, strict, err) != VBC_OK) return err->code;
  for (size_t s = 0; s < rep->nstages; ++s) {
    const vbc_solve_stats *f = &rep->stage[s].result.stats;
    for (size_t k = 0; rep->stage[s].solved && k < f->n; ++k)
      if (strcmp(f->name[k], "omega_lowered") == 0 &&
          flag(st, VBC_WARNING_OMEGA_LOWERED, sim, f->value[k]) &&
          report(sim, VBC_WARNING_OMEGA_LOWERED, f->value[k], strict, err) != VBC_OK)
        return err->code;
  }
  for (size_t s = 0; s < rep->nstages; ++s) {
    const vbc_stage_report *r = &rep->stage[s];
    const double tol = c->solver[s].control.error_tolerance;
    if (!r->solved || r->result.iterations != 0 || r->result.reason != VBC_STOP_ERROR ||
        !(tol > 0.0))
      continue;
    const double ratio = vbc_problem_max_error(&c->problem[s]) / tol;
    if (ratio > 10.0 && flag(st, VBC_WARNING_ITERATION_ZERO, sim, ratio) &&
        report(sim, VBC_WARNING_ITERATION_ZERO, ratio, strict, err) != VBC_OK)
      return err->code;
  }
  const double depth = vbc_coupling_block_figure(c, "depth_fluid", 0.0) / sim->sys.spacing;
  if (depth > 0.5 && flag(st, VBC_WARNING_FLUID_IN_BODY, sim, depth) &&
      report(sim, VBC_WARNING_FLUID_IN_BODY, depth, strict, err) != VBC_OK)
    return err->code;
  double share = 0.0;
  const double squeeze =
      sim->step % COMPRESSION_EVERY == 0 ? largest_compression(sim, &share) : 0.0;
  if (share > COMPRESSION_SHARE && flag(st, VBC_WARNING_COMPRESSION, sim, squeeze) &&
      report(sim, VBC_WARNING_COMPRESSION, squeeze, strict, err) != VBC_OK)
    return err->code;
  if (st->tension_scale > 0.0) {
    const double share = tension_share(sim, TENSION_LIMIT * st->tension_scale);
    if (share > TENSION_SHARE && flag(st, VBC_WARNING_TENSION, sim, share) &&
        report(sim, VBC_WARNING_TENSION, share, strict, err) != VBC_OK)
      return err->code;
  }
  const double jitter = body_jitter(st, sim);
  if (jitter > 0.0 && flag(st, VBC_WARNING_BODY_JITTER, sim, jitter) &&
      report(sim, VBC_WARNING_BODY_JITTER, jitter, strict, err) != VBC_OK)
    return err->code;
  if (st->energy_scale > 0.0) {
    const double e = total_energy(sim, NULL);
    const double rise = (e - st->energy_low) / st->energy_scale;
    st->energy_low = fmin(st->energy_low, e);
    if (rise > ENERGY_RISE_LIMIT && flag(st, VBC_WARNING_ENERGY_RISE, sim, rise) &&
        report(sim, VBC_WARNING_ENERGY_RISE, rise, strict, err) != VBC_OK)
      return err->code;
  }
  return VBC_OK;
}

cJSON *vbc_monitors_json(const vbc_run_stats *st) {
  cJSON *list = cJSON_CreateArray();
  for (int m = 0; list && m < VBC_WARNINGS; ++m) {
    const vbc_warning *w = &st->warning[m];
    if (w->count == 0) continue;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(list, o);
    cJSON_AddStringToObject(o, "code", monitors[m].code);
    cJSON_AddStringToObject(o, "what", monitors[m].what);
    cJSON_AddNumberToObject(o, "first_step", (double)w->first_step);
    cJSON_AddNumberToObject(o, "first_time", w->first_time);
    cJSON_AddNumberToObject(o, "count", (double)w->count);
    cJSON_AddNumberToObject(o, "worst", w->worst);
  }
  return list;
}
