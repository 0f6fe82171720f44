/* dfsph.c — one DFSPH time step (Bender & Koschier, "Divergence-free smoothed particle
 * hydrodynamics", SCA 2015, Algorithm 1; "Divergence-Free SPH for Incompressible and Viscous
 * Fluids", IEEE TVCG 2017, BK17, Algorithms 1-3) with Akinci et al. 2012's two-way rigid coupling.
 *
 * One step (core/coupler.h):
 *   1. neighbour search at x^t (the simulation); the dfsph block computes rho_i, its kernels and
 *      the diagonals (BK17 eq. 11's alpha_i) when stage `divergence` builds its rows;
 *   2. stage `divergence`, before the explicit terms (stages_before_explicit = 1): the
 *      divergence-free solve on v^t, D rho_i/Dt <= 0 (BK17 Algorithm 2), solved by
 *      method.divergence.solver (dfsph_jacobi, eta_v = error_tolerance 0.1 %, at least one
 *      iteration); its pressure impulses on boundary particles move the bodies (Akinci's hook);
 *   3. the explicit terms: gravity, viscosity, XSPH give v* (BK17 Algorithm 1, "non-pressure
 *      forces");
 *   4. stage `fluid`: the constant-density solve rho*_i <= rho0 on v* (BK17 Algorithm 3) on the
 *      rows of step 2 (the particles have not moved), by method.fluid.solver (dfsph_jacobi,
 *      eta = error_tolerance 0.01 %, at least two iterations); its boundary impulses move the
 *      bodies;
 *   5. stage `body_contact`: contacts between bodies and pins, by method.contact.solver (pgs),
 *      skipped without rows, as in the akinci coupler after its fluid stage;
 *   6. x^{t+1} = x^t + h v^{t+1}; the bodies move and their particles follow.
 * Weak, as akinci: a body's velocity change from a stage reaches the fluid rows in the next
 * stage, with akinci's added-mass instability for light bodies (couplers/akinci.c). Choices left
 * open, and ours: the bodies take both solves' pressure impulses (the divergence solve's pressure
 * is a pressure like the other); body contacts get a solver group of their own because DFSPH's
 * iteration cannot run bilateral pin rows. */
#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"
#include "solvers/blocks/contact.h"
#include "solvers/blocks/dfsph.h"

enum { FLUID, BODY_CONTACT, PIN }; /* FLUID first: Akinci's hooks read slot 0 */
enum { STAGE_DIVERGENCE, STAGE_DENSITY, STAGE_BODY_CONTACT };

static void *dfsph_alloc(vbc_coupling *c, vbc_error *err) {
  const vbc_block *fluid = &c->block[FLUID];
  if (fluid->type != &vbc_block_dfsph) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: method.fluid.constraint: expected \"dfsph\" for "
                  "method.coupler \"dfsph\" (its two solves need its two row modes), got \"%s\"",
                  c->file, fluid->type->name);
    return NULL;
  }
  return vbc_akinci_alloc(c, err);
}

static int divergence_rows(vbc_coupling *c, size_t stage, vbc_error *err) {
  (void)stage, (void)err;
  vbc_dfsph_set_rows(&c->block[FLUID], VBC_DFSPH_DIVERGENCE, 0);
  return VBC_OK;
}

static int density_rows(vbc_coupling *c, size_t stage, vbc_error *err) {
  (void)stage, (void)err;
  vbc_dfsph_set_rows(&c->block[FLUID], VBC_DFSPH_DENSITY, 1);
  return VBC_OK;
}

static const vbc_group_spec groups[] = {
    {.key = "fluid",
     .doc = "the constant-density solve: the dfsph block's parameters and its solver (BK17 "
            "Algorithm 3: eta 0.01 %, at least 2 iterations)",
     .constraint_kind = VBC_BLOCK_FLUID,
     .constraint_default = "dfsph",
     .solver_default = "dfsph_jacobi",
     .solver_defaults = "{\"error_tolerance\": 1e-4, \"min_iterations\": 2}"},
    {.key = "divergence",
     .doc = "the divergence-free solve's solver (BK17 Algorithm 2: eta_v 0.1 %, at least 1 "
            "iteration); its rows are method.fluid's block",
     .solver_default = "dfsph_jacobi",
     .solver_defaults = "{\"error_tolerance\": 1e-3, \"min_iterations\": 1}"},
    VBC_GROUP_BODY_CONTACT,
};

static const vbc_slot_spec slots[] = {
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [BODY_CONTACT] = {.label = "body_contact", .group = "contact", .type = &vbc_block_contact,
                      .setup = vbc_contact_body_pairs},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};

static const vbc_stage_spec stages[] = {
    [STAGE_DIVERGENCE] = {.label = "divergence", VBC_STAGE_SLOTS(FLUID),
                          .solver_group = "divergence", .before = divergence_rows,
                          .after = vbc_akinci_push_bodies},
    [STAGE_DENSITY] = {.label = "fluid", VBC_STAGE_SLOTS(FLUID), .solver_group = "fluid",
                       .before = density_rows, .after = vbc_akinci_push_bodies},
    [STAGE_BODY_CONTACT] = {.label = "body_contact", VBC_STAGE_SLOTS(BODY_CONTACT, PIN),
                            .solver_group = "contact", .skip_without_rows = 1},
};

const vbc_coupler_type vbc_coupler_dfsph = {
    .name = "dfsph",
    .summary = "DFSPH: the divergence-free solve on v^t, the non-pressure forces, the "
               "constant-density solve, Akinci's two-way coupling after each (Bender & Koschier "
               "2015, 2017; Akinci et al. 2012)",
    .groups = groups,
    .ngroups = VBC_COUNTOF(groups),
    .slots = slots,
    .nslots = VBC_COUNTOF(slots),
    .stages = stages,
    .nstages = VBC_COUNTOF(stages),
    .body_traits = VBC_ROWS_PRESSURE_LOAD,
    .primary = STAGE_DENSITY,
    .alloc = dfsph_alloc,
    .free = vbc_akinci_free,
    .records_fluid_impulse = 1,
    .stages_before_explicit = 1,
};
