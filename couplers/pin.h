/* pin.h — the pin joint block (see pin.c). */
#ifndef VBC_PIN_H
#define VBC_PIN_H

#include "core/constraint.h"

extern const vbc_block_type vbc_block_pin;

#endif
