/* lemke_contacts.c — the contact coupling of Kurose & Takahashi (papers/kurose-takahashi-lemke-
 * fluid-rigid.md §4.2): the fluid advances with its own solver, then every simultaneous contact
 * (fluid particles as point masses against bodies, bodies against bodies and walls) is one LCP,
 * solved exactly by Lemke's method.
 *
 * One step:
 *   1. neighbour search at r^t; explicit terms (gravity, viscosity) give u* for the fluid and
 *      v*, w* for the bodies (vbc_sim_explicit);
 *   2. the scene's fluid block alone is solved by the scene's fluid solver (method.fluid): bodies
 *      enter its rows with their velocity, as moving walls. With the `mps` block the option
 *      rigid_pressure decides whether its impulses also act on free and pinned bodies: false is
 *      Kurose's scheme (fluid and bodies exchange momentum through the contacts of step 3 only),
 *      true adds the pressure as a second channel inside this solve (the `strong` coupler's
 *      treatment of the pressure, without the contacts in the same loop). Blocks that never
 *      move bodies (sph_density) behave as rigid_pressure = false. Measured on
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
 * Statistics (vbc_step_report, summary.json solver.contact_solver): the LCP's rows, Lemke's
 * pivots (vbc_lemke_solver_last) and the LCP error, recomputed for every solver alike from the
 * rows after the impulses: z = impulses, w = J v - b = -residual, q = J u* - b (the residual
 * before any impulse, negated), error = vbc_lcp_error (max violation of z >= 0, w >= 0,
 * |z_i w_i|, relative to max(1, |q|_inf)); a bilateral pin row counts |w_k|. For lemke this is
 * its own error measure on the recomputed w, up to the round-off of the apply pass.
 *
 * Choices the paper leaves open: the fluid solve runs before the contacts (the paper's
 * SPH step, then collisions); both solves start from zero impulses; steps without contact rows
 * skip the LCP. */
#include <math.h>
#include <stdlib.h>

#include "app/sim.h"
#include "couplers/coupler_blocks.h"
#include "couplers/couplers.h"
#include "solvers/schemes/lemke.h"

enum { FLUID, CONTACT, PIN, NBLOCKS };

typedef struct lemke_contacts_state {
  vbc_block block[NBLOCKS];
  vbc_block *blocks[NBLOCKS];
  vbc_solver fluid_solver, contact_solver;
  vbc_problem fluid, contacts; /* block FLUID; then CONTACT, PIN */
  double *q, *w;               /* per LCP row: -residual before and after the solve */
  size_t cap;
} lemke_contacts_state;

static const char *const lc_labels[1] = {"fluid"};

static void lc_free(void *state) {
  lemke_contacts_state *s = state;
  for (int b = 0; b < NBLOCKS; ++b) vbc_block_free(&s->block[b]);
  vbc_solver_free(&s->fluid_solver);
  vbc_solver_free(&s->contact_solver);
  free(s->q);
  free(s->w);
  free(s);
}

static void *lc_alloc(vbc_sim *sim, vbc_error *err) {
  const vbc_scene *sc = sim->scene;
  if (sc->contact_solver == NULL) { /* scene.c sets it for this coupler; a guard for callers */
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: method.contact.solver: expected a solver for "
                  "method.coupler \"lemke_contacts\"", sc->file);
    return NULL;
  }
  lemke_contacts_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  if (vbc_block_init(&s->block[FLUID], sc->fluid_constraint, sc->fluid_params, &sim->sys,
                     "fluid", err) != VBC_OK ||
      vbc_coupler_contact_pin_init(sim, &s->block[CONTACT], "contact", VBC_CONTACTS_ALL,
                                   &s->block[PIN], err) != VBC_OK ||
      vbc_solver_init(&s->fluid_solver, sc->fluid_solver, sc->fluid_params, err) != VBC_OK ||
      vbc_solver_init(&s->contact_solver, sc->contact_solver, sc->contact_params, err) !=
          VBC_OK) {
    lc_free(s);
    return NULL;
  }
  vbc_coupler_link_blocks(sim, s->block, s->blocks, NBLOCKS);
  s->fluid = (vbc_problem){&sim->sys, &s->blocks[FLUID], 1};
  s->contacts = (vbc_problem){&sim->sys, &s->blocks[CONTACT], 2};
  return s;
}

static int reserve(lemke_contacts_state *s, size_t n, vbc_error *err) {
  if (n <= s->cap) return VBC_OK;
  double *q = vbc_realloc(s->q, n, sizeof *q, err);
  if (q == NULL) return err->code;
  s->q = q;
  double *w = vbc_realloc(s->w, n, sizeof *w, err);
  if (w == NULL) return err->code;
  s->w = w;
  s->cap = n;
  return VBC_OK;
}

/* out[k] = J_k v - b_k over the rows of the contact problem, block after block. */
static void gaps(const lemke_contacts_state *s, const vbc_system *sys, double *out) {
  size_t off = 0;
  for (size_t b = 0; b < s->contacts.nblocks; ++b) {
    const vbc_block *blk = s->contacts.blocks[b];
    if (blk->rows.n == 0) continue;
    blk->type->residual(blk->state, sys, &blk->rows, out + off);
    for (size_t k = 0; k < blk->rows.n; ++k) out[off + k] = -out[off + k];
    off += blk->rows.n;
  }
}

/* The LCP error of the solved rows (see the head comment): q = s->q, w = s->w. */
static double lcp_error(const lemke_contacts_state *s) {
  double qmax = 1.0, e = 0.0;
  size_t off = 0;
  for (size_t b = 0; b < s->contacts.nblocks; ++b) {
    const vbc_rows *r = &s->contacts.blocks[b]->rows;
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

/* Step 3: prepare the contact and pin rows, solve them as one LCP, record the statistics. */
static int solve_contacts(lemke_contacts_state *s, vbc_sim *sim, vbc_step_report *rep,
                          vbc_error *err) {
  if (vbc_problem_prepare(&s->contacts, err) != VBC_OK) return err->code;
  const size_t n = s->block[CONTACT].rows.n + s->block[PIN].rows.n;
  if (n == 0) return VBC_OK;
  if (reserve(s, n, err) != VBC_OK) return err->code;
  gaps(s, &sim->sys, s->q); /* impulses are 0: q = J u* - b */
  vbc_solve_result res;
  if (vbc_solve(&s->contact_solver, &s->contacts, &res, NULL, err) != VBC_OK) return err->code;
  vbc_problem_finish(&s->contacts);
  gaps(s, &sim->sys, s->w);
  vbc_lemke_result lr;
  rep->contact_pivots = -1;
  if (s->contact_solver.type == &vbc_solver_lemke)
    rep->contact_pivots =
        res.iterations > 0 && vbc_lemke_solver_last(&s->contact_solver, &lr, NULL) ? lr.pivots
                                                                                    : 0;
  rep->contact_solves = 1;
  rep->contact_rows = n;
  rep->contacts = s->block[CONTACT].rows.n;
  rep->contact_iterations = res.iterations;
  rep->contact_error = lcp_error(s);
  rep->solves = 2;
  return VBC_OK;
}

static int lc_step(void *state, vbc_sim *sim, vbc_step_report *rep, vbc_error *err) {
  lemke_contacts_state *s = state;
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  vbc_sim_explicit(sim);
  rep->block_labels = lc_labels;
  rep->nblocks = s->fluid.nblocks;
  if (vbc_problem_prepare(&s->fluid, err) != VBC_OK ||
      vbc_solve(&s->fluid_solver, &s->fluid, &rep->fluid, rep->trace, err) != VBC_OK)
    return err->code;
  vbc_problem_finish(&s->fluid);
  rep->solves = 1;
  if (solve_contacts(s, sim, rep, err) != VBC_OK) return err->code;
  vbc_sim_advect(sim);
  return VBC_OK;
}

const vbc_coupler_type vbc_coupler_lemke_contacts = {
    .name = "lemke_contacts",
    .contact_solver = 1,
    .summary = "the fluid solved alone, then every contact (fluid-rigid as point masses, "
               "rigid-rigid, rigid-wall, fluid-wall) and pin as one LCP by method.contact.solver "
               "(Lemke by default; Kurose & Takahashi §4.2)",
    .alloc = lc_alloc,
    .free = lc_free,
    .step = lc_step,
};
