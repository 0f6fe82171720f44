/* strong.c — strong coupling: every constraint block in one iteration loop (Miyamoto &
 * Koshizuka §2.5, §4 and Fig. 1).
 *
 * One step (core/coupler.h): neighbour search at r^t; explicit terms give u* for the fluid and
 * v*, w* for the bodies (gravity, viscosity); one stage, `coupled`: every block prepares its rows
 * from r^t and u*, one solver iterates all blocks together until the combined stopping test holds
 * (vbc_solve: the residual of all rows relative to the residual they would have with zero
 * impulses), and the blocks write back their results (pressure); u^{t+1} = u*;
 * r^{t+1} = r^t + h u^{t+1} and the bodies move by eq. 44-45.
 *
 * The blocks, swept in this order by the scene's fluid solver (PGS, Jacobi, ...):
 *   fluid    the scene's incompressibility block (method.fluid.constraint);
 *   contact  particle contacts: fluid-wall, fluid-rigid (§4.2), rigid-rigid and rigid-wall (§3.2);
 *   pin      the pin joints of pinned bodies (§5.6-5.7).
 * How rigid particles enter the incompressibility rows — a choice the paper leaves open — is the
 * fluid block's option rigid_pressure (solvers/blocks/mps_incompressibility.c, docs/coupling.md):
 * their velocity is always the body's in the divergence term; with rigid_pressure the rows'
 * impulses also act on the bodies, without it only the contacts move them. Either way all three
 * blocks are in the one loop, so a push on one side of a body reaches the fluid on its other side
 * within the same step (the seesaw of §5.6). */
#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"

enum { FLUID, CONTACT, PIN };

static const vbc_group_spec groups[] = {VBC_GROUP_FLUID, VBC_GROUP_CONTACT};

static const vbc_slot_spec slots[] = {
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [CONTACT] = {.label = "contact", .group = "contact", .type = &vbc_block_contact},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};

static const vbc_stage_spec stages[] = {
    {.label = "coupled", VBC_STAGE_SLOTS(FLUID, CONTACT, PIN), .solver_group = "fluid"},
};

const vbc_coupler_type vbc_coupler_strong = {
    .name = "strong",
    .summary = "all blocks (fluid, contacts, pins) in one solver loop, then integrate (Miyamoto "
               "& Koshizuka Fig. 1)",
    .groups = groups,
    .ngroups = VBC_COUNTOF(groups),
    .slots = slots,
    .nslots = VBC_COUNTOF(slots),
    .stages = stages,
    .nstages = VBC_COUNTOF(stages),
    .body_traits = VBC_ROWS_PUSH_BODIES,
    .primary = 0,
};
