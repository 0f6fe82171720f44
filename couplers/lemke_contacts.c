/* lemke_contacts.c — the contact coupling of Kurose & Takahashi (SCCG 2009,
 * §4.2; docs/references.md): the fluid advances with its own solver, then every simultaneous contact
 * (fluid particles as point masses against bodies, bodies against bodies and walls) is one LCP,
 * solved exactly by Lemke's method.
 *
 * One step (core/coupler.h; stages `fluid` and `contact`):
 *   1. neighbour search at r^t; explicit terms (gravity, viscosity) give u* for the fluid and
 *      v*, w* for the bodies (vbc_sim_explicit);
 *   2. the scene's fluid block alone is solved by the scene's fluid solver (method.fluid): bodies
 *      enter its rows with their velocity, as moving walls. With the `mps` block the option
 *      rigid_pressure decides whether its impulses also act on free and pinned bodies: false is
 *      Kurose's scheme (fluid and bodies exchange momentum through the contacts of step 3 only),
 *      true adds the pressure as a second channel inside this solve (the `strong` coupler's
 *      treatment of the pressure, without the contacts in the same loop). Blocks that never
 *      move bodies (sph_density) behave as rigid_pressure = false, so with a free or pinned body
 *      the set-up refuses every fluid block but mps with rigid_pressure (body_traits below)
 *      unless method.uncoupled_bodies opts in. Measured on
 *      experiments/scenes/kurose_bodies.json: with mps and rigid_pressure = false the bodies lose
 *      their buoyancy (the block's pressure pushes the fluid off a body's particles with no
 *      reaction on the body, which sinks almost in free fall); Kurose's fluid does not see the
 *      bodies at all, so there the fluid's weight reaches them through the contacts;
 *   3. ALL particle contacts — fluid-rigid (a fluid particle is a sphere body of mass rho l^d,
 *      Kurose's point mass, eq. 12 with I^-1 = 0 for it), rigid-rigid, rigid-wall and fluid-wall
 *      (solvers/blocks/contact.c with VBC_CONTACTS_ALL) — and the pin rows of pinned bodies form one LCP,
 *      solved by method.contact.solver: `lemke` (default) assembles M = J M^-1 J^T (Kurose's A,
 *      eq. 12) and solves it exactly; `pgs`, `jacobi` iterate on the same rows (ablation);
 *   4. r^{t+1} = r^t + h u^{t+1} for the fluid; the bodies move by eq. 44-45 (vbc_sim_advect).
 *
 * Restitution. Kurose's row (eq. 4-6, 10-11) is v_n^{t+h} + eps v_n^t >= 0, f >= 0,
 * complementary: the target b = -eps v_n. The contact block's target is eq. 64 of Miyamoto &
 * Koshizuka, b = max(-e v_n, (alpha/h) d), which is Kurose's exactly with method.contact.alpha = 0
 * (then a separating pair, v_n > 0, has b <= v_n and gets no impulse, which is Kurose's test of
 * an approaching velocity, eq. 2-3). alpha > 0 adds a push-out of the depth d that the paper does
 * not have. Contact detection follows vbc's particle contacts (r < l, midpoint, normal along the
 * offset; speculative rows between two bodies below (1 + margin) l, contact.c); the paper's
 * choice of A and B per contact type (§4.2.1) only fixes the sign of n, which the row makes
 * symmetric.
 *
 * Statistics (the stage's figures, summary.json solver.stages and metrics): the LCP's contact
 * rows (simultaneous_contacts; of them touching_contacts, r < l or with contact.inclusive r <= l,
 * and speculative_contacts with a gap, each its own maximum over the steps), Lemke's pivots (the solver's own figure) and the LCP error,
 * recomputed for every solver alike from the rows after the impulses: z = impulses,
 * w = J v - b = -residual, q = J u* - b (the residual before any impulse, negated),
 * error = vbc_lcp_error (max violation of z >= 0, w >= 0, |z_i w_i|, relative to
 * max(1, |q|_inf)); a bilateral pin row counts |w_k|. For lemke this is
 * its own error measure on the recomputed w, up to the round-off of the apply pass.
 *
 * Choices the paper leaves open: the fluid solve runs before the contacts (the paper's
 * SPH step, then collisions); both solves start from zero impulses; steps without contact rows
 * skip the LCP. */
#include <math.h>
#include <stdlib.h>

#include "couplers/couplers.h"
#include "solvers/blocks/blocks.h"

enum { FLUID, CONTACT, PIN };

typedef struct lemke_contacts_state {
  double *q, *w; /* per LCP row: -residual before and after the solve */
  size_t cap;
} lemke_contacts_state;

static void lc_free(void *state) {
  lemke_contacts_state *s = state;
  free(s->q);
  free(s->w);
  free(s);
}

static void *lc_alloc(vbc_coupling *c, vbc_error *err) {
  (void)c;
  return vbc_calloc(1, sizeof(lemke_contacts_state), err);
}

/* out[k] = J_k v - b_k over the rows of the contact problem, block after block. */
static void gaps(const vbc_problem *pb, double *out) {
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    if (blk->rows.n == 0) continue;
    blk->type->residual(blk->state, pb->sys, &blk->rows, out + off);
    for (size_t k = 0; k < blk->rows.n; ++k) out[off + k] = -out[off + k];
    off += blk->rows.n;
  }
}

/* The LCP error of the solved rows (see the head comment): q = s->q, w = s->w. */
static double lcp_error(const lemke_contacts_state *s, const vbc_problem *pb) {
  double qmax = 1.0, e = 0.0;
  size_t off = 0;
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_rows *r = &pb->blocks[b]->rows;
    for (size_t k = 0; k < r->n; ++k) {
      const double q = s->q[off + k], w = s->w[off + k], z = r->impulse[k];
      qmax = fmax(qmax, fabs(q));
      if (r->lo[k] == -INFINITY && r->hi[k] == INFINITY)
        e = fmax(e, fabs(w)); /* bilateral: w = 0 */
      else
        e = fmax(e, fmax(fmax(-z, -w), fabs(z * w)));
    }
    off += r->n;
  }
  return fmax(e, 0.0) / qmax;
}

/* Before the contact LCP is solved: q = J u* - b (the impulses are 0). */
static int record_q(vbc_coupling *c, size_t stage, vbc_error *err) {
  lemke_contacts_state *s = c->state;
  const size_t n = c->report->stage[stage].rows;
  if (vbc_grow(&s->cap, n, (void *[]){&s->q, &s->w}, (size_t[]){sizeof *s->q, sizeof *s->w}, 2,
               err) != VBC_OK)
    return err->code;
  gaps(&c->problem[stage], s->q);
  return VBC_OK;
}

/* After it: the contact pairs among the rows and the LCP error on the new velocities. */
static int lcp_figures(vbc_coupling *c, size_t stage, int ok, vbc_error *err) {
  if (!ok) return VBC_OK;
  lemke_contacts_state *s = c->state;
  vbc_stage_report *r = &c->report->stage[stage];
  gaps(&c->problem[stage], s->w);
  const size_t rows = c->block[CONTACT].rows.n;
  /* the contact block reported speculative_contacts with the stage's rows (vbc_block_type.figures) */
  const double gaps_open = vbc_coupling_block_figure(c, "speculative_contacts", 0.0);
  if (vbc_solve_stats_add(&r->figures, "simultaneous_contacts", (double)rows, VBC_FIGURE_MAX,
                          err) != VBC_OK ||
      vbc_solve_stats_add(&r->figures, "lcp_error", lcp_error(s, &c->problem[stage]),
                          VBC_FIGURE_MAX, err) != VBC_OK ||
      vbc_solve_stats_add(&r->figures, "touching_contacts", (double)rows - gaps_open,
                          VBC_FIGURE_MAX, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

static const vbc_group_spec groups[] = {
    VBC_GROUP_FLUID,
    {.key = "contact",
     .doc = "the contact and pin blocks' parameters and the solver of their one LCP, with its "
            "parameters (they must not share a key)",
     .solver_default = "lemke"},
};

static const vbc_slot_spec slots[] = {
    [FLUID] = {.label = "fluid", .group = "fluid"},
    [CONTACT] = {.label = "contact", .group = "contact", .type = &vbc_block_contact},
    [PIN] = {.label = "pin", .group = "contact", .type = &vbc_block_pin},
};

static const vbc_stage_spec stages[] = {
    {.label = "fluid", VBC_STAGE_SLOTS(FLUID), .solver_group = "fluid"},
    {.label = "contact", VBC_STAGE_SLOTS(CONTACT, PIN), .solver_group = "contact",
     .skip_without_rows = 1, .figures_in_metrics = 1, .start = record_q, .after = lcp_figures},
};

const vbc_coupler_type vbc_coupler_lemke_contacts = {
    .name = "lemke_contacts",
    .summary = "the fluid solved alone, then every contact (fluid-rigid as point masses, "
               "rigid-rigid, rigid-wall, fluid-wall) and pin as one LCP by method.contact.solver "
               "(Lemke by default; Kurose & Takahashi §4.2)",
    .groups = groups,
    .ngroups = VBC_COUNTOF(groups),
    .slots = slots,
    .nslots = VBC_COUNTOF(slots),
    .stages = stages,
    .nstages = VBC_COUNTOF(stages),
    .primary = 0,
    .alloc = lc_alloc,
    .free = lc_free,
    /* The contacts alone do not carry the fluid's static load: with a fluid block whose impulses
     * do not push the bodies (mps_poisson, staggered, sph_density, dfsph, mps with rigid_pressure
     * false) a box of half the water's density ends on the floor of the buoyancy scene (l = 0.04,
     * 1.5 s: submerged ratio 1.0 under sph_density and dfsph; mps with rigid_pressure true floats
     * it at 0.49). */
    .body_traits = VBC_ROWS_PUSH_BODIES,
};
