/* constraint.c — rows, sparse rows, blocks and solver instances: their lifecycles and names;
 * the solve loop is in solve.c (see constraint.h for both). */
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"

int vbc_rows_resize(vbc_rows *rows, size_t n, vbc_error *err) {
  void *const fields[] = {&rows->target,  &rows->lo,       &rows->hi,     &rows->diag,
                          &rows->impulse, &rows->residual, &rows->scratch};
  const size_t sizes[] = {sizeof(double), sizeof(double), sizeof(double), sizeof(double),
                          sizeof(double), sizeof(double), sizeof(double)};
  if (vbc_grow(&rows->cap, n, fields, sizes, 7, err) != VBC_OK) return err->code;
  rows->n = n;
  return VBC_OK;
}

void vbc_rows_free(vbc_rows *rows) {
  free(rows->target);
  free(rows->lo);
  free(rows->hi);
  free(rows->diag);
  free(rows->impulse);
  free(rows->residual);
  free(rows->scratch);
  memset(rows, 0, sizeof *rows);
}

int vbc_sparse_reserve(vbc_sparse *J, size_t nrows, size_t nnz, vbc_error *err) {
  if (vbc_grow(&J->cap_rows, nrows + 1, (void *[]){&J->start}, (size_t[]){sizeof *J->start}, 1,
               err) != VBC_OK)
    return err->code;
  return vbc_grow(&J->cap_nnz, nnz, (void *[]){&J->col, &J->val},
                  (size_t[]){sizeof *J->col, sizeof *J->val}, 2, err);
}

void vbc_sparse_free(vbc_sparse *J) {
  free(J->start);
  free(J->col);
  free(J->val);
  memset(J, 0, sizeof *J);
}

int vbc_block_init(vbc_block *b, const vbc_block_type *type, const cJSON *params,
                   const vbc_system *sys, const char *label, vbc_error *err) {
  memset(b, 0, sizeof *b);
  b->type = type;
  b->label = label;
  b->state = type->alloc(params, sys, &b->support, err);
  return b->state ? VBC_OK : err->code;
}

void vbc_block_free(vbc_block *b) {
  if (b->type && b->state) b->type->free(b->state);
  vbc_rows_free(&b->rows);
  memset(b, 0, sizeof *b);
}

static const vbc_param_spec *control_spec(const vbc_solver_type *t, const char *key) {
  return vbc_param_find(t->params, key);
}

int vbc_solver_init(vbc_solver *s, const vbc_solver_type *type, const cJSON *params,
                    vbc_error *err) {
  memset(s, 0, sizeof *s);
  s->type = type;
  s->control.tolerance = vbc_param_number(params, type->params, "tolerance");
  s->control.error_tolerance =
      control_spec(type, "error_tolerance")
          ? vbc_param_number(params, type->params, "error_tolerance")
          : 0.0;
  s->control.max_iterations = (int)vbc_param_number(params, type->params, "max_iterations");
  s->control.min_iterations =
      control_spec(type, "min_iterations")
          ? (int)vbc_param_number(params, type->params, "min_iterations")
          : 0;
  s->state = type->alloc(params, err);
  return s->state ? VBC_OK : err->code;
}

void vbc_solver_free(vbc_solver *s) {
  if (s->type && s->state) s->type->free(s->state);
  memset(s, 0, sizeof *s);
}

const char *vbc_stop_reason_name(vbc_stop_reason r) {
  switch (r) {
    case VBC_STOP_TOLERANCE: return "tolerance";
    case VBC_STOP_MAX_ITERATIONS: return "max_iterations";
    case VBC_STOP_ROUND_OFF: return "round_off";
    case VBC_STOP_ERROR: return "error_tolerance";
    case VBC_STOP_BREAKDOWN: return "breakdown";
    default: return "?";
  }
}

void vbc_solve_trace_free(vbc_solve_trace *t) {
  free(t->total);
  free(t->per_block);
  free(t->error);
  free(t->seconds);
  free(t->reference_error);
  free(t->reference_w_error);
  memset(t, 0, sizeof *t);
}

int vbc_solve_stats_add(vbc_solve_stats *s, const char *name, double value, vbc_figure_kind kind,
                        vbc_error *err) {
  if (s->n == VBC_MAX_FIGURES)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "figure %s: more than VBC_MAX_FIGURES (%d) in one "
                         "solve", name, VBC_MAX_FIGURES);
  s->name[s->n] = name;
  s->value[s->n] = value;
  s->kind[s->n++] = kind;
  return VBC_OK;
}

const char *vbc_block_kind_name(vbc_block_kind k) {
  switch (k) {
    case VBC_BLOCK_FLUID: return "fluid";
    case VBC_BLOCK_CONTACT: return "contact";
    case VBC_BLOCK_JOINT: return "joint";
    case VBC_BLOCK_MATRIX: return "matrix";
    default: return "none";
  }
}
