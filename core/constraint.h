/* constraint.h — the one seam of vbc: constraint blocks, iteration schemes, the solve loop.
 *
 * Miyamoto & Koshizuka (§2.5) call a constraint *velocity-based* when it updates its impulse from
 * the temporal velocity u* alone and applies the impulse difference back to u*. Incompressibility,
 * contacts and joints are all of that kind, so one interface serves them all:
 *
 *   block  — a set of rows k, each with a Jacobian row J_k over the generalized velocities v,
 *            a target b_k, impulse bounds [lo_k, hi_k], the diagonal A_kk = J_k M^-1 J_k^T and the
 *            current impulse lambda_k. A row is satisfied when J_k v >= b_k with lambda_k >= 0 and
 *            lambda_k (J_k v - b_k) = 0 (unilateral, lo = 0, hi = inf) or J_k v = b_k (bilateral).
 *            Applying an impulse change moves the velocities: v += M^-1 J_k^T d_lambda_k.
 *   solver — an iteration scheme that sees blocks only through the function table below.
 *
 * A solver never knows what a row means; a block never knows which solver runs it. The style
 * follows GSL's solver types: a const type struct with a name and function pointers, alloc/free,
 * `iterate`, and a convergence test kept apart from the iteration (vbc_solve below).
 *
 * The system of particles and bodies the rows act on, its generalized velocities and inverse
 * masses, is core/system.h. */
#ifndef VBC_CONSTRAINT_H
#define VBC_CONSTRAINT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/body.h"
#include "core/error.h"
#include "core/grid.h"
#include "core/kernel.h"
#include "core/params.h"
#include "core/particles.h"
#include "core/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks one solve iterates together, at most (the solve loop's per-block arrays). */
enum { VBC_MAX_BLOCKS = 16 };

/* An exact reference for the iterates of a traced solve (`vbc run --exact-reference`,
 * lcp/exact_reference.h), carried by the trace so that only traced solves pay for it. vbc_solve
 * calls start right after solve_hook (same point, same rules), and measure after every residual
 * pass it traces (iteration 0 included) with rows.residual = b - J v of the current iterate;
 * measure writes the iterate's distance to the reference in impulses and in velocities, NAN when
 * start found no reference. Neither may change impulses or velocities. start NULL: off. */
typedef struct vbc_trace_reference {
  vbc_solve_hook start;
  void (*measure)(void *ctx, const struct vbc_problem *pb, double *z_error, double *w_error);
  void *ctx;
} vbc_trace_reference;

/* Row data of one block. The arrays are owned by the vbc_block and sized by vbc_rows_resize. */
typedef struct vbc_rows {
  size_t n, cap;
  double *target;   /* b_k */
  double *lo, *hi;  /* impulse bounds */
  double *diag;     /* A_kk = J_k M^-1 J_k^T; rows with A_kk <= 0 are inert */
  double *impulse;  /* lambda_k */
  double *residual; /* b_k - J_k v after the last residual pass (written by vbc_solve) */
  double *scratch;  /* for solvers (e.g. the impulse change of a Jacobi iteration) */
  /* Set by a prepare that already made the block's own residual pass on the velocities it leaves
   * (v = u*, before any starting impulse) into `residual`: vbc_solve's reference residual then
   * reads those numbers instead of making the same pass again, and clears the flag
   * (vbc_problem_prepare clears it before each prepare). */
  int residual_known;
  /* Set by a sweep that left in `residual` each row's b_k - J_k v as the sweep met it, just
   * before the row's update (the delta of Miyamoto & Koshizuka eq. 36), and changed nothing but
   * impulse, residual and the velocities of particles and bodies; vbc_solve clears it before
   * every iteration. Those numbers are not the residual after the sweep, but the solve loop
   * reads them to predict it, and may take such sweeps back (core/solve_skip.h). */
  int swept_residual;
} vbc_rows;

/* The default error measure of a block's rows: the sum of scale |r_k| over the rows that can
 * still move (r_k > 0 below hi_k, r_k < 0 above lo_k), *count the rows with A_kk > 0; summed
 * as vbc_sum does (core/reduce.h). */
double vbc_rows_error_sum(const vbc_rows *rows, double scale, size_t *count);
int vbc_rows_resize(vbc_rows *rows, size_t n, vbc_error *err);
void vbc_rows_free(vbc_rows *rows);

/* Rows of J over generalized degrees of freedom, CSR. */
typedef struct vbc_sparse {
  size_t nrows, ndofs, nnz, cap_rows, cap_nnz;
  size_t *start; /* nrows + 1 */
  size_t *col;
  double *val;
} vbc_sparse;

int vbc_sparse_reserve(vbc_sparse *J, size_t nrows, size_t nnz, vbc_error *err);
void vbc_sparse_free(vbc_sparse *J);

/* What a block's rows stand for: the registry lists blocks by kind, and a coupler's parameter
 * group may let the scene choose among the blocks of one kind (method.fluid.constraint). */
typedef enum vbc_block_kind {
  VBC_BLOCK_NONE = 0,
  VBC_BLOCK_FLUID,   /* incompressibility or density rows of the fluid */
  VBC_BLOCK_CONTACT, /* unilateral contacts between particles and bodies */
  VBC_BLOCK_JOINT,   /* bilateral joints of bodies (pins) */
  VBC_BLOCK_MATRIX,  /* an explicit LCP (M, q), for tools and tests */
  VBC_BLOCK_KINDS
} vbc_block_kind;

const char *vbc_block_kind_name(vbc_block_kind k);

/* Row properties a block reports (vbc_block_type.traits). */
enum {
  VBC_ROWS_BILATERAL = 1u << 0,  /* every row two-sided ((-inf, inf)) or fixed (lo = hi): an
                                    equality system, what conjugate gradients solve */
  VBC_ROWS_UNSYMMETRIC = 1u << 1, /* the operator A is not symmetric */
  /* How the rows meet free rigid bodies (a coupler asks for the one it relies on:
   * vbc_coupler_type.body_traits): */
  VBC_ROWS_PUSH_BODIES = 1u << 2,   /* apply pushes the bodies of rigid particles in the rows
                                       (MPS-LCP with rigid_pressure, Miyamoto & Koshizuka §4) */
  VBC_ROWS_WEAK_MASSES = 1u << 3,   /* inverse masses read through vbc_system_inv_mass, so that
                                       a weak coupler can solve rigid particles as fluid (PMS) */
  VBC_ROWS_PRESSURE_LOAD = 1u << 4, /* boundary_impulses give the whole pressure force on walls
                                       and bodies, hydrostatic part included (Akinci 2012) */
  VBC_ROWS_BODY_REACTION = 1u << 5, /* boundary_impulses give the reaction to what the rows'
                                       rigid particles gave the fluid (He et al. 2012 eq. 21
                                       with eq. 28's force), the body's share of the solve */
  /* What the rows hold (a coupler that moves the fluid otherwise refuses the block): */
  VBC_ROWS_ADVECTED_DENSITY = 1u << 6 /* the rows ask the density after the step's advection
                                         x + h u^{t+1} to be rho0 (IISPH's predicted density,
                                         Ihmsen et al. 2014): they hold the water only if the
                                         step moves it by h times the velocity the solve
                                         leaves */
};

/* The order of a Gauss–Seidel sweep over a block's rows: a backward sweep visits them in the
 * reverse of the forward order, so that forward then backward is a symmetric sweep (SSOR). */
typedef enum vbc_sweep_order { VBC_SWEEP_FORWARD, VBC_SWEEP_BACKWARD } vbc_sweep_order;

struct vbc_solve_stats; /* below, with the solvers */

typedef struct vbc_block_type {
  const char *name;
  vbc_block_kind kind;
  const char *summary;          /* paper, equations */
  const vbc_param_spec *params; /* keys read from the scene's method.<group> object */
  /* Create the block; *support is the neighbour radius its rows need (0: none). */
  void *(*alloc)(const cJSON *params, const vbc_system *sys, double *support, vbc_error *err);
  void (*free)(void *state);
  /* Build this step's rows from positions, neighbours and the temporal velocity u*. Sets target,
   * bounds, diagonal and the starting impulse (0, or a warm-start guess). It leaves v = u*:
   * vbc_solve applies a nonzero starting impulse before the first iteration. */
  int (*prepare)(void *state, vbc_system *sys, vbc_rows *rows, vbc_error *err);
  /* Matrix-free passes over all rows (data-parallel): */
  void (*residual)(const void *state, const vbc_system *sys, const vbc_rows *rows, double *r);
  void (*apply)(void *state, vbc_system *sys, const vbc_rows *rows, const double *dlambda);
  /* One projected Gauss–Seidel (SOR for omega != 1) sweep over all rows, in place, each row by
   * vbc_pgs_row below. */
  void (*sweep)(void *state, vbc_system *sys, vbc_rows *rows, double omega,
                vbc_sweep_order order);
  /* The sparse Jacobian rows, for assembled solvers; NULL if the block cannot give them. */
  int (*jacobian)(const void *state, const vbc_system *sys, vbc_sparse *J, vbc_error *err);
  /* Optional: the block's operator A over its own rows (rows.n x rows.n, CSR), for a block whose
   * operator is not J M^-1 J^T over the generalized velocities (He et al.'s staggered Laplacian,
   * eq. 12-13). NULL: core/operator.h assembles J M^-1 J^T from `jacobian`. */
  int (*assemble)(const void *state, const vbc_system *sys, const vbc_rows *rows, vbc_sparse *A,
                  vbc_error *err);
  /* Optional: properties of the rows as this block instance sets them up (VBC_ROWS_*), for the
   * solvers' set-up checks. NULL: 0 (unilateral rows, a symmetric operator). */
  unsigned (*traits)(const void *state);
  /* Write the results back (pressure from impulse, ...) once the solve has stopped. */
  void (*finish)(void *state, vbc_system *sys, const vbc_rows *rows);
  /* Optional (NULL: the block has no such measure). The factor that turns a row's residual
   * r_k = b_k - J_k v into the dimensionless constraint error it stands for: h / rho0 for SPH
   * density rows, whose h r_k is rho*_k - rho0 (IISPH's density error), h / n0 for MPS rows.
   * vbc_solve averages these errors (vbc_problem_mean_error) for the error stopping test. */
  double (*error_scale)(const void *state, const vbc_system *sys);
  /* Optional (NULL: vbc_rows_error_sum with error_scale). A block's own error measure (with error_scale set): the sum of its
   * rows' errors, and in *count what the sum is divided by (a peer's definition, so that a
   * tolerance means what it means there: sph_density's error_measure). */
  double (*error_sum)(const void *state, const vbc_system *sys, const vbc_rows *rows,
                      size_t *count);
  /* Optional (NULL: not offered). For a block that treats wall and rigid particles as moving
   * walls: impulse[i] += the impulse its rows' current lambda exert on each such particle i, the
   * reaction to what they gave the fluid (Akinci 2012's boundary force times h). A weak coupler
   * passes it on to the bodies (couplers/akinci.c). impulse has one entry per particle. */
  void (*boundary_impulses)(const void *state, const vbc_system *sys, const vbc_rows *rows,
                            vbc_vec *impulse);
  /* Optional (NULL: no bound). How far from a fluid or rigid particle the block reads the
   * neighbour lists of wall particles (0: it reads none); the simulation then gives lists only
   * to the walls that near one (sim/sim.h). Negative: no bound, as NULL. */
  double (*list_reach)(const void *state, const vbc_system *sys);
  /* Optional (NULL: not known). lambda_max(D^-1 A) of the block's rows on the ideal interior
   * lattice (core/jacobi_bound.h) for the kernel in sys (dim, spacing, re, sph; no particles):
   * what bounds a relaxed scheme, which converges there only for omega < 2 / lambda_max
   * (vbc_solver_type.relaxation_key). Called at set-up, before the block exists. */
  double (*lattice_lambda_max)(const cJSON *params, const vbc_system *sys);
  /* Optional: named figures of the rows the last prepare built (the contact block's pairs and
   * depths), added to the report of the stage that holds the block after its rows are built;
   * other modules read them by name (vbc_coupling_block_figure), never from the block's state. */
  int (*figures)(const void *state, struct vbc_solve_stats *out, vbc_error *err);
} vbc_block_type;

typedef struct vbc_block {
  const vbc_block_type *type;
  void *state;
  const char *label; /* which part of the scene it serves, e.g. "fluid" */
  double support;
  vbc_rows rows;
} vbc_block;

int vbc_block_init(vbc_block *b, const vbc_block_type *type, const cJSON *params,
                   const vbc_system *sys, const char *label, vbc_error *err);
void vbc_block_free(vbc_block *b);

/* The blocks one solve iterates together (strong coupling = all blocks in one problem). */
typedef struct vbc_problem {
  vbc_system *sys;
  vbc_block **blocks;
  size_t nblocks;
} vbc_problem;

/* Named figures of one solve beyond the common ones (Lemke's pivots, a coupler's LCP error),
 * with how a run aggregates them over its solves (sim/summary.c: mean_NAME, max_NAME). */
enum { VBC_MAX_FIGURES = 12 };
typedef enum vbc_figure_kind {
  VBC_FIGURE_MEAN = 1,
  VBC_FIGURE_MAX = 2,
  VBC_FIGURE_MEAN_MAX = 3
} vbc_figure_kind;

typedef struct vbc_solve_stats {
  size_t n;
  const char *name[VBC_MAX_FIGURES]; /* string literals */
  double value[VBC_MAX_FIGURES];
  vbc_figure_kind kind[VBC_MAX_FIGURES];
} vbc_solve_stats;

/* Append a figure; more than VBC_MAX_FIGURES is a system error. */
int vbc_solve_stats_add(vbc_solve_stats *s, const char *name, double value, vbc_figure_kind kind,
                        vbc_error *err);

typedef struct vbc_solver_type {
  const char *name;
  const char *summary;
  const vbc_param_spec *params;
  void *(*alloc)(const cJSON *params, vbc_error *err);
  void (*free)(void *state);
  /* Optional: at set-up (the blocks exist, no rows yet), whether the solver can run pb's blocks:
   * their traits, an operator it must assemble. VBC_EXIT_INPUT naming the block and what is
   * missing otherwise (vbc_coupling_init adds the scene file, group and solver). */
  int (*check)(const void *state, const vbc_problem *pb, vbc_error *err);
  /* Optional: a solve starts (rows prepared, starting impulses applied, before the first
   * residual pass). A solver that keeps anything from one solve to the next resets it here. */
  int (*begin)(void *state, vbc_problem *pb, vbc_error *err);
  /* Nonzero: begin neither moves v nor changes an impulse (it resets the solver's own counters),
   * so the solve loop may keep the reference's residual pass as iteration 0's (vbc_solve). */
  int begin_keeps_velocities;
  /* One iteration. On entry rows.residual of every block holds b - J v for the current v. */
  int (*iterate)(void *state, vbc_problem *pb, vbc_error *err);
  /* Optional: figures of the solve that just ended (vbc_solve_result.stats). */
  int (*stats)(const void *state, vbc_solve_stats *out, vbc_error *err);
  /* Optional: the solver's own estimate of the blocks' mean error after its last iterate (jacobi's
   * error_estimate local), which the error test then reads instead of the residual pass's; NaN
   * when it makes none. The true mean error is still computed for the trace and the result. */
  double (*error_estimate)(const void *state);
  /* Optional (NULL: none). The key of the relaxation factor omega of a scheme that converges on
   * a lattice only while omega < 2 / lambda_max(D^-1 A) (relaxed Jacobi); its key KEY_limit
   * says what to do above the bound: "warn", "clamp" (to 0.9 times the bound) or "off". The
   * scene's set-up compares omega with the blocks' lattice_lambda_max before step 1. A failure
   * after a diverged solve of such a scheme tells to lower it. */
  const char *relaxation_key;
  /* Optional (NULL: none): when the scheme's residual can grow, and what to try then, for the
   * message of a run that fails after a solve of it diverged (sim/run.c). */
  const char *divergence_hint;
  /* Nonzero: iterate never reads rows.residual, so the solve loop may leave out the residual
   * pass of an iteration whose stopping test cannot hold yet (vbc_solve). */
  int residual_free;
  /* Optional, for a residual_free scheme that carries state from one iteration to the next
   * beyond the impulses and velocities (core/solve_skip.h): keep that state when the loop keeps
   * the problem's, and go back to it when the loop does, so that iterations made again are the
   * same iterations. */
  void (*keep)(void *state);
  void (*restore)(void *state);
  /* Optional (NULL: none): what the solver carries from one solve to the next, as at most
   * VBC_SOLVER_CARRIED numbers (jacobi's lowered omega), for a checkpoint to keep; carry_in puts
   * back what carried gave. */
  size_t (*carried)(const void *state, double *out);
  int (*carry_in)(void *state, const double *in, size_t n, vbc_error *err);
} vbc_solver_type;

#define VBC_SOLVER_CARRIED 4

/* Stopping test, kept apart from the iteration scheme (GSL's *_test_residual). */
typedef struct vbc_solve_control {
  double tolerance;   /* stop when residual <= tolerance * initial residual */
  double error_tolerance; /* > 0: blocks with an error measure stop on their mean error instead */
  int min_iterations; /* never stop (for tolerance) before this many */
  int max_iterations;
} vbc_solve_control;

typedef struct vbc_solver {
  const vbc_solver_type *type;
  void *state;
  vbc_solve_control control;
} vbc_solver;

int vbc_solver_init(vbc_solver *s, const vbc_solver_type *type, const cJSON *params,
                    vbc_error *err);
void vbc_solver_free(vbc_solver *s);

typedef enum vbc_stop_reason {
  VBC_STOP_TOLERANCE = 0,     /* residual <= tolerance * residual_ref */
  VBC_STOP_MAX_ITERATIONS = 1,
  VBC_STOP_ROUND_OFF = 2,     /* residual <= VBC_ROUND_OFF * residual_scale: nothing left above
                                 round-off, though the relative test may not hold (a problem
                                 that was already almost satisfied) */
  VBC_STOP_ERROR = 3,         /* the mean error of the blocks with an error measure <=
                                 error_tolerance (and the residual test on the others) */
  VBC_STOP_BREAKDOWN = 4,     /* the solver cannot go on: a Krylov method met a direction of
                                 non-positive curvature (iterate returned VBC_ITERATE_BREAKDOWN) */
  VBC_STOP_REASONS
} vbc_stop_reason;

/* What a solver's iterate returns (instead of VBC_OK) when it cannot go on without a wrong answer:
 * vbc_solve stops with VBC_STOP_BREAKDOWN and the iterate as it is. */
enum { VBC_ITERATE_BREAKDOWN = 100 };

/* Relative size of the round-off floor: r_k = b_k - J_k v cancels terms of size |b_k| + |J_k v|,
 * so it cannot be trusted below about 1e-16 of that; 1e-12 stays well clear of it. */
#define VBC_ROUND_OFF 1e-12

const char *vbc_stop_reason_name(vbc_stop_reason r);

/* Residual after each iteration, when asked for: iteration 0 is the starting point. seconds is
 * the wall time since iteration 0's residual was known (0 for iteration 0), so it counts the
 * iterations, each with the residual pass the stopping test needs, and not the setup before. */
typedef struct vbc_solve_trace {
  size_t n, cap, nblocks;
  double *total;     /* n */
  double *per_block; /* n * nblocks */
  double *error;     /* n * nblocks: mean constraint error of the block's rows, NAN without */
  double *seconds;   /* n */
  double ref_total, ref_per_block[VBC_MAX_BLOCKS]; /* residual_ref, the scale of relative
                                                       residuals */
  /* Set by the owner, kept across solves: the exact reference (start NULL: none). With it,
   * reference_error and reference_w_error (n each) get the iterates' distances to it (NAN where
   * it has none) and seconds leaves out the time measure takes. */
  vbc_trace_reference reference;
  double *reference_error, *reference_w_error;
  double reference_seconds; /* what the reference took in the last solve (start and measures):
                               left out of vbc_solve_result.seconds as well */
} vbc_solve_trace;

void vbc_solve_trace_free(vbc_solve_trace *t);

typedef struct vbc_solve_result {
  int iterations;
  vbc_stop_reason reason;
  /* absolute residuals (vbc_problem_residual): with all impulses zero (the scale of the
   * right-hand side, ||b|| of a linear solver) and at the end; residual_scale is the same norm
   * of |b_k| + |J_k u*|, the size of what r_k subtracts. The trace has the start. */
  double residual_ref, residual_scale, residual;
  double mean_error; /* vbc_problem_mean_error at the end, NAN if no block has an error measure */
  double seconds; /* wall time of the whole vbc_solve call, reference and warm start included;
                     without the time of an exact reference (vbc_solve_trace.reference) */
  vbc_solve_stats stats; /* the solver's own figures (vbc_solver_type.stats), n = 0 without */
} vbc_solve_result;

/* Every block of pb builds this step's rows (vbc_block_type.prepare), in block order. */
int vbc_problem_prepare(vbc_problem *pb, vbc_error *err);
/* Every block of pb writes its results back once the solve has stopped (finish). */
void vbc_problem_finish(vbc_problem *pb);

/* The residual of all rows: sqrt(sum_k e_k^2 / A_kk) with the natural residual
 * e_k = A_kk (lambda_k - clamp(lambda_k + r_k / A_kk, lo_k, hi_k)), r_k = b_k - J_k v.
 * e_k is the velocity error a projected Jacobi/GS step would remove; dividing by A_kk makes the
 * measure an energy (impulse x velocity), comparable across blocks of different meaning and across
 * solvers. Fills rows.residual of every block; per_block (nblocks, may be NULL) gets each block's
 * part. Deterministic for any number of threads. */
double vbc_problem_residual(vbc_problem *pb, double *per_block);

/* The mean constraint error of the rows of the blocks that have an error measure (error_scale),
 * from rows.residual as the last residual pass left it: row k contributes scale * |r_k| where its
 * impulse may still move towards satisfying it (r_k > 0 and lambda_k < hi_k, or r_k < 0 and
 * lambda_k > lo_k) and 0 where a bound stops it. So a free-surface SPH particle with clamped
 * pressure p = 0 whose predicted density is below rho0 counts as error 0, one with p > 0 counts
 * with |rho*_k - rho0| / rho0, and a compressed one with p = 0 with its compression. The mean is
 * over all such rows (IISPH's average density error). per_block (may be NULL) gets each block's
 * mean, NAN for blocks without a measure; returns NAN when no block has one. */
double vbc_problem_mean_error(const vbc_problem *pb, double *per_block);
/* The largest row error beside that mean: max of scale |r_k| over the rows the mean's default
 * measure counts (A_kk > 0, free to move: vbc_rows_error_sum), from rows.residual as the last
 * residual pass left it, over the blocks with an error measure; NAN if none has one. A mean
 * over many rows can pass its tolerance while a few rows are far off; this says how far. */
double vbc_problem_max_error(const vbc_problem *pb);

/* Run solver s on pb until the stopping test holds. Without error_tolerance (0): residual <=
 * tolerance * residual_ref, the residual the rows would have with zero impulses, so that a warm
 * start is judged on the same scale as a cold one; or residual <= VBC_ROUND_OFF * residual_scale.
 * With error_tolerance > 0 each block is judged by its own measure: the blocks with an error
 * measure together by mean error <= error_tolerance, the others by the residual test above over
 * their rows alone. Never stops before min_iterations. Reports in *res, traces every iteration
 * in *trace when it is not NULL (relative to residual_ref). VBC_EXIT_FAILED if the residual
 * becomes non-finite. */
int vbc_solve(vbc_solver *s, vbc_problem *pb, vbc_solve_result *res, vbc_solve_trace *trace,
              vbc_error *err);

/* Projection onto [lo, hi]. */
static inline double vbc_clamp(double x, double lo, double hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* The projected Gauss–Seidel (SOR) update of row k, given J_k v for the current velocities
 * (Miyamoto & Koshizuka eq. 36-39 for the fluid rows, 65-68 for contacts):
 *     lambda' = clamp(lambda + omega (b_k - J_k v) / A_kk, lo_k, hi_k).
 * It stores lambda' and returns the change the block must apply to v (eq. 40-41, 69-72). Every
 * block's sweep goes through it; rows with A_kk <= 0 are inert and are skipped by the caller. */
static inline double vbc_pgs_row(vbc_rows *rows, size_t k, double jv, double omega) {
  const double lambda = rows->impulse[k];
  const double next =
      vbc_clamp(lambda + omega * (rows->target[k] - jv) / rows->diag[k], rows->lo[k], rows->hi[k]);
  rows->impulse[k] = next;
  return next - lambda;
}

#ifdef __cplusplus
}
#endif

#endif
