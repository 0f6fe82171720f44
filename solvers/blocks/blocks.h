/* blocks.h — the constraint blocks: every kind of row vbc knows (core/constraint.h), one file each
 * in this folder. */
#ifndef VBC_BLOCKS_H
#define VBC_BLOCKS_H

#include "core/constraint.h"

extern const vbc_block_type vbc_block_mps;         /* Miyamoto & Koshizuka §2, eq. 15-41 */
extern const vbc_block_type vbc_block_sph_density; /* Ihmsen et al. 2014 (IISPH), Akinci 2012 */
extern const vbc_block_type vbc_block_contact;     /* Miyamoto & Koshizuka §3.2, §4 (contact.h) */
extern const vbc_block_type vbc_block_pin;         /* Miyamoto & Koshizuka §5.6-5.7 */
extern const vbc_block_type vbc_block_lcp_matrix;  /* an explicit LCP (M, q) (lcp_matrix.h) */

#endif
