/* pgs.c — projected Gauss–Seidel (projected SOR for omega != 1).
 *
 * Miyamoto & Koshizuka eq. 36-41 (fluid) and 65-72 (contacts): for each row in turn,
 * delta = b_k - J_k v, lambda' = clamp(lambda + omega delta / A_kk, lo, hi), v += M^-1 J_k^T
 * (lambda' - lambda). One iteration is one sweep over every block in the order the coupler gave
 * them; each block implements its sweep as one pass over its rows (no call per row or neighbour).
 * Blocks may order and parallelise their rows as long as two rows that share a velocity are never
 * updated at the same time (see the cell colouring in core/grid.h), so results are those of a
 * sequential Gauss–Seidel in the block's order, for any number of threads.
 *
 * Option `symmetric`: one iteration is a forward sweep (blocks in order) followed by a backward
 * one (blocks in reverse order, each block's rows in reverse): symmetric SOR, the stationary
 * "SSOR" iteration of He et al. 2012, Table 1. For equality rows (no active bounds) its iteration
 * matrix is symmetric in the A-inner product, which makes it a preconditioner a conjugate gradient
 * method can use; as a solver it costs two sweeps per iteration. */
#include <stdlib.h>

#include "core/constraint.h"
#include "solvers/schemes/solve_params.h"
#include "solvers/schemes/schemes.h"

typedef struct pgs_state {
  double omega;
  int symmetric;
} pgs_state;

static const vbc_param_spec pgs_params[] = {
    {"omega", VBC_PARAM_NUMBER, 1.0, 0.0, 2.0, 1,
     "relaxation factor of the sweep (1: Gauss–Seidel, the paper's choice)"},
    {"symmetric", VBC_PARAM_BOOL, 0.0, 0.0, 1.0, 0,
     "each iteration a forward then a backward sweep (symmetric SOR, He et al. Table 1 SSOR)"},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 0.0, 0),
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *pgs_alloc(const cJSON *params, vbc_error *err) {
  pgs_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->omega = vbc_param_number(params, pgs_params, "omega");
  s->symmetric = vbc_param_bool(params, pgs_params, "symmetric");
  return s;
}

static void pgs_free(void *state) { free(state); }

void vbc_pgs_sweeps(vbc_problem *pb, double omega, int symmetric) {
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->sweep(blk->state, pb->sys, &blk->rows, omega, VBC_SWEEP_FORWARD);
  }
  for (size_t b = pb->nblocks; symmetric && b-- > 0;) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->sweep(blk->state, pb->sys, &blk->rows, omega, VBC_SWEEP_BACKWARD);
  }
}

static int pgs_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)err;
  const pgs_state *s = state;
  vbc_pgs_sweeps(pb, s->omega, s->symmetric);
  return VBC_OK;
}

const vbc_solver_type vbc_solver_pgs = {
    .name = "pgs",
    .summary = "projected Gauss-Seidel / SOR sweeps (Miyamoto & Koshizuka eq. 36-41, 65-72)",
    .params = pgs_params,
    .alloc = pgs_alloc,
    .free = pgs_free,
    .iterate = pgs_iterate,
    .residual_free = 1,
};
