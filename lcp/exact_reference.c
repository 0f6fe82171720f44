/* exact_reference.c — iterates against Lemke's exact solution; see exact_reference.h for the
 * definitions, the sign mapping and the choices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/exact_reference.h"

/* ------------------------------------------------------------------------------------------ */
/* The measure, shared with vbc lcp --reference. */

static double max_abs_diff(size_t n, const double *a, const double *b) {
  double m = 0.0;
  for (size_t i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - (b ? b[i] : 0.0)));
  return m;
}

void vbc_lcp_reference_scale(vbc_lcp_reference *r, const double *q) {
  r->zscale = fmax(max_abs_diff(r->n, r->z, NULL), 1e-300);
  r->wscale = fmax(max_abs_diff(r->n, r->w, q), 1e-300);
}

void vbc_lcp_reference_errors(const vbc_lcp_reference *r, const double *z, const double *w,
                              double *z_error, double *w_error) {
  *z_error = max_abs_diff(r->n, z, r->z) / r->zscale;
  *w_error = max_abs_diff(r->n, w, r->w) / r->wscale;
}

int vbc_lcp_reference_resize(vbc_lcp_reference *r, size_t n, vbc_error *err) {
  double *z = vbc_realloc(r->z, n ? n : 1, sizeof *z, err);
  if (z == NULL) return err->code;
  r->z = z;
  double *w = vbc_realloc(r->w, n ? n : 1, sizeof *w, err);
  if (w == NULL) return err->code;
  r->w = w;
  memset(r->z, 0, (n ? n : 1) * sizeof *z);
  memset(r->w, 0, (n ? n : 1) * sizeof *w);
  r->n = n;
  return VBC_OK;
}

void vbc_lcp_reference_free(vbc_lcp_reference *r) {
  free(r->z);
  free(r->w);
  memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------------------------ */
/* vbc run --exact-reference */

static int iterate_resize(vbc_exact_reference *x, size_t n, vbc_error *err) {
  return vbc_grow(&x->cap, n, (void *[]){&x->z, &x->w}, (size_t[]){sizeof *x->z, sizeof *x->w}, 2,
                  err);
}

static void note(vbc_exact_reference *x, const char *why) {
  snprintf(x->note, sizeof x->note, "%s", why);
  x->noted = 1;
}

/* w* = M z* + q, recomputed from the sparse M (as vbc lcp --reference recomputes it). */
static void reference_w(const vbc_lemke_lcp *lcp, vbc_lcp_reference *r) {
  for (size_t i = 0; i < lcp->n; ++i) {
    double acc = lcp->q[i];
    for (size_t k = lcp->M.start[i]; k < lcp->M.start[i + 1]; ++k)
      acc += lcp->M.val[k] * r->z[lcp->M.col[k]];
    r->w[i] = acc;
  }
}

/* Lemke on the assembled LCP; a status other than solved leaves the solve without reference. */
static int solve_reference(vbc_exact_reference *x, vbc_error *err) {
  const size_t n = x->lcp.n;
  if (vbc_lcp_reference_resize(&x->ref, n, err) != VBC_OK || iterate_resize(x, n, err) != VBC_OK)
    return err->code;
  double *w = x->w; /* Lemke's w, replaced by the recomputed one below */
  vbc_lemke_options opt;
  vbc_lemke_options_default(&opt);
  vbc_lemke_result res;
  if (vbc_lemke_sparse(&x->lcp.M, x->lcp.q, &opt, x->ref.z, w, &res, err) != VBC_OK)
    return err->code;
  if (res.status != VBC_LEMKE_SOLVED) {
    char why[512];
    snprintf(why, sizeof why, "Lemke ended in %s after %ld pivots (error %.3g) on the LCP of %zu "
             "rows", vbc_lemke_status_name(res.status), res.pivots, res.error, n);
    note(x, why);
    return VBC_OK;
  }
  reference_w(&x->lcp, &x->ref);
  vbc_lcp_reference_scale(&x->ref, x->lcp.q);
  x->valid = 1;
  x->solves++;
  return VBC_OK;
}

/* vbc_trace_reference.start: the solve's LCP and its exact solution. */
static int reference_start(void *ctx, vbc_problem *pb, const vbc_solver *s, vbc_error *err) {
  (void)s;
  vbc_exact_reference *x = ctx;
  x->valid = 0;
  vbc_error e;
  vbc_error_clear(&e);
  int rc = vbc_lemke_assemble(pb, &x->lcp, &e);
  if (rc == VBC_EXIT_INPUT) { /* rows Lemke cannot take: no reference, the run goes on */
    note(x, e.message);
    return VBC_OK;
  }
  if (rc != VBC_OK) return vbc_error_set(err, rc, "--exact-reference: %s", e.message);
  if (x->lcp.n == 0) {
    note(x, "the solve has no active row");
    return VBC_OK;
  }
  if (solve_reference(x, &e) != VBC_OK)
    return vbc_error_set(err, e.code, "--exact-reference: %s", e.message);
  return VBC_OK;
}

/* vbc_trace_reference.measure: the current iterate mapped as the LCP was (exact_reference.h). */
static void reference_measure(void *ctx, const vbc_problem *pb, double *z_error,
                              double *w_error) {
  vbc_exact_reference *x = ctx;
  *z_error = *w_error = NAN;
  if (!x->valid) return;
  const vbc_lemke_lcp *lcp = &x->lcp;
  for (size_t i = 0; i < lcp->n; ++i) {
    const vbc_rows *r = &pb->blocks[lcp->block[i]]->rows;
    const size_t k = lcp->row[i];
    x->z[i] = fmax(lcp->sign[i] * r->impulse[k], 0.0);
    x->w[i] = -lcp->sign[i] * r->residual[k];
  }
  vbc_lcp_reference_errors(&x->ref, x->z, x->w, z_error, w_error);
}

vbc_trace_reference vbc_exact_reference_observer(vbc_exact_reference *x) {
  return (vbc_trace_reference){reference_start, reference_measure, x};
}

void vbc_exact_reference_free(vbc_exact_reference *x) {
  vbc_lemke_lcp_free(&x->lcp);
  vbc_lcp_reference_free(&x->ref);
  free(x->z);
  free(x->w);
  memset(x, 0, sizeof *x);
}

const char *vbc_exact_reference_take_note(vbc_exact_reference *x) {
  if (!x->noted) return NULL;
  x->noted = 0;
  if (x->note_printed) return NULL;
  x->note_printed = 1;
  return x->note;
}
