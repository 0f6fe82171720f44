/* sweep_csv.c — see sweep_csv.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/runner/sweep_csv.h"

/* Split line in place into at most max fields. */
static size_t split(char *line, char **fields, size_t max) {
  const char *seps = strchr(line, ',') ? "," : " \t";
  size_t n = 0;
  if (seps[0] == ',') {
    for (char *p = line; n < max;) {
      fields[n++] = p;
      char *comma = strchr(p, ',');
      if (comma == NULL) break;
      *comma = '\0';
      p = comma + 1;
    }
  } else {
    for (char *tok = strtok(line, seps); tok && n < max; tok = strtok(NULL, seps)) fields[n++] = tok;
  }
  for (size_t i = 0; i < n; ++i) { /* trim blanks and one level of quotes */
    char *f = fields[i];
    while (*f == ' ' || *f == '\t') f++;
    size_t len = strlen(f);
    while (len && (f[len - 1] == ' ' || f[len - 1] == '\t')) f[--len] = '\0';
    if (len >= 2 && f[0] == '"' && f[len - 1] == '"') f[len - 1] = '\0', f++;
    fields[i] = f;
  }
  return n;
}

static int is_number(const char *s) {
  char *end;
  errno = 0;
  strtod(s, &end);
  return end != s && *end == '\0';
}

static int append_row(vbc_table *t, char **fields, size_t n, size_t *cap, vbc_error *err) {
  if (vbc_grow(cap, t->nrows + 1, (void *[]){&t->cells}, (size_t[]){t->ncols * sizeof *t->cells},
               1, err) != VBC_OK)
    return err->code;
  for (size_t j = 0; j < t->ncols; ++j)
    if ((t->cells[t->nrows * t->ncols + j] = vbc_strdup(j < n ? fields[j] : "", err)) == NULL)
      return err->code;
  t->nrows++;
  return VBC_OK;
}

int vbc_table_read(vbc_table *t, const char *path, vbc_error *err) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "r");
  if (f == NULL) return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot open: %s", path, strerror(errno));
  char line[8192], *fields[256];
  size_t cap = 0;
  int rc = VBC_OK;
  while (rc == VBC_OK && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    char *p = line + strspn(line, " \t");
    if (*p == '\0' || *p == '#') continue;
    size_t n = split(p, fields, 256);
    if (t->ncols == 0) {
      t->ncols = n;
      if (!is_number(fields[0])) { /* a header */
        if ((t->names = vbc_calloc(n, sizeof *t->names, err)) == NULL) rc = err->code;
        for (size_t j = 0; rc == VBC_OK && j < n; ++j)
          if ((t->names[j] = vbc_strdup(fields[j], err)) == NULL) rc = err->code;
        continue;
      }
    }
    rc = append_row(t, fields, n, &cap, err);
  }
  fclose(f);
  if (rc == VBC_OK && t->ncols == 0) rc = vbc_error_set(err, VBC_EXIT_INPUT, "%s: no data", path);
  return rc;
}

void vbc_table_free(vbc_table *t) {
  for (size_t j = 0; t->names && j < t->ncols; ++j) free(t->names[j]);
  for (size_t i = 0; t->cells && i < t->nrows * t->ncols; ++i) free(t->cells[i]);
  free(t->names), free(t->cells);
  memset(t, 0, sizeof *t);
}

int vbc_table_column_named(const vbc_table *t, const char *name) {
  for (size_t j = 0; t->names && j < t->ncols; ++j)
    if (strcmp(t->names[j], name) == 0) return (int)j;
  return -1;
}

int vbc_table_column(const vbc_table *t, const cJSON *col) {
  if (cJSON_IsString(col)) return vbc_table_column_named(t, col->valuestring);
  if (cJSON_IsNumber(col) && col->valuedouble >= 1 && col->valuedouble <= (double)t->ncols)
    return (int)col->valuedouble - 1;
  return -1;
}

const char *vbc_table_cell(const vbc_table *t, size_t row, int col) {
  return t->cells[row * t->ncols + (size_t)col];
}

double vbc_table_number(const vbc_table *t, size_t row, int col) {
  const char *s = vbc_table_cell(t, row, col);
  return is_number(s) ? strtod(s, NULL) : NAN;
}

void vbc_csv_write_field(FILE *f, const char *s, int first) {
  if (!first) fputc(',', f);
  if (strpbrk(s, ",\"\n") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"') fputc('"', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('"', f);
}
