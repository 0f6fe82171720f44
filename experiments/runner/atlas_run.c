/* atlas_run.c — an atlas as sweeps: every case becomes DIR/cases/NAME/sweep.json (vary the
 * method presets, zip the levels' assignments), which the sweep runner loads, checks, runs and
 * plots like any other spec. A case's runs live in DIR/runs/ID, so a cell already done is never
 * run again, whichever --levels or -j the atlas is run with. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep.h"
#include "io/files.h"

size_t vbc_atlas_case_levels(const vbc_atlas *a, size_t c) {
  size_t n = a->spec.cases[c].nlevels;
  return a->levels > 0 && a->levels < n ? a->levels : n;
}

/* An absolute path, so the sweep spec may live anywhere. */
static int absolute(const char *path, char *out, vbc_error *err) {
  if (realpath(path, out) != NULL) return VBC_OK;
  return vbc_error_set(err, VBC_EXIT_INPUT, "cannot find '%s'", path);
}

/* zip: one list per level key, over the first n levels of case c (a probe's end time is its
 * own: a level's time.end is left out of a probe's). */
static cJSON *levels_zip(const vbc_atlas *a, size_t c, size_t n, int probe) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  cJSON *group = cJSON_CreateObject();
  const cJSON *key;
  cJSON_ArrayForEach(key, cJSON_GetArrayItem(k->levels, 0)) {
    if (probe && strcmp(key->string, "time.end") == 0) continue;
    cJSON *list = cJSON_AddArrayToObject(group, key->string);
    for (size_t i = 0; i < n; ++i)
      cJSON_AddItemToArray(list, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
                                                     cJSON_GetArrayItem(k->levels, (int)i),
                                                     key->string),
                                                 1));
  }
  cJSON *zip = cJSON_CreateArray();
  cJSON_AddItemToArray(zip, group);
  return zip;
}

static double finest_spacing(const vbc_atlas *a, size_t c) {
  return vbc_atlas_level_number(&a->spec.cases[c], vbc_atlas_case_levels(a, c) - 1, "spacing");
}

/* The observable of every method at the finest level run, with the case's references. */
static int observable_plot(const vbc_atlas *a, size_t c, cJSON *plots, vbc_error *err) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  const cJSON *o = k->observable;
  cJSON *p = cJSON_CreateObject();
  cJSON_AddItemToArray(plots, p);
  char title[600];
  snprintf(title, sizeof title, "%s, l = %g m", k->title, finest_spacing(a, c));
  cJSON_AddStringToObject(p, "name", "observable");
  cJSON_AddStringToObject(p, "kind", "series");
  cJSON_AddStringToObject(p, "title", title);
  const char *copied[] = {"file", "x", "y", "xlabel", "ylabel"};
  for (size_t i = 0; i < 5; ++i) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, copied[i]);
    if (v) cJSON_AddItemToObject(p, copied[i], cJSON_Duplicate(v, 1));
  }
  cJSON *where = cJSON_AddObjectToObject(p, "where");
  cJSON_AddNumberToObject(where, "spacing", finest_spacing(a, c));
  if (k->references == NULL) return VBC_OK;
  cJSON *refs = cJSON_AddArrayToObject(p, "reference");
  const cJSON *r;
  cJSON_ArrayForEach(r, k->references) {
    cJSON *copy = cJSON_Duplicate(r, 1);
    cJSON_AddItemToArray(refs, copy);
    char rel[2100], abs[PATH_MAX];
    const char *file = cJSON_GetObjectItemCaseSensitive(r, "file")->valuestring;
    snprintf(rel, sizeof rel, "%s/%s", k->dir, file);
    if (absolute(file[0] == '/' ? file : rel, abs, err) != VBC_OK) return err->code;
    cJSON_ReplaceItemInObjectCaseSensitive(copy, "file", cJSON_CreateString(abs));
  }
  return VBC_OK;
}

static void order_plot(const vbc_atlas *a, size_t c, cJSON *plots) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  cJSON *p = cJSON_CreateObject();
  cJSON_AddItemToArray(plots, p);
  char title[600];
  snprintf(title, sizeof title, "%s: error against spacing", k->title);
  cJSON_AddStringToObject(p, "name", "error_vs_spacing");
  cJSON_AddStringToObject(p, "kind", "spatial_convergence");
  cJSON_AddStringToObject(p, "title", title);
  cJSON_AddStringToObject(p, "x", "spacing");
  cJSON_AddStringToObject(p, "series", "method");
  cJSON_AddStringToObject(p, "y", k->errors[0].metric);
  cJSON_AddStringToObject(p, "ylabel", k->errors[0].label);
}

/* DIR/cases/NAME/sweep.json; with probe_end > 0 the probe's DIR/cases/NAME/probe/sweep.json:
 * the first level of every method to probe_end, no plots (atlas_budget.c). */
static int write_case_spec(const vbc_atlas *a, size_t c, const char *path, double probe_end,
                           vbc_error *err) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  char scene[PATH_MAX];
  if (absolute(k->scene, scene, err) != VBC_OK)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: scene: expected a readable scene file, got '%s'",
                         k->file, k->scene);
  cJSON *s = cJSON_CreateObject();
  char name[128];
  snprintf(name, sizeof name, "atlas_%s%s", k->name, probe_end > 0.0 ? "_probe" : "");
  cJSON_AddStringToObject(s, "name", name);
  cJSON_AddStringToObject(s, "description", k->title);
  cJSON_AddStringToObject(s, "scene", scene);
  cJSON *set = k->set ? cJSON_Duplicate(k->set, 1) : cJSON_CreateObject();
  if (probe_end > 0.0) {
    cJSON_DeleteItemFromObjectCaseSensitive(set, "time.end");
    cJSON_AddNumberToObject(set, "time.end", probe_end);
  }
  if (cJSON_GetArraySize(set) > 0) cJSON_AddItemToObject(s, "set", set);
  else cJSON_Delete(set);
  if (probe_end <= 0.0 && a->budget > 0.0) /* the cap of a running cell (atlas_budget.c) */
    cJSON_AddNumberToObject(s, "cpu_limit_seconds", VBC_ATLAS_CAP_FACTOR * a->budget);
  cJSON *vary = cJSON_AddObjectToObject(s, "vary");
  cJSON *methods = cJSON_AddArrayToObject(vary, "method");
  for (size_t m = 0; m < a->spec.nmethods; ++m)
    cJSON_AddItemToArray(methods, cJSON_CreateString(a->spec.methods[m]));
  const size_t nlevels = probe_end > 0.0 ? 1 : vbc_atlas_case_levels(a, c);
  cJSON_AddItemToObject(s, "zip", levels_zip(a, c, nlevels, probe_end > 0.0));
  int rc = VBC_OK;
  if (probe_end <= 0.0) { /* a probe is a cost: no metric (a short run may lack them), no plot */
    cJSON *metrics = cJSON_AddArrayToObject(s, "metrics");
    for (size_t e = 0; e < k->nerrors; ++e)
      cJSON_AddItemToArray(metrics, cJSON_CreateString(k->errors[e].metric));
    cJSON *plots = cJSON_AddArrayToObject(s, "plots");
    rc = observable_plot(a, c, plots, err);
    order_plot(a, c, plots);
  }
  char *text = rc == VBC_OK ? cJSON_Print(s) : NULL;
  cJSON_Delete(s);
  if (rc != VBC_OK) return rc;
  if (text == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
  rc = vbc_write_file_atomic(path, text, err);
  free(text);
  return rc;
}

/* Case c as the sweep sw in DIR/cases/NAME (probe_end > 0: its probe, in DIR/cases/NAME/probe). */
static int prepare_sweep(vbc_atlas *a, size_t c, vbc_sweep *sw, double probe_end,
                         vbc_error *err) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  char dir[sizeof sw->out], spec[1300];
  if (snprintf(dir, sizeof dir, "%s/cases/%s%s", a->out, k->name,
               probe_end > 0.0 ? "/probe" : "") >= (int)sizeof dir)
    return vbc_error_set(err, VBC_EXIT_INPUT, "--out %s: path too long", a->out);
  snprintf(spec, sizeof spec, "%s/sweep.json", dir);
  if (vbc_mkdir_p(dir, err) != VBC_OK || write_case_spec(a, c, spec, probe_end, err) != VBC_OK)
    return err->code;
  sw->registry = a->registry;
  sw->keep_refused = 1;
  sw->threads = a->threads;
  sw->quiet = a->quiet;
  sw->progress_seconds = a->quiet ? 0.0 : 10.0;
  vbc_error inner = {0};
  int rc = vbc_sweep_spec_load(&sw->spec, spec, NULL, 0, &inner);
  snprintf(sw->out, sizeof sw->out, "%s", dir);
  snprintf(sw->cases_dir, sizeof sw->cases_dir, "%s/runs", a->out);
  if (rc == VBC_OK) rc = vbc_sweep_check_path("--out", sw->out, &inner);
  if (rc == VBC_OK) rc = vbc_sweep_expand(sw, &inner);
  if (rc != VBC_OK)
    return vbc_error_set(err, rc, "%s (case %s): %s", k->file, k->name, inner.message);
  return VBC_OK;
}

/* The end of case c's probe: VBC_ATLAS_PROBE_FRACTION of its first level's time, at least
 * VBC_ATLAS_PROBE_STEPS steps of it, from the first of its runs that resolved (NAN if none). */
static double probe_end(const vbc_atlas *a, size_t c) {
  for (size_t m = 0; m < a->spec.nmethods; ++m) {
    const vbc_sweep_case *run = vbc_atlas_run_of(a, c, m, 0);
    if (run && run->state != VBC_CASE_REFUSED && run->t_end > 0.0 && run->dt > 0.0)
      return fmin(run->t_end, fmax(run->t_end * VBC_ATLAS_PROBE_FRACTION,
                                   VBC_ATLAS_PROBE_STEPS * run->dt));
  }
  return NAN;
}

int vbc_atlas_prepare(vbc_atlas *a, vbc_error *err) {
  a->sweeps = vbc_calloc(a->spec.ncases, sizeof *a->sweeps, err);
  if (a->sweeps == NULL) return err->code;
  for (size_t c = 0; c < a->spec.ncases; ++c)
    if (prepare_sweep(a, c, &a->sweeps[c], 0.0, err) != VBC_OK) return err->code;
  if (!(a->budget > 0.0)) return VBC_OK;
  a->probes = vbc_calloc(a->spec.ncases, sizeof *a->probes, err);
  if (a->probes == NULL) return err->code;
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    const double end = probe_end(a, c);
    if (end > 0.0 && prepare_sweep(a, c, &a->probes[c], end, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

static size_t max_case_levels(const vbc_atlas *a) {
  size_t n = 0;
  for (size_t c = 0; c < a->spec.ncases; ++c)
    if (vbc_atlas_case_levels(a, c) > n) n = vbc_atlas_case_levels(a, c);
  return n;
}

/* Level by level, coarsest first, so that a finer cell's cost is predicted from a finished
 * coarser one before it starts (atlas_budget.c). The cells of a level, of every case, are one
 * queue: a case with one long cell left does not hold the other jobs idle. */
int vbc_atlas_execute(vbc_atlas *a, const char *vbc, vbc_error *err) {
  if (a->probes) {
    if (!a->quiet) fprintf(stderr, "vbc atlas: the probes\n");
    vbc_error inner = {0};
    if (vbc_sweep_execute_together(a->probes, a->spec.ncases, vbc, a->jobs, a->force, NULL,
                                   &inner) != VBC_OK)
      return *err = inner, err->code;
  }
  for (size_t k = 0; k < max_case_levels(a); ++k) {
    if (vbc_atlas_plan_level(a, k, err) != VBC_OK) return err->code;
    if (!a->quiet) fprintf(stderr, "vbc atlas: level %zu\n", k + 1);
    vbc_error inner = {0};
    /* the cases without a level k hold all their cells (vbc_atlas_plan_level) */
    int rc = vbc_sweep_execute_together(a->sweeps, a->spec.ncases, vbc, a->jobs, a->force, NULL,
                                        &inner);
    /* an interrupted atlas stops; the cells already done stay done */
    if (rc != VBC_OK) return *err = inner, err->code;
  }
  return VBC_OK;
}

static int sweep_settled(const vbc_sweep *sw) {
  for (size_t i = 0; i < sw->ncases; ++i)
    if (sw->cases[i].state == VBC_CASE_PENDING || sw->cases[i].state == VBC_CASE_INCOMPLETE)
      return 0;
  return 1;
}

/* Is every probe done, failed or refused? */
static int probes_settled(const vbc_atlas *a) {
  for (size_t c = 0; a->probes && c < a->spec.ncases; ++c)
    if (!sweep_settled(&a->probes[c])) return 0;
  return 1;
}

/* Is every cell of level k done, failed, refused or stopped at the cap? */
static int level_settled(const vbc_atlas *a, size_t k) {
  char why[240];
  for (size_t c = 0; c < a->spec.ncases; ++c)
    for (size_t m = 0; k < vbc_atlas_case_levels(a, c) && m < a->spec.nmethods; ++m) {
      const vbc_sweep_case *run = vbc_atlas_run_of(a, c, m, k);
      if (run && (run->state == VBC_CASE_PENDING ||
                  (run->state == VBC_CASE_INCOMPLETE &&
                   !vbc_atlas_stopped_at_cap(a, c, m, k, why, sizeof why))))
        return 0;
    }
  return 1;
}

/* With a budget, the job lines stop at the first level not yet settled: the finer levels' costs
 * are predicted from it, so they are written by the next --emit-jobs once its jobs have run. */
int vbc_atlas_emit_jobs(vbc_atlas *a, const char *vbc, const char *path, size_t *njobs,
                        vbc_error *err) {
  *njobs = 0;
  size_t k = max_case_levels(a) - 1;
  if (a->budget > 0.0 && !a->force)
    for (k = 0; k + 1 < max_case_levels(a) && level_settled(a, k);) ++k;
  /* with a budget the probes come first: the first level's costs are predicted from them */
  const int probing = a->probes && !a->force && !probes_settled(a);
  if (!probing && vbc_atlas_plan_level(a, k, err) != VBC_OK) return err->code;
  a->emitted_levels = probing ? 0 : k + 1;
  vbc_sweep *sweeps = probing ? a->probes : a->sweeps;
  vbc_file out;
  if (vbc_file_open(&out, path, ".tmp", err) != VBC_OK) return err->code;
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    char part[1200];
    size_t n = 0;
    if (sweeps[c].ncases == 0) continue; /* a probe of a case none of whose levels resolves */
    snprintf(part, sizeof part, "%s.%s", path, a->spec.cases[c].name);
    if (vbc_sweep_emit_jobs(&sweeps[c], vbc, part, a->force, &n, err) != VBC_OK) {
      vbc_file_discard(&out);
      return err->code;
    }
    FILE *f = n > 0 ? fopen(part, "r") : NULL;
    for (int ch; f && (ch = fgetc(f)) != EOF;) fputc(ch, out.f);
    if (f) fclose(f);
    remove(part);
    *njobs += n;
  }
  return vbc_file_commit(&out, err);
}

void vbc_atlas_free(vbc_atlas *a) {
  for (size_t c = 0; a->sweeps && c < a->spec.ncases; ++c) vbc_sweep_free(&a->sweeps[c]);
  for (size_t c = 0; a->probes && c < a->spec.ncases; ++c) vbc_sweep_free(&a->probes[c]);
  free(a->sweeps), free(a->probes);
  free(a->cells);
  free(a->held);
  vbc_atlas_spec_free(&a->spec);
  memset(a, 0, sizeof *a);
}
