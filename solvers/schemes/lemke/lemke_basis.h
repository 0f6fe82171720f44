/* lemke_basis.h — the inside of Lemke's method (solvers/schemes/lemke/lemke.c): the scaled problem,
 * the basis inverse A^-1 and the pivoting steps, shared by lemke.c (the driver), lemke_basis.c
 * (state, products, the entering column, the ratio test), lemke_pivot.c (basis changes,
 * refactorisation) and lemke_defer.c (borders applied late). Not an interface for other
 * modules; lemke.c's head comment explains the method and its choices. */
#ifndef VBC_LEMKE_BASIS_H
#define VBC_LEMKE_BASIS_H

#include "solvers/schemes/lemke/lemke.h"

#define LEX_TOLERANCE 1e-9
#define REFRESH_EVERY 64
#define POLISH_STEPS 60     /* at most, in the final basis (final_point) */
#define REGULARIZATION 1e-5 /* eps of the first run on contact-like matrices (head comment) */
#define REFINE_AT 1e-11   /* relative residual of an entering column worth one refinement step */
#define REFACTOR_AT 1e-10 /* ... that after it makes us factorise the basis afresh */

/* Compressed sparse rows (also used for columns: the CSR of the transpose). */

typedef struct csr {
  size_t n, nnz;
  size_t *start, *idx;
  double *val;
} csr;

/* The solver's state. Variables: z_j is j (j < n), z0 is n. */

typedef struct lk {
  size_t n;
  csr R, C;          /* scaled M by rows and by columns */
  double *D, *q, *d; /* scaling, scaled q and covering vector */
  double qs;         /* q scale s */
  double reg;        /* regularization eps added to the scaled diagonal (0: none) */
  unsigned char *regd; /* row j's diagonal carries reg */
  double tie, piv;
  size_t m, cap;     /* A is m x m, stored in cap x cap (column-major) */
  double *Ainv;      /* Ainv[a * cap + p] = (A^-1)_{p a} */
  long *eqpos;       /* equation i -> its row a of A, or -1 if w_i is basic */
  size_t *req;       /* row a of A -> equation */
  long *zpos;        /* z_j (j <= n, z0 = n) -> its column p of A, or -1 if nonbasic */
  size_t *cvar;      /* column p of A -> variable */
  double *xw, *xz;   /* values of the basic w_i (by i) and of A's variables (by p) */
  double *y, *aw;    /* the entering column: A part (by p), W part (by i) */
  double *t, *g, *r; /* scratch: n, cap, cap */
  size_t *cand;      /* ratio-test ties: variable ids, w_i as n + 1 + i */
  double *cabar, *cval;
  unsigned char *candw; /* equation i's w is a tied candidate */
  size_t *rowp;      /* gather_row: positions and values, nrow of them */
  double *rowv;
  size_t nrow;
  size_t basis_max;
  /* Borders held back (lemke_defer.c). A border changes every column of A^-1 by a rank-one term:
   * a pass over all of A^-1 per pivot, which streams from memory once A^-1 outgrows the cache.
   * Up to defer_max borders are logged instead, and a column takes the logged ones, in order,
   * when it is read (vbc_lk_col) or when the log is flushed: the same operations on each entry
   * in the same order as at once, so the same bits, with the column in cache for all of them. */
  size_t defer_max;  /* borders logged at most (0: each is flushed to all of A^-1 at once) */
  size_t nlog;       /* borders logged */
  size_t *ver;       /* per column of A (cap): how many of the logged borders it has taken */
  size_t *log_m;     /* per logged border: m before it */
  double *log_piv;   /* ... its pivot */
  size_t *log_row;   /* max(defer_max, 1) + 1: where its gathered row starts in log_rowp/v */
  size_t *log_rowp;
  double *log_rowv;
  size_t *log_y;     /* max(defer_max, 1) + 1: where its entering column starts in log_yv */
  double *log_yv;
  size_t cap_logrow, cap_logy;
} lk;

/* Column a of A^-1 (contiguous over the basic variables) as stored: without the logged borders
 * it has not taken yet. Readers outside lemke_defer.c and the basis changes use vbc_lk_col. */
static inline double *col(const lk *s, size_t a) { return s->Ainv + a * s->cap; }

/* v^T c of a gathered row v (n entries: values val at positions pos) and a column c, summed in
 * the row's order: a border's and a row replacement's factors (lemke_pivot.c, lemke_defer.c). */
static inline double vbc_lk_row_dot(const size_t *pos, const double *val, size_t n,
                                    const double *c) {
  double acc = 0.0;
  for (size_t t = 0; t < n; ++t) acc += val[t] * c[pos[t]];
  return acc;
}

void vbc_lk_csr_free(csr *a);
int vbc_lk_csr_alloc(csr *a, size_t n, size_t nnz, vbc_error *err);
int vbc_lk_csr_transpose(const csr *a, csr *t, vbc_error *err);
void vbc_lk_csr_affine(const vbc_sparse *M, const double *z, const double *q, double *w);
void vbc_lk_free(lk *s);
int vbc_lk_reserve(lk *s, size_t need, vbc_error *err);
int vbc_lk_init(lk *s, const vbc_sparse *M, const double *q, const vbc_lemke_options *opt,
                double reg, vbc_error *err);
void vbc_lk_basic_times(const lk *s, const double *x, double *t);
void vbc_lk_ainv_times(lk *s, const double *v, double *out);
double vbc_lk_entering_column(lk *s, size_t e, int is_w);
size_t vbc_lk_ratio_test(lk *s, double *theta);
void vbc_lk_true_times(const lk *s, const double *x, double *t);
void vbc_lk_refresh(lk *s, int steps);
int vbc_lk_pivot(lk *s, size_t enter, size_t leave, double theta, vbc_error *err);
size_t vbc_lk_first_pivot(lk *s);
int vbc_lk_refactor(lk *s, vbc_error *err);

/* lemke_defer.c */
int vbc_lk_defer_init(lk *s, size_t defer_max, vbc_error *err);
void vbc_lk_defer_free(lk *s);
/* Column a of A^-1 with every logged border applied. */
double *vbc_lk_col(lk *s, size_t a);
/* Every column up to date, the log empty. */
void vbc_lk_flush(lk *s);
/* Log the border of the gathered row (rowp, rowv, nrow), the entering column y (m entries) and
 * pivot piv, flushing first when the log is full. */
int vbc_lk_log_border(lk *s, double piv, vbc_error *err);
/* Every column has been written afresh (refactorisation): the log no longer applies. */
void vbc_lk_log_clear(lk *s);

#endif
