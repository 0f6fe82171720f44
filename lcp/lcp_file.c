/* lcp_file.c — the .lcp file (lcp_file.h): read for `vbc lcp`, written for `vbc run --dump-lcp`. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_file.h"
#include "core/error.h"

/* The numbers of the file (comments skipped); NULL with a message in err if it is malformed. */
static double *read_numbers(const char *path, size_t *count, vbc_error *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot read the LCP file (%s)", path, strerror(errno));
    return NULL;
  }
  size_t cap = 0, n = 0;
  double *x = NULL;
  char *line = NULL;
  size_t linecap = 0;
  long lineno = 0;
  int ok = 1;
  while (ok && getline(&line, &linecap, f) >= 0) {
    ++lineno;
    const char *p = line + strspn(line, " \t\r\n\f\v");
    if (*p == '#') continue;
    for (char *tok = strtok(line, " \t\r\n\f\v"); ok && tok; tok = strtok(NULL, " \t\r\n\f\v")) {
      char *end;
      double v = strtod(tok, &end);
      if (end == tok || *end != '\0' || !isfinite(v)) {
        vbc_error_set(err, VBC_EXIT_INPUT, "%s: line %ld: '%.40s' is not a finite number", path,
                      lineno, tok);
        ok = 0;
        break;
      }
      if (vbc_grow(&cap, n + 1, (void *[]){&x}, (size_t[]){sizeof *x}, 1, err) != VBC_OK) {
        ok = 0;
        break;
      }
      x[n++] = v;
    }
  }
  if (ok && ferror(f)) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: read error", path);
    ok = 0;
  }
  free(line);
  fclose(f);
  /* an empty file still gets an array: check_layout then says what is missing */
  if (ok && x == NULL && (x = vbc_calloc(1, sizeof *x, err)) == NULL) ok = 0;
  if (!ok) {
    free(x);
    return NULL;
  }
  *count = n;
  return x;
}

/* n, M, q from the numbers: n a positive integer and exactly 1 + n^2 + n numbers. */
static int check_layout(const char *path, const double *x, size_t count, size_t *n,
                        vbc_error *err) {
  if (count == 0) return vbc_error_set(err, VBC_EXIT_INPUT, "%s: no numbers (expected n first)", path);
  if (!(x[0] >= 1.0) || x[0] != floor(x[0]) || x[0] > 1e6)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: n must be a positive integer, got %g", path,
                         x[0]);
  *n = (size_t)x[0];
  const size_t want = 1 + *n * *n + *n;
  if (count != want)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: wrong count of numbers: n = %zu needs %zu (n, the n^2 entries of M, "
                         "the n of q), found %zu", path, *n, want, count);
  return VBC_OK;
}

double *vbc_lcp_file_read(const char *path, size_t *n, vbc_error *err) {
  size_t count = 0;
  double *x = read_numbers(path, &count, err);
  if (x != NULL && check_layout(path, x, count, n, err) != VBC_OK) {
    free(x);
    return NULL;
  }
  return x;
}

int vbc_lcp_file_write(FILE *f, size_t n, const vbc_sparse *M, const double *q, vbc_error *err) {
  double *row = vbc_calloc(n, sizeof *row, err);
  if (row == NULL) return err->code;
  fprintf(f, "%zu\n", n);
  for (size_t i = 0; i < n; ++i) { /* CSR entries may come in any order: scatter, print */
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k) row[M->col[k]] += M->val[k];
    for (size_t j = 0; j < n; ++j) {
      const char sep = j + 1 < n ? ' ' : '\n';
      if (row[j] == 0.0) fprintf(f, "0%c", sep);
      else fprintf(f, "%.17g%c", row[j], sep);
    }
    for (size_t k = M->start[i]; k < M->start[i + 1]; ++k) row[M->col[k]] = 0.0;
  }
  for (size_t i = 0; i < n; ++i) fprintf(f, "%.17g\n", q[i]);
  free(row);
  return VBC_OK;
}
