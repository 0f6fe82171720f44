/* solve_skip.h — vbc_solve's residual passes left out for a sweep scheme (core/solve.c).
 *
 * A projected Gauss–Seidel sweep meets each row's residual delta_k = b_k - J_k v just before it
 * updates the row (Miyamoto & Koshizuka eq. 36); a block whose sweep leaves those numbers in
 * rows.residual (rows.swept_residual) hands the solve loop their energy norm E for free. The
 * stopping test needs R, the norm after the whole sweep, which takes a pass over the rows. On
 * the MPS rows R / E stays near one value through a solve (about 0.55-0.66 on Miyamoto &
 * Koshizuka's Fig. 12 tank), so rho E, with rho the ratio at the last pass, predicts R: the pass
 * is made only where the prediction comes within SKIP_SLACK of the bound, or after SKIP_RUN
 * iterations without one. The state after each pass that did not stop is kept; when a pass
 * finds the test holding after iterations without one, the solve goes back to that state and
 * makes those iterations again with a pass after each, so it stops at the first iteration that
 * passes, as with a pass after every sweep: the same stop and the same bits, whatever the
 * prediction, with one exception: a residual that falls below the bound and rises above it
 * again between two passes, where a pass after every sweep would have stopped and this loop
 * goes on (PGS's residual need not fall monotonically; it did not rise between consecutive
 * iterations in any of the ~7 800 iterations examined on the Fig. 12 tank). Otherwise a wrong
 * prediction costs sweeps, never results. */
#ifndef VBC_SOLVE_SKIP_H
#define VBC_SOLVE_SKIP_H

#include "core/constraint.h"

typedef struct vbc_skip {
  double rho;      /* R / E at the last pass (a low start: a first pass early) */
  int last;        /* the iteration after which the state was kept (-1: none yet) */
  int replay_to;   /* going back: make a pass after every iteration up to this one */
  size_t nimpulse; /* all blocks' rows */
  double *impulse;
  vbc_vec *vel;
  vbc_body *bodies;
} vbc_skip;

/* Whether every block with rows left its sweep's residuals in the last iteration. */
int vbc_skip_all_swept(const vbc_problem *pb);
/* Keep the state the sweeps change (impulses, particle and body velocities) after iteration
 * it; the arrays are allocated at the first call. */
int vbc_skip_keep(vbc_skip *k, const vbc_problem *pb, int it, vbc_error *err);
/* Back to the kept state. */
void vbc_skip_restore(const vbc_skip *k, vbc_problem *pb);
void vbc_skip_free(vbc_skip *k);

#endif
