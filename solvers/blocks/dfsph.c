/* dfsph.c — DFSPH's two velocity constraints (Bender & Koschier, "Divergence-free smoothed
 * particle hydrodynamics", SCA 2015; "Divergence-Free SPH for Incompressible and Viscous
 * Fluids", IEEE TVCG 2017, here BK17: Algorithm 2, the divergence-free solve; Algorithm 3 and
 * §3.3, the constant-density solve; eq. 9, D rho_i / Dt; eq. 11, the factor alpha_i) as rows of
 * the seam.
 *
 * Both solves act on sph_density's rows (solvers/blocks/sph_density.c): one per fluid particle
 * (and per boundary particle facing the fluid, with wall_pressure), with its kernels, calibrated
 * gradients, Akinci boundary volumes and J_i v = -rho0 sum_j V_j (v_i - v_j) . grad W_ij, which is
 * -D rho_i / Dt of BK17 eq. 9 with m_j = rho0 V_j. This block owns an sph_density instance and
 * changes only what the rows ask for (and, without bodies, sums the residual and apply passes in
 * an order of its own: dfsph_passes.c):
 *   constant density (BK17 §3.3):  J_i v >= (rho_i - rho0) / h, i.e. rho*_i = rho_i + h D rho_i/Dt
 *                                  <= rho0, sph_density's own target;
 *   divergence-free (BK17 eq. 9):  J_i v >= 0, i.e. D rho_i / Dt <= 0.
 * The diagonal A_ii of those rows is rho0^2/m_i times the denominator of BK17's alpha_i (eq. 11):
 * |sum_j V_j grad W_ij|^2 (boundary included) + sum_j |V_j grad W_ij|^2 (fluid j), so DFSPH's
 * kappa update kappa_i = (residual of row i) alpha_i is the Jacobi step r_i / A_ii on the impulse
 * lambda_i = h m_i kappa_i / rho_i^2 (up to the units of kappa: BK17 writes the pressure as
 * kappa_i rho_i); DFSPH's iteration, which only ever raises an impulse, is the dfsph_jacobi solver
 * (solvers/schemes/dfsph_jacobi.c).
 *
 * Stopping tests (error_measure): compression (SPlisHSPlasH's TimeStepDFSPH): the sum over fluid
 * particles of max(rho*_i - rho0, 0) / rho0 (density) or max(h D rho_i/Dt, 0) / rho0
 * (divergence), divided by the number of fluid particles, so that error_tolerance 5e-4 is its
 * maxError 0.05 % and 1e-3 its maxErrorV 0.1 %; average (BK15/BK17 Algorithms 2-3 as written:
 * the signed mean, rho_avg - rho0 over rho0, in which a free surface's density deficit counts as
 * negative error); active_rows (vbc's, sph_density's default).
 *
 * Choices the papers leave open, and ours: the divergence rows of particles with fewer than 20
 * neighbours in 3D, 7 in 2D (SPlisHSPlasH's particle-deficiency rule; divergence_min_neighbours)
 * are inert, A_ii = 0, and count as error 0. Warm start (both papers start each solve from the
 * previous step's kappa): from warm_start_factor (0.5, SPlisHSPlasH's) times the impulse the same
 * solve ended with at that particle in the previous step, kept independent of h as SPlisHSPlasH
 * keeps it (kappa h^2 for the density solve, kappa h for the divergence solve, i.e. lambda h and
 * lambda), and only where the row starts violated (rho*_i > rho0, D rho_i/Dt > 0), as
 * SPlisHSPlasH; its caps on the stored value (0.00025 and 0.5 in its units) are not applied.
 * Boundaries are sph_density's (wall_pressure, akinci_volumes, bodies). */
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "core/reduce.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/dfsph.h"
#include "solvers/blocks/dfsph_passes.h"

typedef struct dfsph_state {
  void *sph; /* the sph_density instance whose rows these are */
  vbc_dfsph_rows rows;
  int same_positions;  /* next prepare reuses the last one's geometry */
  int uniform_volume;  /* every particle has the lattice volume (dfsph_passes.c) */
  int wide;            /* the passes' AVX-512VL form (dfsph_passes.c) */
  size_t fluid_rows;   /* with fluid_first: the rows of fluid particles are rows [0, fluid_rows) */
  int fluid_first;
  int warm_start, error_measure, min_neighbours;
  double warm_start_factor;
  size_t cap_rows, cap_particles;
  double *diag, *density_target; /* per row, as sph_density's prepare set them */
  double *step_impulse;          /* per density row: both solves' impulses of the step */
  double *stored[2];             /* per particle and solve: the warm start of the next step */
} dfsph_state;

enum { ERROR_COMPRESSION, ERROR_AVERAGE, ERROR_ACTIVE_ROWS };

static const char *const dfsph_row_choices[] = {"density", "divergence", NULL};
static const char *const dfsph_error_measures[] = {"compression", "average", "active_rows", NULL};
static const char *const dfsph_bodies_choices[] = {"walls", "ignored", NULL};

static const vbc_param_spec dfsph_params[] = {
    {"rows", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "which solve the rows state when the block runs alone: density (rho*_i <= rho0, BK17 "
     "Algorithm 3) or divergence (D rho_i/Dt <= 0, Algorithm 2); the dfsph coupler runs both",
     dfsph_row_choices},
    {"warm_start", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "start each solve from warm_start_factor times the impulse of the same solve in the "
     "previous step, where the row starts violated"},
    {"warm_start_factor", VBC_PARAM_NUMBER, 0.5, 0.0, 1.0, 0,
     "share of the previous step's kappa a warm start begins from (0.5: SPlisHSPlasH)"},
    {"error_measure", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the mean error error_tolerance bounds: compression, SPlisHSPlasH's DFSPH: max(rho*_i - "
     "rho0, 0) / rho0 (divergence: max(h D rho_i/Dt, 0) / rho0) summed over fluid particles, "
     "divided by their number; average, BK15's rho_avg - rho0 over rho0, signed; active_rows, "
     "|error| averaged over the rows that can still move (sph_density's default)",
     dfsph_error_measures},
    {"divergence_min_neighbours", VBC_PARAM_INTEGER, -1.0, -1.0, 1e6, 0,
     "divergence rows of particles with fewer neighbours within H are inert; -1: "
     "SPlisHSPlasH's 20 in 3D, 7 in 2D"},
    {"akinci_volumes", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "boundary volumes V_k = 1 / sum_l W_kl (Akinci 2012), as sph_density's"},
    {"wall_pressure", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "wall and rigid particles with a fluid neighbour get rows too, as sph_density's; false: "
     "Akinci's scheme (SPlisHSPlasH's)"},
    {"bodies", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "walls or ignored, as sph_density's", dfsph_bodies_choices},
    {NULL, 0, 0, 0, 0, 0, NULL}};

/* sph_density's parameters for the inner instance: the boundary keys, no warm start of its own. */
static cJSON *sph_params_of(const cJSON *params) {
  cJSON *o = cJSON_CreateObject();
  if (o == NULL) return NULL;
  const int bodies = vbc_param_choice(params, dfsph_params, "bodies");
  if (!cJSON_AddBoolToObject(o, "akinci_volumes",
                             vbc_param_bool(params, dfsph_params, "akinci_volumes")) ||
      !cJSON_AddBoolToObject(o, "wall_pressure",
                             vbc_param_bool(params, dfsph_params, "wall_pressure")) ||
      !cJSON_AddStringToObject(o, "bodies", dfsph_bodies_choices[bodies < 0 ? 0 : bodies]) ||
      !cJSON_AddBoolToObject(o, "warm_start", 0)) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

static void dfsph_free(void *state) {
  dfsph_state *s = state;
  if (s == NULL) return;
  if (s->sph) vbc_block_sph_density.free(s->sph);
  free(s->diag);
  free(s->density_target);
  free(s->step_impulse);
  free(s->stored[0]);
  free(s->stored[1]);
  free(s);
}

static void *dfsph_alloc(const cJSON *params, const vbc_system *sys, double *support,
                         vbc_error *err) {
  dfsph_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->rows = vbc_param_choice(params, dfsph_params, "rows") == 1 ? VBC_DFSPH_DIVERGENCE
                                                                 : VBC_DFSPH_DENSITY;
  s->warm_start = vbc_param_bool(params, dfsph_params, "warm_start");
  s->warm_start_factor = vbc_param_number(params, dfsph_params, "warm_start_factor");
  s->error_measure = vbc_param_choice(params, dfsph_params, "error_measure");
  s->min_neighbours = (int)vbc_param_number(params, dfsph_params, "divergence_min_neighbours");
  s->wide = vbc_dfsph_wide_available();
  if (s->min_neighbours < 0) s->min_neighbours = sys->dim == 3 ? 20 : 7;
  cJSON *inner = sph_params_of(params);
  if (inner == NULL) {
    vbc_error_set(err, VBC_EXIT_SYSTEM, "dfsph: out of memory");
    free(s);
    return NULL;
  }
  s->sph = vbc_block_sph_density.alloc(inner, sys, support, err);
  cJSON_Delete(inner);
  if (s->sph == NULL) {
    free(s);
    return NULL;
  }
  return s;
}

void vbc_dfsph_set_rows(vbc_block *b, vbc_dfsph_rows rows, int same_positions) {
  dfsph_state *s = b->state;
  s->rows = rows;
  s->same_positions = same_positions;
}

static int ensure_capacity(dfsph_state *s, size_t nrows, size_t np, vbc_error *err) {
  if (vbc_grow(&s->cap_rows, nrows, (void *[]){&s->diag, &s->density_target, &s->step_impulse},
               (size_t[]){sizeof *s->diag, sizeof *s->density_target, sizeof *s->step_impulse},
               3, err) != VBC_OK)
    return err->code;
  const size_t old = s->cap_particles;
  if (vbc_grow(&s->cap_particles, np, (void *[]){&s->stored[0], &s->stored[1]},
               (size_t[]){sizeof *s->stored[0], sizeof *s->stored[1]}, 2, err) != VBC_OK)
    return err->code;
  for (size_t i = old; i < s->cap_particles; ++i) s->stored[0][i] = s->stored[1][i] = 0.0;
  return VBC_OK;
}

/* The targets of this solve; the divergence rows of deficient neighbourhoods (fewer neighbours
 * within the kernel's support H than min_neighbours, counted by sph_density's prepare: the lists
 * may reach further when another block needs it) inert. */
static void set_targets(const dfsph_state *s, vbc_rows *rows) {
  vbc_sph_rows_view view;
  vbc_sph_density_view(s->sph, &view);
  const int divergence = s->rows == VBC_DFSPH_DIVERGENCE;
#pragma omp parallel for schedule(static) if (rows->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t r = 0; r < rows->n; ++r) {
    rows->target[r] = divergence ? 0.0 : s->density_target[r];
    const int deficient = divergence && view.within[r] < (uint32_t)s->min_neighbours;
    rows->diag[r] = deficient ? 0.0 : s->diag[r];
  }
}

static void dfsph_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                           double *r);

/* The warm start: the stored value where the row starts violated (r_k = b_k - J_k u* > 0). The
 * stored value is lambda h (density) or lambda (divergence), SPlisHSPlasH's kappa h^2 and
 * kappa h. The residual on u* is the one vbc_solve's reference needs: it is left in
 * rows.residual for it (residual_known). */
static void warm_start(const dfsph_state *s, const vbc_system *sys, vbc_rows *rows) {
  vbc_sph_rows_view view;
  vbc_sph_density_view(s->sph, &view);
  const int divergence = s->rows == VBC_DFSPH_DIVERGENCE;
  const double *stored = s->stored[divergence];
  const double scale = s->warm_start_factor * (divergence ? 1.0 : 1.0 / sys->dt);
  dfsph_residual(s, sys, rows, rows->residual);
  rows->residual_known = 1;
#pragma omp parallel for schedule(static) if (rows->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t r = 0; r < rows->n; ++r)
    rows->impulse[r] = rows->residual[r] > 0.0 && rows->diag[r] > 0.0
                           ? scale * stored[view.particle_of[r]]
                           : 0.0;
}

/* Whether the fluid's rows come first (rows are in particle order, and scenes list the fluid
 * before the walls), so that the error sums need not look up each row's kind. */
static void find_fluid_rows(dfsph_state *s, const vbc_system *sys, const vbc_sph_rows_view *view,
                            size_t nrows) {
  const vbc_particles *p = sys->particles;
  size_t nf = 0;
  while (nf < nrows && p->kind[view->particle_of[nf]] == VBC_FLUID) ++nf;
  size_t r = nf;
  while (r < nrows && p->kind[view->particle_of[r]] != VBC_FLUID) ++r;
  s->fluid_rows = nf;
  s->fluid_first = r == nrows;
}

static int dfsph_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  dfsph_state *s = state;
  const int reuse = s->same_positions && s->rows == VBC_DFSPH_DENSITY;
  s->same_positions = 0;
  if (!reuse) {
    if (vbc_block_sph_density.prepare(s->sph, sys, rows, err) != VBC_OK) return err->code;
    if (ensure_capacity(s, rows->n, sys->particles->n, err) != VBC_OK) return err->code;
    memcpy(s->diag, rows->diag, rows->n * sizeof *s->diag);
    memcpy(s->density_target, rows->target, rows->n * sizeof *s->density_target);
    vbc_sph_rows_view view;
    vbc_sph_density_view(s->sph, &view);
    s->uniform_volume = vbc_dfsph_uniform_volume(&view, sys->particles->n);
    find_fluid_rows(s, sys, &view, rows->n);
  }
  set_targets(s, rows);
  if (s->warm_start) {
    warm_start(s, sys, rows);
  } else {
    for (size_t r = 0; r < rows->n; ++r) rows->impulse[r] = 0.0;
    rows->residual_known = 0;
  }
  return VBC_OK;
}

/* sph_density's passes, summed in two halves per row where no body moves particles
 * (dfsph_passes.c). */
static void dfsph_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                           double *r) {
  const dfsph_state *s = state;
  if (sys->nbodies) {
    vbc_block_sph_density.residual(s->sph, sys, rows, r);
    return;
  }
  vbc_sph_rows_view view;
  vbc_sph_density_view(s->sph, &view);
  vbc_dfsph_residual_pass(&view, sys, rows, s->uniform_volume, s->wide, r);
}

static void dfsph_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const dfsph_state *s = state;
  if (sys->nbodies) {
    vbc_block_sph_density.apply(s->sph, sys, rows, d);
    return;
  }
  vbc_sph_rows_view view;
  vbc_sph_density_view(s->sph, &view);
  vbc_dfsph_apply_pass(&view, sys, s->wide, d);
}

static void dfsph_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                        vbc_sweep_order order) {
  vbc_block_sph_density.sweep(((dfsph_state *)state)->sph, sys, rows, omega, order);
}

static int dfsph_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                          vbc_error *err) {
  return vbc_block_sph_density.jacobian(((const dfsph_state *)state)->sph, sys, J, err);
}

/* Keeps every row's impulse for the next step's warm start (lambda h for the density solve,
 * lambda for the divergence solve; 0 for particles without a row). The density solve, the last
 * of the step, also writes the pressure p_i = lambda_i rho_i^2 / (h m_i) and its smoothed value,
 * as sph_density, from the impulse both solves gave particle i this step: the divergence-free
 * solve's pressure is a pressure like the other (BK17 §3.2) and at rest it is the one that
 * carries the water's weight, the density solve only correcting what drift is left. Both act at
 * the same positions, so their pressures add. */
static void dfsph_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  dfsph_state *s = state;
  vbc_sph_rows_view view;
  vbc_sph_density_view(s->sph, &view);
  const int divergence = s->rows == VBC_DFSPH_DIVERGENCE;
  double *stored = s->stored[divergence];
  const double scale = divergence ? 1.0 : sys->dt;
  memset(stored, 0, sys->particles->n * sizeof *stored);
  for (size_t r = 0; r < rows->n; ++r) stored[view.particle_of[r]] = scale * rows->impulse[r];
  if (divergence) return;
  const double *div = s->stored[1];
  for (size_t r = 0; r < rows->n; ++r)
    s->step_impulse[r] = rows->impulse[r] + div[view.particle_of[r]];
  vbc_rows step = *rows;
  step.impulse = s->step_impulse;
  vbc_block_sph_density.finish(s->sph, sys, &step);
}

static void dfsph_boundary_impulses(const void *state, const vbc_system *sys,
                                    const vbc_rows *rows, vbc_vec *impulse) {
  vbc_block_sph_density.boundary_impulses(((const dfsph_state *)state)->sph, sys, rows, impulse);
}

/* h r_k / rho0: rho*_k - rho0 over rho0 for the density rows, h D rho_k/Dt / rho0 for the
 * divergence rows (SPlisHSPlasH's eta_v = maxErrorV rho0 / h in these units). */
static double dfsph_error_scale(const void *state, const vbc_system *sys) {
  (void)state;
  return sys->dt / sys->density;
}

typedef struct error_pass {
  const dfsph_state *s;
  const vbc_system *sys;
  const vbc_rows *rows;
  const uint32_t *particle_of;
  double scale;
} error_pass;

/* The errors of one chunk of rows: scale r_k over the fluid rows that are not inert, its positive
 * part for compression; *fluid counts every fluid row, the particles SPlisHSPlasH divides by. */
static double fluid_errors(void *ctx, size_t begin, size_t end, size_t *fluid) {
  const error_pass *e = ctx;
  const vbc_particles *p = e->sys->particles;
  const int positive = e->s->error_measure == ERROR_COMPRESSION;
  double sum = 0.0;
  if (e->s->fluid_first) { /* the same sum, without the kind of every row */
    const size_t stop = end < e->s->fluid_rows ? end : e->s->fluid_rows;
    for (size_t r = begin; r < stop; ++r) {
      ++*fluid;
      if (e->rows->diag[r] <= 0.0) continue;
      const double err = e->scale * e->rows->residual[r];
      sum += positive ? (err > 0.0 ? err : 0.0) : err;
    }
    return sum;
  }
  for (size_t r = begin; r < end; ++r) {
    if (p->kind[e->particle_of[r]] != VBC_FLUID) continue;
    ++*fluid;
    if (e->rows->diag[r] <= 0.0) continue;
    const double err = e->scale * e->rows->residual[r];
    sum += positive ? (err > 0.0 ? err : 0.0) : err;
  }
  return sum;
}

static double dfsph_error_sum(const void *state, const vbc_system *sys, const vbc_rows *rows,
                              size_t *count) {
  const dfsph_state *s = state;
  const double scale = dfsph_error_scale(state, sys);
  if (s->error_measure == ERROR_ACTIVE_ROWS) return vbc_rows_error_sum(rows, scale, count);
  vbc_sph_rows_view view;
  vbc_sph_density_view(s->sph, &view);
  error_pass e = {s, sys, rows, view.particle_of, scale};
  return vbc_sum_pass(rows->n, fluid_errors, &e, count);
}

static unsigned dfsph_traits(const void *state) {
  return vbc_block_sph_density.traits(((const dfsph_state *)state)->sph);
}

static double dfsph_list_reach(const void *state, const vbc_system *sys) {
  return vbc_block_sph_density.list_reach(((const dfsph_state *)state)->sph, sys);
}

/* The rows are sph_density's: the same operator on the lattice, the same bound for a relaxed
 * scheme. */
static double dfsph_lattice_lambda_max(const cJSON *params, const vbc_system *sys) {
  return vbc_block_sph_density.lattice_lambda_max(params, sys);
}

const vbc_block_type vbc_block_dfsph = {
    .name = "dfsph",
    .kind = VBC_BLOCK_FLUID,
    .summary = "DFSPH's divergence-free and constant-density rows on sph_density's rows and "
               "Akinci boundaries (Bender & Koschier 2015, 2017)",
    .params = dfsph_params,
    .alloc = dfsph_alloc,
    .free = dfsph_free,
    .prepare = dfsph_prepare,
    .residual = dfsph_residual,
    .apply = dfsph_apply,
    .sweep = dfsph_sweep,
    .jacobian = dfsph_jacobian,
    .traits = dfsph_traits,
    .finish = dfsph_finish,
    .error_scale = dfsph_error_scale,
    .error_sum = dfsph_error_sum,
    .boundary_impulses = dfsph_boundary_impulses,
    .list_reach = dfsph_list_reach,
    .lattice_lambda_max = dfsph_lattice_lambda_max,
};
