/* sweep_table.c — DIR/table.csv: one row per case with its varied values, state, the spec's
 * metrics, the run's iterations, wall seconds and particle-steps per second and the codes of the
 * run-time monitors that fired (sim/monitors.h: `warnings`, joined by ';', empty when none),
 * read back from each case's summary.json (so the table can be rebuilt from stored results at
 * any time); and DIR/table.json, the same rows as an array of objects with the same keys in the same order
 * (numbers as numbers), for tools that prefer JSON. A missing value (no such figure, a figure
 * summary.json holds as null, a case that did not finish) is one thing everywhere: an empty
 * field in the CSV, null in the JSON. A run column the spec also lists as a metric appears once,
 * where the spec puts it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "io/json_file.h"
#include "core/json_util.h"
#include "experiments/runner/sweep.h"
#include "experiments/runner/sweep_csv.h"

cJSON *vbc_sweep_case_json(const vbc_sweep *sw, const vbc_sweep_case *c, const char *file) {
  char dir[1100], path[1200];
  snprintf(path, sizeof path, "%s/%s", vbc_sweep_case_dir(sw, c, dir, sizeof dir), file);
  vbc_error e;
  vbc_error_clear(&e);
  return vbc_json_load_file(path, &e);
}

const cJSON *vbc_sweep_case_value(const cJSON *summary, const char *name) {
  const char *homes[] = {"metrics", "solver", NULL};
  for (int i = 0; homes[i]; ++i) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(summary, homes[i]);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (v) return v;
  }
  return cJSON_GetObjectItemCaseSensitive(summary, name);
}

double vbc_sweep_case_metric(const cJSON *summary, const char *name) {
  const cJSON *v = vbc_sweep_case_value(summary, name);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void csv_field(FILE *f, const char *s, int first) { vbc_csv_write_field(f, s, first); }

static void csv_value(FILE *f, const cJSON *v) {
  char buf[64];
  if (cJSON_IsNumber(v)) {
    snprintf(buf, sizeof buf, "%.10g", v->valuedouble);
    csv_field(f, buf, 0);
  } else if (cJSON_IsString(v)) {
    csv_field(f, v->valuestring, 0);
  } else if (v && !cJSON_IsNull(v)) {
    char *text = cJSON_PrintUnformatted(v);
    csv_field(f, text ? text : "", 0);
    free(text);
  } else {
    fputc(',', f);
  }
}

static const char *const run_columns[] = {"iterations_mean", "iterations_max", "wall_seconds",
                                          "particle_steps_per_second"};
enum { NRUN_COLUMNS = sizeof run_columns / sizeof *run_columns };

/* Run column i unless the spec's metrics already hold it. */
static int run_column_shown(const vbc_sweep_spec *s, size_t i) {
  for (size_t m = 0; m < s->nmetrics; ++m)
    if (strcmp(s->metrics[m], run_columns[i]) == 0) return 0;
  return 1;
}

static void header(FILE *f, const vbc_sweep *sw) {
  const vbc_sweep_spec *s = &sw->spec;
  csv_field(f, "id", 1);
  csv_field(f, "state", 0);
  for (size_t a = 0; a < s->naxes; ++a)
    for (size_t k = 0; k < s->axes[a].nkeys; ++k) csv_field(f, s->axes[a].keys[k], 0);
  if (s->repeat > 1) csv_field(f, "repeat", 0);
  for (size_t m = 0; m < s->nmetrics; ++m) csv_field(f, s->metrics[m], 0);
  for (size_t i = 0; i < NRUN_COLUMNS; ++i)
    if (run_column_shown(s, i)) csv_field(f, run_columns[i], 0);
  csv_field(f, "warnings", 0);
  csv_field(f, "message", 0);
  fputc('\n', f);
}

/* The codes of the run-time monitors that fired in the case (summary.json's `warnings`, in
 * their order) joined by ';': "" when none did, NULL when the case has no summary. */
static char *warning_codes(const cJSON *summary, char *buf, size_t size) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(summary, "warnings");
  if (!cJSON_IsArray(list)) return NULL;
  size_t at = 0;
  buf[0] = 0;
  const cJSON *w;
  cJSON_ArrayForEach(w, list) {
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(w, "code");
    if (!cJSON_IsString(code) || at >= size) continue;
    at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? ";" : "", code->valuestring);
  }
  return buf;
}

/* A copy of v, or null when the case has no such value. */
static cJSON *json_value(const cJSON *v) {
  return v && !cJSON_IsNull(v) ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
}

/* The row's CSV line into f and its JSON object into rows (NULL if memory ran out). */
static void row(FILE *f, cJSON *rows, const vbc_sweep *sw, const vbc_sweep_case *c) {
  const vbc_sweep_spec *s = &sw->spec;
  cJSON *summary = vbc_sweep_case_json(sw, c, "summary.json");
  cJSON *o = cJSON_CreateObject();
  csv_field(f, c->id, 1);
  csv_field(f, vbc_case_state_name(c->state), 0);
  cJSON_AddStringToObject(o, "id", c->id);
  cJSON_AddStringToObject(o, "state", vbc_case_state_name(c->state));
  size_t at = 0;
  for (size_t a = 0; a < s->naxes; ++a)
    for (size_t k = 0; k < s->axes[a].nkeys; ++k, ++at) {
      csv_value(f, c->values[at]);
      cJSON_AddItemToObject(o, s->axes[a].keys[k], json_value(c->values[at]));
    }
  if (s->repeat > 1) {
    fprintf(f, ",%d", c->repeat);
    cJSON_AddNumberToObject(o, "repeat", c->repeat);
  }
  for (size_t m = 0; m < s->nmetrics; ++m) {
    const cJSON *v = vbc_sweep_case_value(summary, s->metrics[m]);
    csv_value(f, v);
    cJSON_AddItemToObject(o, s->metrics[m], json_value(v));
  }
  for (size_t i = 0; i < NRUN_COLUMNS; ++i) {
    if (!run_column_shown(s, i)) continue;
    const cJSON *v = vbc_sweep_case_value(summary, run_columns[i]);
    csv_value(f, v);
    cJSON_AddItemToObject(o, run_columns[i], json_value(v));
  }
  char codes[256];
  const char *warned = warning_codes(summary, codes, sizeof codes);
  csv_field(f, warned ? warned : "", 0);
  cJSON_AddItemToObject(o, "warnings", warned ? cJSON_CreateString(warned) : cJSON_CreateNull());
  csv_field(f, c->message, 0);
  cJSON_AddItemToObject(o, "message", c->message[0] ? cJSON_CreateString(c->message)
                                                    : cJSON_CreateNull());
  fputc('\n', f);
  if (!cJSON_AddItemToArray(rows, o)) cJSON_Delete(o);
  cJSON_Delete(summary);
}

int vbc_sweep_write_table(const vbc_sweep *sw, vbc_error *err) {
  char path[1200];
  snprintf(path, sizeof path, "%s/table.csv", sw->out);
  vbc_file file;
  if (vbc_mkdir_p(sw->out, err) != VBC_OK || vbc_file_open(&file, path, ".tmp", err) != VBC_OK)
    return err->code;
  cJSON *rows = cJSON_CreateArray();
  header(file.f, sw);
  for (size_t i = 0; i < sw->ncases; ++i)
    if (!sw->cases[i].is_state) row(file.f, rows, sw, &sw->cases[i]);
  int rc = vbc_file_commit(&file, err);
  char *text = rows ? cJSON_Print(rows) : NULL;
  cJSON_Delete(rows);
  if (rc == VBC_OK && text == NULL)
    rc = vbc_error_set(err, VBC_EXIT_SYSTEM, "%s/table.json: out of memory", sw->out);
  snprintf(path, sizeof path, "%s/table.json", sw->out);
  if (rc == VBC_OK) rc = vbc_write_file_atomic(path, text, err);
  free(text);
  return rc;
}
