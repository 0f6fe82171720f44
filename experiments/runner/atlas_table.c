/* atlas_table.c — every cell of the atlas read back from its run (so the table can be rebuilt
 * from stored results at any time) and written as DIR/atlas.csv and DIR/atlas.json: case,
 * method, spacing, status, the case's errors, the observed order against the next coarser
 * spacing, cost (wall and CPU seconds, particle-steps per second, peak memory, mean solver
 * iterations), warnings and the message of a failure, a refusal or a cell over the cost budget;
 * atlas.json adds each method's order fitted over a case's levels. A missing value is an empty
 * CSV field and null in the JSON, as in the sweep tables. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep_csv.h"
#include "experiments/runner/sweep.h"
#include "io/files.h"

/* The value of varied key `key` in case c of sw, NULL if the sweep does not vary it. */
static const cJSON *varied_value(const vbc_sweep *sw, const vbc_sweep_case *c, const char *key) {
  size_t k = 0;
  for (size_t a = 0; a < sw->spec.naxes; ++a)
    for (size_t j = 0; j < sw->spec.axes[a].nkeys; ++j, ++k)
      if (strcmp(sw->spec.axes[a].keys[j], key) == 0) return c->values[k];
  return NULL;
}

vbc_sweep_case *vbc_atlas_find_run(const vbc_sweep *sw, const char *method, double spacing) {
  for (size_t i = 0; i < sw->ncases; ++i) {
    vbc_sweep_case *c = &sw->cases[i];
    const cJSON *m = varied_value(sw, c, "method"), *h = varied_value(sw, c, "spacing");
    if (cJSON_IsString(m) && strcmp(m->valuestring, method) == 0 && cJSON_IsNumber(h) &&
        h->valuedouble == spacing)
      return c;
  }
  return NULL;
}

vbc_sweep_case *vbc_atlas_run_of(const vbc_atlas *a, size_t c, size_t m, size_t k) {
  return vbc_atlas_find_run(&a->sweeps[c], a->spec.methods[m],
                  vbc_atlas_level_number(&a->spec.cases[c], k, "spacing"));
}

static double number_at(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void read_warnings(const cJSON *summary, char *out, size_t size) {
  out[0] = '\0';
  size_t n = 0;
  const cJSON *w;
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(summary, "warnings")) {
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(w, "code");
    if (cJSON_IsString(code) && n + strlen(code->valuestring) + 2 < size)
      n += (size_t)snprintf(out + n, size - n, "%s%s", n ? ";" : "", code->valuestring);
  }
}

static void read_cell(const vbc_atlas *a, const vbc_sweep *sw, vbc_sweep_case *run,
                      vbc_atlas_cell *cell) {
  const vbc_atlas_case *k = &a->spec.cases[cell->c];
  for (size_t e = 0; e < VBC_ATLAS_MAX_ERRORS; ++e) cell->errors[e] = NAN;
  cell->order = cell->wall_seconds = cell->cpu_seconds = cell->particle_steps_per_second = NAN;
  cell->peak_memory_mib = cell->iterations_mean = NAN;
  cell->status = "not run";
  if (run == NULL) return;
  if (run->state == VBC_CASE_REFUSED) {
    cell->status = "refused", cell->exit_code = 2;
    snprintf(cell->message, sizeof cell->message, "%s", run->message);
    return;
  }
  if (run->state != VBC_CASE_DONE && run->state != VBC_CASE_FAILED) return;
  vbc_sweep_case_dir(sw, run, cell->run_dir, sizeof cell->run_dir);
  cJSON *summary = vbc_sweep_case_json(sw, run, "summary.json");
  cJSON *result = vbc_sweep_case_json(sw, run, "result.json");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(result, "exit_code");
  cell->exit_code = cJSON_IsNumber(code) ? code->valueint : run->state == VBC_CASE_DONE ? 0 : 3;
  cell->status = run->state == VBC_CASE_DONE ? "ok" : cell->exit_code == 2 ? "refused" : "failed";
  snprintf(cell->message, sizeof cell->message, "%s", run->message);
  for (size_t e = 0; e < k->nerrors; ++e)
    cell->errors[e] = vbc_sweep_case_metric(summary, k->errors[e].metric);
  cell->wall_seconds = number_at(summary, "wall_seconds");
  cell->cpu_seconds = number_at(summary, "cpu_seconds");
  cell->particle_steps_per_second = number_at(summary, "particle_steps_per_second");
  cell->peak_memory_mib = number_at(summary, "peak_memory_mib");
  cell->iterations_mean =
      number_at(cJSON_GetObjectItemCaseSensitive(summary, "solver"), "iterations_mean");
  read_warnings(summary, cell->warnings, sizeof cell->warnings);
  cJSON_Delete(summary), cJSON_Delete(result);
}

const vbc_atlas_cell *vbc_atlas_cell_at(const vbc_atlas *a, size_t c, size_t m, size_t k) {
  for (size_t i = 0; i < a->ncells; ++i) {
    const vbc_atlas_cell *x = &a->cells[i];
    if (x->c == c && x->m == m && x->level == k) return x;
  }
  return NULL;
}

const vbc_atlas_cell *vbc_atlas_finest_cell(const vbc_atlas *a, size_t c, size_t m) {
  const size_t n = vbc_atlas_case_levels(a, c);
  return n ? vbc_atlas_cell_at(a, c, m, n - 1) : NULL;
}

size_t vbc_atlas_best(const vbc_atlas *a, size_t c) {
  size_t best = SIZE_MAX;
  int best_flagged = 1;
  for (size_t m = 0; m < a->spec.nmethods; ++m) {
    const vbc_atlas_cell *x = vbc_atlas_finest_cell(a, c, m);
    if (x == NULL || strcmp(x->status, "ok") != 0 || !isfinite(x->errors[0])) continue;
    const int flagged = x->warnings[0] != '\0';
    const vbc_atlas_cell *b = best == SIZE_MAX ? NULL : vbc_atlas_finest_cell(a, c, best);
    if (b == NULL || (best_flagged && !flagged) ||
        (flagged == best_flagged && x->errors[0] < b->errors[0]))
      best = m, best_flagged = flagged;
  }
  return best;
}

/* An error counts for orders only from a finished run. */
static double ok_error(const vbc_atlas_cell *x) {
  return x && strcmp(x->status, "ok") == 0 ? x->errors[0] : NAN;
}

int vbc_atlas_collect(vbc_atlas *a, vbc_error *err) {
  size_t n = 0;
  for (size_t c = 0; c < a->spec.ncases; ++c) n += a->spec.nmethods * vbc_atlas_case_levels(a, c);
  free(a->cells);
  a->ncells = 0;
  if ((a->cells = vbc_calloc(n ? n : 1, sizeof *a->cells, err)) == NULL) return err->code;
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    vbc_sweep *sw = &a->sweeps[c];
    for (size_t i = 0; i < sw->ncases; ++i)
      if (sw->cases[i].state != VBC_CASE_REFUSED) vbc_sweep_refresh_state(sw, &sw->cases[i]);
    for (size_t m = 0; m < a->spec.nmethods; ++m)
      for (size_t k = 0; k < vbc_atlas_case_levels(a, c); ++k) {
        vbc_atlas_cell *cell = &a->cells[a->ncells++];
        cell->c = c, cell->m = m, cell->level = k;
        cell->spacing = vbc_atlas_level_number(&a->spec.cases[c], k, "spacing");
        read_cell(a, sw, vbc_atlas_find_run(sw, a->spec.methods[m], cell->spacing), cell);
        const char *held = a->held ? a->held[vbc_atlas_slot(a, c, m, k)] : "";
        if (strcmp(cell->status, "not run") == 0 && held[0])
          snprintf(cell->message, sizeof cell->message, "%s", held);
        else if (strcmp(cell->status, "not run") == 0) /* stopped at the cap in this run */
          vbc_atlas_stopped_at_cap(a, c, m, k, cell->message, sizeof cell->message);
        const vbc_atlas_cell *coarser = k > 0 ? &a->cells[a->ncells - 2] : NULL;
        double e0 = ok_error(coarser), e1 = ok_error(cell);
        if (e0 > 0.0 && e1 > 0.0)
          cell->order = log(e0 / e1) / log(coarser->spacing / cell->spacing);
      }
  }
  return VBC_OK;
}

double vbc_atlas_fitted_order(const vbc_atlas *a, size_t c, size_t m, size_t *npoints) {
  double h[8], e[8];
  size_t n = 0;
  for (size_t k = 0; k < vbc_atlas_case_levels(a, c) && n < 8; ++k) {
    const vbc_atlas_cell *x = vbc_atlas_cell_at(a, c, m, k);
    if (ok_error(x) > 0.0) h[n] = x->spacing, e[n++] = x->errors[0];
  }
  double order, coef;
  *npoints = vbc_fit_order(h, e, n, &order, &coef);
  return order;
}

/* ---- writing ---- */

static void csv_text(FILE *f, const char *s) { vbc_csv_write_field(f, s, 0); }

static void csv_number(FILE *f, double v) {
  fputc(',', f);
  if (isfinite(v)) fprintf(f, "%.10g", v);
}

static void json_number(cJSON *o, const char *key, double v) {
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

/* The error columns: every metric any case names, in order of first appearance. */
static size_t error_columns(const vbc_atlas *a, const char **names, size_t max) {
  size_t n = 0;
  for (size_t c = 0; c < a->spec.ncases; ++c)
    for (size_t e = 0; e < a->spec.cases[c].nerrors; ++e) {
      const char *metric = a->spec.cases[c].errors[e].metric;
      size_t i = 0;
      while (i < n && strcmp(names[i], metric) != 0) ++i;
      if (i == n && n < max) names[n++] = metric;
    }
  return n;
}

static double cell_metric(const vbc_atlas *a, const vbc_atlas_cell *x, const char *metric) {
  const vbc_atlas_case *k = &a->spec.cases[x->c];
  for (size_t e = 0; e < k->nerrors; ++e)
    if (strcmp(k->errors[e].metric, metric) == 0) return x->errors[e];
  return NAN;
}

static cJSON *cell_json(const vbc_atlas *a, const vbc_atlas_cell *x, const char *const *names,
                        size_t nnames) {
  const vbc_atlas_case *k = &a->spec.cases[x->c];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "case", k->name);
  cJSON_AddStringToObject(o, "method", a->spec.methods[x->m]);
  cJSON_AddNumberToObject(o, "level", (double)x->level + 1);
  cJSON_AddNumberToObject(o, "spacing", x->spacing);
  cJSON_AddStringToObject(o, "status", x->status);
  cJSON_AddStringToObject(o, "error_metric", k->errors[0].metric);
  json_number(o, "error", x->errors[0]);
  json_number(o, "order", x->order);
  for (size_t i = 0; i < nnames; ++i) json_number(o, names[i], cell_metric(a, x, names[i]));
  json_number(o, "wall_seconds", x->wall_seconds);
  json_number(o, "cpu_seconds", x->cpu_seconds);
  json_number(o, "particle_steps_per_second", x->particle_steps_per_second);
  json_number(o, "peak_memory_mib", x->peak_memory_mib);
  json_number(o, "iterations_mean", x->iterations_mean);
  cJSON_AddStringToObject(o, "warnings", x->warnings);
  cJSON_AddStringToObject(o, "message", x->message);
  return o;
}

int vbc_atlas_write_table(const vbc_atlas *a, vbc_error *err) {
  const char *names[64];
  size_t nnames = error_columns(a, names, 64);
  char path[1100];
  snprintf(path, sizeof path, "%s/atlas.csv", a->out);
  vbc_file csv;
  if (vbc_file_open(&csv, path, ".tmp", err) != VBC_OK) return err->code;
  fputs("case,method,level,spacing,status,error_metric,error,order", csv.f);
  for (size_t i = 0; i < nnames; ++i) csv_text(csv.f, names[i]);
  fputs(",wall_seconds,cpu_seconds,particle_steps_per_second,peak_memory_mib,iterations_mean,"
        "warnings,"
        "message\n",
        csv.f);
  cJSON *rows = cJSON_CreateArray();
  for (size_t i = 0; i < a->ncells; ++i) {
    const vbc_atlas_cell *x = &a->cells[i];
    const vbc_atlas_case *k = &a->spec.cases[x->c];
    fputs(k->name, csv.f);
    csv_text(csv.f, a->spec.methods[x->m]);
    fprintf(csv.f, ",%zu,%.10g", x->level + 1, x->spacing);
    csv_text(csv.f, x->status);
    csv_text(csv.f, k->errors[0].metric);
    csv_number(csv.f, x->errors[0]);
    csv_number(csv.f, x->order);
    for (size_t j = 0; j < nnames; ++j) csv_number(csv.f, cell_metric(a, x, names[j]));
    csv_number(csv.f, x->wall_seconds);
    csv_number(csv.f, x->cpu_seconds);
    csv_number(csv.f, x->particle_steps_per_second);
    csv_number(csv.f, x->peak_memory_mib);
    csv_number(csv.f, x->iterations_mean);
    csv_text(csv.f, x->warnings);
    csv_text(csv.f, x->message);
    fputc('\n', csv.f);
    cJSON_AddItemToArray(rows, cell_json(a, x, names, nnames));
  }
  if (vbc_file_commit(&csv, err) != VBC_OK) return cJSON_Delete(rows), err->code;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "name", a->spec.name);
  cJSON_AddStringToObject(root, "description", a->spec.description);
  cJSON_AddItemToObject(root, "cells", rows);
  cJSON *orders = cJSON_AddArrayToObject(root, "orders");
  for (size_t c = 0; c < a->spec.ncases; ++c)
    for (size_t m = 0; m < a->spec.nmethods; ++m) {
      size_t n;
      double p = vbc_atlas_fitted_order(a, c, m, &n);
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "case", a->spec.cases[c].name);
      cJSON_AddStringToObject(o, "method", a->spec.methods[m]);
      json_number(o, "fitted_order", p);
      cJSON_AddNumberToObject(o, "levels_used", (double)n);
      cJSON_AddItemToArray(orders, o);
    }
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
  snprintf(path, sizeof path, "%s/atlas.json", a->out);
  int rc = vbc_write_file_atomic(path, text, err);
  free(text);
  return rc;
}
