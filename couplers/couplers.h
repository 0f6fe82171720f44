/* couplers.h — one time step's orchestration, chosen by `method.coupler`: each coupler is a
 * stage table (core/coupler.h) plus the hooks its stages need. */
#ifndef VBC_COUPLERS_H
#define VBC_COUPLERS_H

#include "core/coupler.h"

extern const vbc_coupler_type vbc_coupler_strong; /* Miyamoto & Koshizuka Fig. 1 */
extern const vbc_coupler_type vbc_coupler_akinci; /* Akinci 2012 boundary forces (weak) */
extern const vbc_coupler_type vbc_coupler_pms;    /* Koshizuka PMS, Carlson Rigid Fluid */
extern const vbc_coupler_type vbc_coupler_lemke_contacts; /* Kurose & Takahashi §4.2 */
extern const vbc_coupler_type vbc_coupler_staggered; /* He et al. 2012, Alg. 1 */
extern const vbc_coupler_type vbc_coupler_dfsph; /* Bender & Koschier 2015/2017, Alg. 1 */

/* Akinci et al. 2012's two-way coupling as hooks (couplers/akinci.c), for every coupler whose
 * slot 0 is an SPH fluid block reporting boundary impulses: alloc checks that and keeps one
 * impulse per particle; push_bodies, a stage's `after`, passes the stage's pressure impulses on
 * the boundary particles to their bodies. */
void *vbc_akinci_alloc(vbc_coupling *c, vbc_error *err);
void vbc_akinci_free(void *state);
int vbc_akinci_push_bodies(vbc_coupling *c, size_t stage, int ok, vbc_error *err);

/* The parameter groups the couplers share: method.fluid chooses the fluid block and the solver;
 * method.contact holds the contact and pin blocks' parameters, with a solver of its own only
 * where a coupler solves the contacts as a problem of their own. */
#define VBC_GROUP_FLUID                                                                      \
  {.key = "fluid",                                                                           \
   .doc = "the fluid block (`constraint`, a block of kind fluid) and the solver of the "     \
          "stages that name it, with their parameters",                                      \
   .constraint_kind = VBC_BLOCK_FLUID,                                                       \
   .constraint_default = "mps",                                                              \
   .solver_default = "pgs"}
#define VBC_GROUP_CONTACT                                                                    \
  {.key = "contact",                                                                         \
   .doc = "the contact and pin blocks' parameters (solved by method.fluid.solver)"}
/* The weak couplers (akinci, dfsph) solve the contacts between bodies after the fluid, in a
 * stage of their own with a rigid-body engine's solver: projected Gauss-Seidel by default. */
#define VBC_GROUP_BODY_CONTACT                                                               \
  {.key = "contact",                                                                         \
   .doc = "the contact and pin blocks between bodies and the solver of their stage",         \
   .solver_default = "pgs"}

#endif
