/* contact.h — the particle contact block (see contact.c). */
#ifndef VBC_CONTACT_H
#define VBC_CONTACT_H

#include "core/constraint.h"

extern const vbc_block_type vbc_block_contact;

#endif
