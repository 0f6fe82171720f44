/* series_value.c — one value of a benchmark's series.csv row. docs/outputs.md: a missing value
 * (a surface with no fluid column to measure, an error with no particle deep enough) is an empty
 * field, which pandas, gnuplot, R and spreadsheets read as missing, never `nan`. */
#include <math.h>

#include "metrics/metrics.h"

void vbc_series_value(FILE *out, const char *format, double value) {
  fputc(',', out);
  if (isfinite(value)) fprintf(out, format, value);
}
