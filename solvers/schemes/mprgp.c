/* mprgp.c — modified proportioning with reduced gradient projections (Dostál & Schöberl,
 * Comput. Optim. Appl. 30, 2005) for the bound-constrained problem every vbc solve is:
 *     min f(x) = 1/2 x^T A x - x^T r0   subject to  lo <= x <= hi,
 * x the impulses, A = J M^-1 J^T (symmetric positive semidefinite for the mps, sph_density,
 * contact and pin rows), r0 = b - J u*; its KKT conditions are the LCP pgs solves (gradient
 * g = A x - r0 = -r, r = b - J v the rows' residual). So mprgp drops in for pgs under every
 * coupler and solves the same problem.
 *
 * One iteration, with g from the velocities (vbc_solve's residual pass):
 *   free gradient phi (g on the free rows lo < x < hi), chopped gradient beta (at a bound, the part
 *   of g that points out of the feasible set), reduced free gradient phi~ (phi limited to what a
 *   step of length abar can take before the bound);
 *   if |beta|^2 <= Gamma^2 phi~.phi (the iterate is proportional):
 *     conjugate gradient step on the free rows: p = phi - gamma p_prev (gamma = phi.Ap/p.Ap), the
 *     CG step length alpha = phi.p / p.Ap, the largest feasible one alpha_f; if alpha <= alpha_f
 *     take it, else go to the bound (alpha_f) and expand: x = P(x_f - abar phi(x_f)), the
 *     projection P onto [lo, hi];
 *   else proportioning: a step along beta with its exact line-search length, projected.
 * abar in (0, 2/|A|]: abar = step_factor / |A|, |A| estimated by power_iterations power iterations
 * at the start of every solve from the all-ones vector (matrix-free products move the velocities:
 * they are saved and restored around them, so the estimate changes nothing). Power iterations
 * approach |A| from below; the default factor 1 stays inside the bound unless the estimate falls
 * short by half. Gamma = 1 by default (Dostál's choice).
 * The stopping test is vbc_solve's (the natural residual, the projected gradient in the energy
 * norm), the same as pgs's.
 *
 * Jacobi preconditioning (`preconditioner`: jacobi) runs the same method on the diagonally scaled
 * problem y = D^1/2 x (A~ = D^-1/2 A D^-1/2, bounds scaled alike), which keeps the convergence
 * theory and the bounds intact. Products are matrix-free (krylov.h).
 *
 * `preconditioner`: ic0 (the default) adds preconditioning in face (Dostál, Optimal Quadratic
 * Programming Algorithms, Springer 2009: MPRGP with a preconditioner of the free rows): conjugate
 * directions are built from z = P_F^-1 phi, P_F the incomplete Cholesky factor (precond.h) of A's
 * principal submatrix on the free rows F. Expansion and proportioning steps are unchanged, so the
 * active set is found as before while steps within a face see a far better conditioned operator.
 * A run of CG steps that starts on a free set differing from the factored one in more than
 * `refactor` n rows refactors; below that the old factor serves the rows free in both and the
 * diagonal the rest (a principal block of an SPD matrix: still SPD). A is assembled at the start
 * of every solve (core/operator.h) and the products use it; the set-up seconds (assembly and every
 * factorisation) and the number of factorisations are reported. On the frozen hydrostatic tank
 * (1166 rows; A's scaled free block has condition ~4e5) `jacobi` needs ~3000 iterations for
 * 1e-6 in z, `ic0` ~900 (docs/krylov.md). The triangular solves are serial.
 * With movable bodies, J W J^T couples every row that touches a body into a dense block, and
 * factoring it costs more than it saves: then the factor is built from A with the bodies held
 * still (core/operator.h) on the exact diagonal, and the products stay matrix-free. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/operator.h"
#include "solvers/schemes/krylov.h"
#include "solvers/schemes/precond.h"
#include "solvers/schemes/schemes.h"
#include "solvers/schemes/solve_params.h"

static const char *const mprgp_preconditioners[] = {"none", "jacobi", "ic0", NULL};

static const vbc_param_spec mprgp_params[] = {
    {"gamma", VBC_PARAM_NUMBER, 1.0, 0.0, 1e6, 1,
     "proportioning parameter Gamma: a CG step while |beta| <= Gamma |phi~| (Dostál: 1)"},
    {"step_factor", VBC_PARAM_NUMBER, 1.0, 0.0, 2.0, 1,
     "expansion step abar = step_factor / |A| (|A| estimated by power iterations)"},
    {"power_iterations", VBC_PARAM_INTEGER, 12, 1, 1000, 0,
     "power iterations of the |A| estimate at the start of every solve"},
    {"preconditioner", VBC_PARAM_CHOICE, 2, 0, 0, 0,
     "none (Dostál & Schöberl's plain method); jacobi: the method on the diagonally scaled "
     "problem; ic0: that, with CG steps preconditioned by IC(0) of the free rows (assembles the "
     "operator)",
     mprgp_preconditioners},
    {"refactor", VBC_PARAM_NUMBER, 0.01, 0.0, 1.0, 0,
     "ic0: refactor when more than this share of the rows changed between free and bound since "
     "the last factorisation (0: at every change of the free set); until then the old factor "
     "serves the rows free in both, the diagonal the others"},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 0.0, 0),
    {NULL, 0, 0, 0, 0, 0, NULL}};

typedef struct mprgp_state {
  double gamma, step_factor, refactor;
  int power_iterations, jacobi, ic0;
  vbc_krylov k;
  vbc_precond P;           /* ic0: the factor of the free rows fmask */
  vbc_sparse A;            /* ic0: the assembled operator */
  unsigned char *fmask, *freem; /* the factored free set, the current one */
  size_t cap_fmask, cap_freem;
  int factored;
  int matrix_free;         /* ic0 with movable bodies: A without them preconditions, products
                              stay matrix-free */
  long factorisations;
  double setup_seconds;
  double *s, *g, *y, *l, *u, *phi, *beta, *p, *q, *w, *dx; /* scaled space */
  size_t cap[11];
  double abar, norm;
  int prev_cg;
  long cg_steps, expansions, proportionings;
  vbc_vec *vel, *bv, *bw; /* saved velocities around the power iterations */
  size_t cap_vel, cap_bodies;
} mprgp_state;

static void *mprgp_alloc(const cJSON *params, vbc_error *err) {
  mprgp_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->gamma = vbc_param_number(params, mprgp_params, "gamma");
  s->step_factor = vbc_param_number(params, mprgp_params, "step_factor");
  s->refactor = vbc_param_number(params, mprgp_params, "refactor");
  s->power_iterations = (int)vbc_param_number(params, mprgp_params, "power_iterations");
  const int pc = vbc_param_choice(params, mprgp_params, "preconditioner");
  s->jacobi = pc >= 1;
  s->ic0 = pc == 2;
  s->P.kind = VBC_PRECOND_IC0;
  return s;
}

static void mprgp_free(void *state) {
  mprgp_state *s = state;
  vbc_krylov_free(&s->k);
  vbc_precond_free(&s->P);
  vbc_sparse_free(&s->A);
  free(s->fmask), free(s->freem);
  double *v[] = {s->s, s->g, s->y, s->l, s->u, s->phi, s->beta, s->p, s->q, s->w, s->dx};
  for (size_t i = 0; i < sizeof v / sizeof *v; ++i) free(v[i]);
  free(s->vel), free(s->bv), free(s->bw);
  free(s);
}

static int vectors(mprgp_state *s, vbc_error *err) {
  double **v[] = {&s->s, &s->g, &s->y, &s->l, &s->u, &s->phi, &s->beta, &s->p, &s->q, &s->w,
                  &s->dx};
  for (size_t i = 0; i < sizeof v / sizeof *v; ++i)
    if (vbc_krylov_vector(&s->k, v[i], &s->cap[i], err) != VBC_OK) return err->code;
  if (vbc_grow(&s->cap_fmask, s->k.n, (void *[]){&s->fmask}, (size_t[]){1}, 1, err) != VBC_OK ||
      vbc_grow(&s->cap_freem, s->k.n, (void *[]){&s->freem}, (size_t[]){1}, 1, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

/* The scaling and the bounds in scaled variables, once a solve: s, s lo, s hi. */
static void scale_bounds(mprgp_state *s) {
  const vbc_krylov *k = &s->k;
  for (size_t i = 0; i < k->n; ++i) {
    const double si = s->jacobi && k->unknown[i] ? sqrt(k->diag[i]) : 1.0;
    s->s[i] = si;
    s->l[i] = si * k->lo[i];
    s->u[i] = si * k->hi[i];
  }
}

/* The iterate in scaled variables, every iteration: y = s x, g~ = -r / s. */
static void scale_point(mprgp_state *s) {
  const vbc_krylov *k = &s->k;
  for (size_t i = 0; i < k->n; ++i) {
    s->y[i] = s->s[i] * k->x[i];
    s->g[i] = k->unknown[i] ? -k->r[i] / s->s[i] : 0.0;
  }
}

/* q = A~ p = S^-1 A S^-1 p (p and q in the scaled space; w is scratch). */
static void product(mprgp_state *s, vbc_problem *pb, const double *p, double *q) {
  vbc_krylov *k = &s->k;
  for (size_t i = 0; i < k->n; ++i) s->w[i] = k->unknown[i] ? p[i] / s->s[i] : 0.0;
  vbc_krylov_product(k, pb, s->ic0 && !s->matrix_free ? &s->A : NULL, s->w, q);
  for (size_t i = 0; i < k->n; ++i) q[i] = k->unknown[i] ? q[i] / s->s[i] : 0.0;
}

/* Row i is free at the value y: an unknown strictly inside its bounds. */
static int is_free(const mprgp_state *s, size_t i, double y) {
  return s->k.unknown[i] && y > s->l[i] && y < s->u[i];
}

/* Save (restore) the particles' and bodies' velocities around the power iterations. */
static void save_velocities(mprgp_state *s, const vbc_system *sys, int restore) {
  if (sys->particles == NULL) return;
  const size_t n = sys->particles->n;
  if (restore) memcpy(sys->particles->vel, s->vel, n * sizeof *s->vel);
  else memcpy(s->vel, sys->particles->vel, n * sizeof *s->vel);
  for (size_t b = 0; b < sys->nbodies; ++b) {
    if (restore) sys->bodies[b].v = s->bv[b], sys->bodies[b].w = s->bw[b];
    else s->bv[b] = sys->bodies[b].v, s->bw[b] = sys->bodies[b].w;
  }
}

/* |A~| by power iterations from the all-ones vector on the unknowns. Matrix-free products move the
 * velocities: they are undone through the blocks (what a block keeps of its own, to round-off)
 * and then the particles' and bodies' velocities are restored bit for bit from a copy; products
 * by the assembled A move nothing. */
static int estimate_norm(mprgp_state *s, vbc_problem *pb, vbc_error *err) {
  const vbc_system *sys = pb->sys;
  const size_t np = sys->particles ? sys->particles->n : 0;
  if (vbc_grow(&s->cap_vel, np, (void *[]){&s->vel}, (size_t[]){sizeof *s->vel}, 1, err) !=
          VBC_OK ||
      vbc_grow(&s->cap_bodies, sys->nbodies + 1, (void *[]){&s->bv, &s->bw},
               (size_t[]){sizeof *s->bv, sizeof *s->bw}, 2, err) != VBC_OK)
    return err->code;
  vbc_krylov *k = &s->k;
  const int moving = !s->ic0 || s->matrix_free; /* products through the blocks' passes */
  if (moving) save_velocities(s, sys, 0);
  double norm = 0.0;
  for (size_t i = 0; i < k->n; ++i) s->p[i] = k->unknown[i] ? 1.0 : 0.0;
  for (int it = 0; it < s->power_iterations; ++it) {
    const double pp = vbc_krylov_dot(k, s->p, s->p);
    if (!(pp > 0.0)) break;
    for (size_t i = 0; i < k->n; ++i) s->p[i] /= sqrt(pp);
    product(s, pb, s->p, s->q);
    norm = sqrt(vbc_krylov_dot(k, s->q, s->q));
    memcpy(s->p, s->q, k->n * sizeof *s->p);
  }
  for (size_t i = 0; i < k->n; ++i) s->dx[i] = 0.0, s->p[i] = 0.0;
  if (moving) {
    vbc_krylov_sync(k, pb, s->dx); /* undo the products */
    save_velocities(s, sys, 1);
  }
  s->norm = norm;
  s->abar = norm > 0.0 ? s->step_factor / norm : 1.0;
  return VBC_OK;
}

static int mprgp_check(const void *state, const vbc_problem *pb, vbc_error *err) {
  const mprgp_state *s = state;
  return vbc_krylov_check(pb, "mprgp", s->ic0, "ic0", err);
}

static int mprgp_begin(void *state, vbc_problem *pb, vbc_error *err) {
  mprgp_state *s = state;
  s->prev_cg = 0;
  s->factored = 0;
  s->cg_steps = s->expansions = s->proportionings = s->factorisations = 0;
  s->setup_seconds = 0.0;
  if (vbc_krylov_gather(&s->k, pb, err) != VBC_OK || vectors(s, err) != VBC_OK) return err->code;
  if (s->ic0) {
    const double t0 = vbc_now();
    s->matrix_free = 0;
    for (size_t b = 0; b < pb->sys->nbodies; ++b) s->matrix_free |= pb->sys->bodies[b].inv_mass > 0.0;
    s->P.exact_diagonal = s->matrix_free;
    if ((s->matrix_free ? vbc_problem_assemble_fixed_bodies(pb, &s->A, err)
                        : vbc_problem_assemble(pb, &s->A, err)) != VBC_OK)
      return err->code;
    vbc_krylov_sort_rows(&s->A);
    s->setup_seconds += vbc_now() - t0;
  }
  scale_bounds(s);
  scale_point(s);
  return estimate_norm(s, pb, err);
}

/* The free and chopped gradients; returns beta.beta, and phi~.phi in *proportion. */
static double gradients(mprgp_state *s, double *proportion) {
  const vbc_krylov *k = &s->k;
  for (size_t i = 0; i < k->n; ++i) {
    const double g = s->g[i];
    const int free = is_free(s, i, s->y[i]);
    s->freem[i] = (unsigned char)free;
    s->phi[i] = free ? g : 0.0;
    s->beta[i] = !k->unknown[i] || free ? 0.0 : s->y[i] <= s->l[i] ? fmin(g, 0.0) : fmax(g, 0.0);
    double reduced = s->phi[i];
    if (s->phi[i] > 0.0) reduced = fmin((s->y[i] - s->l[i]) / s->abar, s->phi[i]);
    if (s->phi[i] < 0.0) reduced = fmax((s->y[i] - s->u[i]) / s->abar, s->phi[i]);
    s->w[i] = reduced;
  }
  *proportion = vbc_krylov_dot(&s->k, s->w, s->phi);
  return vbc_krylov_dot(&s->k, s->beta, s->beta);
}

/* The largest alpha with lo <= y - alpha p <= hi. */
static double feasible_step(const mprgp_state *s) {
  double a = INFINITY;
  for (size_t i = 0; i < s->k.n; ++i) {
    if (!s->k.unknown[i] || s->p[i] == 0.0) continue;
    const double lim =
        s->p[i] > 0.0 ? (s->y[i] - s->l[i]) / s->p[i] : (s->y[i] - s->u[i]) / s->p[i];
    a = fmin(a, fmax(lim, 0.0));
  }
  return a;
}

static double project(const mprgp_state *s, size_t i, double y) {
  return y < s->l[i] ? s->l[i] : (y > s->u[i] ? s->u[i] : y);
}

/* ic0: z = S P_F^-1 S phi (S the scaling: P_F approximates the unscaled A on the free rows F,
 * so S^-1 P_F S^-1 approximates the scaled one), refactoring P_F first when F is not the factored
 * set; without ic0 z = phi. Returns 1 when it refactored (a fresh face: CG restarts). */
static int face_direction(mprgp_state *s, double *z, vbc_error *err) {
  vbc_krylov *k = &s->k;
  if (!s->ic0) {
    memcpy(z, s->phi, k->n * sizeof *z);
    return 0;
  }
  size_t changed = 0;
  for (size_t i = 0; i < k->n; ++i) changed += s->fmask[i] != s->freem[i];
  const int fresh = !s->factored || (double)changed > s->refactor * (double)k->n;
  if (fresh) {
    const double t0 = vbc_now();
    if (vbc_precond_setup(&s->P, k, s->freem, &s->A, err) != VBC_OK) return -1;
    memcpy(s->fmask, s->freem, k->n);
    s->factored = 1;
    s->factorisations++;
    s->setup_seconds += vbc_now() - t0;
  }
  /* Rows free now and in the factored set: P_F's block; rows free now but not factored: the
   * scaled identity (Jacobi); the result is a principal block of an SPD matrix, so SPD. */
  for (size_t i = 0; i < k->n; ++i) s->w[i] = s->fmask[i] ? s->phi[i] * s->s[i] : 0.0;
  vbc_precond_apply(&s->P, k, s->fmask, &s->A, s->w, z);
  for (size_t i = 0; i < k->n; ++i)
    z[i] = !s->freem[i] ? 0.0 : s->fmask[i] ? z[i] * s->s[i] : s->phi[i];
  return fresh;
}

/* A (preconditioned) conjugate gradient step on the free rows, or a step to the bound and an
 * expansion. */
static int cg_step(mprgp_state *s, vbc_problem *pb, vbc_error *err) {
  vbc_krylov *k = &s->k;
  const int fresh = face_direction(s, s->beta, err); /* beta is free scratch here */
  if (fresh < 0) return err->code;
  if (s->prev_cg && !fresh) {
    const double pq = vbc_krylov_dot(k, s->p, s->q);
    const double gamma = pq > 0.0 ? vbc_krylov_dot(k, s->beta, s->q) / pq : 0.0;
    for (size_t i = 0; i < k->n; ++i) s->p[i] = s->beta[i] - gamma * s->p[i];
  } else {
    memcpy(s->p, s->beta, k->n * sizeof *s->p);
  }
  product(s, pb, s->p, s->q);
  const double pq = vbc_krylov_dot(k, s->p, s->q);
  const double acg = pq > 0.0 ? vbc_krylov_dot(k, s->phi, s->p) / pq : INFINITY;
  const double af = feasible_step(s);
  if (acg <= af) {
    for (size_t i = 0; i < k->n; ++i) s->dx[i] = -acg * s->p[i];
    s->prev_cg = 1;
    s->cg_steps++;
    return VBC_OK;
  }
  for (size_t i = 0; i < k->n; ++i) { /* to the bound, then expand along the free gradient */
    const double yh = s->y[i] - af * s->p[i], gh = s->g[i] - af * s->q[i];
    const double phi = is_free(s, i, yh) ? gh : 0.0;
    s->dx[i] = k->unknown[i] ? project(s, i, yh - s->abar * phi) - s->y[i] : 0.0;
  }
  s->prev_cg = 0;
  s->expansions++;
  return VBC_OK;
}

/* Proportioning: along the chopped gradient with its exact step, projected. */
static void proportioning_step(mprgp_state *s, vbc_problem *pb) {
  vbc_krylov *k = &s->k;
  memcpy(s->p, s->beta, k->n * sizeof *s->p);
  product(s, pb, s->p, s->q);
  const double pq = vbc_krylov_dot(k, s->p, s->q);
  const double a = pq > 0.0 ? vbc_krylov_dot(k, s->beta, s->beta) / pq : s->abar;
  for (size_t i = 0; i < k->n; ++i)
    s->dx[i] = k->unknown[i] ? project(s, i, s->y[i] - a * s->p[i]) - s->y[i] : 0.0;
  s->prev_cg = 0;
  s->proportionings++;
}

static int mprgp_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  mprgp_state *s = state;
  vbc_krylov *k = &s->k;
  vbc_krylov_refresh(k, pb);
  scale_point(s);
  double proportion;
  const double chopped = gradients(s, &proportion);
  if (chopped <= s->gamma * s->gamma * proportion) {
    if (cg_step(s, pb, err) != VBC_OK) return err->code;
  } else {
    proportioning_step(s, pb);
  }
  for (size_t i = 0; i < k->n; ++i) s->dx[i] = k->unknown[i] ? s->dx[i] / s->s[i] : 0.0;
  vbc_krylov_sync(k, pb, s->dx);
  return VBC_OK;
}

static int mprgp_stats(const void *state, vbc_solve_stats *out, vbc_error *err) {
  const mprgp_state *s = state;
  if (vbc_solve_stats_add(out, "norm_estimate", s->norm, VBC_FIGURE_MEAN_MAX, err) ||
      vbc_solve_stats_add(out, "expansions", (double)s->expansions, VBC_FIGURE_MEAN_MAX, err) ||
      vbc_solve_stats_add(out, "proportionings", (double)s->proportionings, VBC_FIGURE_MEAN_MAX,
                          err))
    return err->code;
  if (s->ic0 &&
      (vbc_solve_stats_add(out, "setup_seconds", s->setup_seconds, VBC_FIGURE_MEAN_MAX, err) ||
       vbc_solve_stats_add(out, "factorisations", (double)s->factorisations, VBC_FIGURE_MEAN_MAX,
                           err) ||
       vbc_solve_stats_add(out, "ic0_shift", s->P.shift, VBC_FIGURE_MAX, err)))
    return err->code;
  return VBC_OK;
}

const vbc_solver_type vbc_solver_mprgp = {
    .name = "mprgp",
    .divergence_hint = vbc_krylov_divergence_hint,
    .summary = "MPRGP: conjugate gradients on the free rows with expansion and proportioning "
               "steps, for the bound-constrained problem pgs solves (Dostál & Schöberl 2005)",
    .params = mprgp_params,
    .alloc = mprgp_alloc,
    .free = mprgp_free,
    .check = mprgp_check,
    .begin = mprgp_begin,
    .iterate = mprgp_iterate,
    .stats = mprgp_stats,
};
