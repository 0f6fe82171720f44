/* coupler_blocks.h — what every coupler does with the blocks it owns: the body-contact and pin
 * pair the weak couplers solve after the fluid, and linking blocks into problems. */
#ifndef VBC_COUPLER_BLOCKS_H
#define VBC_COUPLER_BLOCKS_H

#include "app/sim.h"
#include "solvers/blocks/contact.h"

/* A contact block labelled `label` restricted to the pairs `which`, and a pin block, both with
 * the scene's method.contact parameters. On failure the caller frees them (vbc_block_free is
 * safe on a block that was never initialised: the coupler's state is calloc'd). */
int vbc_coupler_contact_pin_init(vbc_sim *sim, vbc_block *contact, const char *label,
                                 vbc_contact_pairs which, vbc_block *pin, vbc_error *err);
/* blocks[b] = &block[b] for the n blocks, and the neighbour search reaches every block's
 * support. */
void vbc_coupler_link_blocks(vbc_sim *sim, vbc_block *block, vbc_block **blocks, int n);

#endif
