/* contact.h — the particle contact block (see contact.c). */
#ifndef VBC_CONTACT_H
#define VBC_CONTACT_H

#include "core/constraint.h"

extern const vbc_block_type vbc_block_contact;

/* Which pairs a contact block gives rows: all of them (strong coupling), only those with a fluid
 * side, or only those between two bodies (rigid or wall). A weak coupler solves the two sets in
 * separate solves (couplers/pms.c). The default is all. */
typedef enum vbc_contact_pairs {
  VBC_CONTACTS_ALL = 0,
  VBC_CONTACTS_FLUID = 1,
  VBC_CONTACTS_BODIES = 2
} vbc_contact_pairs;

/* Select the pairs of contact block b (a no-op for other block types). */
void vbc_contact_select(vbc_block *b, vbc_contact_pairs which);

#endif
