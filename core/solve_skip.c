/* solve_skip.c — the state a sweep scheme's iterations change, kept and restored, so that
 * vbc_solve can leave out residual passes and still stop where a pass after every sweep would
 * (core/solve_skip.h). A block that sets rows.swept_residual changes nothing else in a sweep
 * (core/constraint.h). */
#include <stdlib.h>
#include <string.h>

#include "core/solve_skip.h"

int vbc_skip_all_swept(const vbc_problem *pb) {
  for (size_t b = 0; b < pb->nblocks; ++b)
    if (pb->blocks[b]->rows.n && !pb->blocks[b]->rows.swept_residual) return 0;
  return 1;
}

int vbc_skip_keep(vbc_skip *k, const vbc_problem *pb, int it, vbc_error *err) {
  const vbc_system *sys = pb->sys;
  const size_t np = sys->particles ? sys->particles->n : 0;
  if (k->impulse == NULL) {
    for (size_t b = 0; b < pb->nblocks; ++b) k->nimpulse += pb->blocks[b]->rows.n;
    k->impulse = vbc_calloc(k->nimpulse + 1, sizeof *k->impulse, err);
    k->vel = vbc_calloc(np + 1, sizeof *k->vel, err);
    k->bodies = vbc_calloc(sys->nbodies + 1, sizeof *k->bodies, err);
    if (!k->impulse || !k->vel || !k->bodies) return err->code;
  }
  size_t at = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    if (r->n) memcpy(k->impulse + at, r->impulse, r->n * sizeof *r->impulse); /* none: NULL */
    at += r->n;
  }
  if (np) memcpy(k->vel, sys->particles->vel, np * sizeof *k->vel);
  if (sys->nbodies) memcpy(k->bodies, sys->bodies, sys->nbodies * sizeof *k->bodies);
  k->last = it;
  return VBC_OK;
}

void vbc_skip_restore(const vbc_skip *k, vbc_problem *pb) {
  vbc_system *sys = pb->sys;
  size_t at = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_rows *r = &pb->blocks[b]->rows;
    if (r->n) memcpy(r->impulse, k->impulse + at, r->n * sizeof *r->impulse);
    at += r->n;
  }
  if (sys->particles && sys->particles->n)
    memcpy(sys->particles->vel, k->vel, sys->particles->n * sizeof *k->vel);
  if (sys->nbodies) memcpy(sys->bodies, k->bodies, sys->nbodies * sizeof *k->bodies);
}

void vbc_skip_free(vbc_skip *k) {
  free(k->impulse);
  free(k->vel);
  free(k->bodies);
  memset(k, 0, sizeof *k);
}
