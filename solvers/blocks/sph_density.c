/* sph_density.c — the IISPH density-invariance block (Ihmsen et al. 2014, steps 2-3, 6, 8-10 as
 * numbered in docs/iisph.md; Akinci et al. 2012 boundaries) as velocity-based constraint rows.
 *
 * Kernel: fluid.sph_kernel of core/kernel.h, the cubic spline (default) or Wendland C2 (whose
 * lattice does not buckle under pressure at H = 2 l, where the cubic spline's does: docs/iisph.md,
 * "Kernel and lattice"); support H = fluid.sph_support_over_l * l, default 2 l, shared with the
 * SPH explicit terms.
 * Every particle j has a volume V_j: V = l^d / S for fluid, S the kernel's sum over the ideal
 * lattice (vbc_sph_lattice_volume), and the kernel gradient is calibrated on the same lattice:
 * grad W is scaled by 1/M, M = -sum_j V x_j^2 W'(r_j) / r_j (vbc_sph_lattice_gradient_moment),
 * so that the block's divergence of a linear velocity field, and its pressure gradient of a
 * linear pressure field, are exact there (MPS calibrates n0 and lambda the same way). M = 1.012
 * for the cubic spline and 0.941 for Wendland C2 at H = 2 l: uncalibrated, the hydrostatic
 * pressure came out 6 % high with Wendland. For a boundary (wall or rigid) particle V is either
 * the same V or, with akinci_volumes, Akinci's V_k = 1 / sum_l W_kl over the boundary particles
 * l within H (self included), Psi_k = rho0 V_k (the notes' boundary section). The density of
 * particle i (notes step 2, with the boundary sum):
 *     rho_i = rho0 (V_i W(0) + sum_j V_j W_ij)     over all neighbours j (fluid and boundary),
 * which is sum_j m_j W_ij + sum_k Psi_k W_ik for fluid of mass m = rho0 V. Volumes rather than
 * masses: a rigid particle that a weak coupler hands to the fluid solve (couplers/pms.c) counts
 * with its volume, whatever its body's density.
 *
 * One row per fluid particle i (and, with wall_pressure, per boundary particle facing the fluid;
 * below). The predicted density of step 6,
 *     rho*_i = rho_i + h rho0 sum_j V_j (v_i - v_j) . grad W_ij,
 * must not exceed rho0 (p >= 0: the free surface may expand). vbc writes the row as J_i v >= b_i:
 *     J_i v = -rho0 sum_j V_j (v_i - v_j) . grad W_ij
 *           = -rho0 (g_i . v_i - sum_j V_j grad W_ij . v_j),
 *     g_i = sum_j V_j grad W_ij,        b_i = (rho_i - rho0) / h,
 * boundary particles at their (possibly moving) velocity and with no degrees of freedom here
 * (bodies are moving walls for this block; the akinci coupler moves them with pressure forces).
 * An impulse lambda_i >= 0 applied as v += M^-1 J^T lambda gives particle i
 *     dv_i = (1/m_i) rho0 (-g_i lambda_i - V_i sum_j grad W_ij lambda_j),
 * which is h times the symmetric pressure acceleration of step 8 (with Akinci's boundary term)
 * exactly when lambda_i = h m_i p_i / rho_i^2; finish converts back with that. The diagonal
 *     A_ii = (rho0^2 / m_i) |g_i|^2 + sum_j (rho0^2 / m_j) V_j^2 |grad W_ij|^2   (fluid j)
 * is the notes' a_ii of step 3 in these units (tests/test_sph_density.c checks it against a
 * finite difference of rho*_i in p_i), and a relaxed Jacobi iteration on these rows is step 10.
 *
 * Choices (the measurements behind them: docs/iisph.md, "Warm start" and "Boundaries"): the
 * source term corrects the whole density error in one step (alpha = 1, as IISPH); the pressure
 * starts from zero unless warm_start, and then from half the previous step's (warm_start_factor
 * 0.5, Ihmsen et al. 2014 and SPlisHSPlasH: a full warm start with an early stop integrates the
 * pressure from step to step); the PGS sweep is serial, in row order; the smoothed pressure is
 * the Shepard average sum_j V_j p_j W_ij / sum_j V_j W_ij over particles with rows. Boundary
 * volumes default to the lattice volume, exact on vbc's walls and bodies filled with particles on
 * the fluid's lattice, where Akinci's V_k (made for one-layer samplings; akinci_volumes = true,
 * for comparison) overcounts and IISPH's one-step correction throws a tank at rest into jets.
 * Boundary pressure (wall_pressure, default on): wall and rigid particles of the layer facing the
 * fluid (a fluid particle closer than 1.5 l; has_row) get rows of their own, with the same
 * density and J (velocity fixed, inverse mass 0), so the fluid next to a wall feels
 * -(lambda_i + lambda_k) grad W_ik as inside the fluid and the operator stays J M^-1 J^T
 * (symmetric: an LCP with a unique solution), MPS's wall treatment carried over. Without it
 * (Akinci's scheme) a hydrostatic column sinks into its walls; mirroring p_k = p_i instead makes
 * the operator non-symmetric, and relaxed Jacobi and PGS diverged on it.
 * Bodies are moving walls for this block (their velocity enters J v, its impulses do not move
 * them): the akinci coupler passes the pressure forces on them afterwards (Akinci 2012). With
 * bodies = "ignored" the block does not see them at all (Kurose & Takahashi §4, whose SPH fluid
 * meets the bodies through the contacts only; volume_of()). */
#include <math.h>
#include <stdlib.h>

#include "core/jacobi_bound.h"
#include "core/kernel.h"
#include "core/parallel.h"
#include "core/reduce.h"
#include "solvers/blocks/blocks.h"

#define WALL_ROW_REACH 1.5 /* a boundary particle has a row with fluid this many l near (has_row) */

typedef struct sph_state {
  vbc_sph_kernel k; /* the kernel (sys->sph) */
  double grad_scale; /* 1/M: the kernel gradient calibrated on the lattice */
  double cell;     /* volume of a fluid particle: vbc_sph_lattice_volume */
  int warm_start, akinci_volumes, wall_pressure;
  int positive_pressure_error; /* error_measure: SPlisHSPlasH's (sph_error_sum) */
  int ignore_bodies;   /* bodies = "ignored": rigid particles have volume 0 and no rows */
  int equality;        /* the Poisson equation instead of the LCP (blocks.h) */
  double surface_beta; /* free surface: rho_i < beta rho0 */
  double warm_start_factor;
  size_t cap_particles, cap_pairs, cap_rows;
  long *row_of;        /* per particle: its row or -1 */
  uint32_t *particle_of; /* per row */
  uint32_t *moving;      /* the rows whose particle the block moves (1/m_i > 0), in order */
  size_t nmoving;
  double *volume;      /* per particle: V_j */
  double *density;     /* per particle: rho_i (rows only) */
  vbc_vec *grad;       /* per pair, aligned with sys->nbrs->index: grad_i W_ij, rows only */
  double *w;           /* per pair: W_ij, rows only (the smoothed pressure reads it again) */
  int32_t *pair_row;   /* per pair: row_of[j], rows only, so that apply streams it */
  vbc_vec *g;          /* per row: sum_j V_j grad W_ij */
  uint32_t *within;    /* per row: how many neighbours lie closer than H (dfsph's sparse rows) */
} sph_state;

static const char *const sph_error_measures[] = {"active_rows", "positive_pressure", NULL};
static const char *const sph_bodies_choices[] = {"walls", "ignored", NULL};

static const vbc_param_spec sph_params[] = {
    {"warm_start", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "start each solve from warm_start_factor times the previous step's pressure instead of zero"},
    {"warm_start_factor", VBC_PARAM_NUMBER, 0.5, 0.0, 1.0, 0,
     "share of the previous pressure a warm start begins from (0.5: Ihmsen et al. 2014)"},
    {"equality", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "the same rows as an equality system: p = 0 on the free surface, either sign elsewhere, "
     "instead of the clamped p >= 0 (IISPH's operator, not a Laplacian model; docs/krylov.md)"},
    {"surface_beta", VBC_PARAM_NUMBER, 0.97, 0.0, 1.0, 0,
     "equality form: a particle (fluid or wall) with rho_i < surface_beta rho0 is free surface "
     "(p = 0)"},
    {"akinci_volumes", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "boundary volumes V_k = 1 / sum_l W_kl (Akinci 2012); false: l^d, exact for walls and "
     "bodies filled with particles on the fluid lattice"},
    {"wall_pressure", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "wall and rigid particles with a fluid neighbour get density rows (a pressure) too, as in "
     "MPS; false: Akinci's scheme, boundaries act only through the fluid's own rows"},
    {"error_measure", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the mean density error the solver's error_tolerance bounds: active_rows, |rho*_i - rho0| / "
     "rho0 averaged over the rows (fluid and wall) that can still move; positive_pressure, "
     "SPlisHSPlasH's IISPH: the signed (rho*_i - rho0) / rho0 summed over fluid particles with "
     "p_i > 0, divided by all fluid particles",
     sph_error_measures},
    {"bodies", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "walls: rigid particles are boundary particles (in rho_i and J_i, with rows under "
     "wall_pressure); ignored: the block leaves them out, so that fluid and bodies meet through "
     "contacts only (Kurose & Takahashi 2009 §4)",
     sph_bodies_choices},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *sph_alloc(const cJSON *params, const vbc_system *sys, double *support,
                       vbc_error *err) {
  sph_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->k = sys->sph;
  s->cell = vbc_sph_lattice_volume(&s->k, sys->spacing);
  s->grad_scale = 1.0 / vbc_sph_lattice_gradient_moment(&s->k, sys->spacing, s->cell);
  s->warm_start = vbc_param_bool(params, sph_params, "warm_start");
  s->warm_start_factor = vbc_param_number(params, sph_params, "warm_start_factor");
  s->equality = vbc_param_bool(params, sph_params, "equality");
  s->surface_beta = vbc_param_number(params, sph_params, "surface_beta");
  s->akinci_volumes = vbc_param_bool(params, sph_params, "akinci_volumes");
  s->wall_pressure = vbc_param_bool(params, sph_params, "wall_pressure");
  s->positive_pressure_error = vbc_param_choice(params, sph_params, "error_measure") == 1;
  s->ignore_bodies = vbc_param_choice(params, sph_params, "bodies") == 1;
  *support = s->k.H;
  return s;
}

static void sph_free(void *state) {
  sph_state *s = state;
  void *const arrays[] = {s->row_of, s->particle_of, s->moving, s->volume,  s->density,
                          s->grad,   s->w,           s->pair_row, s->g, s->within};
  for (size_t a = 0; a < sizeof arrays / sizeof *arrays; ++a) free(arrays[a]);
  free(s);
}

static int ensure_capacity(sph_state *s, size_t np, size_t npairs, size_t nrows,
                           vbc_error *err) {
  void *const per_particle[] = {&s->row_of, &s->volume, &s->density};
  const size_t particle_sizes[] = {sizeof *s->row_of, sizeof *s->volume, sizeof *s->density};
  void *const per_row[] = {&s->particle_of, &s->g, &s->moving, &s->within};
  const size_t row_sizes[] = {sizeof *s->particle_of, sizeof *s->g, sizeof *s->moving,
                              sizeof *s->within};
  if (vbc_grow(&s->cap_particles, np, per_particle, particle_sizes, 3, err) != VBC_OK ||
      vbc_grow(&s->cap_pairs, npairs, (void *[]){&s->grad, &s->w, &s->pair_row},
               (size_t[]){sizeof *s->grad, sizeof *s->w, sizeof *s->pair_row}, 3,
               err) != VBC_OK ||
      vbc_grow(&s->cap_rows, nrows, per_row, row_sizes, 4, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

/* The volume V_i: l^d for fluid-kind particles; for wall and rigid particles Akinci's
 * 1 / sum_l W_kl over boundary neighbours (and itself), or l^d without akinci_volumes. With bodies
 * "ignored" a rigid particle's volume is 0: every term of rho_i, J_i, A_ii, the boundary impulses
 * and the smoothed pressure carries V_j, so the block then does not see it (and has_row gives it
 * no row). */
static double volume_of(const sph_state *s, const vbc_system *sys, size_t i, double w0) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const int ignored = s->ignore_bodies && p->kind[i] == VBC_RIGID;
  if (ignored || p->kind[i] == VBC_FLUID || !s->akinci_volumes) return ignored ? 0.0 : s->cell;
  double sum = w0; /* W(0): the particle itself */
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
    if (p->kind[nb->index[q]] != VBC_FLUID) sum += vbc_sph_W(&s->k, nb->dist[q]);
  return 1.0 / sum;
}

/* Fluid particles have rows; with wall_pressure so do wall and rigid particles of the layer that
 * faces the fluid: those with a fluid particle closer than WALL_ROW_REACH l. A deeper boundary
 * particle sees fluid only near the edge of the support, where grad W -> 0: its row's diagonal
 * vanishes while the fluid's slightest approach makes it overdense, and its impulse r/A_kk grows
 * without bound (a tank blew up in its second step that way). */
static int has_row(const sph_state *s, const vbc_system *sys, size_t i) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  if (p->kind[i] == VBC_FLUID) return 1;
  if (!s->wall_pressure || (s->ignore_bodies && p->kind[i] == VBC_RIGID)) return 0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
    if (p->kind[nb->index[q]] == VBC_FLUID && nb->dist[q] < WALL_ROW_REACH * sys->spacing)
      return 1;
  return 0;
}

/* The m_i of lambda_i = h m_i p_i / rho_i^2: the particle's mass for fluid-kind particles (per
 * particle of a body under pms), rho0 V_i for boundary rows, which the block never moves. */
static double pressure_mass(const sph_state *s, const vbc_system *sys, size_t i) {
  return sys->particles->kind[i] == VBC_FLUID ? 1.0 / vbc_system_inv_mass(sys, i)
                                              : sys->density * s->volume[i];
}

/* The pairs of particle i: W_ij, grad W_ij and row_of[j] kept per pair, and the row's sums (in
 * vbc_sph_W_gradW_q's operations; cubic, a constant at each call, selects the cubic spline's
 * branch-free form, vbc_sph_cubic_W_dW_q: the same bits). The arrays and constants are read into
 * locals first: the stores into the per-pair arrays could otherwise alias them, and every pair
 * would load them again. Both take about an eighth off the prepare of the 3D peer dam break. */
static inline void pair_terms(const sph_state *s, const vbc_system *sys, size_t i,
                              const double *qk, double H, int cubic, double *vol_sum,
                              vbc_vec *g_sum, double *diag_sum, uint32_t *within_count) {
  const vbc_sph_kernel k = s->k;
  const double gs = s->grad_scale, rho0 = sys->density;
  const vbc_neighbors *nb = sys->nbrs;
  const uint32_t *index = nb->index;
  const double *dist = nb->dist, *volume = s->volume;
  const long *row_of = s->row_of;
  const vbc_vec *pos = sys->particles->pos;
  const double *override = sys->inv_mass_override; /* vbc_system_inv_mass, its loads hoisted */
  const unsigned char *kind = sys->particles->kind;
  const double inv_fluid = 1.0 / sys->fluid_mass;
  vbc_vec *grad = s->grad;
  double *w = s->w;
  int32_t *pair_row = s->pair_row;
  const vbc_vec pi = pos[i];
  const size_t end = nb->start[i + 1];
  double vol = *vol_sum, diag_j = *diag_sum;
  vbc_vec g = *g_sum;
  uint32_t within = 0;
  for (size_t q = nb->start[i]; q < end; ++q) {
    const size_t j = index[q];
    const double d = dist[q], qv = qk ? qk[q] : d / k.H;
    within += d < H;
    double wq;
    vbc_vec gw;
    if (cubic) {
      double dw;
      vbc_sph_cubic_W_dW_q(&k, qv, &wq, &dw);
      gw = d <= 0.0 ? vbc_vec_zero() : vbc_vec_scale(vbc_vec_sub(pi, pos[j]), dw / d);
    } else {
      gw = vbc_sph_W_gradW_q(&k, vbc_vec_sub(pi, pos[j]), d, qv, &wq);
    }
    gw = vbc_vec_scale(gw, gs);
    w[q] = wq;
    grad[q] = gw;
    pair_row[q] = (int32_t)row_of[j];
    const double vj = volume[j];
    vol += vj * wq;
    g = vbc_vec_axpy(g, vj, gw);
    const double c = rho0 * vj;
    const double inv_m = override ? override[j] : kind[j] == VBC_FLUID ? inv_fluid : 0.0;
    diag_j += inv_m * c * c * vbc_vec_norm2(gw);
  }
  *vol_sum = vol, *diag_sum = diag_j, *g_sum = g, *within_count = within;
}

static int sph_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  sph_state *s = state;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  if (ensure_capacity(s, p->n, nb->npairs, p->n, err) != VBC_OK) return err->code;
  const double rho0 = sys->density, w0 = vbc_sph_W(&s->k, 0.0), H = sys->sph.H;
  /* which particles have rows, and their volumes, in parallel (has_row scans the lists of walls;
   * one team for both), then the rows' numbers in particle order */
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    s->row_of[i] = has_row(s, sys, i);
    s->volume[i] = volume_of(s, sys, i, w0);
  }
  size_t nrows = 0;
  for (size_t i = 0; i < p->n; ++i) s->row_of[i] = s->row_of[i] ? (long)nrows++ : -1;
  if (nrows > INT32_MAX) /* pair_row holds row numbers in 32 bits */
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "sph_density: %zu rows, more than 2^31 - 1", nrows);
  if (vbc_rows_resize(rows, nrows, err) != VBC_OK) return err->code;
  for (size_t i = 0; i < p->n; ++i)
    if (s->row_of[i] >= 0) s->particle_of[s->row_of[i]] = (uint32_t)i;
  s->nmoving = 0;
  for (size_t r = 0; r < nrows; ++r)
    if (vbc_system_inv_mass(sys, s->particle_of[r]) > 0.0) s->moving[s->nmoving++] = (uint32_t)r;
  const double *qk = nb->q_scale == s->k.H ? nb->q : NULL; /* r / H per pair, if listed */
  const int cubic = s->k.type == VBC_SPH_CUBIC_SPLINE;
#pragma omp parallel for schedule(guided, 4) if (nrows >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < nrows; ++r) {
    size_t i = s->particle_of[r];
    double vol = s->volume[i] * w0, diag_j = 0.0;
    vbc_vec g = vbc_vec_zero();
    uint32_t within = 0;
    if (cubic) pair_terms(s, sys, i, qk, H, 1, &vol, &g, &diag_j, &within);
    else pair_terms(s, sys, i, qk, H, 0, &vol, &g, &diag_j, &within);
    double rho = rho0 * vol;
    s->within[r] = within;
    s->density[i] = rho;
    s->g[r] = g;
    double inv_m = vbc_system_inv_mass(sys, i);
    rows->diag[r] = inv_m * rho0 * rho0 * vbc_vec_norm2(g) + diag_j;
    rows->target[r] = (rho - rho0) / sys->dt;
    vbc_pressure_row_bounds(rows, r, s->equality, rho < s->surface_beta * rho0);
    rows->impulse[r] =
        s->warm_start ? s->warm_start_factor * sys->dt * pressure_mass(s, sys, i) * p->pressure[i] /
                            (rho * rho)
                      : 0.0;
  }
  /* every fluid particle has a row, so s->w holds W_ij of every entry of the fluid's lists: the
   * explicit terms after this prepare (XSPH under dfsph) read them instead of the kernel */
  if (s->k.type == sys->sph.type && s->k.dim == sys->sph.dim && s->k.H == sys->sph.H &&
      s->k.sigma == sys->sph.sigma) {
    sys->pair_w = s->w;
    sys->pair_w_build = nb->build;
  }
  return VBC_OK;
}

/* J_i v = -rho0 sum_j V_j (v_i - v_j) . grad W_ij. With no_bodies (a constant at each call) every
 * particle moves with its own velocity, and the loop skips vbc_system_velocity's kind test. */
static inline double row_velocity(const sph_state *s, const vbc_system *sys, size_t r,
                                  int no_bodies) {
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_vec *vel = sys->particles->vel;
  size_t i = s->particle_of[r];
  vbc_vec vi = no_bodies ? vel[i] : vbc_system_velocity(sys, i);
  double jv = 0.0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    size_t j = nb->index[q];
    vbc_vec vj = no_bodies ? vel[j] : vbc_system_velocity(sys, j);
    jv += s->volume[j] * vbc_vec_dot(vbc_vec_sub(vi, vj), s->grad[q]);
  }
  return -sys->density * jv;
}

static void sph_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                         double *res) {
  const sph_state *s = state;
  const int no_bodies = sys->nbodies == 0;
#pragma omp parallel for schedule(guided, 4) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < rows->n; ++r) {
    const double jv = no_bodies ? row_velocity(s, sys, r, 1) : row_velocity(s, sys, r, 0);
    res[r] = rows->target[r] - jv;
  }
}

/* v += M^-1 J^T d per row particle: dv_i = (rho0/m_i)(-g_i d_i - V_i sum_j grad W_ij d_j) over
 * neighbours j with rows, for the moving rows only (1/m_i > 0), which the threads share: wall
 * rows come last, so a split of all rows left one thread most of the work. */
static void sph_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  (void)rows; /* the moving rows of this step's prepare */
  const sph_state *s = state;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double rho0 = sys->density;
#pragma omp parallel for schedule(guided, 4) if (s->nmoving >= VBC_PARALLEL_MIN)
  for (size_t m = 0; m < s->nmoving; ++m) {
    const size_t r = s->moving[m], i = s->particle_of[r];
    const double inv_m = vbc_system_inv_mass(sys, i);
    vbc_vec sum = vbc_vec_zero();
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const int32_t rj = s->pair_row[q];
      if (rj >= 0) sum = vbc_vec_axpy(sum, d[rj], s->grad[q]);
    }
    vbc_vec dv = vbc_vec_axpy(vbc_vec_scale(s->g[r], -d[r]), -s->volume[i], sum);
    p->vel[i] = vbc_vec_axpy(p->vel[i], rho0 * inv_m, dv);
  }
}

/* Projected Gauss-Seidel (SOR for omega != 1) over the rows in order (reversed: backward). */
static void sph_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                      vbc_sweep_order order) {
  const sph_state *s = state;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double rho0 = sys->density;
  for (size_t k = 0; k < rows->n; ++k) {
    const size_t r = order == VBC_SWEEP_FORWARD ? k : rows->n - 1 - k;
    if (rows->diag[r] <= 0.0) continue;
    const double d = vbc_pgs_row(rows, r, row_velocity(s, sys, r, 0), omega);
    if (d == 0.0) continue;
    size_t i = s->particle_of[r];
    p->vel[i] = vbc_vec_axpy(p->vel[i], -d * rho0 * vbc_system_inv_mass(sys, i), s->g[r]);
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      if (s->pair_row[q] < 0) continue;
      const size_t j = nb->index[q];
      double c = d * rho0 * s->volume[j] * vbc_system_inv_mass(sys, j);
      p->vel[j] = vbc_vec_axpy(p->vel[j], c, s->grad[q]);
    }
  }
}

static size_t put(const vbc_system *sys, size_t j, vbc_vec c, vbc_sparse *J, size_t e) {
  for (int a = 0; a < sys->dim; ++a, ++e) {
    J->col[e] = (size_t)sys->dim * j + (size_t)a;
    J->val[e] = vbc_vec_get(c, a);
  }
  return e;
}

static int sph_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                        vbc_error *err) {
  const sph_state *s = state;
  const vbc_neighbors *nb = sys->nbrs;
  const size_t dim = (size_t)sys->dim;
  size_t n = 0, nnz = 0;
  for (size_t i = 0; i < sys->particles->n; ++i)
    if (s->row_of[i] >= 0) ++n, nnz += dim * (1 + nb->start[i + 1] - nb->start[i]);
  if (vbc_sparse_reserve(J, n, nnz, err) != VBC_OK) return err->code;
  J->nrows = n;
  J->ndofs = vbc_system_ndofs(sys);
  const double rho0 = sys->density;
  size_t e = 0;
  for (size_t r = 0; r < n; ++r) {
    size_t i = s->particle_of[r];
    J->start[r] = e;
    e = put(sys, i, vbc_vec_scale(s->g[r], -rho0), J, e);
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t j = nb->index[q];
      if (s->row_of[j] >= 0) e = put(sys, j, vbc_vec_scale(s->grad[q], rho0 * s->volume[j]), J, e);
    }
  }
  J->start[n] = e;
  J->nnz = e;
  return VBC_OK;
}

/* p_i = lambda_i rho_i^2 / (h m_i), then the Shepard-smoothed pressure. */
static void sph_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  const sph_state *s = state;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
#pragma omp parallel for schedule(static) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < p->n; ++i) {
    long r = s->row_of[i];
    double rho = r >= 0 ? s->density[i] : 0.0;
    p->pressure[i] =
        r >= 0 ? rows->impulse[r] * rho * rho / (pressure_mass(s, sys, i) * sys->dt) : 0.0;
    if (r < 0) p->pressure_smoothed[i] = 0.0;
  }
  const double w0 = vbc_sph_W(&s->k, 0.0);
  /* over the rows, which share the work out evenly whatever the particle order */
#pragma omp parallel for schedule(guided, 4) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < rows->n; ++r) {
    const size_t i = s->particle_of[r];
    double num = s->volume[i] * w0 * p->pressure[i], den = s->volume[i] * w0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      if (s->pair_row[q] < 0) continue;
      const size_t j = nb->index[q];
      double w = s->volume[j] * s->w[q];
      num += w * p->pressure[j];
      den += w;
    }
    p->pressure_smoothed[i] = num / den;
  }
}

/* The fluid row i gave particle i the momentum -rho0 V_k grad W_ik lambda_i through boundary
 * neighbour k (sph_apply's -g_i lambda_i term); k takes the opposite. Serial over rows, so the
 * sums are the same for any number of threads. */
static void sph_boundary_impulses(const void *state, const vbc_system *sys, const vbc_rows *rows,
                                  vbc_vec *impulse) {
  const sph_state *s = state;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  for (size_t r = 0; r < rows->n; ++r) {
    size_t i = s->particle_of[r];
    double lam = rows->impulse[r];
    if (lam == 0.0) continue;
    if (p->kind[i] != VBC_FLUID) { /* a boundary row: it pushed its fluid neighbours j */
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
        if (p->kind[nb->index[q]] == VBC_FLUID)
          impulse[i] = vbc_vec_axpy(impulse[i], -sys->density * s->volume[nb->index[q]] * lam,
                                    s->grad[q]);
      continue;
    }
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t k = nb->index[q];
      if (p->kind[k] == VBC_FLUID) continue;
      impulse[k] = vbc_vec_axpy(impulse[k], sys->density * s->volume[k] * lam, s->grad[q]);
    }
  }
}

/* h r_i = rho*_i - rho0 (the predicted density of step 6 with the current pressures), so h / rho0
 * makes the mean row error IISPH's average density error. */
static double sph_error_scale(const void *state, const vbc_system *sys) {
  (void)state;
  return sys->dt / sys->density;
}

/* error_measure positive_pressure: SPlisHSPlasH's IISPH (TimeStepIISPH's avg_density_err) sums
 * the signed predicted density error over particles with p > 0 and divides by all fluid
 * particles: the sum of h r_i / rho0 over fluid rows with lambda_i > 0, over the fluid count. */
typedef struct sph_error_pass {
  const sph_state *s; const vbc_system *sys; const vbc_rows *rows; double scale;
} sph_error_pass;

static double positive_pressure_errors(void *ctx, size_t begin, size_t end, size_t *fluid) {
  const sph_error_pass *e = ctx;
  const vbc_particles *p = e->sys->particles;
  double sum = 0.0;
  for (size_t r = begin; r < end; ++r) {
    const int is_fluid = p->kind[e->s->particle_of[r]] == VBC_FLUID;
    sum += is_fluid && e->rows->impulse[r] > 0.0 ? e->scale * e->rows->residual[r] : 0.0;
    *fluid += (size_t)is_fluid;
  }
  return sum;
}

static double sph_error_sum(const void *state, const vbc_system *sys, const vbc_rows *rows,
                            size_t *count) {
  const sph_state *s = state;
  const double scale = sph_error_scale(state, sys);
  if (!s->positive_pressure_error) return vbc_rows_error_sum(rows, scale, count);
  sph_error_pass e = {s, sys, rows, scale};
  return vbc_sum_pass(rows->n, positive_pressure_errors, &e, count);
}

void vbc_sph_density_view(const void *state, vbc_sph_rows_view *view) {
  const sph_state *s = state;
  view->particle_of = s->particle_of;
  view->density = s->density;
  view->volume = s->volume;
  view->grad = s->grad;
  view->pair_row = s->pair_row;
  view->g = s->g;
  view->within = s->within;
  view->moving = s->moving;
  view->nmoving = s->nmoving;
  view->cell = s->cell;
  view->grad_scale = s->grad_scale;
}

static unsigned sph_traits(const void *state) {
  return (((const sph_state *)state)->equality ? VBC_ROWS_BILATERAL : 0u) |
         VBC_ROWS_WEAK_MASSES | VBC_ROWS_PRESSURE_LOAD | VBC_ROWS_ADVECTED_DENSITY;
}

/* Without akinci_volumes only rows read lists (has_row's reach); Akinci's V_j of a wall row's
 * neighbour reads a list up to WALL_ROW_REACH l + H from the fluid: no bound then. */
static double sph_list_reach(const void *state, const vbc_system *sys) {
  return ((const sph_state *)state)->akinci_volumes ? -1.0 : WALL_ROW_REACH * sys->spacing;
}

static double sph_grad(double r, const void *kernel) { return vbc_sph_dW(kernel, r); }

/* The rows' lambda_max(D^-1 A) on the interior lattice, with the scene's kernel. */
static double sph_lattice_lambda_max(const cJSON *params, const vbc_system *sys) {
  (void)params;
  return vbc_jacobi_lattice_lambda_max(sys->dim, sys->spacing, sys->sph.H, sph_grad, &sys->sph, 0);
}

const vbc_block_type vbc_block_sph_density = {
    .name = "sph_density",
    .kind = VBC_BLOCK_FLUID,
    .summary = "IISPH density invariance with Akinci boundary volumes, one row per fluid particle "
               "(Ihmsen et al. 2014; Akinci et al. 2012)",
    .params = sph_params,
    .alloc = sph_alloc,
    .free = sph_free,
    .prepare = sph_prepare,
    .residual = sph_residual,
    .apply = sph_apply,
    .sweep = sph_sweep,
    .traits = sph_traits,
    .list_reach = sph_list_reach,
    .jacobian = sph_jacobian,
    .finish = sph_finish,
    .error_scale = sph_error_scale,
    .error_sum = sph_error_sum,
    .boundary_impulses = sph_boundary_impulses,
    .lattice_lambda_max = sph_lattice_lambda_max,
};
