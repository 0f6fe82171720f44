/* grid_colouring.c — the cell colouring of grid.h: rows grouped by strips two cells wide across
 * x, even strips colour 0 and odd strips colour 1, so that the rows of one colour can be swept
 * in parallel, one thread per strip, in a fixed order (the parallel Gauss-Seidel sweeps of
 * Miyamoto & Koshizuka eq. 36-41 keep their bits for any number of threads). */
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"

/* Strips two cells wide across x; strip s has colour s % 2. */
static size_t cell_strip(const vbc_grid *g, size_t cell) { return (cell % (size_t)g->nc[0]) / 2; }

int vbc_colouring_build(vbc_colouring *col, const vbc_grid *g, const long *row_of,
                        vbc_error *err) {
  const size_t nstrips = ((size_t)g->nc[0] + 1) / 2;
  col->ncolours = nstrips > 1 ? 2 : 1;
  if (vbc_grow(&col->cap_groups, nstrips + 1, (void *[]){&col->group_start},
               (size_t[]){sizeof *col->group_start}, 1, err) != VBC_OK)
    return err->code;
  /* count rows per strip; groups are ordered even strips first, then odd ones */
  size_t *count = col->group_start; /* count[1 + group] while counting */
  memset(count, 0, (nstrips + 1) * sizeof *count);
  size_t neven = (nstrips + 1) / 2, nrows = 0;
  for (size_t cell = 0; cell < g->ncells; ++cell)
    for (size_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; ++k)
      if (row_of[g->sorted[k]] >= 0) {
        size_t s = cell_strip(g, cell);
        count[1 + (s % 2 ? neven + s / 2 : s / 2)]++;
        nrows++;
      }
  for (size_t gi = 0; gi < nstrips; ++gi) count[gi + 1] += count[gi];
  col->ngroups = nstrips;
  col->nrows = nrows;
  col->colour_start[0] = 0;
  col->colour_start[1] = neven;
  col->colour_start[2] = nstrips;
  if (vbc_grow(&col->cap_rows, nrows, (void *[]){&col->rows}, (size_t[]){sizeof *col->rows}, 1,
               err) != VBC_OK)
    return err->code;
  /* fill each strip in cell order (then index order within a cell): a fixed sequence */
  size_t *next = vbc_calloc(nstrips, sizeof *next, err);
  if (next == NULL) return err->code;
  for (size_t gi = 0; gi < nstrips; ++gi) next[gi] = col->group_start[gi];
  for (size_t cell = 0; cell < g->ncells; ++cell)
    for (size_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; ++k) {
      long r = row_of[g->sorted[k]];
      if (r < 0) continue;
      size_t s = cell_strip(g, cell);
      col->rows[next[s % 2 ? neven + s / 2 : s / 2]++] = (uint32_t)r;
    }
  free(next);
  return VBC_OK;
}

void vbc_colouring_free(vbc_colouring *c) {
  free(c->group_start);
  free(c->rows);
  memset(c, 0, sizeof *c);
}
