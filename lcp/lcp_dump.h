/* lcp_dump.h — `vbc run SCENE --dump-lcp STEP DIR`: every solve of one step written as the LCP
 * that Lemke's method would solve, in the text format of `vbc lcp` (docs/lcp.md).
 *
 * The time loop (sim/run.c) installs vbc_lcp_dump_solve as the system's solve hook
 * (core/constraint.h) for the chosen step only; vbc_solve calls it once per solve, after the
 * starting impulses are applied and before the first iteration. The LCP is the one
 * vbc_lemke_assemble builds (solvers/schemes/lemke/lemke.h): z = lambda, the rows' total impulses;
 * M = J W J^T (Kurose & Takahashi eq. 12); q = -r - M lambda0 = J u* - b, the rows' J v - b
 * before any of this solve's impulses (independent of the warm start); w = M z + q = J v - b
 * after the solve. Files: DIR/stepSSSSSS_solveK_BLOCKS.lcp, K counting the step's solves from 0,
 * BLOCKS the type names of the blocks with rows joined by '+'. Choices: bilateral rows (pins)
 * are written split into two rows as Lemke solves them (lambda = z+ - z-); a solve whose rows
 * cannot form an LCP (other bounds, a block without Jacobian rows) or that has no active row is
 * not written, and the log says why; the run itself is never changed or stopped by the dump. */
#ifndef VBC_LCP_DUMP_H
#define VBC_LCP_DUMP_H

#include "core/constraint.h"

#define VBC_LCP_DUMP_LOG 8

typedef struct vbc_lcp_dump {
  const char *dir;        /* existing directory (vbc_lcp_dump_check made it) */
  const char *scene_file; /* for the comment lines */
  long step;              /* 1-based: the step that advances t = (step - 1) dt to step dt */
  double time, dt;        /* time at the start of the step */
  int solves;             /* solves seen in this step so far */
  int written;            /* files written */
  /* one line per solve: the file written, or why none was; the time loop prints them */
  char log[VBC_LCP_DUMP_LOG][1280];
  int nlog;
} vbc_lcp_dump;

/* Before the run: step among the steps the run makes, first..last (1..nsteps, or the one step
 * of a --from-state run), and dir creatable (made here), else VBC_EXIT_INPUT with a message
 * naming the scene file, the option and what was expected. */
int vbc_lcp_dump_check(const char *scene_file, long step, long first, long last, double dt,
                       const char *dir, vbc_error *err);

/* The solve hook (vbc_solve_hook): ctx is a vbc_lcp_dump. Fails only when the file cannot be
 * written (VBC_EXIT_SYSTEM) or memory runs out. */
int vbc_lcp_dump_solve(void *ctx, vbc_problem *pb, const vbc_solver *s, vbc_error *err);

#endif
