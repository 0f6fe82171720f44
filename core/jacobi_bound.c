/* jacobi_bound.c — see jacobi_bound.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jacobi_bound.h"
#include "core/operator.h"

typedef struct offset {
  double k[3]; /* lattice offset in units of l */
  double gx[3]; /* g(r) e along each axis */
} offset;

/* The lattice offsets within reach, with g(r) e; returns their count, *den = sum g^2. */
static size_t offsets(int dim, double l, double reach, double (*grad)(double, const void *),
                      const void *ctx, offset *out, double *den) {
  const int K = (int)ceil(reach / l);
  size_t n = 0;
  *den = 0.0;
  for (int a = -K; a <= K; ++a)
    for (int b = -K; b <= K; ++b)
      for (int c = dim == 3 ? -K : 0; c <= (dim == 3 ? K : 0); ++c) {
        const double r = l * sqrt((double)(a * a + b * b + c * c));
        if (r == 0.0 || r >= reach) continue;
        const double g = grad(r, ctx);
        if (g == 0.0) continue;
        const double k[3] = {a, b, c};
        for (int d = 0; d < 3; ++d) out[n].k[d] = k[d], out[n].gx[d] = g * k[d] * l / r;
        *den += g * g;
        ++n;
      }
  return n;
}

double vbc_jacobi_lattice_lambda_max(int dim, double l, double reach,
                                     double (*grad)(double r, const void *ctx), const void *ctx,
                                     int n) {
  const int K = (int)ceil(reach / l);
  const size_t cap = (size_t)(2 * K + 1) * (size_t)(2 * K + 1) * (dim == 3 ? (size_t)(2 * K + 1) : 1);
  offset *o = malloc(cap * sizeof *o);
  if (o == NULL) return NAN;
  double den;
  const size_t m = offsets(dim, l, reach, grad, ctx, o, &den);
  if (n <= 1) n = dim == 3 ? 25 : 65;
  const int nz = dim == 3 ? n : 1;
  const double step = M_PI / (n - 1);
  double best = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int q = 0; q < nz; ++q) {
        const double t[3] = {i * step, j * step, dim == 3 ? q * step : 0.0};
        double v[3] = {0.0, 0.0, 0.0};
        for (size_t p = 0; p < m; ++p) {
          const double s = sin(t[0] * o[p].k[0] + t[1] * o[p].k[1] + t[2] * o[p].k[2]);
          for (int d = 0; d < 3; ++d) v[d] += s * o[p].gx[d];
        }
        best = fmax(best, (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / den);
      }
  free(o);
  return m ? best : 0.0;
}

/* y = D^-1/2 A D^-1/2 x over the rows of pb (x, y, r0, r1 of n entries; z scratch), with r0 the
 * residuals of the current v: z = D^-1/2 x is applied, the residual read, and -z applied again. */
static void scaled_product(vbc_problem *pb, const double *inv_sqrt_diag, const double *x,
                           double *z, const double *r0, double *r1, double *y) {
  const size_t n = vbc_problem_rows(pb);
  for (size_t k = 0; k < n; ++k) z[k] = x[k] * inv_sqrt_diag[k];
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, z + off);
    off += blk->rows.n;
  }
  off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->residual(blk->state, pb->sys, &blk->rows, r1 + off);
    off += blk->rows.n;
  }
  for (size_t k = 0; k < n; ++k) z[k] = -z[k];
  off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, z + off);
    off += blk->rows.n;
  }
  for (size_t k = 0; k < n; ++k) y[k] = (r0[k] - r1[k]) * inv_sqrt_diag[k];
}

double vbc_problem_lambda_max(vbc_problem *pb, int iterations, vbc_error *err) {
  return vbc_problem_lambda_max_from(pb, iterations, NULL, err);
}

double vbc_problem_lambda_max_from(vbc_problem *pb, int iterations, const double *start,
                                   vbc_error *err) {
  const size_t n = vbc_problem_rows(pb);
  if (n == 0) return 0.0;
  double *buf = vbc_calloc(6 * n, sizeof *buf, err);
  if (buf == NULL) return NAN;
  double *s = buf, *x = buf + n, *y = buf + 2 * n, *z = buf + 3 * n, *r0 = buf + 4 * n,
         *r1 = buf + 5 * n;
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    const vbc_rows *r = &blk->rows;
    if (r->n) blk->type->residual(blk->state, pb->sys, r, r0 + off);
    for (size_t k = 0; k < r->n; ++k) {
      const double res = r0[off + k], lam = r->impulse[k];
      const int moves = (res > 0.0 && lam < r->hi[k]) || (res < 0.0 && lam > r->lo[k]) ||
                        (lam > r->lo[k] && lam < r->hi[k]);
      s[off + k] = r->diag[k] > 0.0 && moves ? 1.0 / sqrt(r->diag[k]) : 0.0;
    }
    off += r->n;
  }
  /* A start with every mode in it: a fixed pseudo-random sign pattern of mixed magnitude (the
   * modes that diverge first alternate between neighbours). */
  unsigned long seed = 12345u;
  double norm = 0.0;
  for (size_t k = 0; k < n; ++k) {
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    x[k] = s[k] > 0.0 ? (double)(seed >> 11) / 9007199254740992.0 - 0.5 : 0.0;
    norm += x[k] * x[k];
  }
  double given = 0.0; /* a start's part on the rows that move, D^1/2 times it */
  for (size_t k = 0; start && k < n; ++k) {
    const double sk = s[k] > 0.0 ? start[k] / s[k] : 0.0;
    given += sk * sk;
  }
  if (given > 0.0) { /* the start, with a little of every mode (the pattern above at 1e-3) */
    const double mix = 1e-3 * sqrt(given / norm);
    norm = 0.0;
    for (size_t k = 0; k < n; ++k) {
      x[k] = (s[k] > 0.0 ? start[k] / s[k] : 0.0) + mix * x[k];
      norm += x[k] * x[k];
    }
  }
  double lambda = 0.0;
  for (int it = 0; it < iterations && norm > 0.0; ++it) {
    const double inv = 1.0 / sqrt(norm);
    for (size_t k = 0; k < n; ++k) x[k] *= inv;
    scaled_product(pb, s, x, z, r0, r1, y);
    double xy = 0.0, yy = 0.0;
    for (size_t k = 0; k < n; ++k) xy += x[k] * y[k], yy += y[k] * y[k];
    lambda = xy; /* x has unit length: the Rayleigh quotient */
    memcpy(x, y, n * sizeof *x);
    norm = yy;
  }
  free(buf);
  return lambda;
}
