/* test_lcp_file.c — the .lcp file (lcp/lcp_file.h): what the dump writes, `vbc lcp` reads back
 * bit for bit, and a malformed file is refused with a message naming it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_file.h"
#include "tests/support.h"

Test(lcp_file, written_and_read_back_bit_for_bit) {
  /* 3 x 3 CSR with entries out of order and one repeated (summed on writing) */
  size_t start[] = {0, 3, 4, 6};
  size_t col[] = {2, 0, 0, 1, 2, 0};
  double val[] = {-0.1, 1.0 / 3.0, 2.0, 4.0, 1e-300, 0.7};
  vbc_sparse M = {.nrows = 3, .ndofs = 3, .nnz = 6, .start = start, .col = col, .val = val};
  const double q[] = {-1.0, 0.1 + 0.2, -2.5e-17};
  const char *path = write_text(test_dir("lcp_file_roundtrip"), "p.lcp", "# a comment line\n");
  FILE *f = fopen(path, "a");
  cr_assert_not_null(f);
  vbc_error err = {0};
  cr_assert_eq(vbc_lcp_file_write(f, 3, &M, q, &err), VBC_OK);
  fclose(f);
  size_t n = 0;
  double *x = vbc_lcp_file_read(path, &n, &err);
  cr_assert_not_null(x, "%s", err.message);
  cr_assert_eq(n, 3);
  const double dense[9] = {1.0 / 3.0 + 2.0, 0.0, -0.1, 0.0, 4.0, 0.0, 0.7, 0.0, 1e-300};
  cr_assert_eq(memcmp(x + 1, dense, sizeof dense), 0);
  cr_assert_eq(memcmp(x + 1 + 9, q, sizeof q), 0);
  free(x);
}

Test(lcp_file, malformed_files_are_refused_naming_the_file) {
  const char *dir = test_dir("lcp_file_bad");
  const struct { const char *text, *says; } bad[] = {
      {"2\n1 0 0 1\n-1\n", "wrong count of numbers"},
      {"2.5\n1\n", "positive integer"},
      {"1\n1 x\n", "not a finite number"},
      {"# nothing\n", "no numbers"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
    const char *path = write_text(dir, "bad.lcp", bad[k].text);
    vbc_error err = {0};
    size_t n = 0;
    cr_assert_null(vbc_lcp_file_read(path, &n, &err));
    cr_assert_eq(err.code, VBC_EXIT_INPUT);
    cr_assert(strstr(err.message, path) && strstr(err.message, bad[k].says), "%s", err.message);
  }
}
