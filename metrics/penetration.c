/* penetration.c — the penetration figures shared by benchmarks (metrics/metrics.h):
 * Miyamoto & Koshizuka's "no penetration" of the rigid pile (§5.1) and Kurose & Takahashi's
 * non-penetration constraints (eq. 4-6), measured the same way under every coupler.
 *
 * Rigid particles are spheres of radius l/2 (Miyamoto §4.1, Kurose eq. 2 with r_f = r_r = l/2),
 * so two particles at distance r < l overlap by l - r. Two kinds of pairs are measured:
 *   body   a rigid particle against a rigid particle of another body or a wall particle;
 *   fluid  a fluid particle against a rigid particle or a wall particle.
 * Fluid-fluid pairs are the fluid solver's compression, not a penetration, and pairs without a
 * movable side (a fixed or scripted body against a wall or another one) cannot be resolved by any
 * solver; neither is counted (the pairs solvers/blocks/contact.c gives rows, less its speculative
 * ones). The depths come from the neighbour list (its distances), so they do not depend on
 * whether the coupler has contact rows (akinci has none): after every step the list is the one
 * of the step's start, where the rows are built; vbc_penetration_final adds the final positions.
 * The figures are the maxima over the run divided by l; vbc_penetration_now measures one
 * moment (a snapshot) at the particles' current positions. */
#include <math.h>

#include "metrics/metrics.h"
#include "sim/sim.h"

/* A movable side: a fluid particle, or a free or pinned body (inv_mass > 0). */
static int movable(const vbc_sim *sim, size_t i) {
  const vbc_particles *p = &sim->particles;
  if (p->kind[i] == VBC_FLUID) return 1;
  return p->kind[i] == VBC_RIGID && sim->bodies[p->body[i]].inv_mass > 0.0;
}

/* Whether i and j are a measured pair, and of which kind (1 body, 2 fluid, 0 none). */
static int pair_kind(const vbc_sim *sim, size_t i, size_t j) {
  const vbc_particles *p = &sim->particles;
  const unsigned char ki = p->kind[i], kj = p->kind[j];
  if (ki == VBC_FLUID && kj == VBC_FLUID) return 0;
  if (ki == VBC_WALL && kj == VBC_WALL) return 0;
  if (ki == VBC_RIGID && kj == VBC_RIGID && p->body[i] == p->body[j]) return 0;
  if (!movable(sim, i) && !movable(sim, j)) return 0;
  return ki == VBC_FLUID || kj == VBC_FLUID ? 2 : 1;
}

/* The deepest overlaps in the current neighbour list (each pair seen from its non-wall side). */
static void deepest(const vbc_sim *sim, double *body, double *fluid) {
  const vbc_particles *p = &sim->particles;
  const vbc_neighbors *nb = &sim->nbrs;
  const double l = sim->sys.spacing;
  double db = 0.0, df = 0.0;
  if (nb->start == NULL || nb->n != p->n) return; /* no list yet (a run from a frozen state) */
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] == VBC_WALL) continue;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      if (nb->dist[q] >= l) continue;
      int k = pair_kind(sim, i, nb->index[q]);
      if (k == 1) db = fmax(db, l - nb->dist[q]);
      if (k == 2) df = fmax(df, l - nb->dist[q]);
    }
  }
  *body = fmax(*body, db);
  *fluid = fmax(*fluid, df);
}

double vbc_penetration_now(const vbc_sim *sim) {
  const vbc_particles *p = &sim->particles;
  const vbc_neighbors *nb = &sim->nbrs;
  const double l = sim->sys.spacing;
  double depth = 0.0;
  if (nb->start == NULL || nb->n != p->n) return 0.0;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_RIGID) continue;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      if (pair_kind(sim, i, j) != 1) continue;
      depth = fmax(depth, l - vbc_vec_norm(vbc_vec_sub(p->pos[i], p->pos[j])));
    }
  }
  return depth;
}

void vbc_penetration_observe(vbc_penetration *pen, const vbc_sim *sim) {
  deepest(sim, &pen->body, &pen->fluid);
}

int vbc_penetration_final(vbc_penetration *pen, vbc_sim *sim, vbc_error *err) {
  if (vbc_sim_neighbours(sim, err) != VBC_OK) return err->code;
  deepest(sim, &pen->body, &pen->fluid);
  return VBC_OK;
}

void vbc_penetration_metrics(const vbc_penetration *pen, const vbc_sim *sim, cJSON *metrics) {
  cJSON_AddNumberToObject(metrics, "max_penetration", pen->body / sim->sys.spacing);
  cJSON_AddNumberToObject(metrics, "max_fluid_penetration", pen->fluid / sim->sys.spacing);
}

int vbc_penetration_save(const vbc_penetration *pen, vbc_blob *out, vbc_error *err) {
  return vbc_blob_put(out, pen, sizeof *pen, err);
}

int vbc_penetration_load(vbc_penetration *pen, vbc_reader *in, vbc_error *err) {
  return vbc_reader_get(in, pen, sizeof *pen, err);
}
