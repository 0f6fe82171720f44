/* body_contacts.h — the second solve of the weak couplers (pms, akinci): once the fluid has
 * moved the bodies, the contacts between bodies and the pin joints are solved as their own
 * problem. */
#ifndef VBC_BODY_CONTACTS_H
#define VBC_BODY_CONTACTS_H

#include "core/coupler.h"

/* Prepare the blocks of `bodies` (a body-contact block and a pin block) and, when they have rows
 * this step, solve them with `solver` and write the results back; rep->solves becomes 2 then.
 * The solve is not traced: convergence.csv follows the fluid solve. */
int vbc_solve_body_contacts(vbc_problem *bodies, vbc_solver *solver, vbc_step_report *rep,
                            vbc_error *err);

#endif
