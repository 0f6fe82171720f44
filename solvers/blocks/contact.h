/* contact.h — the particle contact block (see contact.c). */
#ifndef VBC_CONTACT_H
#define VBC_CONTACT_H

#include "core/constraint.h"

extern const vbc_block_type vbc_block_contact;

/* Which pairs a contact block gives rows: all of them (the default; strong coupling, Kurose's
 * one LCP), or, for a weak coupler that solves the two sets separately (couplers/pms.c), only
 * those with a fluid side or only those between two bodies (rigid or wall). Slot set-up hooks
 * (core/coupler.h); a no-op on other block types. */
void vbc_contact_fluid_pairs(vbc_block *b);
void vbc_contact_body_pairs(vbc_block *b);

#endif
