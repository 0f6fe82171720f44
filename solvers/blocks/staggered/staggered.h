/* staggered.h — the staggered SPH block of He, Liu, Wang, Zhang, Li, Shao & Wang, "Staggered
 * meshless solid-fluid coupling", ACM Trans. Graph. 31(6) 149, 2012 (staggered.c has the
 * equations and choices). The block's state is shared by its files: staggered.c (the rows, the
 * operator, the write-back), staggered_surface.c (densities, solid normals, the free surface) and
 * staggered_remap.c (the particles' velocity change, eq. 15-19). */
#ifndef VBC_STAGGERED_H
#define VBC_STAGGERED_H

#include <stdint.h>

#include "core/constraint.h"

/* How a particle's velocity change is gathered from its staggered particles (eq. 19). */
typedef enum vbc_staggered_remap {
  VBC_REMAP_NORMALISED = 0, /* (sum_j n n^T)^-1 sum_j dv_{i-j}: least squares of the changes */
  VBC_REMAP_LITERAL = 1     /* eq. 19 as printed: (1/N_i) sum_j dv_{i-j} */
} vbc_staggered_remap_form;

/* What the p^v solve gives free and pinned bodies (staggered.c's head comment). */
typedef enum vbc_staggered_body_load {
  VBC_LOAD_MOMENTUM = 0, /* eq. 28: the opposite of what their staggered particles gave the fluid */
  VBC_LOAD_PRESSURE = 1, /* the p^v of their fluid neighbours across those staggered particles */
  VBC_LOAD_BOTH = 2,
  VBC_LOAD_IMPLICIT = 3  /* the bodies' velocities inside the solve (staggered_bodies.c) */
} vbc_staggered_body_load;

/* One fluid row's coupling to one movable body (staggered_bodies.c): its row (f, t) of the body's
 * column D of the divergence, and M^-1 (f, t). */
typedef struct vbc_staggered_link {
  size_t row, body;
  vbc_vec f, t;   /* sum_j e_ij a_ij and sum_j (x_j - X) x e_ij a_ij */
  vbc_vec du, dw; /* M^-1 (f, t) */
  long next;      /* the row's next link (another body), or -1 */
} vbc_staggered_link;

typedef struct vbc_staggered_state {
  vbc_sph_kernel k;
  double lattice_sum;       /* sum_j W(|x_j|) over the ideal lattice, self included */
  double asymmetry, rho_min; /* eq. 25 thresholds: in units of h = H/2, and of rho0 */
  int no_slip, no_sticking, wall_share, unilateral;
  int body_no_slip; /* the condition on rigid particles (body_slip; default the walls' slip) */
  int relative_divergence; /* eq. 10 of v_{i-j} - v_i instead of v_{i-j}: 0 never (pair), 1
                            * everywhere, 2 in rows without a surface neighbour */
  vbc_staggered_body_load body_load; /* what p^v gives the bodies */
  vbc_staggered_remap_form remap;
  double remap_floor; /* normalised remap: floor of the eigenvalues of (1/N) sum n n^T, times 1/d */
  size_t cap_particles, cap_pairs, cap_rows, nrows;
  long *row_of;           /* per particle: its row or -1 */
  uint32_t *particle_of;  /* per row */
  unsigned char *surface; /* per particle: fluid on the free surface (no row), 1 by eq. 25, 2 by
                           * §5.2's rule for regions without one */
  vbc_vec *inward;        /* per eq. 25 surface particle: its asymmetry sum's direction (unit,
                           * into the fluid and solids), under surface_pressure interface the
                           * fitted surface's normal when there is one; else zero */
  double interface_depth; /* surface_pressure interface: p = 0 this far (l/2) beyond the eq. 25
                           * surface particles; 0: p = 0 on them (He) */
  double fit_radius;      /* surface_pressure interface: the surface particles this close are
                           * fitted with a line (plane); 0: eq. 25's asymmetry direction */
  double *rho;            /* per particle: eq. 22 for fluid, rho0 for solids */
  double *count;          /* per particle: N_i, neighbours closer than H */
  vbc_vec *normal;        /* per solid particle next to fluid: n^s (eq. 20) */
  long *component;        /* per particle: scratch of the connected-region search */
  uint32_t *queue;        /* scratch of the same */
  /* per neighbour pair q of a fluid particle i (aligned with sys->nbrs->index): */
  double *coef;    /* fluid j: (V_{i-j} / rho_{i-j}) |W'(r_ij/2)| / r_ij (eq. 12), else 0 */
  double *grad;    /* fluid j: 1 / (rho_{i-j} r_ij), the factor of eq. 11 in eq. 14 */
  vbc_vec *wall_dv; /* solid j: the velocity change the pair gives particle i (eq. 26/27) */
  vbc_vec *wall_dir; /* solid j: its direction n^v (unit), zero when the pair is not imposed */
  double *y;        /* per row: (A lambda)_r */
  /* body_load implicit (staggered_bodies.c): */
  double body_scale;        /* c = kappa l^d */
  /* error_measure (staggered_error.c): */
  double lattice_factor; /* c: eq. 10's divergence of v = x on the ideal lattice, over d */
  int error_density;     /* 1: error_tolerance bounds h mean |r| / c (He's E), 0: h mean |r| */
  double filter;         /* divergence_filter: the share of the Shepard mean in the rows' target */
  vbc_vec *body_a; /* per pair of a fluid particle: e_ij a_ij for an imposed rigid pair, else
                    * zero (staggered_pairs, beside the pair's other coefficients) */
  vbc_staggered_link *links; /* grouped by body, rows ascending within each */
  size_t nlinks, cap_links, cap_row_first, cap_body_first;
  long *row_first;          /* per row: its first link or -1 */
  size_t *body_first;       /* per body: its links are [body_first[k], body_first[k + 1]) */
} vbc_staggered_state;

/* Whether two particles r apart are neighbours of the staggered scheme: closer than the support H
 * by more than round-off, so that a pair at exactly H on a lattice (W = W' = 0 there) counts for
 * no particle, whichever way its distance rounds. */
static inline int vbc_staggered_pair(double r, double H) { return r > 0.0 && r < H * (1.0 - 1e-9); }

/* Densities (eq. 22) and neighbour counts N_i of every particle, the solid normals (eq. 20) and
 * the free surface (eq. 25 and the connected-region rule of §5.2) of the fluid. */
void vbc_staggered_geometry(vbc_staggered_state *s, const vbc_system *sys);
/* Mark every fluid particle of a connected fluid region without a surface particle as surface
 * (§5.2). Serial. */
void vbc_staggered_close_regions(vbc_staggered_state *s, const vbc_system *sys);

/* surface_pressure interface: the share of row particle `row`'s pressure that its neighbour
 * `surf`, an eq. 25 surface particle, holds when the pressure falls linearly from row to zero
 * interface_depth beyond surf (staggered_surface.c). */
double vbc_staggered_surface_share(const vbc_staggered_state *s, const vbc_system *sys,
                                   size_t surf, size_t row);

/* Eigenvalues (diagonal of a on return) and eigenvectors (columns of v) of the symmetric 3x3 a,
 * by cyclic Jacobi rotations (a fixed order: the same bits on every thread; staggered_remap.c). */
void vbc_staggered_eigen3(double a[3][3], double v[3][3]);
/* m += n n^T. */
void vbc_staggered_add_moment(double m[3][3], vbc_vec n);

/* The velocity change of fluid particle i from its staggered particles (eq. 14-19), after the
 * solve has written the pressures (staggered_remap.c). */
vbc_vec vbc_staggered_remap(const vbc_staggered_state *s, const vbc_system *sys, size_t i);

/* impulse[j] -= m R_i(dv_{i-j}) for every imposed staggered particle between a fluid particle i
 * and a rigid particle j of a free or pinned body: the opposite of what the remap gave i through
 * that staggered particle (R_i the remap, eq. 19 or the normalised form), so that fluid and body
 * exchange momentum to round-off (eq. 21, 28; staggered.c's head comment). Serial. */
void vbc_staggered_solid_impulses(const vbc_staggered_state *s, const vbc_system *sys,
                                  vbc_vec *impulse);
/* impulse[j] += d V_{i-j} lambda_i / r_ij (n_ij . n^s) n^s for every staggered particle between a
 * fluid row i (lambda = h p^v) and a rigid particle j: the pressure the solid's condition holds
 * back (body_load; staggered.c's head comment). Serial. */
void vbc_staggered_pressure_impulses(const vbc_staggered_state *s, const vbc_system *sys,
                                     const vbc_rows *rows, vbc_vec *impulse);

/* body_load implicit (staggered_bodies.c's head comment has the equations). */
/* c = kappa l^d: a flat wall of the ideal lattice takes exactly p A through c D^T lambda. */
double vbc_staggered_body_scale(const vbc_sph_kernel *k, int dim, double l);
/* After prepare's rows (staggered_pairs has set body_a): the links of the movable bodies, and
 * their coupling added to rows->diag. Serial. */
int vbc_staggered_link_bodies(vbc_staggered_state *s, const vbc_system *sys, vbc_rows *rows,
                              vbc_error *err);
/* y += the coupling's off-diagonal part of A' d (the pair pass added the diagonal). */
void vbc_staggered_bodies_apply(const vbc_staggered_state *s, size_t nbodies, const double *d);
/* Row r changed by delta in a sweep: the other rows of its bodies take the coupling. */
void vbc_staggered_bodies_row_changed(const vbc_staggered_state *s, size_t r, double delta);
/* A' in CSR (the pair entries with the bodies' blocks merged in), diagonal first in each row. */
int vbc_staggered_bodies_assemble(const vbc_staggered_state *s, const vbc_neighbors *nb,
                                  const vbc_rows *rows, vbc_sparse *A, vbc_error *err);
/* Before the remap: the imposed changes of the bodies' staggered particles take the bodies'
 * velocity change M^-1 c D^T lambda. */
void vbc_staggered_bodies_finish(vbc_staggered_state *s, const vbc_system *sys,
                                 const vbc_rows *rows);
/* impulse[j] += c lambda_i e_ij a_ij over the imposed rigid pairs of every body. */
void vbc_staggered_bodies_impulses(const vbc_staggered_state *s, const vbc_system *sys,
                                   const vbc_rows *rows, vbc_vec *impulse);

/* The error measure (staggered_error.c's head comment). */
/* c: eq. 10's divergence of v = x at a point of the ideal lattice of spacing l, divided by d. */
double vbc_staggered_lattice_factor(const vbc_sph_kernel *k, int dim, double l);
/* E before the solve (zero impulses) in the divergence unit, h mean |b_r| over the rows free to
 * move, as vbc_problem_mean_error counts them. */
double vbc_staggered_initial_error(const vbc_rows *rows, double h);
/* divergence_filter: each row's target takes the share s->filter of the Shepard mean of the
 * targets over the row and its row neighbours (s->y is scratch, left zero). */
void vbc_staggered_filter_targets(vbc_staggered_state *s, const vbc_system *sys, vbc_rows *rows);
/* For a staggered block b: c, and in *density whether its error_tolerance bounds He's unit. */
double vbc_staggered_block_factor(const vbc_block *b, int *density);

/* For tests: whether fluid particle i of the block's last prepare is on the free surface. */
int vbc_staggered_is_surface(const vbc_block *b, size_t particle);

#endif
