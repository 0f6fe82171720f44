/* summary.c — see summary.h. */
#include <stdio.h>

#include "app/json_file.h"
#include "core/json_util.h"
#include "app/summary.h"

static cJSON *particle_counts(const vbc_sim *sim) {
  cJSON *c = cJSON_CreateObject();
  cJSON_AddNumberToObject(c, "fluid", (double)vbc_particles_count(&sim->particles, VBC_FLUID));
  cJSON_AddNumberToObject(c, "rigid", (double)vbc_particles_count(&sim->particles, VBC_RIGID));
  cJSON_AddNumberToObject(c, "wall", (double)vbc_particles_count(&sim->particles, VBC_WALL));
  cJSON_AddNumberToObject(c, "total", (double)sim->particles.n);
  return c;
}

/* The contact LCPs (lemke_contacts): steps with contact rows, their size, Lemke's pivots (absent
 * under an iterative solver), iterations and the largest LCP error. */
static cJSON *contact_stats(const vbc_sim *sim, const vbc_run_stats *st) {
  cJSON *c = cJSON_CreateObject();
  const double n = (double)st->contact_solves;
  cJSON_AddStringToObject(c, "solver", sim->scene->contact_solver ? sim->scene->contact_solver->name
                                                                  : "");
  cJSON_AddNumberToObject(c, "solves", n);
  cJSON_AddNumberToObject(c, "max_rows", (double)st->contact_rows_max);
  cJSON_AddNumberToObject(c, "mean_rows", (double)st->contact_rows_total / n);
  cJSON_AddNumberToObject(c, "max_simultaneous_contacts", (double)st->contacts_max);
  cJSON_AddNumberToObject(c, "mean_iterations", (double)st->contact_iterations_total / n);
  if (st->contact_pivot_solves) {
    cJSON_AddNumberToObject(c, "mean_pivots",
                            (double)st->contact_pivots_total / (double)st->contact_pivot_solves);
    cJSON_AddNumberToObject(c, "max_pivots", (double)st->contact_pivots_max);
  }
  cJSON_AddNumberToObject(c, "max_lcp_error", st->contact_error_max);
  return c;
}

/* The contact LCP figures as metrics too (Kurose's measurements; sweeps tabulate metrics), unless
 * the benchmark already named them. */
static void contact_metrics(const vbc_run_stats *st, cJSON *m) {
  if (!cJSON_HasObjectItem(m, "max_simultaneous_contacts"))
    cJSON_AddNumberToObject(m, "max_simultaneous_contacts", (double)st->contacts_max);
  if (st->contact_pivot_solves && !cJSON_HasObjectItem(m, "mean_pivots"))
    cJSON_AddNumberToObject(m, "mean_pivots",
                            (double)st->contact_pivots_total / (double)st->contact_pivot_solves);
  if (!cJSON_HasObjectItem(m, "max_lcp_error"))
    cJSON_AddNumberToObject(m, "max_lcp_error", st->contact_error_max);
}

static cJSON *solver_stats(const vbc_sim *sim, const vbc_run_stats *st) {
  cJSON *s = cJSON_CreateObject();
  const vbc_scene *sc = sim->scene;
  cJSON_AddStringToObject(s, "constraint", sc->fluid_constraint->name);
  cJSON_AddStringToObject(s, "solver", sc->fluid_solver->name);
  cJSON_AddNumberToObject(s, "solves", (double)st->solves);
  cJSON_AddNumberToObject(s, "iterations_total", (double)st->iterations_total);
  cJSON_AddNumberToObject(s, "iterations_mean",
                          st->solves ? (double)st->iterations_total / (double)st->solves : 0.0);
  cJSON_AddNumberToObject(s, "iterations_max", st->iterations_max);
  cJSON *stops = cJSON_AddObjectToObject(s, "stop_reasons");
  for (int r = 0; r < VBC_STOP_REASONS; ++r)
    cJSON_AddNumberToObject(stops, vbc_stop_reason_name((vbc_stop_reason)r), (double)st->stops[r]);
  cJSON_AddNumberToObject(s, "final_relative_residual_mean",
                          st->solves ? st->relres_sum / (double)st->solves : 0.0);
  cJSON_AddNumberToObject(s, "final_relative_residual_max", st->relres_max);
  /* the density error the stopping test judged (blocks with an error measure; absent without) */
  if (st->error_solves) {
    cJSON_AddNumberToObject(s, "final_mean_error_mean",
                            st->error_sum / (double)st->error_solves);
    cJSON_AddNumberToObject(s, "final_mean_error_max", st->error_max);
  }
  if (st->contact_solves) cJSON_AddItemToObject(s, "contact_solver", contact_stats(sim, st));
  return s;
}

int vbc_summary_write(const char *dir, const vbc_sim *sim, const vbc_run_stats *st,
                      const cJSON *metrics, const char *from_state, const vbc_error *failure,
                      vbc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "vbc_version", VBC_VERSION);
  cJSON_AddStringToObject(root, "status", failure ? "failed" : "ok");
  if (failure) cJSON_AddStringToObject(root, "error", failure->message);
  cJSON_AddStringToObject(root, "scene_file", sim->scene->file);
  if (from_state) cJSON_AddStringToObject(root, "from_state", from_state);
  cJSON_AddItemToObject(root, "scene", cJSON_Duplicate(sim->scene->resolved, 1));
  cJSON_AddItemToObject(root, "particles", particle_counts(sim));
  cJSON *k = cJSON_AddObjectToObject(root, "mps_lattice");
  cJSON_AddNumberToObject(k, "n0", sim->mps.n0);
  cJSON_AddNumberToObject(k, "C", sim->mps.C);
  cJSON_AddNumberToObject(k, "lambda", sim->mps.lambda);
  cJSON_AddNumberToObject(k, "neighbours", sim->mps.neighbours);
  cJSON_AddNumberToObject(root, "steps", (double)sim->step);
  cJSON_AddNumberToObject(root, "time", sim->time);
  cJSON_AddNumberToObject(root, "threads", st->threads);
  cJSON_AddNumberToObject(root, "wall_seconds", st->wall_seconds);
  /* fluid particles: the unknowns every method has; walls differ between boundary models.
   * Steps this process ran: a --from-state run starts at a later step. */
  cJSON_AddNumberToObject(root, "particle_steps_per_second",
                          st->wall_seconds > 0.0
                              ? (double)sim->nfluid * (double)st->steps_run / st->wall_seconds
                              : 0.0);
  cJSON_AddItemToObject(root, "solver", solver_stats(sim, st));
  cJSON *m = metrics ? cJSON_Duplicate(metrics, 1) : cJSON_CreateObject();
  if (st->contact_solves) contact_metrics(st, m);
  cJSON_AddItemToObject(root, "metrics", m);
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  return vbc_json_write_file(path, root, err);
}
