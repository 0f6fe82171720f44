/* operator.c — see operator.h. The assembly forms each row of M = S J W J^T S from the rows'
 * sparse Jacobians: W J_i^T over the degrees of freedom row i touches, then its dot product with
 * every listed row that shares one of them (a column index of J by degrees of freedom), so a row
 * costs the sum of its neighbours' Jacobian lengths, not O(n). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/operator.h"

/* The listed rows (vbc_assemble_rows' arguments). */
typedef struct row_list {
  size_t n;
  const size_t *block, *row;
  const signed char *sign;
} row_list;

/* out += W e_dof val, marking touched dofs (core/constraint.h: particle dofs, then per body
 * dim linear and nrot angular ones; the angular block of W is the world inverse inertia). */
static void add_w_column(const vbc_system *sys, int fixed_bodies, size_t dof, double val,
                         double *out, unsigned char *mark, size_t *touched, size_t *nt) {
  const size_t dim = (size_t)sys->dim, np = sys->particles->n;
  if (fixed_bodies && dof >= dim * np) return;
  size_t dofs[3];
  double vals[3];
  size_t k = 0;
  if (dof < dim * np) {
    dofs[k] = dof;
    vals[k++] = vbc_system_inv_mass(sys, dof / dim) * val;
  } else {
    const size_t per = dim + vbc_system_nrot(sys), rel = dof - dim * np, loc = rel % per;
    const vbc_body *b = &sys->bodies[rel / per];
    if (loc < dim) {
      dofs[k] = dof;
      vals[k++] = (b->lock & (VBC_LOCK_X << loc)) ? 0.0 : b->inv_mass * val;
    } else if (dim == 2) {
      dofs[k] = dof;
      vals[k++] = b->inv_inertia.a[2][2] * val;
    } else {
      const size_t axis = loc - dim, base = dof - axis;
      for (size_t r = 0; r < 3; ++r) {
        dofs[k] = base + r;
        vals[k++] = b->inv_inertia.a[r][axis] * val;
      }
    }
  }
  for (size_t i = 0; i < k; ++i) {
    if (vals[i] == 0.0) continue;
    if (!mark[dofs[i]]) {
      mark[dofs[i]] = 1;
      touched[(*nt)++] = dofs[i];
    }
    out[dofs[i]] += vals[i];
  }
}

typedef struct assembly {
  vbc_sparse *J;          /* per block */
  size_t ndofs;
  size_t *dstart, *drow;  /* dof -> LCP rows (CSC of the stacked, signed J) */
  double *dval;
  double *wj, *acc;       /* W J_i^T over dofs; row i of M over LCP rows */
  unsigned char *dmark, *rmark;
  size_t *dtouch, *rtouch;
  int fixed_bodies;       /* W = 0 on the bodies' degrees of freedom */
} assembly;

static void assembly_free(assembly *a, size_t nblocks) {
  if (a->J)
    for (size_t b = 0; b < nblocks; ++b) vbc_sparse_free(&a->J[b]);
  void *p[] = {a->J,  a->dstart, a->drow,  a->dval,   a->wj,
               a->acc, a->dmark, a->rmark, a->dtouch, a->rtouch};
  for (size_t k = 0; k < sizeof p / sizeof *p; ++k) free(p[k]);
}

/* The Jacobians and the dof -> row map. Every block with listed rows must offer its Jacobian. */
static int assembly_init(assembly *a, const vbc_problem *pb, const row_list *rl, vbc_error *err) {
  const size_t n = rl->n;
  a->ndofs = vbc_system_ndofs(pb->sys);
  a->J = vbc_calloc(pb->nblocks ? pb->nblocks : 1, sizeof *a->J, err);
  if (a->J == NULL) return err->code;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->rows.n == 0) continue;
    if (blk->type->jacobian == NULL)
      return vbc_error_set(err, VBC_EXIT_INPUT, "block %s (%s) gives no Jacobian rows, so its "
                           "operator J M^-1 J^T cannot be assembled", blk->type->name,
                           blk->label ? blk->label : "?");
    if (blk->type->jacobian(blk->state, pb->sys, &a->J[b], err) != VBC_OK) return err->code;
  }
  size_t nnz = 0;
  for (size_t i = 0; i < n; ++i) {
    const vbc_sparse *J = &a->J[rl->block[i]];
    nnz += J->start[rl->row[i] + 1] - J->start[rl->row[i]];
  }
  a->dstart = vbc_calloc(a->ndofs + 1, sizeof *a->dstart, err);
  a->drow = vbc_calloc(nnz + 1, sizeof *a->drow, err);
  a->dval = vbc_calloc(nnz + 1, sizeof *a->dval, err);
  a->wj = vbc_calloc(a->ndofs + 1, sizeof *a->wj, err);
  a->dmark = vbc_calloc(a->ndofs + 1, 1, err);
  a->dtouch = vbc_calloc(a->ndofs + 1, sizeof *a->dtouch, err);
  a->acc = vbc_calloc(n, sizeof *a->acc, err);
  a->rmark = vbc_calloc(n, 1, err);
  a->rtouch = vbc_calloc(n, sizeof *a->rtouch, err);
  if (!a->dstart || !a->drow || !a->dval || !a->wj || !a->dmark || !a->dtouch || !a->acc ||
      !a->rmark || !a->rtouch)
    return err->code;
  for (size_t i = 0; i < n; ++i) {
    const vbc_sparse *J = &a->J[rl->block[i]];
    for (size_t k = J->start[rl->row[i]]; k < J->start[rl->row[i] + 1]; ++k)
      a->dstart[J->col[k] + 1]++;
  }
  for (size_t d = 0; d < a->ndofs; ++d) a->dstart[d + 1] += a->dstart[d];
  size_t *next = a->dtouch; /* borrowed as the fill cursor */
  memcpy(next, a->dstart, a->ndofs * sizeof *next);
  for (size_t i = 0; i < n; ++i) {
    const vbc_sparse *J = &a->J[rl->block[i]];
    for (size_t k = J->start[rl->row[i]]; k < J->start[rl->row[i] + 1]; ++k) {
      size_t e = next[J->col[k]]++;
      a->drow[e] = i;
      a->dval[e] = rl->sign[i] * J->val[k];
    }
  }
  return VBC_OK;
}

/* Row i of M: W J_i^T over the dofs, then dotted with every row sharing a dof. */
static size_t assemble_row(assembly *a, const vbc_system *sys, const row_list *rl, size_t i,
                           vbc_sparse *M, size_t e) {
  const vbc_sparse *J = &a->J[rl->block[i]];
  size_t nd = 0, nr = 0;
  for (size_t k = J->start[rl->row[i]]; k < J->start[rl->row[i] + 1]; ++k)
    add_w_column(sys, a->fixed_bodies, J->col[k], rl->sign[i] * J->val[k], a->wj, a->dmark,
                 a->dtouch, &nd);
  for (size_t t = 0; t < nd; ++t) {
    const size_t d = a->dtouch[t];
    for (size_t k = a->dstart[d]; k < a->dstart[d + 1]; ++k) {
      const size_t l = a->drow[k];
      if (!a->rmark[l]) {
        a->rmark[l] = 1;
        a->rtouch[nr++] = l;
      }
      a->acc[l] += a->dval[k] * a->wj[d];
    }
    a->wj[d] = 0.0;
    a->dmark[d] = 0;
  }
  for (size_t t = 0; t < nr; ++t) {
    const size_t l = a->rtouch[t];
    if (a->acc[l] != 0.0) {
      M->col[e] = l;
      M->val[e++] = a->acc[l];
    }
    a->acc[l] = 0.0;
    a->rmark[l] = 0;
  }
  return e;
}

static int assemble_rows(const vbc_problem *pb, size_t n, const size_t *block, const size_t *row,
                         const signed char *sign, int fixed_bodies, vbc_sparse *M,
                         vbc_error *err) {
  const row_list rl = {n, block, row, sign};
  assembly a = {0};
  a.fixed_bodies = fixed_bodies;
  int rc = assembly_init(&a, pb, &rl, err);
  /* every row of M has at most one entry per listed row: grow the storage as rows come */
  size_t e = 0;
  if (rc == VBC_OK) rc = vbc_sparse_reserve(M, n, 16 * n + 16, err);
  for (size_t i = 0; rc == VBC_OK && i < n; ++i) {
    if (M->cap_nnz - e < n) rc = vbc_sparse_reserve(M, n, e + n, err);
    if (rc != VBC_OK) break;
    M->start[i] = e;
    e = assemble_row(&a, pb->sys, &rl, i, M, e);
  }
  if (rc == VBC_OK) {
    M->start[n] = e;
    M->nnz = e;
    M->nrows = M->ndofs = n;
  }
  assembly_free(&a, pb->nblocks);
  return rc;
}

int vbc_assemble_rows(const vbc_problem *pb, size_t n, const size_t *block, const size_t *row,
                      const signed char *sign, vbc_sparse *M, vbc_error *err) {
  return assemble_rows(pb, n, block, row, sign, 0, M, err);
}

size_t vbc_problem_rows(const vbc_problem *pb) {
  size_t n = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) n += pb->blocks[b]->rows.n;
  return n;
}

const vbc_block *vbc_problem_unassemblable(const vbc_problem *pb) {
  if (pb->nblocks == 1 && pb->blocks[0]->type->assemble) return NULL;
  for (size_t b = 0; b < pb->nblocks; ++b)
    if (pb->blocks[b]->type->jacobian == NULL) return pb->blocks[b];
  return NULL;
}

static int problem_assemble(const vbc_problem *pb, int fixed_bodies, vbc_sparse *A,
                            vbc_error *err) {
  if (pb->nblocks == 1 && pb->blocks[0]->type->assemble) {
    const vbc_block *blk = pb->blocks[0];
    return blk->type->assemble(blk->state, pb->sys, &blk->rows, A, err);
  }
  const vbc_block *bad = vbc_problem_unassemblable(pb);
  if (bad)
    return vbc_error_set(err, VBC_EXIT_INPUT, "block %s (%s) offers neither its own operator nor "
                         "Jacobian rows, so the operator cannot be assembled", bad->type->name,
                         bad->label ? bad->label : "?");
  const size_t n = vbc_problem_rows(pb);
  size_t *block = vbc_calloc(n, sizeof *block, err), *row = block ? vbc_calloc(n, sizeof *row, err)
                                                                  : NULL;
  signed char *sign = row ? vbc_calloc(n, sizeof *sign, err) : NULL;
  int rc = sign ? VBC_OK : err->code;
  for (size_t b = 0, i = 0; rc == VBC_OK && b < pb->nblocks; ++b)
    for (size_t k = 0; k < pb->blocks[b]->rows.n; ++k, ++i) {
      block[i] = b;
      row[i] = k;
      sign[i] = 1;
    }
  if (rc == VBC_OK) rc = assemble_rows(pb, n, block, row, sign, fixed_bodies, A, err);
  free(block), free(row), free(sign);
  return rc;
}

int vbc_problem_assemble(const vbc_problem *pb, vbc_sparse *A, vbc_error *err) {
  return problem_assemble(pb, 0, A, err);
}

int vbc_problem_assemble_fixed_bodies(const vbc_problem *pb, vbc_sparse *A, vbc_error *err) {
  return problem_assemble(pb, 1, A, err);
}
