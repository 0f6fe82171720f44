/* test_reduce.c — core/reduce.h's one-pass sums: vbc_sum_pass gives the bits of writing the
 * values to an array and summing it with vbc_sum (the solve loop's stopping tests rely on that to
 * stay the same on any number of threads), over one chunk, several, and more chunks than the
 * partial sums' stack holds; and vbc_rows_error_sum counts its rows across chunks. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constraint.h"
#include "core/reduce.h"

/* Values of every magnitude and sign, so that the order of the additions shows in the bits. */
static double value(size_t i) {
  const double u = sin(0.7 * (double)i + 0.1) * pow(10.0, (double)(i % 13) - 6.0);
  return i % 3 == 0 ? -u : u;
}

static double square_chunk(void *ctx, size_t begin, size_t end, size_t *count) {
  (void)ctx, (void)count;
  double s = 0.0;
  for (size_t i = begin; i < end; ++i) s += value(i) * value(i) - 0.5 * value(i);
  return s;
}

Test(reduce, a_pass_sums_as_vbc_sum_of_its_values) {
  const size_t sizes[] = {0, 1, 4095, 4096, 4097, 10000, 300 * 4096 + 7};
  for (size_t t = 0; t < sizeof sizes / sizeof *sizes; ++t) {
    const size_t n = sizes[t];
    double *x = malloc((n ? n : 1) * sizeof *x);
    cr_assert_not_null(x);
    for (size_t i = 0; i < n; ++i) x[i] = value(i) * value(i) - 0.5 * value(i);
    const double a = vbc_sum(x, n), b = vbc_sum_pass(n, square_chunk, NULL, NULL);
    cr_assert(memcmp(&a, &b, sizeof a) == 0, "n = %zu: %.17g against %.17g", n, a, b);
    free(x);
  }
}

Test(reduce, row_errors_count_every_row_with_a_diagonal) {
  enum { N = 10000 };
  static double lo[N], hi[N], diag[N], impulse[N], residual[N], scratch[N], target[N];
  vbc_rows r = {.n = N, .lo = lo, .hi = hi, .diag = diag, .impulse = impulse,
                .residual = residual, .scratch = scratch, .target = target};
  size_t with_diag = 0;
  double expected[N];
  for (size_t k = 0; k < N; ++k) {
    lo[k] = 0.0, hi[k] = INFINITY;
    diag[k] = k % 7 == 0 ? 0.0 : 1.0 + (double)(k % 5);
    impulse[k] = k % 4 == 0 ? 0.0 : 1.0;
    residual[k] = value(k);
    with_diag += diag[k] > 0.0;
    /* a row counts where its impulse could still move: r > 0, or r < 0 above lo */
    const int moves = residual[k] > 0.0 || impulse[k] > 0.0;
    expected[k] = diag[k] > 0.0 && moves ? 0.25 * fabs(residual[k]) : 0.0;
  }
  size_t count = 0;
  const double sum = vbc_rows_error_sum(&r, 0.25, &count), want = vbc_sum(expected, N);
  cr_assert_eq(count, with_diag);
  cr_assert(memcmp(&sum, &want, sizeof sum) == 0, "%.17g against %.17g", sum, want);
}
