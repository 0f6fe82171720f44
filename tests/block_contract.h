/* block_contract.h — what the contract tests of blocks (test_contract_blocks.c: rows, residual,
 * apply, operator; test_contract_sweeps.c: sweeps, their order, threads) share: a block under
 * test with the system it acts on, its generalized velocities v (core/constraint.h: dim per
 * particle, then per body dim linear and nrot angular), W J^T d and J x from a block's Jacobian
 * rows, and the drivers that run a check on every block of the registry (bc_every_block) or on
 * lcp_matrix's own LCP (bc_lcp_matrix). Every function fails the calling test on an error. */
#ifndef VBC_TEST_BLOCK_CONTRACT_H
#define VBC_TEST_BLOCK_CONTRACT_H

#include "core/constraint.h"
#include "tests/block_fixture.h"

/* Relative tolerance of exact algebra summed in another order (test_contract_blocks.c). */
#define BC_REL 1e-12

/* A block under test and the system it acts on (a fixture's, or an empty one for lcp_matrix),
 * with the velocities it starts from and the random numbers of the checks. */
typedef struct subject {
  vbc_system *sys;
  vbc_block *blk;
  size_t ndofs;
  double *v0; /* generalized velocities at the start */
  unsigned seed;
} subject;

/* The block's name, for messages of checks that have a subject *s. */
#define NAME (s->blk->type->name)

double bc_uniform(unsigned *state); /* a deterministic number in [-1, 1) */
double *bc_alloc(size_t n);         /* n zeros */

/* Generalized velocities: how many, read, written (0 and nothing without particles). */
size_t bc_ndofs(const vbc_system *s);
void bc_gather(const vbc_system *s, double *v);
void bc_scatter(vbc_system *s, const double *v);
/* out = W J^T d over all dofs (with `absolute`: |W| |J|^T |d|, the size of its terms). */
void bc_w_jt(const vbc_system *s, const vbc_sparse *J, const double *d, int absolute,
             double *out);
/* y = J x (with `absolute`: |J| |x|). */
void bc_j_times(const vbc_sparse *J, const double *x, int absolute, double *y);
/* A(r, c) of a CSR matrix, duplicates summed. */
double bc_csr_entry(const vbc_sparse *A, size_t r, size_t c);

/* The block's passes on its own rows. */
void bc_residual(subject *s, double *r);
void bc_apply(subject *s, const double *d);
/* Velocities back to the start, rows prepared again (impulses 0, a block's own y = 0). */
void bc_reset(subject *s);
unsigned bc_traits(const subject *s);
/* Feasible random impulses of the size r0_k / A_kk of the rows' first update. */
void bc_random_impulses(subject *s, const double *r0, double *lambda);
/* bc_reset, then lambda applied and set as the impulses: a solve's state with those impulses. */
void bc_start_from(subject *s, const double *lambda);
/* The block's Jacobian into J (checked against its rows and dofs); 0 if it gives none. */
int bc_jacobian(subject *s, vbc_sparse *J);

/* Impulses, residual and velocities as they are now (bc_free_state them). */
typedef struct bc_state {
  double *impulse, *r, *v;
} bc_state;
bc_state bc_copy_state(subject *s);
void bc_free_state(bc_state *c);

typedef void (*bc_check)(subject *s);
/* check on every block of the built-in registry, each on a fresh scene of the given size; a
 * block that cannot be made from a scene (exit 2 from vbc_block_init) is skipped and logged. */
void bc_every_block(block_scene_size size, bc_check check);
/* check on an lcp_matrix block of a random LCP, M = J W J^T (n = 24), unilateral or bilateral. */
void bc_lcp_matrix(int bilateral, bc_check check);

#endif
