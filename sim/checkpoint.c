/* checkpoint.c — see checkpoint.h. */
#include <stdlib.h>
#include <string.h>

#include "io/blob.h"
#include "sim/checkpoint.h"
#include "sim/state_file.h"

enum { MAX_SETS = 512 };

int vbc_checkpoint_check(const vbc_checkpoint_run *r, vbc_error *err) {
  if (r->bench && r->bench->observe && (r->bench->save == NULL || r->bench->load == NULL))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: benchmark \"%s\" keeps a history it cannot "
                         "save: this run cannot be checkpointed", r->sim->scene->file,
                         r->bench->name);
  return VBC_OK;
}

static void path_of(char *buf, size_t size, const char *dir) {
  snprintf(buf, size, "%s/%s", dir, VBC_CHECKPOINT_FILE);
}

/* Format, version, the scene file, its assignments and the resolved scene. */
static int put_identity(vbc_blob *b, const vbc_checkpoint_run *r, const char *resolved,
                        vbc_error *err) {
  const unsigned format = VBC_CHECKPOINT_FORMAT;
  const int n = r->nsets;
  if (vbc_blob_put(b, &format, sizeof format, err) != VBC_OK ||
      vbc_blob_put_string(b, VBC_VERSION, err) != VBC_OK ||
      vbc_blob_put_string(b, r->sim->scene->file, err) != VBC_OK ||
      vbc_blob_put(b, &n, sizeof n, err) != VBC_OK)
    return err->code;
  for (int i = 0; i < n; ++i)
    if (vbc_blob_put_string(b, r->sets[i], err) != VBC_OK) return err->code;
  return vbc_blob_put_string(b, resolved, err);
}

/* What each stage's solver carries from one solve to the next (vbc_solver_type.carried): per
 * stage a count and that many numbers. */
static int solvers_save(const vbc_coupling *c, vbc_blob *b, vbc_error *err) {
  for (size_t s = 0; s < c->type->nstages; ++s) {
    const vbc_solver *sv = &c->solver[s];
    double v[VBC_SOLVER_CARRIED];
    const size_t n = sv->type && sv->type->carried ? sv->type->carried(sv->state, v) : 0;
    if (vbc_blob_put_array(b, v, n, sizeof *v, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

static int solvers_load(vbc_coupling *c, vbc_reader *in, vbc_error *err) {
  for (size_t s = 0; s < c->type->nstages; ++s) {
    vbc_solver *sv = &c->solver[s];
    double *v = NULL;
    size_t n = 0;
    if (vbc_reader_get_alloc(in, (void **)&v, &n, sizeof *v, err) != VBC_OK) return err->code;
    int rc = VBC_OK;
    if (n > 0 && (sv->type == NULL || sv->type->carry_in == NULL))
      rc = vbc_error_set(err, VBC_EXIT_INPUT, "%s: stage %zu carries %zu numbers its solver does "
                         "not take", in->what, s, n);
    else if (n > 0)
      rc = sv->type->carry_in(sv->state, v, n, err);
    free(v);
    if (rc != VBC_OK) return rc;
  }
  return VBC_OK;
}

int vbc_checkpoint_write(const char *dir, const vbc_checkpoint_run *r, vbc_error *err) {
  const vbc_sim *sim = r->sim;
  char *resolved = cJSON_PrintUnformatted(sim->scene->resolved);
  if (resolved == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (checkpoint)");
  vbc_blob id = {0}, stats = {0}, out = {0}, bench = {0}, clock = {0}, solvers = {0};
  int rc = put_identity(&id, r, resolved, err);
  free(resolved);
  if (rc == VBC_OK) rc = vbc_run_stats_save(r->stats, &stats, err);
  if (rc == VBC_OK) rc = vbc_output_save(r->out, &out, err);
  if (rc == VBC_OK) rc = vbc_time_steps_save(&sim->time_steps, &clock, err);
  if (rc == VBC_OK) rc = solvers_save(&sim->coupling, &solvers, err);
  if (rc == VBC_OK && r->bench && r->bench->save)
    rc = r->bench->save(r->bench_state, &bench, err);
  if (rc == VBC_OK) {
    vbc_vec domain[2];
    vbc_state_section s[VBC_STATE_PARTICLE_SECTIONS + 7];
    size_t n = vbc_state_particle_sections(sim, domain, s);
    s[n++] = (vbc_state_section){"bodies", sim->sys.nbodies, sizeof *sim->bodies, sim->bodies};
    s[n++] = (vbc_state_section){"checkpoint", id.n, 1, id.data};
    s[n++] = (vbc_state_section){"stats", stats.n, 1, stats.data};
    s[n++] = (vbc_state_section){"output", out.n, 1, out.data};
    s[n++] = (vbc_state_section){"benchmark", bench.n, 1, bench.data};
    s[n++] = (vbc_state_section){"time_steps", clock.n, 1, clock.data};
    s[n++] = (vbc_state_section){"solvers", solvers.n, 1, solvers.data};
    const vbc_state_header h = vbc_state_header_of(sim);
    char path[1200];
    path_of(path, sizeof path, dir);
    rc = vbc_state_write_sections(path, &h, s, n, err);
  }
  vbc_blob_free(&id), vbc_blob_free(&stats), vbc_blob_free(&out), vbc_blob_free(&bench);
  vbc_blob_free(&clock), vbc_blob_free(&solvers);
  return rc;
}

/* A section of the checkpoint as a reader ("PATH, section NAME" in messages). */
static int section(const vbc_state *st, const char *path, const char *name, vbc_reader *r,
                   char *what, size_t size, vbc_error *err) {
  const vbc_state_extra *x = vbc_state_find(st, name);
  snprintf(what, size, "%s, section %s", path, name);
  if (x == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: not a checkpoint (no section '%s'; a state "
                         "from --dump-state cannot be resumed)", path, name);
  *r = (vbc_reader){x->data, x->count * x->size, what};
  return VBC_OK;
}

/* Format and version must be this vbc's; the scene and sets are read past. */
static int check_version(vbc_reader *r, const char *path, vbc_error *err) {
  unsigned format = 0;
  char version[64];
  if (vbc_reader_get(r, &format, sizeof format, err) != VBC_OK ||
      vbc_reader_get_string(r, version, sizeof version, err) != VBC_OK)
    return err->code;
  if (format != VBC_CHECKPOINT_FORMAT || strcmp(version, VBC_VERSION) != 0)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: a checkpoint of vbc %s (format %u); this is "
                         "vbc %s (format %d), which cannot resume it", path, version, format,
                         VBC_VERSION, VBC_CHECKPOINT_FORMAT);
  return VBC_OK;
}

static int skip_sets(vbc_reader *r, char *scene, size_t size, char ***sets, int *nsets,
                     vbc_error *err) {
  int n = 0;
  if (vbc_reader_get_string(r, scene, size, err) != VBC_OK ||
      vbc_reader_get(r, &n, sizeof n, err) != VBC_OK)
    return err->code;
  if (n < 0 || n > MAX_SETS)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %d assignments (corrupt?)", r->what, n);
  if (sets && (*sets = vbc_calloc((size_t)n + 1, sizeof **sets, err)) == NULL) return err->code;
  for (int i = 0; i < n; ++i) {
    char buf[2048];
    if (vbc_reader_get_string(r, buf, sizeof buf, err) != VBC_OK) return err->code;
    if (sets && ((*sets)[i] = vbc_strdup(buf, err)) == NULL) return err->code;
    if (nsets) *nsets = i + 1;
  }
  return VBC_OK;
}

/* The checkpoint's resolved scene must be the one this run resolved. */
static int check_scene(vbc_reader *r, const char *path, const vbc_sim *sim, vbc_error *err) {
  char scene[1024];
  if (skip_sets(r, scene, sizeof scene, NULL, NULL, err) != VBC_OK) return err->code;
  void *text = NULL;
  size_t n = 0;
  char *mine = cJSON_PrintUnformatted(sim->scene->resolved);
  int rc = mine ? vbc_reader_get_alloc(r, &text, &n, 1, err)
                : vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (checkpoint)");
  if (rc == VBC_OK && (strlen(mine) != n || memcmp(mine, text, n) != 0))
    rc = vbc_error_set(err, VBC_EXIT_INPUT, "%s: the checkpoint belongs to another scene: %s "
                       "(with these --set assignments) resolves differently from the one the "
                       "checkpoint was written for (%s)", path, sim->scene->file, scene);
  free(mine);
  free(text);
  return rc;
}

static int restore(const vbc_state *st, const char *path, const vbc_checkpoint_run *r,
                   vbc_error *err) {
  vbc_sim *sim = r->sim;
  char what[1300];
  vbc_reader in;
  const vbc_state_extra *bodies = vbc_state_find(st, "bodies");
  if (bodies == NULL || bodies->count != sim->sys.nbodies || bodies->size != sizeof *sim->bodies)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: section bodies: expected %zu bodies of this "
                         "vbc's layout", path, sim->sys.nbodies);
  if (vbc_state_apply_particles(st, path, sim, err) != VBC_OK) return err->code;
  if (bodies->count) memcpy(sim->bodies, bodies->data, bodies->count * bodies->size);
  if (section(st, path, "stats", &in, what, sizeof what, err) != VBC_OK ||
      vbc_run_stats_load(r->stats, &in, err) != VBC_OK ||
      section(st, path, "output", &in, what, sizeof what, err) != VBC_OK ||
      vbc_output_resume(r->out, r->out->dir, &in, err) != VBC_OK ||
      section(st, path, "time_steps", &in, what, sizeof what, err) != VBC_OK ||
      vbc_time_steps_load(&sim->time_steps, &in, err) != VBC_OK ||
      section(st, path, "solvers", &in, what, sizeof what, err) != VBC_OK ||
      solvers_load(&sim->coupling, &in, err) != VBC_OK ||
      section(st, path, "benchmark", &in, what, sizeof what, err) != VBC_OK)
    return err->code;
  if (r->bench && r->bench->load && r->bench->load(r->bench_state, sim, &in, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

int vbc_checkpoint_resume(const char *dir, const vbc_checkpoint_run *r, vbc_error *err) {
  char path[1200], what[1300];
  path_of(path, sizeof path, dir);
  vbc_state st;
  vbc_reader id;
  int rc = vbc_state_read(path, &st, err);
  if (rc == VBC_OK) rc = section(&st, path, "checkpoint", &id, what, sizeof what, err);
  if (rc == VBC_OK) rc = check_version(&id, path, err);
  if (rc == VBC_OK) rc = check_scene(&id, path, r->sim, err);
  if (rc == VBC_OK) {
    snprintf(r->out->dir, sizeof r->out->dir, "%s", dir);
    rc = restore(&st, path, r, err);
  }
  vbc_state_free(&st);
  return rc;
}

int vbc_checkpoint_scene(const char *dir, char *scene, size_t size, char ***sets, int *nsets,
                         vbc_error *err) {
  char path[1200], what[1300];
  path_of(path, sizeof path, dir);
  *sets = NULL;
  *nsets = 0;
  vbc_state st;
  vbc_reader id;
  int rc = vbc_state_read(path, &st, err);
  if (rc == VBC_OK) rc = section(&st, path, "checkpoint", &id, what, sizeof what, err);
  if (rc == VBC_OK) rc = check_version(&id, path, err);
  if (rc == VBC_OK) rc = skip_sets(&id, scene, size, sets, nsets, err);
  vbc_state_free(&st);
  return rc;
}

void vbc_checkpoint_sets_free(char **sets, int nsets) {
  for (int i = 0; sets && i < nsets; ++i) free(sets[i]);
  free(sets);
}
