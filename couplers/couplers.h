/* couplers.h — one time step's orchestration, chosen by `method.coupler`. */
#ifndef VBC_COUPLERS_H
#define VBC_COUPLERS_H

#include "core/coupler.h"

extern const vbc_coupler_type vbc_coupler_strong; /* Miyamoto & Koshizuka Fig. 1 */
extern const vbc_coupler_type vbc_coupler_akinci; /* Akinci 2012 boundary forces (weak) */
extern const vbc_coupler_type vbc_coupler_pms;    /* Koshizuka PMS, Carlson Rigid Fluid */
extern const vbc_coupler_type vbc_coupler_lemke_contacts; /* Kurose & Takahashi §4.2 */

#endif
