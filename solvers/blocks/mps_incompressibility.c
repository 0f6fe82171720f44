/* mps_incompressibility.c — the MPS-LCP incompressibility block (Miyamoto & Koshizuka §2).
 *
 * One row per fluid particle i. With v_ij = w'(r_ij) e_ij (eq. 20, e_ij = (r_j - r_i)/r_ij) the
 * paper's constraint (eq. 15) reads sum_j v_ij . (u_j - u_i) = (alpha/h)(n^0 - n_i). vbc writes
 * every row as J_k v >= b_k with a non-negative impulse that pushes the row towards satisfaction,
 * so this row is the paper's with the sign flipped:
 *     J_i u = sum_j v_ij . (u_i - u_j)   (= -dn_i/dt, eq. 13),   b_i = (alpha/h)(n_i - n^0),
 * and the impulse lambda_i relates to the pressure by lambda_i = -h C l^d p_i (C < 0, eq. 6), so
 * that v += M^-1 J_i^T d_lambda with fluid mass rho l^d is exactly eq. 40-41. The diagonal
 * A_ii = J_i M^-1 J_i^T = (1/m_i)|sum_j v_ij|^2 + sum_j (1/m_j)|v_ij|^2 is eq. 28 up to that
 * scaling; the paper's sum runs over all neighbours, here neighbours of infinite mass (walls)
 * contribute nothing, which is the exact diagonal of the operator PGS actually iterates on.
 * The PGS update (eq. 36-39) is then lambda' = max(0, lambda + (b_i - J_i u)/A_ii).
 *
 * Choices the paper leaves open:
 *   - n_i counts all particles (fluid, wall and rigid), as §4.1 prescribes for rigid particles.
 *   - Rigid particles enter the divergence term with their body's velocity v + w x r: a moving
 *     body compresses or expands the fluid next to it like a moving wall. Whether the rows'
 *     impulses also act on the bodies is the option rigid_pressure (§4 leaves it open: there the
 *     fluid and the bodies exchange momentum through the contact rows of §4.2 only):
 *       true (default)  the impulses act on the bodies too: J over the bodies' generalized
 *                       velocities, A_ii includes the bodies' effective inverse mass, momentum
 *                       goes between fluid and bodies through the pressure as well as the
 *                       contacts, and it is conserved;
 *       false           bodies are infinite masses for this block (moving walls); only the
 *                       contact rows move them.
 *     docs/coupling.md compares the two. bodies = "ignored" (default "walls") takes rigid
 *     particles out of the block altogether: no rows, no term in n_i or J_i, no impulse, as in
 *     Kurose & Takahashi §4, whose fluid meets the bodies through the contacts only.
 *   - wall_pressure (default on): wall and rigid particles with a fluid neighbour get rows too,
 *     i.e. a pressure unknown, as in standard MPS wall treatment; their impulses move the fluid
 *     (and, with rigid_pressure, their own body).
 *     Without them the gradient model (eq. 7) sees p = 0 on walls and loses the vertical pressure
 *     gradient along side walls: the wall-side column slides down (0.27 m/s after 0.04 s in the
 *     hydrostatic tank), a divergence-free shear no row resists. Dummy layers far from the fluid
 *     are under-dense and get p = 0 from the complementarity by themselves.
 *   - The pressure starts from zero every step (§2.5) unless warm_start is set.
 *   - n0_scale (default 1, not the paper's) holds the fluid rows at n0_scale n^0: at
 *     r_e/l = 2.1 a packing denser than the lattice has n^0 too, and the water settles 1.5 %
 *     denser than rho; a scale fitted on a tank without bodies brings it back (walls and bodies,
 *     also pms's as fluid, keep n^0: their lattices cannot thin out).
 *   - Smoothed pressure (eq. 42-43) averages over the particles that have rows (fluid, and walls
 *     with wall_pressure) and the particle itself; walls without rows carry no pressure and are
 *     left out so they do not pull p~ towards 0.
 *   - Rows are swept strip by strip in two colours (core/grid.h), which lets one colour run in
 *     parallel and keeps results identical for any number of threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jacobi_bound.h"
#include "core/kernel.h"
#include "core/lattice.h"
#include "core/number_density.h"
#include "core/parallel.h"
#include "solvers/blocks/blocks.h"

typedef struct plane_vec {
  double x, y;
} plane_vec;

typedef struct mps_state {
  double alpha;
  int warm_start, wall_pressure, rigid_pressure;
  int ignore_bodies; /* bodies = "ignored": rigid particles are not in the block */
  double *n_seen;    /* ignore_bodies: n_i over fluid and wall neighbours (core/number_density.h) */
  int equality;        /* the Poisson equation instead of the LCP (blocks.h) */
  double surface_beta; /* free surface: n_i < beta n0 (Koshizuka & Oka 1996) */
  double n0_fluid; /* the fluid rows' n0: n0 times n0_scale (walls and bodies, pms's too, keep n0) */
  vbc_mps_constants k;
  double scale;            /* lambda = scale * p, scale = -h C l^d */
  size_t nrows;
  size_t cap_particles, cap_pairs, cap_rows;
  long *row_of;            /* per particle: its row or -1 */
  uint32_t *particle_of;   /* per row */
  vbc_vec *pair_v;         /* v_ij, aligned with sys->nbrs->index, filled for row particles */
  plane_vec *pair_xy;      /* in 2D: v_ij's x and y, the same, 16 bytes a pair for the sweeps */
  vbc_vec *sum_v;          /* per row: sum_j v_ij */
  vbc_colouring colouring; /* rows that move no body, swept in parallel */
  long *colour_row_of;     /* per particle: its row if that row moves no body, else -1 */
  unsigned char *moves_body; /* per row: MOVES_BODY, SEES_RIGID */
  uint32_t *body_rows;     /* rows whose impulse moves a body: swept serially, in order */
  size_t nbody_rows;
} mps_state;

enum { MOVES_BODY = 1, SEES_RIGID = 2 }; /* the row's impulse moves a body; it or a neighbour is
                                           rigid (its velocity is its body's) */

static const char *const bodies_choices[] = {"walls", "ignored", NULL};

static const vbc_param_spec mps_params[] = {
    {"alpha", VBC_PARAM_NUMBER, 0.05, 0.0, 1.0, 0,
     "mixing of the position error into the velocity constraint, eq. 15 (paper: 0.05)"},
    {"warm_start", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "start each solve from the previous step's pressure instead of zero (§2.5 uses zero)"},
    {"wall_pressure", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "wall and rigid particles next to fluid get incompressibility rows (a pressure) too"},
    {"rigid_pressure", VBC_PARAM_BOOL, 1.0, 0.0, 1.0, 0,
     "the rows' impulses act on rigid bodies (false: bodies are moving walls for this block)"},
    {"bodies", VBC_PARAM_CHOICE, 0, 0, 0, 0,
     "walls: rigid particles count in n_i and J_i (and get rows with wall_pressure); ignored: "
     "the block leaves them out, the contacts alone couple (Kurose & Takahashi §4)",
     bodies_choices},
    {"equality", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "the same rows as an equality system: p = 0 on the free surface, either sign elsewhere, "
     "instead of the LCP p >= 0 (an ablation: J M^-1 J^T keeps near-null pressure modes that "
     "the bound p >= 0 holds down; docs/krylov.md)"},
    {"surface_beta", VBC_PARAM_NUMBER, 0.97, 0.0, 1.0, 0,
     "equality form: a particle (fluid or wall) with n_i < surface_beta n0 is free surface "
     "(p = 0), as in Koshizuka & Oka 1996"},
    {"n0_scale", VBC_PARAM_NUMBER, 1.0, 0.5, 1.5, 0,
     "the rows hold n_i at this times n0 (1: eq. 4's lattice sum; not the paper's): a rest "
     "density calibrated on a tank without bodies (docs/benchmarks.md)"},
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *mps_alloc(const cJSON *params, const vbc_system *sys, double *support,
                       vbc_error *err) {
  mps_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->alpha = vbc_param_number(params, mps_params, "alpha");
  s->warm_start = vbc_param_bool(params, mps_params, "warm_start");
  s->wall_pressure = vbc_param_bool(params, mps_params, "wall_pressure");
  s->ignore_bodies = vbc_param_choice(params, mps_params, "bodies") == 1;
  s->rigid_pressure = vbc_param_bool(params, mps_params, "rigid_pressure") && !s->ignore_bodies;
  s->equality = vbc_param_bool(params, mps_params, "equality");
  s->surface_beta = vbc_param_number(params, mps_params, "surface_beta");
  s->k = vbc_mps_lattice_constants(sys->dim, sys->spacing, sys->re);
  s->n0_fluid = s->k.n0 * vbc_param_number(params, mps_params, "n0_scale");
  *support = sys->re;
  return s;
}

static void mps_free(void *state) {
  mps_state *s = state;
  free(s->row_of);
  free(s->particle_of);
  free(s->pair_v);
  free(s->pair_xy);
  free(s->sum_v);
  free(s->colour_row_of);
  free(s->n_seen);
  free(s->moves_body);
  free(s->body_rows);
  vbc_colouring_free(&s->colouring);
  free(s);
}

static int ensure_capacity(mps_state *s, size_t np, size_t npairs, size_t nrows,
                           vbc_error *err) {
  void *const per_particle[] = {&s->row_of, &s->colour_row_of, &s->n_seen};
  const size_t particle_sizes[] = {sizeof *s->row_of, sizeof *s->colour_row_of, sizeof *s->n_seen};
  void *const per_row[] = {&s->particle_of, &s->sum_v, &s->moves_body, &s->body_rows};
  const size_t row_sizes[] = {sizeof *s->particle_of, sizeof *s->sum_v, sizeof *s->moves_body,
                              sizeof *s->body_rows};
  if (vbc_grow(&s->cap_particles, np, per_particle, particle_sizes, 3, err) != VBC_OK ||
      vbc_grow(&s->cap_pairs, npairs, (void *[]){&s->pair_v, &s->pair_xy},
               (size_t[]){sizeof *s->pair_v, sizeof *s->pair_xy}, 2, err) != VBC_OK ||
      vbc_grow(&s->cap_rows, nrows, per_row, row_sizes, 4, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

/* Rows: every fluid particle, and with wall_pressure every wall or rigid particle with a fluid
 * neighbour (the others could only ever have zero pressure). */
static size_t choose_rows(mps_state *s, const vbc_system *sys) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  size_t k = 0;
  for (size_t i = 0; i < p->n; ++i) {
    int row = p->kind[i] == VBC_FLUID;
    if (!row && s->wall_pressure && !(s->ignore_bodies && p->kind[i] == VBC_RIGID))
      for (size_t q = nb->start[i]; q < nb->start[i + 1] && !row; ++q)
        row = p->kind[nb->index[q]] == VBC_FLUID;
    s->row_of[i] = row ? (long)k++ : -1;
  }
  return k;
}

/* The body a row's impulse moves through particle j, or NULL (fluid, walls, and every body when
 * rigid_pressure is off or the body cannot move). */
static inline vbc_body *pushed_body(const mps_state *s, const vbc_system *sys, size_t j) {
  vbc_body *b = s->rigid_pressure ? vbc_system_body_of(sys, j) : NULL;
  return b && b->inv_mass > 0.0 ? b : NULL;
}

/* J_i restricted to the bodies: per body B, lin . v_B + ang . w_B, where particle j of B with
 * coefficient c_j (sum_v for the row's own particle, -v_ij for a neighbour) adds lin += c_j and
 * ang += r_j x c_j. body_diag returns the bodies' part of A_ii = sum_B lin^2 / m_B + ang . I_B^-1
 * ang. A row sees a handful of bodies; past MAX_ROW_BODIES the rest are summed one particle at a
 * time (an upper bound of the exact diagonal, which only slows PGS down). */
#define MAX_ROW_BODIES 16
typedef struct row_bodies {
  const vbc_body *body[MAX_ROW_BODIES];
  vbc_vec lin[MAX_ROW_BODIES], ang[MAX_ROW_BODIES];
  int n;
  double overflow; /* the diagonal of the terms that found no slot */
} row_bodies;

/* lin^2 / m + ang . I^-1 ang: the inverse mass body b shows a row with those coefficients */
static inline double inv_mass_form(const vbc_body *b, vbc_vec lin, vbc_vec ang) {
  return b->inv_mass * vbc_vec_norm2(vbc_body_unlocked(b, lin)) +
         vbc_vec_dot(ang, vbc_mat3_mul(&b->inv_inertia, ang));
}

static void add_body_term(row_bodies *rb, const vbc_body *b, vbc_vec x, vbc_vec c) {
  vbc_vec rc = vbc_vec_cross(vbc_vec_sub(x, b->x), c);
  int k = 0;
  while (k < rb->n && rb->body[k] != b) ++k;
  if (k == MAX_ROW_BODIES) {
    rb->overflow += inv_mass_form(b, c, rc);
    return;
  }
  if (k == rb->n) rb->body[k] = b, rb->lin[k] = rb->ang[k] = vbc_vec_zero(), ++rb->n;
  rb->lin[k] = vbc_vec_add(rb->lin[k], c);
  rb->ang[k] = vbc_vec_add(rb->ang[k], rc);
}

static double body_diag(const mps_state *s, const vbc_system *sys, size_t i, vbc_vec sum) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  row_bodies rb = {.n = 0, .overflow = 0.0};
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const vbc_body *b = pushed_body(s, sys, nb->index[q]);
    if (b) add_body_term(&rb, b, p->pos[nb->index[q]], vbc_vec_scale(s->pair_v[q], -1.0));
  }
  const vbc_body *own = pushed_body(s, sys, i);
  if (own) add_body_term(&rb, own, p->pos[i], sum);
  double extra = rb.overflow;
  for (int k = 0; k < rb.n; ++k) extra += inv_mass_form(rb.body[k], rb.lin[k], rb.ang[k]);
  return extra;
}

/* Rows that move a body are swept serially (they share the body's velocity); the others are
 * coloured for the parallel sweep. */
static int split_rows(mps_state *s, const vbc_system *sys, vbc_error *err) {
  const vbc_particles *p = sys->particles;
  s->nbody_rows = 0;
  for (size_t i = 0; i < p->n; ++i) {
    long r = s->row_of[i];
    s->colour_row_of[i] = r >= 0 && !(s->moves_body[r] & MOVES_BODY) ? r : -1;
    if (r >= 0 && (s->moves_body[r] & MOVES_BODY)) s->body_rows[s->nbody_rows++] = (uint32_t)r;
  }
  return vbc_colouring_build(&s->colouring, sys->grid, s->colour_row_of, err);
}

static int mps_prepare(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err) {
  mps_state *s = state;
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  if (ensure_capacity(s, p->n, nb->npairs, p->n, err) != VBC_OK) return err->code;
  size_t nrows = choose_rows(s, sys);
  s->nrows = nrows;
  if (vbc_rows_resize(rows, nrows, err) != VBC_OK) return err->code;
  for (size_t i = 0; i < p->n; ++i)
    if (s->row_of[i] >= 0) s->particle_of[s->row_of[i]] = (uint32_t)i;
  vbc_number_density(sys); /* every particle's, for the outputs; the rows' own without bodies: */
  if (s->ignore_bodies)
    vbc_number_density_of(sys, VBC_KINDS(VBC_FLUID) | VBC_KINDS(VBC_WALL), s->n_seen);
  s->scale = -sys->dt * s->k.C * pow(sys->spacing, sys->dim);
#pragma omp parallel for schedule(guided, 4) if (nrows >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < nrows; ++r) {
    size_t i = s->particle_of[r];
    vbc_vec sum = vbc_vec_zero();
    double diag_j = 0.0, n_i = s->ignore_bodies ? s->n_seen[i] : p->number_density[i];
    int moves = pushed_body(s, sys, i) != NULL, sees = p->kind[i] == VBC_RIGID;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t j = nb->index[q];
      double d = nb->dist[q];
      const int skip = s->ignore_bodies && p->kind[j] == VBC_RIGID;
      vbc_vec v = d > 0.0 && !skip ? vbc_vec_scale(vbc_vec_sub(p->pos[j], p->pos[i]),
                                          vbc_mps_dw(d, sys->re) / d)
                          : vbc_vec_zero();
      s->pair_v[q] = v;
      s->pair_xy[q] = (plane_vec){v.x, v.y};
      sum = vbc_vec_add(sum, v);
      diag_j += vbc_system_inv_mass(sys, j) * vbc_vec_norm2(v);
      moves |= pushed_body(s, sys, j) != NULL;
      sees |= p->kind[j] == VBC_RIGID;
    }
    s->sum_v[r] = sum;
    s->moves_body[r] = (unsigned char)((moves ? MOVES_BODY : 0) | (sees ? SEES_RIGID : 0));
    rows->diag[r] = vbc_system_inv_mass(sys, i) * vbc_vec_norm2(sum) + diag_j +
                    (moves ? body_diag(s, sys, i, sum) : 0.0);
    const double n0 = p->kind[i] == VBC_FLUID && p->body[i] < 0 ? s->n0_fluid : s->k.n0;
    rows->target[r] = s->alpha / sys->dt * (n_i - n0);
    vbc_pressure_row_bounds(rows, r, s->equality, n_i < s->surface_beta * s->k.n0);
    rows->impulse[r] = s->warm_start ? s->scale * p->pressure[i] : 0.0;
  }
  return split_rows(s, sys, err);
}

/* J_i u = sum_j v_ij . (u_i - u_j), rigid particles at their body's velocity (a row that sees
 * none reads the stored velocities directly: the same numbers, without a test per pair). In the
 * plane (2D) every position has z = 0, so v_ij.z is a zero and so is its product with
 * (u_i - u_j).z; the dot product's last addition (x y terms + that zero) then changes nothing
 * but, at most, the sign of a zero, and the sum, which starts at +0 and so is never -0, takes
 * either zero alike: `plane` leaves the z term out with the same bits, a third fewer loads and
 * operations per pair. */
static inline double row_velocity_in(const mps_state *s, const vbc_system *sys, size_t r,
                                     int plane) {
  const vbc_neighbors *nb = sys->nbrs;
  size_t i = s->particle_of[r];
  const vbc_vec *vel = sys->particles->vel;
  const int rigid = s->moves_body[r] & SEES_RIGID;
  vbc_vec ui = rigid ? vbc_system_velocity(sys, i) : vel[i];
  double jv = 0.0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    const vbc_vec du = vbc_vec_sub(ui, rigid ? vbc_system_velocity(sys, j) : vel[j]);
    if (plane) {
      const plane_vec v = s->pair_xy[q];
      jv += v.x * du.x + v.y * du.y;
    } else {
      jv += vbc_vec_dot(s->pair_v[q], du);
    }
  }
  return jv;
}

static inline double row_velocity(const mps_state *s, const vbc_system *sys, size_t r) {
  return sys->dim == 2 ? row_velocity_in(s, sys, r, 1) : row_velocity_in(s, sys, r, 0);
}

static void mps_residual(const void *state, const vbc_system *sys, const vbc_rows *rows,
                         double *res) {
  const mps_state *s = state;
  const int plane = sys->dim == 2;
#pragma omp parallel for schedule(guided, 4) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < rows->n; ++r)
    res[r] = rows->target[r] - (plane ? row_velocity_in(s, sys, r, 1)
                                      : row_velocity_in(s, sys, r, 0));
}

/* The impulse change d of row r on the bodies it moves (fluid particles are done elsewhere). */
static void push_bodies(const mps_state *s, vbc_system *sys, size_t r, double d) {
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_vec *pos = sys->particles->pos;
  size_t i = s->particle_of[r];
  vbc_body *b = pushed_body(s, sys, i);
  if (b) vbc_body_push(b, pos[i], vbc_vec_scale(s->sum_v[r], d));
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
    if ((b = pushed_body(s, sys, nb->index[q])) != NULL)
      vbc_body_push(b, pos[nb->index[q]], vbc_vec_scale(s->pair_v[q], -d));
}

/* v += M^-1 J^T d: gathered per fluid particle so that the pass is parallel and deterministic.
 * Particle i receives (1/m_i) sum_j (d_i + d_j) v_ij: its own row pushes it along sum_j v_ij and
 * the row of each neighbour j pushes it along -v_ji = v_ij. Bodies then get theirs serially. */
static void mps_apply(void *state, vbc_system *sys, const vbc_rows *rows, const double *d) {
  const mps_state *s = state;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
#pragma omp parallel for schedule(guided, 4) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < rows->n; ++r) {
    size_t i = s->particle_of[r];
    double inv_m = vbc_system_inv_mass(sys, i);
    if (inv_m == 0.0) continue;
    vbc_vec dv = vbc_vec_zero();
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      long rj = s->row_of[nb->index[q]];
      double dj = rj >= 0 ? d[rj] : 0.0;
      dv = vbc_vec_axpy(dv, d[r] + dj, s->pair_v[q]);
    }
    p->vel[i] = vbc_vec_axpy(p->vel[i], inv_m, dv);
  }
  for (size_t k = 0; k < s->nbody_rows; ++k)
    if (d[s->body_rows[k]] != 0.0) push_bodies(s, sys, s->body_rows[k], d[s->body_rows[k]]);
}

/* Eq. 36-41 for one row. A fluid particle's 1/m is vbc_system_inv_mass's (the override, else
 * 1 / fluid_mass), taken once per row rather than per neighbour: the velocity stores in the loop
 * could alias the system's fields, so the compiler would otherwise divide again for every pair. */
static inline void sweep_row(const mps_state *s, vbc_system *sys, vbc_rows *rows, size_t r,
                             double omega) {
  if (rows->diag[r] <= 0.0) return;
  const double jv = row_velocity(s, sys, r);
  rows->residual[r] = rows->target[r] - jv; /* the delta of eq. 36, for vbc_solve's estimate */
  const double d = vbc_pgs_row(rows, r, jv, omega);
  if (d == 0.0) return;
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double *override = sys->inv_mass_override;
  const double inv_fluid = 1.0 / sys->fluid_mass;
  const double push_fluid = -d * inv_fluid; /* -d / m_j of a fluid neighbour without override */
  size_t i = s->particle_of[r];
  if (p->kind[i] == VBC_FLUID)
    p->vel[i] = vbc_vec_axpy(p->vel[i], d * (override ? override[i] : inv_fluid), s->sum_v[r]);
  if (sys->dim == 2) { /* z + c * 0 leaves every z at zero (only a zero's sign could differ) */
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t j = nb->index[q];
      if (p->kind[j] != VBC_FLUID) continue;
      const double c = override ? -d * override[j] : push_fluid;
      p->vel[j].x += c * s->pair_xy[q].x;
      p->vel[j].y += c * s->pair_xy[q].y;
    }
  } else {
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t j = nb->index[q];
      if (p->kind[j] == VBC_FLUID)
        p->vel[j] =
            vbc_vec_axpy(p->vel[j], override ? -d * override[j] : push_fluid, s->pair_v[q]);
    }
  }
  if (s->moves_body[r] & MOVES_BODY) push_bodies(s, sys, r, d);
}

/* The strips of one colour, forward or in reverse (strips and the rows within each). */
static void sweep_colour(const mps_state *s, vbc_system *sys, vbc_rows *rows, double omega,
                         int col, int backward) {
  const vbc_colouring *c = &s->colouring;
  const size_t first = c->colour_start[col], count = c->colour_start[col + 1] - first;
#pragma omp for schedule(dynamic, 1)
  for (size_t k = 0; k < count; ++k) {
    const size_t g = backward ? first + count - 1 - k : first + k;
    const size_t lo = c->group_start[g], n = c->group_start[g + 1] - lo;
    for (size_t q = 0; q < n; ++q)
      sweep_row(s, sys, rows, c->rows[backward ? lo + n - 1 - q : lo + q], omega);
  }
}

/* One team for the whole sweep: the colours run one after the other (the barrier at the end
 * of each `omp for` separates them), the strips of one colour in parallel; the rows that move
 * bodies are swept serially, after the colours (forward) or before them (backward), so that a
 * backward sweep visits every row in the reverse of the forward order. */
static void mps_sweep(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                      vbc_sweep_order order) {
  const mps_state *s = state;
  const vbc_colouring *c = &s->colouring;
  const int backward = order == VBC_SWEEP_BACKWARD;
  rows->swept_residual = 1;
  if (backward)
    for (size_t k = s->nbody_rows; k-- > 0;) sweep_row(s, sys, rows, s->body_rows[k], omega);
#pragma omp parallel if (c->nrows >= VBC_PARALLEL_MIN / 2)
  for (int k = 0; k < c->ncolours; ++k)
    sweep_colour(s, sys, rows, omega, backward ? c->ncolours - 1 - k : k, backward);
  if (!backward)
    for (size_t k = 0; k < s->nbody_rows; ++k) sweep_row(s, sys, rows, s->body_rows[k], omega);
}

/* Columns of particle j with coefficient c: a fluid particle's own DOFs, or the DOFs of the body
 * it moves (c and r_j x c; a row may then name one body column several times: entries add). */
static size_t put_particle(const mps_state *s, const vbc_system *sys, size_t j, vbc_vec c,
                           vbc_sparse *J, size_t e) {
  const int dim = sys->dim;
  const vbc_body *b = pushed_body(s, sys, j);
  if (sys->particles->kind[j] != VBC_FLUID && b == NULL) return e;
  size_t base = b ? vbc_system_body_dof(sys, (size_t)sys->particles->body[j]) : (size_t)dim * j;
  for (int a = 0; a < dim; ++a, ++e) {
    J->col[e] = base + (size_t)a;
    J->val[e] = vbc_vec_get(c, a);
  }
  if (b == NULL) return e;
  vbc_vec rc = vbc_vec_cross(vbc_vec_sub(sys->particles->pos[j], b->x), c);
  for (size_t a = 0; a < vbc_system_nrot(sys); ++a, ++e) {
    J->col[e] = base + (size_t)dim + a;
    J->val[e] = dim == 2 ? rc.z : vbc_vec_get(rc, (int)a);
  }
  return e;
}

static int mps_jacobian(const void *state, const vbc_system *sys, vbc_sparse *J,
                        vbc_error *err) {
  const mps_state *s = state;
  const vbc_neighbors *nb = sys->nbrs;
  const size_t per = (size_t)sys->dim + vbc_system_nrot(sys);
  size_t nrows = s->nrows;
  size_t nnz = 0;
  for (size_t r = 0; r < nrows; ++r) {
    size_t i = s->particle_of[r];
    nnz += per * (1 + nb->start[i + 1] - nb->start[i]);
  }
  if (vbc_sparse_reserve(J, nrows, nnz, err) != VBC_OK) return err->code;
  J->nrows = nrows;
  J->ndofs = vbc_system_ndofs(sys);
  size_t e = 0;
  for (size_t r = 0; r < nrows; ++r) {
    size_t i = s->particle_of[r];
    J->start[r] = e;
    e = put_particle(s, sys, i, s->sum_v[r], J, e);
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      e = put_particle(s, sys, nb->index[q], vbc_vec_scale(s->pair_v[q], -1.0), J, e);
  }
  J->start[nrows] = e;
  J->nnz = e;
  return VBC_OK;
}

/* Pressure from impulse, then the smoothed pressure of eq. 42-43. */
static void mps_finish(void *state, vbc_system *sys, const vbc_rows *rows) {
  const mps_state *s = state;
  vbc_particles *p = sys->particles;
#pragma omp parallel for schedule(static) if (p->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < p->n; ++i) {
    long r = s->row_of[i];
    p->pressure[i] = r >= 0 ? rows->impulse[r] / s->scale : 0.0;
  }
  vbc_mps_smooth_pressure(sys, s->row_of);
}

/* Eq. 42-43 over the particles with rows (blocks.h). */
void vbc_mps_smooth_pressure(vbc_system *sys, const long *row_of) {
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double w0 = vbc_smooth_w(0.0, sys->re);
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (row_of[i] < 0) {
      p->pressure_smoothed[i] = 0.0;
      continue;
    }
    double num = w0 * p->pressure[i], den = w0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      size_t j = nb->index[q];
      if (row_of[j] < 0) continue;
      double w = vbc_smooth_w(nb->dist[q], sys->re);
      num += w * p->pressure[j];
      den += w;
    }
    p->pressure_smoothed[i] = num / den;
  }
}

/* r_i = (alpha/h)(n_i - n0) + dn_i/dt; h r_i / n0 is the fractional compression the row still
 * predicts for the end of the step (with the alpha-weighted position error). */
static double mps_error_scale(const void *state, const vbc_system *sys) {
  const mps_state *s = state;
  return sys->dt / s->k.n0;
}

static unsigned mps_traits(const void *state) {
  const mps_state *s = state;
  return (s->equality ? VBC_ROWS_BILATERAL : 0u) | VBC_ROWS_WEAK_MASSES |
         (s->rigid_pressure ? VBC_ROWS_PUSH_BODIES : 0u);
}

static double mps_grad(double r, const void *re) { return vbc_mps_dw(r, *(const double *)re); }

/* The rows' lambda_max(D^-1 A) on the interior lattice, with the scene's r_e. */
static double mps_lattice_lambda_max(const cJSON *params, const vbc_system *sys) {
  (void)params;
  return vbc_jacobi_lattice_lambda_max(sys->dim, sys->spacing, sys->re, mps_grad, &sys->re, 0);
}

const vbc_block_type vbc_block_mps = {
    .name = "mps",
    .kind = VBC_BLOCK_FLUID,
    .summary = "MPS-LCP incompressibility, one row per fluid (and wall) particle (Miyamoto & "
               "Koshizuka eq. 15, 28, 36-43)",
    .params = mps_params,
    .alloc = mps_alloc,
    .free = mps_free,
    .prepare = mps_prepare,
    .residual = mps_residual,
    .apply = mps_apply,
    .sweep = mps_sweep,
    .jacobian = mps_jacobian,
    .finish = mps_finish,
    .error_scale = mps_error_scale,
    .traits = mps_traits,
    .lattice_lambda_max = mps_lattice_lambda_max,
};
