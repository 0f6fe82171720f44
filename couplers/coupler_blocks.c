/* coupler_blocks.c — see coupler_blocks.h. */
#include "couplers/coupler_blocks.h"
#include "solvers/blocks/blocks.h"

int vbc_coupler_contact_pin_init(vbc_sim *sim, vbc_block *contact, const char *label,
                                 vbc_contact_pairs which, vbc_block *pin, vbc_error *err) {
  const cJSON *params = sim->scene->contact_params;
  if (vbc_block_init(contact, &vbc_block_contact, params, &sim->sys, label, err) != VBC_OK ||
      vbc_block_init(pin, &vbc_block_pin, params, &sim->sys, "pin", err) != VBC_OK)
    return err->code;
  vbc_contact_select(contact, which);
  return VBC_OK;
}

void vbc_coupler_link_blocks(vbc_sim *sim, vbc_block *block, vbc_block **blocks, int n) {
  for (int b = 0; b < n; ++b) {
    if (block[b].support > sim->support) sim->support = block[b].support;
    blocks[b] = &block[b];
  }
}
