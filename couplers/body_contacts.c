/* body_contacts.c — see body_contacts.h. */
#include "couplers/body_contacts.h"

int vbc_solve_body_contacts(vbc_problem *bodies, vbc_solver *solver, vbc_step_report *rep,
                            vbc_error *err) {
  if (vbc_problem_prepare(bodies, err) != VBC_OK) return err->code;
  size_t rows = 0;
  for (size_t b = 0; b < bodies->nblocks; ++b) rows += bodies->blocks[b]->rows.n;
  if (rows == 0) return VBC_OK;
  vbc_solve_result res;
  if (vbc_solve(solver, bodies, &res, NULL, err) != VBC_OK) return err->code;
  vbc_problem_finish(bodies);
  rep->solves = 2;
  return VBC_OK;
}
