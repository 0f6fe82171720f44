/* exact_reference.h — iterates measured against Lemke's exact solution (docs/lcp.md).
 *
 * Two layers:
 *   vbc_lcp_reference — an exact solution z* of LCP(M, q) with w* = M z* + q, and the two
 *   distances of an iterate (z, w) from it, shared by `vbc lcp --reference` (cli/cli_lcp.c) and
 *   `vbc run --exact-reference`:
 *     reference_error   = |z - z*|_inf / max(|z*|_inf, 1e-300)
 *     reference_w_error = |w - w*|_inf / max(|w* - q|_inf, 1e-300)
 *   Both are 1 at z = 0 (w = q): the part of the way to the solution still to go. For symmetric
 *   positive semi-definite M every solution has the same w, while z is only as well determined
 *   as M's smallest eigenvalues allow, so the second is the fair one on redundant contacts.
 *   vbc_exact_reference — `vbc run --exact-reference`: the reference of a traced solve
 *   (vbc_trace_reference, core/constraint.h). At the point where vbc_solve starts iterating it
 *   assembles the solve's LCP with vbc_lemke_assemble (solvers/schemes/lemke/lemke.h: z = lambda, the rows'
 *   total impulses, M = J W J^T, q = -r - M lambda0) and solves it with vbc_lemke_sparse; then
 *   every traced iterate is mapped to (z, w) with the same sign/split mapping — z_i =
 *   max(sign_i lambda, 0), w_i = -sign_i r_k = sign_i (J_k v - b_k), which is M z + q because v
 *   holds every impulse — and measured. Choices: w comes from the residual pass vbc_solve has just
 *   made (O(rows), no product with M); a solve Lemke cannot take (bounds other than [0, inf) or
 *   (-inf, inf), a block without Jacobian rows, a Lemke status other than solved) gets no
 *   reference (NAN, empty columns) and one note saying why; nothing here changes impulses or
 *   velocities, so the run's results are those without the option. */
#ifndef VBC_EXACT_REFERENCE_H
#define VBC_EXACT_REFERENCE_H

#include <stddef.h>

#include "core/constraint.h"
#include "solvers/schemes/lemke/lemke.h"

typedef struct vbc_lcp_reference {
  size_t n;
  double *z, *w;         /* z* and w* = M z* + q (owned) */
  double zscale, wscale; /* max(|z*|_inf, 1e-300), max(|w* - q|_inf, 1e-300) */
} vbc_lcp_reference;

/* The scales from r->z, r->w and q (n entries). */
void vbc_lcp_reference_scale(vbc_lcp_reference *r, const double *q);
/* reference_error and reference_w_error of the iterate (z, w). */
void vbc_lcp_reference_errors(const vbc_lcp_reference *r, const double *z, const double *w,
                              double *z_error, double *w_error);
/* Size r for n entries (z, w zeroed); VBC_EXIT_SYSTEM when memory runs out. */
int vbc_lcp_reference_resize(vbc_lcp_reference *r, size_t n, vbc_error *err);
void vbc_lcp_reference_free(vbc_lcp_reference *r);

typedef struct vbc_exact_reference {
  vbc_lemke_lcp lcp;     /* the traced solve's LCP */
  vbc_lcp_reference ref; /* Lemke's solution of it */
  double *z, *w;         /* the current iterate, mapped (lcp.n entries) */
  size_t cap;
  int valid;             /* this solve has a reference */
  int solves;            /* solves given a reference so far */
  char note[1024];       /* why the last solve had none ("" if it had one) */
  int noted;             /* a note is waiting to be printed (vbc_exact_reference_take_note) */
  int note_printed;      /* the run prints only the first */
} vbc_exact_reference;

/* The trace observer (vbc_trace_reference) that uses x as its context. */
vbc_trace_reference vbc_exact_reference_observer(vbc_exact_reference *x);
void vbc_exact_reference_free(vbc_exact_reference *x);
/* The note of a solve without reference, once per run: NULL after the first. */
const char *vbc_exact_reference_take_note(vbc_exact_reference *x);

#endif
