/* sweep_csv.h — reading the tables the plots draw from: a case's series.csv or convergence.csv,
 * or a reference data file. Comma- or whitespace-separated (decided per line), `#` comments and
 * blank lines skipped, an optional header line of names; and the one way the runner quotes a
 * field of the tables it writes. */
#ifndef VBC_SWEEP_CSV_H
#define VBC_SWEEP_CSV_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/error.h"

typedef struct vbc_table {
  size_t ncols, nrows;
  char **names;   /* ncols header names (NULL when the file has no header) */
  char **cells;   /* nrows * ncols, "" where a row is short */
} vbc_table;

int vbc_table_read(vbc_table *t, const char *path, vbc_error *err);
void vbc_table_free(vbc_table *t);
/* Column index of a header name or of a 1-based number (JSON string or number); -1 if absent. */
int vbc_table_column(const vbc_table *t, const cJSON *col);
int vbc_table_column_named(const vbc_table *t, const char *name);
/* The cell as a number (NAN when it is not one). */
double vbc_table_number(const vbc_table *t, size_t row, int col);
const char *vbc_table_cell(const vbc_table *t, size_t row, int col);

/* Writing the runner's tables: a field, after a comma unless first, quoted when it holds a comma,
 * quote or line break (quotes doubled, line breaks shown as spaces). */
void vbc_csv_write_field(FILE *f, const char *s, int first);

#endif
