/* lcp_file.h — the .lcp file: one linear complementarity problem w = M z + q, z >= 0, w >= 0,
 * z^T w = 0, as `vbc run --dump-lcp` writes it and `vbc lcp` reads it (docs/lcp.md).
 *
 * Lines whose first non-blank character is '#' are comments; the rest is whitespace-separated
 * numbers: n, the n^2 entries of M row by row, the n entries of q. Numbers are written with 17
 * significant digits, so a file read back gives the same doubles. */
#ifndef VBC_LCP_FILE_H
#define VBC_LCP_FILE_H

#include <stdio.h>

#include "core/constraint.h"

/* Read path: an array of 1 + n^2 + n doubles (n, M row by row, q; M = x + 1, q = x + 1 + n^2)
 * and n; NULL with VBC_EXIT_INPUT and a message naming the file and the fault (missing file, a
 * token that is not a finite number, n not a positive integer, a wrong count of numbers). */
double *vbc_lcp_file_read(const char *path, size_t *n, vbc_error *err);

/* Write n, the dense rows of the n x n CSR matrix M (entries of a row may come in any order and
 * repeat: they are summed) and q, after whatever comment lines the caller wrote. */
int vbc_lcp_file_write(FILE *f, size_t n, const vbc_sparse *M, const double *q, vbc_error *err);

#endif
