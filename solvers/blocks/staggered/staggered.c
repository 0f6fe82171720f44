/* staggered.c — the velocity constraint p^v of staggered SPH: He, Liu, Wang, Zhang, Li, Shao &
 * Wang, "Staggered meshless solid-fluid coupling", ACM Trans. Graph. 31(6) 149, 2012, §4 and §5.2.
 *
 * Carrier particles hold the pressure; a staggered particle P_{i-j} sits at the midpoint of every
 * pair of neighbours i (fluid) and j (fluid or solid) closer than the SPH support H, with
 *     m_{i-j} = m_i/N_i + m_j/N_j                                                  (eq. 7)
 *     v~_{i-j} = (m_{i-} v~_i + m_{j-} v~_j) / m_{i-j},  m_{i-} = m_i/N_i             (eq. 8)
 *     V_{i-j} = m_{i-}/rho_i + m_{j-}/rho_j,  rho_{i-j} = m_{i-j}/V_{i-j}            (eq. 9)
 * (masses, counts and densities: staggered_surface.c). With n_ij = (x_j - x_i)/r_ij and
 * grad W(r_ij/2) = -|W'(r_ij/2)| n_ij at the staggered particle, the divergence (eq. 10) and the
 * Laplacian of the gradient eq. 11 (eq. 12) are
 *     div_i = sum_j V_{i-j} |W'(r_ij/2)| v_{i-j} . n_ij,
 *     L p_i = sum_j (V_{i-j}/rho_{i-j}) |W'(r_ij/2)| (p_j - p_i) / r_ij,
 * and eq. 13 is L p = div~ / h. A pair with a solid j carries no pressure: its staggered velocity
 * is the solid's condition, free slip (eq. 27, default: the normal part of v~_{i-j} - u^s
 * removed, n^s of eq. 20) or no slip (eq. 26: v_{i-j} = u^s, u^s the solid particle's velocity),
 * and with no_sticking only where the pair approaches the solid, (v~_{i-j} - u^s) . n^s < 0,
 * decided before the solve (§5.2); that known velocity goes to the right-hand side.
 *
 * As a block: one row per fluid particle not on the free surface (staggered_surface.c), the
 * impulse lambda_i = h p_i, bilateral. With c_ij = (V_{i-j}/rho_{i-j}) |W'(r_ij/2)| / r_ij the
 * divergence after eq. 14 is div_i + (A lambda)_i, so the rows ask
 *     A lambda = b,  A_ii = sum_{j fluid} c_ij,  A_ij = -c_ij (j a row),  b_i = -div_i,
 * where div_i takes v~_{i-j} on fluid pairs and the imposed velocity on solid pairs. Surface
 * neighbours (p = 0) count in A_ii only: A is symmetric, A_ij <= 0 off the diagonal, weakly
 * diagonally dominant, and definite because every region has a surface particle (§5.2). It is
 * not J M^-1 J^T over the particle velocities, so, as mps_poisson.c, the block keeps y = A lambda
 * itself (residual b - y; apply adds A d to y; the Gauss–Seidel sweep updates y) and offers A
 * through `assemble`. The residual is the staggered divergence left; eq. 29's E is h times its
 * mean, and error_measure chooses its unit: divergence (h |r_i| as it stands, the default) or
 * density (h |r_i| / c, c eq. 10's lattice factor: the relative density change |Delta rho_i| /
 * rho_i, He's E; staggered_error.c).
 *
 * Remap (`finish`, eq. 15-19). The staggered particle's change is
 *     dv_{i-j} = -(h / rho_{i-j}) G p_{i-j},  G p_{i-j} = (p_j - p_i)/r_ij n_ij     (eq. 11, 14)
 * for fluid pairs and the imposed change for solid pairs. Eq. 19 gives particle i
 *     dv_i = (1/N_i) sum_j dv_{i-j}                                       (remap = "literal"),
 * but each dv_{i-j} is only the component along its own n of the change: for a linear pressure
 * on a full neighbourhood (1/N) sum n n^T = I/d, so the particle receives 1/d of the pressure
 * acceleration (measured in tests/test_staggered_run.c: one step from rest in the hydrostatic
 * tank leaves the fluid falling at half of g h in 2D). The default is the least-squares fit of a
 * velocity change to the components,
 *     dv_i = (sum_j n n^T)^-1 sum_j dv_{i-j}                              (remap = "normalised"),
 * exact for a linear pressure on any neighbourhood. Solid pairs: with wall_share (default) the
 * fluid particle's own share of P_{i-j} reaches the solid's condition, i.e. eq. 17 with its last
 * term (m_{i-j} - m_{j-})/m_{i-j} (v_j - v_i) kept for fluid-solid pairs (dv = -((v~_i - u).n) n
 * for free slip, u - v~_i for no slip); without it the pair gives the mixed particle's change of
 * eq. 26-27 as printed, which a wall at rest halves (its share of v~_{i-j} is zero). Eq. 17's last
 * term is dropped for fluid pairs, as the paper does. A particle with few or nearly collinear
 * neighbours (a splash) has a (nearly) singular sum n n^T; staggered_remap.c raises its small
 * eigenvalues (remap_floor). He's viscous force on solids (mu^s, eq. 24's tangential mapping T) is
 * the explicit step's (fluid.wall_viscosity_tangential, core/viscosity.h), not this block's.
 *
 * divergence = relative (not He's) sums (v_{i-j} - v_i) . n_ij instead of eq. 10's v_{i-j} . n_ij:
 * the same on a full symmetric neighbourhood, zero for a uniform flow where the neighbourhood is
 * one-sided (next to a free surface eq. 10 brakes a sliding slug; docs/notes/staggered-journal.md). Eq. 10 is
 * not zero for a particle moving through a neighbourhood that is not symmetric (any flow's
 * disorder), and that divergence does not shrink with h, so in a flow the p^v solve removes about
 * the same divergence every step and the force it exerts grows as 1/h; the relative form removes
 * that but lets water at rest swell and rise at its free surface (eq. 10 holds it there).
 * relative_inside (not He's) takes the relative form in rows without a surface neighbour and
 * eq. 10 in the others.
 *
 * divergence_filter alpha (not He's; default 0): the rows ask -((1 - alpha) div_i + alpha
 * <div>_i), <div>_i the Shepard mean sum_j W_ij div_j / sum_j W_ij over row i and its row
 * neighbours (W(0) for i). The remap (eq. 15-19) followed by eq. 8 cannot remove a particle-scale
 * divergence of the staggered velocities: the particles keep most of it, the next solve meets it
 * again and answers it with the same impulse every step. The mean is the part the remap acts on.
 * E and the stopping test are those of the filtered rows.
 *
 * unilateral (not He's; default off): rows p^v >= 0, an LCP for mprgp or pgs. The equality
 * system pulls with negative pressure wherever the predicted field would expand, next to the
 * free surface too; on vbc's coarse dam break that holds the column together (final front
 * Z = 2.25 against 4.16 for the MPS-LCP at t = 0.3 s under the staggered coupler), p^v >= 0
 * lets it go (Z = 4.06; docs/notes/staggered-journal.md).
 *
 * Written back: p_i = lambda_i / h (0 on the surface and on solids; under surface_pressure
 * interface the surface particles' extrapolations, staggered_surface.c) and the Shepard-smoothed
 * pressure sum_j W_ij p_j / sum_j W_ij over the fluid (self included). Solids enter as He's §6
 * has them (rho^s = rho0, N^s counted as for fluid; rigid particles move with their body's
 * velocity); the block itself never moves bodies.
 *
 * Two-way coupling (eq. 21, 28; `boundary_impulses`, used by couplers/staggered.c): each imposed
 * fluid-solid staggered particle gave fluid particle i the momentum m_i R_i(dv_{i-j}), R_i the
 * remap above (m_{i-} dv_{i-j} = (m_i/N_i) dv_{i-j} under the literal eq. 19); the solid particle
 * j takes the opposite, and the coupler sums these into its body's force and torque (eq. 21).
 * Eq. 28 writes the reaction as m_{i-j} (1/rho_{i-j}) G p_{i-j} with m_{i-j} outside the sum,
 * a slip (it depends on j); read inside, it is the reaction to eq. 17 with its last term kept
 * in a dimensionally consistent form (the fluid's share reaches the solid's condition, which
 * wall_share does), and then equals what the fluid received, which vbc uses (measured in
 * tests/test_staggered_body.c: fluid plus body momentum to round-off). Against eq. 19 without
 * that term it would be m_{i-j}/m_{i-} times what the fluid received (docs/staggered.md).
 *
 * body_load (not He's; default momentum, the above). That reaction is only the momentum the
 * solid's condition moved: a body at rest in water at rest takes nothing from it but the weight
 * of the layer below hanging on it, so a floating body sinks (docs/notes/staggered-journal.md). `pressure`
 * gives it instead the p^v of its fluid neighbours, d V_{i-j} h p_i / r_ij along n^s on each
 * fluid-solid staggered particle (staggered_remap.c): a held box takes 1.01-1.06 of Archimedes'
 * load at l = 0.01 (the test), but momentum is then no longer exchanged pair by pair; `both`
 * adds the two. Both act after the solve, which imposed the body's velocity after its gravity
 * kick on the fluid, and that drags the pressure field away from hydrostatic: a free box floats
 * 1.3 times too deep. `implicit` puts the bodies' velocities into the solve
 * (staggered_bodies.c): the box rests at its draft. */
#include <math.h>
#include <stdlib.h>

#include "core/parallel.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/pair_laplacian.h"
#include "solvers/blocks/staggered/staggered.h"

typedef vbc_staggered_state stag_state;

static const char *const slip_choices[] = {"free_slip", "no_slip", NULL};
static const char *const body_slip_choices[] = {"as_walls", "free_slip", "no_slip", NULL};
static const char *const remap_choices[] = {"normalised", "literal", NULL};
static const char *const divergence_choices[] = {"pair", "relative", "relative_inside", NULL};
static const char *const body_load_choices[] = {"momentum", "pressure", "both", "implicit", NULL};
static const char *const surface_pressure_choices[] = {"particles", "interface", NULL};
static const char *const error_measure_choices[] = {"divergence", "density", NULL};

static const vbc_param_spec stag_params[] = {
    {"surface_asymmetry", VBC_PARAM_NUMBER, -1.0, -1.0, 100.0, 0,
     "free surface (eq. 25): Asy_i > this times h = H/2, the kernel's smoothing length; negative "
     "(the default): He's 0.3 in 2D, 0.2 in 3D, where a still lattice's top layer has Asy = "
     "0.26 h (Wendland C2) and He's 0.3 finds no surface",
     NULL},
    {"surface_density", VBC_PARAM_NUMBER, 0.7, 0.0, 1.0, 0,
     "free surface: rho_i < this times rho0 (He: 0.7)", NULL},
    {"slip", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the solids' condition on their staggered particles: free_slip (eq. 27) or no_slip (eq. 26)",
     slip_choices},
    {"body_slip", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the condition on rigid bodies' staggered particles: as_walls (slip's), free_slip or no_slip "
     "(He's Fig. 12: free-slip outer walls, a no-slip cylinder)",
     body_slip_choices},
    {"no_sticking", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "impose the solid condition only on staggered particles approaching the solid (§5.2)", NULL},
    {"remap", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "particle velocity from the staggered changes: normalised ((sum n n^T)^-1 sum dv, exact for "
     "a linear pressure) or literal (eq. 19: (1/N) sum dv, 1/d of the pressure acceleration)",
     remap_choices},
    {"unilateral", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "p^v >= 0 (an LCP: the divergence may stay positive where p = 0; for mprgp or pgs) instead "
     "of He's equality system, which pulls with negative pressure where the fluid would expand",
     NULL},
    {"remap_floor", VBC_PARAM_NUMBER, 0.5, 0.0, 1.0, 1,
     "normalised remap: eigenvalues of (1/N) sum n n^T below this times 1/d are raised to it, "
     "so that a particle with few or nearly collinear neighbours (a splash) is not kicked",
     NULL},
    {"divergence", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "eq. 10: pair (sum of v_{i-j} . n_ij as printed), relative (of (v_{i-j} - v_i) . n_ij, "
     "zero for a uniform velocity next to a free surface too) or relative_inside (relative in "
     "rows without a free-surface neighbour, pair in the others: a moving particle in a "
     "disordered neighbourhood is no source, and the surface is still held)",
     divergence_choices},
    {"wall_share", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "fluid-solid pairs move the fluid particle's own share to the solid's condition (eq. 17 "
     "with its last term); false: the mixed staggered particle's change of eq. 26-27",
     NULL},
    {"body_load", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "what p^v gives free and pinned bodies: momentum (eq. 28: the opposite of what their "
     "staggered particles gave the fluid; no hydrostatic load), pressure (the p^v of their fluid "
     "neighbours across those staggered particles), both, or implicit (the bodies' velocities "
     "inside the solve: Batty et al. 2007's coupled projection; they take the pressure)",
     body_load_choices},
    {"surface_pressure", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "where p = 0: particles (He: on the eq. 25 surface particles) or interface (l/2 beyond them; "
     "they hold their row neighbours' pressure extrapolated to it, staggered_surface.c)",
     surface_pressure_choices},
    {"surface_fit_radius", VBC_PARAM_NUMBER, 2.5, 0.0, 10.0, 0,
     "surface_pressure interface: the interface's normal is that of the least-squares line "
     "(plane) through the surface particles within this radius, in units of l; 0: eq. 25's "
     "asymmetry direction (which tilts with every sideways step of the surface layer)",
     NULL},
    {"error_measure", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "the E (eq. 29) that the solver's error_tolerance bounds: divergence (h mean |eq. 10 "
     "residual|) or density (that divided by eq. 10's lattice factor c, the relative density "
     "change: He's E; c = 0.27-0.34 in 2D, 0.14-0.18 in 3D, staggered_error.c)",
     error_measure_choices},
    {"divergence_filter", VBC_PARAM_NUMBER, 0.0, 0.0, 1.0, 0,
     "alpha: the rows ask A lambda = -((1 - alpha) div_i + alpha <div>_i), <div>_i the Shepard "
     "mean (kernel W, support H) of eq. 10 over row i and its row neighbours; 0: eq. 13 as "
     "printed",
     NULL},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL}};

static void *stag_alloc(const cJSON *params, const vbc_system *sys, double *support,
                        vbc_error *err) {
  stag_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->k = sys->sph;
  s->lattice_sum = vbc_sph_lattice_sum(&s->k, sys->spacing, 1.0);
  s->asymmetry = vbc_param_number(params, stag_params, "surface_asymmetry");
  if (s->asymmetry < 0.0) s->asymmetry = sys->dim == 3 ? 0.2 : 0.3;
  s->rho_min = vbc_param_number(params, stag_params, "surface_density");
  s->no_slip = vbc_param_choice(params, stag_params, "slip") == 1;
  const int body_slip = vbc_param_choice(params, stag_params, "body_slip");
  s->body_no_slip = body_slip == 0 ? s->no_slip : body_slip == 2;
  s->no_sticking = vbc_param_bool(params, stag_params, "no_sticking");
  s->remap = (vbc_staggered_remap_form)vbc_param_choice(params, stag_params, "remap");
  s->wall_share = vbc_param_bool(params, stag_params, "wall_share");
  s->remap_floor = vbc_param_number(params, stag_params, "remap_floor");
  s->unilateral = vbc_param_bool(params, stag_params, "unilateral");
  s->relative_divergence = vbc_param_choice(params, stag_params, "divergence");
  s->body_load = (vbc_staggered_body_load)vbc_param_choice(params, stag_params, "body_load");
  if (vbc_param_choice(params, stag_params, "surface_pressure") == 1) {
    s->interface_depth = 0.5 * sys->spacing;
    s->fit_radius = vbc_param_number(params, stag_params, "surface_fit_radius") * sys->spacing;
  }
  s->lattice_factor = vbc_staggered_lattice_factor(&s->k, sys->dim, sys->spacing);
  s->error_density = vbc_param_choice(params, stag_params, "error_measure") == 1;
  s->filter = vbc_param_number(params, stag_params, "divergence_filter");
  if (s->body_load == VBC_LOAD_IMPLICIT)
    s->body_scale = vbc_staggered_body_scale(&s->k, sys->dim, sys->spacing);
  *support = fmax(s->k.H, s->fit_radius);
  return s;
}

static void stag_free(void *state) {
  stag_state *s = state;
  free(s->row_of), free(s->particle_of), free(s->surface), free(s->rho), free(s->count);
  free(s->normal), free(s->component), free(s->queue), free(s->inward);
  free(s->coef), free(s->grad), free(s->wall_dv), free(s->wall_dir), free(s->y);
  free(s->body_a), free(s->links), free(s->row_first), free(s->body_first);
  free(s);
}

static int ensure_capacity(stag_state *s, size_t np, size_t npairs, vbc_error *err) {
  void *const per_particle[] = {&s->row_of, &s->surface,   &s->rho,   &s->count,
                                &s->normal, &s->component, &s->queue, &s->inward};
  const size_t psize[] = {sizeof *s->row_of, sizeof *s->surface,   sizeof *s->rho,
                          sizeof *s->count,  sizeof *s->normal,    sizeof *s->component,
                          sizeof *s->queue,  sizeof *s->inward};
  void *const per_pair[] = {&s->coef, &s->grad, &s->wall_dv, &s->wall_dir, &s->body_a};
  const size_t qsize[] = {sizeof *s->coef, sizeof *s->grad, sizeof *s->wall_dv,
                          sizeof *s->wall_dir, sizeof *s->body_a};
  const size_t nper_pair = s->body_load == VBC_LOAD_IMPLICIT ? 5 : 4;
  if (vbc_grow(&s->cap_particles, np, per_particle, psize, 8, err) != VBC_OK ||
      vbc_grow(&s->cap_pairs, npairs, per_pair, qsize, nper_pair, err) != VBC_OK ||
      vbc_grow(&s->cap_rows, np, (void *[]){&s->particle_of, &s->y},
               (size_t[]){sizeof *s->particle_of, sizeof *s->y}, 2, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

/* The staggered particles of fluid particle i: per pair its coefficients (s->coef, s->grad for
 * fluid j; s->wall_dv, s->wall_dir for solid j), and the divergence div_i of eq. 10 with the
 * solids' conditions imposed. Returns div_i. */
static double staggered_pairs(stag_state *s, const vbc_system *sys, size_t i) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double H = s->k.H, m = sys->fluid_mass;
  const vbc_vec vi = p->vel[i];
  const double mi = m / s->count[i];
  int relative = s->relative_divergence == 1;
  if (s->relative_divergence == 2) { /* relative_inside: pair next to the free surface */
    relative = 1;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      if (s->surface[nb->index[q]] && vbc_staggered_pair(nb->dist[q], H)) relative = 0;
  }
  double div = 0.0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    const double d = nb->dist[q];
    s->coef[q] = s->grad[q] = 0.0;
    s->wall_dv[q] = s->wall_dir[q] = vbc_vec_zero();
    if (s->body_load == VBC_LOAD_IMPLICIT) s->body_a[q] = vbc_vec_zero();
    if (!vbc_staggered_pair(d, H)) continue;
    const double mj = m / s->count[j], mij = mi + mj;                /* eq. 7 */
    const double V = mi / s->rho[i] + mj / s->rho[j], rho = mij / V; /* eq. 9 */
    const vbc_vec n = vbc_vec_scale(vbc_vec_sub(p->pos[j], p->pos[i]), 1.0 / d);
    const double wp = fabs(vbc_sph_dW(&s->k, 0.5 * d));
    const vbc_vec uj = vbc_system_velocity(sys, j);
    vbc_vec v = vbc_vec_scale(vbc_vec_axpy(vbc_vec_scale(vi, mi), mj, uj), 1.0 / mij); /* eq. 8 */
    if (p->kind[j] == VBC_FLUID) {
      s->coef[q] = V / rho * wp / d;
      s->grad[q] = 1.0 / (rho * d);
    } else {
      vbc_vec ns = s->normal[j];
      if (vbc_vec_norm2(ns) == 0.0) ns = vbc_vec_scale(n, -1.0);
      const vbc_vec rel = vbc_vec_sub(v, uj);
      if (!s->no_sticking || vbc_vec_dot(rel, ns) < 0.0) {
        const vbc_vec own = vbc_vec_sub(vi, uj); /* the particle's share, relative */
        vbc_vec dv, dir;
        if (p->kind[j] == VBC_RIGID ? s->body_no_slip : s->no_slip) { /* eq. 26 */
          dv = vbc_vec_scale(s->wall_share ? own : rel, -1.0);
          const double len = vbc_vec_norm(dv);
          dir = len > 0.0 ? vbc_vec_scale(dv, 1.0 / len) : ns;
          v = uj;
        } else { /* eq. 27 */
          dv = vbc_vec_scale(ns, -vbc_vec_dot(s->wall_share ? own : rel, ns));
          dir = ns;
          v = vbc_vec_axpy(v, -vbc_vec_dot(rel, ns), ns);
        }
        s->wall_dv[q] = dv, s->wall_dir[q] = dir;
        if (s->body_load == VBC_LOAD_IMPLICIT && p->kind[j] == VBC_RIGID) /* d div_i / d u_j */
          s->body_a[q] = s->body_no_slip ? vbc_vec_scale(n, V * wp)
                                         : vbc_vec_scale(ns, V * wp * vbc_vec_dot(n, ns));
      }
    }
    div += V * wp * vbc_vec_dot(relative ? vbc_vec_sub(v, vi) : v, n); /* eq. 10 */
  }
  return div;
}

static int stag_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  stag_state *s = state;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  if (ensure_capacity(s, p->n, nb->npairs, err) != VBC_OK) return err->code;
  vbc_staggered_geometry(s, sys);
  size_t n = 0;
  for (size_t i = 0; i < p->n; ++i) {
    const int row = p->kind[i] == VBC_FLUID && !s->surface[i];
    s->row_of[i] = row ? (long)n : -1;
    if (row) s->particle_of[n++] = (uint32_t)i;
  }
  s->nrows = n;
  if (vbc_rows_resize(rows, n, err) != VBC_OK) return err->code;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) continue;
    const double div = staggered_pairs(s, sys, i);
    const long r = s->row_of[i];
    if (r < 0) continue;
    double diag = 0.0;
    if (s->interface_depth == 0.0)
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) diag += s->coef[q];
    else
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
        const size_t j = nb->index[q];
        const double share = s->surface[j] == 1 ? vbc_staggered_surface_share(s, sys, j, i) : 0.0;
        diag += s->coef[q] * (1.0 - share);
      }
    rows->diag[r] = diag;
    rows->target[r] = -div;
    rows->lo[r] = s->unilateral ? 0.0 : -INFINITY, rows->hi[r] = INFINITY;
    rows->impulse[r] = 0.0;
    s->y[r] = 0.0;
  }
  if (s->filter > 0.0) vbc_staggered_filter_targets(s, sys, rows);
  if (s->body_load == VBC_LOAD_IMPLICIT) return vbc_staggered_link_bodies(s, sys, rows, err);
  return VBC_OK;
}

/* The operator's view of the state (pair_laplacian.h). */
static vbc_pair_laplacian laplacian(const stag_state *s) {
  return (vbc_pair_laplacian){s->row_of, s->particle_of, s->coef, s->y};
}

static void stag_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                          double *res) {
  (void)sys;
  const vbc_pair_laplacian L = laplacian(state);
  vbc_pair_residual(&L, rows, res);
}

static void stag_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const stag_state *s = state;
  const vbc_pair_laplacian L = laplacian(s);
  vbc_pair_apply(&L, sys->nbrs, rows, d);
  if (s->body_load == VBC_LOAD_IMPLICIT) vbc_staggered_bodies_apply(s, sys->nbodies, d);
}

/* Gauss–Seidel in row order (serial). */
static void stag_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                       vbc_sweep_order order) {
  const stag_state *s = state;
  const vbc_pair_laplacian L = laplacian(s);
  if (s->body_load != VBC_LOAD_IMPLICIT) {
    vbc_pair_sweep(&L, sys->nbrs, rows, omega, order);
    return;
  }
  for (size_t k = 0; k < rows->n; ++k) {
    const size_t r = order == VBC_SWEEP_BACKWARD ? rows->n - 1 - k : k;
    const double d = vbc_pair_sweep_row(&L, sys->nbrs, rows, r, omega);
    if (d != 0.0) vbc_staggered_bodies_row_changed(s, r, d);
  }
}

static int stag_assemble(const void *state, const vbc_system *sys, const vbc_rows *rows,
                         vbc_sparse *A, vbc_error *err) {
  const stag_state *s = state;
  if (s->body_load == VBC_LOAD_IMPLICIT)
    return vbc_staggered_bodies_assemble(s, sys->nbrs, rows, A, err);
  const vbc_pair_laplacian L = laplacian(s);
  return vbc_pair_assemble(&L, sys->nbrs, rows, A, err);
}

/* surface_pressure interface: each eq. 25 surface particle takes the c-weighted mean of its row
 * neighbours' pressures extrapolated to it (staggered_surface.c); rows' pressures are written. */
static void surface_pressures(const stag_state *s, vbc_system *sys) {
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const size_t nf = vbc_fluid_count(sys); /* surface particles are fluid */
#pragma omp parallel for schedule(guided, 4) if (nf >= VBC_PARALLEL_MIN)
  for (size_t f = 0; f < nf; ++f) {
    const size_t i = vbc_fluid_at(sys, f);
    if (s->surface[i] != 1) continue;
    double num = 0.0, den = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      if (s->coef[q] == 0.0 || s->row_of[j] < 0) continue;
      num += s->coef[q] * vbc_staggered_surface_share(s, sys, i, j) * p->pressure[j];
      den += s->coef[q];
    }
    p->pressure[i] = den > 0.0 ? num / den : 0.0;
  }
}

static void stag_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  if (((stag_state *)state)->body_load == VBC_LOAD_IMPLICIT)
    vbc_staggered_bodies_finish(state, sys, rows);
  const stag_state *s = state;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
#pragma omp parallel for schedule(static) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < p->n; ++i)
    p->pressure[i] = s->row_of[i] >= 0 ? rows->impulse[s->row_of[i]] / sys->dt : 0.0;
  if (s->interface_depth > 0.0) surface_pressures(s, sys);
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i)
    if (p->kind[i] == VBC_FLUID) p->vel[i] = vbc_vec_add(p->vel[i], vbc_staggered_remap(s, sys, i));
  const double w0 = vbc_sph_W(&s->k, 0.0);
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) {
      p->pressure_smoothed[i] = 0.0;
      continue;
    }
    double num = w0 * p->pressure[i], den = w0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      if (p->kind[j] != VBC_FLUID) continue;
      const double w = vbc_sph_W(&s->k, nb->dist[q]);
      num += w * p->pressure[j], den += w;
    }
    p->pressure_smoothed[i] = num / den;
  }
}

static void stag_boundary_impulses(const void *state, const vbc_system *sys,
                                   const vbc_rows *rows, vbc_vec *impulse) {
  const stag_state *s = state;
  if (s->body_load == VBC_LOAD_IMPLICIT) {
    vbc_staggered_bodies_impulses(s, sys, rows, impulse);
    return;
  }
  if (s->body_load != VBC_LOAD_PRESSURE) vbc_staggered_solid_impulses(s, sys, impulse);
  if (s->body_load != VBC_LOAD_MOMENTUM) vbc_staggered_pressure_impulses(s, sys, rows, impulse);
}

/* h r_i: eq. 10's divergence left in row i times h, or that over the lattice factor c, the
 * relative density change (eq. 29; error_measure, staggered_error.c). */
static double stag_error_scale(const void *state, const vbc_system *sys) {
  const stag_state *s = state;
  return s->error_density ? sys->dt / s->lattice_factor : sys->dt;
}

double vbc_staggered_block_factor(const vbc_block *b, int *density) {
  const stag_state *s = b->state;
  *density = s->error_density;
  return s->lattice_factor;
}

static unsigned stag_traits(const void *state) {
  return (((const stag_state *)state)->unilateral ? 0u : VBC_ROWS_BILATERAL) |
         VBC_ROWS_BODY_REACTION;
}

int vbc_staggered_is_surface(const vbc_block *b, size_t particle) {
  const stag_state *s = b->state;
  return s->surface[particle] != 0;
}

const vbc_block_type vbc_block_staggered = {
    .name = "staggered",
    .kind = VBC_BLOCK_FLUID,
    .summary = "staggered SPH velocity constraint p^v: staggered particles at neighbour "
               "midpoints, free/no-slip solids, p = 0 on the detected free surface (He et al. "
               "2012, eq. 7-19, 25-27)",
    .params = stag_params,
    .alloc = stag_alloc,
    .free = stag_free,
    .prepare = stag_prepare,
    .residual = stag_residual,
    .apply = stag_apply,
    .sweep = stag_sweep,
    .assemble = stag_assemble,
    .finish = stag_finish,
    .error_scale = stag_error_scale,
    .traits = stag_traits,
    .boundary_impulses = stag_boundary_impulses,
};
