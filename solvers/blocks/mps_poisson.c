/* mps_poisson.c — the classic MPS pressure Poisson equation (Koshizuka & Oka, Nucl. Sci. Eng.
 * 123, 1996), the equality-form ablation of the MPS-LCP block (mps_incompressibility.c).
 *
 * Koshizuka & Oka solve for the pressure with the Laplacian model
 *     <lap p>_i = (2d / (lambda n0)) sum_j (p_j - p_i) w(r_ij)                  (Laplacian model)
 * and the source of the temporal number density n*_i,
 *     <lap p>_i = -(rho / h^2) (n*_i - n0) / n0,                               (the Poisson equation)
 * with p = 0 on free-surface particles, n*_i < beta n0 (beta = 0.97), then correct the
 * velocities with the gradient model
 *     u_i += -(h / rho) (d / n0) sum_j (p_j - p^_i) (r_j - r_i) w(r_ij) / r_ij^2,  (gradient model)
 * p^_i the smallest pressure among i and its neighbours. lambda is the Laplacian constant of the
 * lattice (core/lattice.h), w and n0 vbc's MPS weight and number density with one r_e. (The paper
 * is not in vbc's reference set, so its equation numbers are not cited here.)
 *
 * As a block: one row per fluid particle and per wall or rigid particle with a fluid neighbour
 * (their pressure, as the wall particles of K&O), the impulse is the pressure itself, and
 *     A = -(2d / (lambda n0)) L  (symmetric positive semidefinite; rows at p = 0 make it definite),
 *     b_i = (rho / h^2) (alpha (n_i - n0) - h J_i u*) / n0,
 * n*_i = n_i - h J_i u* to first order in h (J_i u* is -dn_i/dt of the MPS-LCP rows, eq. 13 of
 * Miyamoto & Koshizuka); alpha = 1 is Koshizuka & Oka's source, alpha < 1 weights the standing
 * deviation down as the MPS-LCP rows' alpha does. The surface test always uses the full n*_i.
 * With alpha = 1 every standing deviation is amplified by rho / h^2: in vbc's hydrostatic tank
 * (r_e = 2.5 l) the rows just below the surface (n*_i a little under n0 but above 0.97 n0) pull,
 * and the column swells to 0.678 m (from 0.6) by t = 0.2 s; alpha = 0 keeps it (pressure error
 * 0.005). Measured in docs/krylov.md. So the default is alpha = 0, the velocity divergence as the
 * source: at l = 0.02 under lemke_contacts and ICCG the tank ends 1 s with its surface at 0.594 m
 * and the dam break's front within 0.09 of Martin & Moyce at 0.2 s, where alpha = 1 lifts the
 * surface to 0.917 m and throws a particle out of the dam break at 0.17 s
 * (docs/notes/method-status.md); Koshizuka & Oka's source stays the option alpha = 1.
 * so the rows ask A p = b. The operator is not J M^-1 J^T over the velocities: the block keeps
 * y = A p itself (its residual is b - y, its apply adds A dp to y) and offers A through
 * `assemble`; the velocities change once, in `finish`, by the gradient model from the final
 * pressure. Within one solve other blocks therefore do not see the pressure (use it with
 * lemke_contacts, where the fluid is solved alone); bodies are moving walls for it (their
 * particles have pressure rows, the correction moves fluid particles only).
 * Where vbc differs from K&O: one effective radius for the Laplacian and the gradient (K&O use a
 * larger one for the Laplacian) and n* linearised in h. Negative pressures are set to 0 before
 * the gradient model, as K&O do (clamp_negative all, the default). Unclamped (none), the still
 * tank (l = 0.02, r_e = 2.5 l) keeps moving: the outer of its two wall layers lacks neighbours
 * beyond the wall (n_i = 0.974 n0, just above the surface test), alpha turns that into a target
 * of -1.3e6 against the fluid rows' 16, and its pressure of -470 Pa, the smallest p^_i of the
 * corner surface particles, pushes them up at 0.10 m/s after 0.1 s (0.05 m/s clamped). Clamping
 * only the wall and rigid rows (solids: a solid pushes the water and cannot hold it) is enough
 * under the strong, pms and lemke_contacts couplers, but under the staggered coupler the tank
 * then sloshes at 0.2 m/s after 0.6 s (0.05 m/s with every row clamped). The price of K&O's
 * clamp: without a negative p^_i the fluid rows lose some of the gradient model's isotropic
 * push, and the dam break (l = 0.02) compresses a little more than 1 % of its particles by more
 * than 10 % after 0.18 s (the compression monitor flags it; unclamped, at most 9 %). Measured in
 * docs/notes/mix-matrix.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/kernel.h"
#include "core/lattice.h"
#include "core/number_density.h"
#include "core/parallel.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/pair_laplacian.h"

typedef struct poisson_state {
  double surface_beta, alpha;
  int clamp; /* CLAMP_*: which rows' negative pressures are set to 0 before the gradient model */
  vbc_mps_constants k;
  double c; /* 2d / (lambda n0) */
  size_t nrows, cap_particles, cap_pairs, cap_rows;
  long *row_of;          /* per particle: its row or -1 */
  uint32_t *particle_of; /* per row */
  double *w;             /* per neighbour pair of a row particle: c w(r_ij) if j has a row, else 0 */
  double *y;             /* per row: (A p)_r */
} poisson_state;

enum { CLAMP_ALL, CLAMP_SOLIDS, CLAMP_NONE };
static const char *const clamp_choices[] = {"all", "solids", "none", NULL};

static const vbc_param_spec poisson_params[] = {
    {"surface_beta", VBC_PARAM_NUMBER, 0.97, 0.0, 1.0, 0,
     "a particle with n*_i < surface_beta n0 is free surface, p = 0 (Koshizuka & Oka: 0.97)"},
    {"alpha", VBC_PARAM_NUMBER, 0.0, 0.0, 1.0, 0,
     "weight of the standing deviation n_i - n0 in the source (0, the default: the velocity "
     "divergence only, which keeps vbc's hydrostatic tank at rest; 1: Koshizuka & Oka's n*, "
     "which swells it unless negative pressures are clamped: docs/krylov.md)"},
    {"clamp_negative", VBC_PARAM_CHOICE, CLAMP_ALL, 0, 0, 0,
     "negative pressures set to 0 before the gradient-model correction: all (the default, "
     "Koshizuka & Oka), solids (only on wall and rigid particles, which push the water and "
     "cannot hold it) or none (as first shipped)",
     clamp_choices},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *poisson_alloc(const cJSON *params, const vbc_system *sys, double *support,
                           vbc_error *err) {
  poisson_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->surface_beta = vbc_param_number(params, poisson_params, "surface_beta");
  s->alpha = vbc_param_number(params, poisson_params, "alpha");
  s->clamp = vbc_param_choice(params, poisson_params, "clamp_negative");
  s->k = vbc_mps_lattice_constants(sys->dim, sys->spacing, sys->re);
  s->c = 2.0 * sys->dim / (s->k.lambda * s->k.n0);
  *support = sys->re;
  return s;
}

static void poisson_free(void *state) {
  poisson_state *s = state;
  free(s->row_of), free(s->particle_of), free(s->w), free(s->y);
  free(s);
}

/* J_i u* = sum_j v_ij . (u_i - u_j), v_ij = w'(r_ij) (r_j - r_i) / r_ij: -dn_i/dt. */
static double divergence(const vbc_system *sys, size_t i) {
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_vec *pos = sys->particles->pos;
  const vbc_vec ui = vbc_system_velocity(sys, i);
  double jv = 0.0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    const double d = nb->dist[q];
    if (d <= 0.0) continue;
    const vbc_vec v = vbc_vec_scale(vbc_vec_sub(pos[j], pos[i]), vbc_mps_dw(d, sys->re) / d);
    jv += vbc_vec_dot(v, vbc_vec_sub(ui, vbc_system_velocity(sys, j)));
  }
  return jv;
}

static int poisson_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  poisson_state *s = state;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  if (vbc_grow(&s->cap_particles, p->n, (void *[]){&s->row_of}, (size_t[]){sizeof *s->row_of},
               1, err) != VBC_OK ||
      vbc_grow(&s->cap_pairs, nb->npairs, (void *[]){&s->w}, (size_t[]){sizeof *s->w}, 1, err) !=
          VBC_OK ||
      vbc_grow(&s->cap_rows, p->n, (void *[]){&s->particle_of, &s->y},
               (size_t[]){sizeof *s->particle_of, sizeof *s->y}, 2, err) != VBC_OK)
    return err->code;
  size_t n = 0; /* rows: fluid, and walls and rigid particles with a fluid neighbour */
  for (size_t i = 0; i < p->n; ++i) {
    int row = p->kind[i] == VBC_FLUID;
    for (size_t q = nb->start[i]; q < nb->start[i + 1] && !row; ++q)
      row = p->kind[nb->index[q]] == VBC_FLUID;
    s->row_of[i] = row ? (long)n : -1;
    if (row) s->particle_of[n++] = (uint32_t)i;
  }
  s->nrows = n;
  if (vbc_rows_resize(rows, n, err) != VBC_OK) return err->code;
  vbc_number_density(sys);
  const double n0 = s->k.n0, h = sys->dt;
#pragma omp parallel for schedule(guided, 4) if (n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < n; ++r) {
    const size_t i = s->particle_of[r];
    double diag = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const double wq = s->row_of[nb->index[q]] >= 0 ? s->c * vbc_mps_w(nb->dist[q], sys->re) : 0.0;
      s->w[q] = wq;
      diag += wq;
    }
    const double rate = h * divergence(sys, i); /* n_i - n*_i */
    const double nstar = p->number_density[i] - rate;
    rows->diag[r] = diag;
    rows->target[r] =
        sys->density / (h * h) * (s->alpha * (p->number_density[i] - n0) - rate) / n0;
    vbc_pressure_row_bounds(rows, r, 1, nstar < s->surface_beta * n0 || !(diag > 0.0));
    rows->impulse[r] = 0.0;
    s->y[r] = 0.0;
  }
  return VBC_OK;
}

/* The operator's view of the state (pair_laplacian.h): w is zero for pairs whose neighbour has
 * no row. */
static vbc_pair_laplacian laplacian(const poisson_state *s) {
  return (vbc_pair_laplacian){s->row_of, s->particle_of, s->w, s->y};
}

static void poisson_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                             double *res) {
  (void)sys;
  const vbc_pair_laplacian L = laplacian(state);
  vbc_pair_residual(&L, rows, res);
}

static void poisson_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const vbc_pair_laplacian L = laplacian(state);
  vbc_pair_apply(&L, sys->nbrs, rows, d);
}

/* Gauss–Seidel over the rows in particle order (serial: an ablation, not a production path). */
static void poisson_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                          vbc_sweep_order order) {
  const vbc_pair_laplacian L = laplacian(state);
  vbc_pair_sweep(&L, sys->nbrs, rows, omega, order);
}

static int poisson_assemble(const void *state, const vbc_system *sys, const vbc_rows *rows,
                            vbc_sparse *A, vbc_error *err) {
  const vbc_pair_laplacian L = laplacian(state);
  return vbc_pair_assemble(&L, sys->nbrs, rows, A, err);
}

/* Pressure from the rows, the gradient-model correction of the fluid velocities,
 * then the smoothed pressure as for the MPS-LCP rows. */
static void poisson_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  const poisson_state *s = state;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
#pragma omp parallel for schedule(static) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < p->n; ++i) {
    const double pi = s->row_of[i] >= 0 ? rows->impulse[s->row_of[i]] : 0.0;
    const int clamp =
        s->clamp == CLAMP_ALL || (s->clamp == CLAMP_SOLIDS && p->kind[i] != VBC_FLUID);
    p->pressure[i] = clamp ? fmax(pi, 0.0) : pi;
  }
  const double f = -sys->dt / sys->density * sys->dim / s->k.n0;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID || s->row_of[i] < 0) continue;
    double pmin = p->pressure[i];
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      if (s->row_of[nb->index[q]] >= 0) pmin = fmin(pmin, p->pressure[nb->index[q]]);
    vbc_vec g = vbc_vec_zero();
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      const double d = nb->dist[q];
      if (s->row_of[j] < 0 || d <= 0.0) continue;
      const double c = (p->pressure[j] - pmin) * vbc_mps_w(d, sys->re) / (d * d);
      g = vbc_vec_axpy(g, c, vbc_vec_sub(p->pos[j], p->pos[i]));
    }
    p->vel[i] = vbc_vec_axpy(p->vel[i], f, g);
  }
  vbc_mps_smooth_pressure(sys, s->row_of);
}

/* h^2 r_i / rho = (n*_i - n0) / n0 minus what the pressure removes: the fractional compression
 * the row still predicts. */
static double poisson_error_scale(const void *state, const vbc_system *sys) {
  (void)state;
  return sys->dt * sys->dt / sys->density;
}

static unsigned poisson_traits(const void *state) {
  (void)state;
  return VBC_ROWS_BILATERAL;
}

const vbc_block_type vbc_block_mps_poisson = {
    .name = "mps_poisson",
    .kind = VBC_BLOCK_FLUID,
    .summary = "the classic MPS pressure Poisson equation: Laplacian model, p = 0 on the free "
               "surface, gradient-model correction (Koshizuka & Oka 1996)",
    .params = poisson_params,
    .alloc = poisson_alloc,
    .free = poisson_free,
    .prepare = poisson_prepare,
    .residual = poisson_residual,
    .apply = poisson_apply,
    .sweep = poisson_sweep,
    .assemble = poisson_assemble,
    .finish = poisson_finish,
    .error_scale = poisson_error_scale,
    .traits = poisson_traits,
};
