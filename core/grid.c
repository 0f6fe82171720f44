/* grid.c — the uniform grid of grid.h: the bounding box, the cells and the stable counting sort
 * by cell that the neighbour lists (grid_lists.c) and the colouring (grid_colouring.c) read. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "core/grid.h"
#include "core/parallel.h"

/* Cells beyond this many per particle mean the particles are scattered over a huge region: a
 * simulation that has exploded. The time loop reports that as a failure before it gets here. */
#define VBC_MAX_CELLS_PER_PARTICLE 512

/* Clamped in double before the conversion: an axis the grid does not span (z in 2D) may hold
 * any finite value (found by fuzz/state.c: z = 1e208 in a 2D state). */
static long axis_cell(double x, double lo, double cell, long nc) {
  const double c = floor((x - lo) / cell);
  if (!(c >= 0.0)) return 0;
  if (c >= (double)nc) return nc - 1;
  return (long)c;
}

static int bounding_box(const vbc_vec *pos, size_t n, vbc_vec *lo, vbc_vec *hi) {
  double l0 = DBL_MAX, l1 = DBL_MAX, l2 = DBL_MAX, h0 = -DBL_MAX, h1 = -DBL_MAX, h2 = -DBL_MAX;
  int finite = 1;
  /* about 3 ns a particle (0.8 % of a one-thread step of the 3D peer dam break over 39 931
   * particles): a streaming pass of core/parallel.h */
#pragma omp parallel for schedule(static) reduction(min : l0, l1, l2) reduction(max : h0, h1, h2) \
    reduction(&& : finite) if (n >= VBC_PARALLEL_MIN_STREAM)
  for (size_t i = 0; i < n; ++i) {
    vbc_vec p = pos[i];
    finite = finite && vbc_vec_isfinite(p);
    /* comparisons, not fmin/fmax (library calls here): they differ only for NaN, which
     * `finite` reports */
    l0 = p.x < l0 ? p.x : l0, l1 = p.y < l1 ? p.y : l1, l2 = p.z < l2 ? p.z : l2;
    h0 = p.x > h0 ? p.x : h0, h1 = p.y > h1 ? p.y : h1, h2 = p.z > h2 ? p.z : h2;
  }
  *lo = vbc_vec_make(l0, l1, l2);
  *hi = vbc_vec_make(h0, h1, h2);
  return finite;
}

static size_t cell_index(const vbc_grid *g, vbc_vec p) {
  const long cx = axis_cell(p.x, g->lo.x, g->cell, g->nc[0]);
  const long cy = axis_cell(p.y, g->lo.y, g->cell, g->nc[1]);
  const long cz = axis_cell(p.z, g->lo.z, g->cell, g->nc[2]);
  return (size_t)(cx + g->nc[0] * (cy + g->nc[1] * cz));
}

/* pos[sorted[k]] by axis, so that the search reads its candidates in a row. */
static void copy_sorted_positions(vbc_grid *g, const vbc_vec *pos, size_t lo, size_t hi) {
  for (size_t k = lo; k < hi; ++k) {
    const vbc_vec p = pos[g->sorted[k]];
    g->sx[k] = p.x, g->sy[k] = p.y, g->sz[k] = p.z;
  }
}

/* The counting sort on one thread, with cell_start as its only counter (no array of ncells
 * beside it: at 10^6 fluid particles in the 3D peer dam break sim.c's overlap check builds a
 * grid of about 12 cells a particle, and a second array of them held 8 B a cell): the counts go
 * to cell_start[c + 2], the prefix sum makes cell_start[c + 1] the start of cell c, and placing
 * a particle of cell c advances cell_start[c + 1] to the start of cell c + 1. */
static void sort_serial(vbc_grid *g, const vbc_vec *pos) {
  const size_t n = g->n, nc = g->ncells;
  size_t *cs = g->cell_start;
  memset(cs, 0, (nc + 2) * sizeof *cs);
  for (size_t i = 0; i < n; ++i) cs[(g->cell_of[i] = cell_index(g, pos[i])) + 2]++;
  for (size_t c = 2; c < nc + 2; ++c) cs[c] += cs[c - 1];
  for (size_t i = 0; i < n; ++i) g->sorted[cs[g->cell_of[i] + 1]++] = (uint32_t)i;
  copy_sorted_positions(g, pos, 0, n);
}

/* A stable counting sort by cell, in parallel: each thread takes a contiguous block of particles,
 * finds and counts their cells, and after one serial prefix over (cell, block) places its block
 * in index order. A cell's particles from block t follow those of the blocks before it, so every
 * cell lists its particles in index order, as a serial sort does, for any number of threads.
 * Then the positions in that order, by axis. Sparse grids (more than 8 cells a particle) sort on
 * one thread: the counts would take a copy of the cells per thread. So do grids of fewer than
 * VBC_PARALLEL_MIN_STREAM particles: the team start and its two barriers cost more than the sort
 * (measured in core/parallel.h). The one-thread sort (sort_serial) places the same order. */
static int sort_by_cell(vbc_grid *g, const vbc_vec *pos, vbc_error *err) {
  const size_t n = g->n, nc = g->ncells;
  const int team = n >= VBC_PARALLEL_MIN_STREAM && nc <= 8 * n ? omp_get_max_threads() : 1;
  if (team == 1) {
    sort_serial(g, pos);
    return VBC_OK;
  }
  if (vbc_grow(&g->cap_counts, (size_t)team * nc, (void *[]){&g->counts},
               (size_t[]){sizeof *g->counts}, 1, err) != VBC_OK)
    return err->code;
#pragma omp parallel num_threads(team)
  {
    const size_t T = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
    const size_t lo = n * t / T, hi = n * (t + 1) / T;
    size_t *count = g->counts + t * nc;
    memset(count, 0, nc * sizeof *count);
    for (size_t i = lo; i < hi; ++i) count[g->cell_of[i] = cell_index(g, pos[i])]++;
#pragma omp barrier
#pragma omp single
    {
      size_t placed = 0;
      for (size_t c = 0; c < nc; ++c) {
        g->cell_start[c] = placed;
        for (size_t u = 0; u < T; ++u) {
          const size_t k = g->counts[u * nc + c];
          g->counts[u * nc + c] = placed;
          placed += k;
        }
      }
      g->cell_start[nc] = placed;
    }
    for (size_t i = lo; i < hi; ++i) g->sorted[count[g->cell_of[i]]++] = (uint32_t)i;
#pragma omp barrier
    copy_sorted_positions(g, pos, n * t / T, n * (t + 1) / T);
  }
  return VBC_OK;
}

/* The grid's extent: cells of size `cell` per axis over [lo, hi], 1 on axes beyond dim. */
static double cells_over(vbc_vec lo, vbc_vec hi, int dim, double cell, size_t n, double nc[3]) {
  double ncells = 1.0;
  for (int a = 0; a < 3; ++a) {
    double extent = vbc_vec_get(hi, a) - vbc_vec_get(lo, a);
    nc[a] = (a < dim && n > 0) ? floor(extent / cell) + 1.0 : 1.0;
    ncells *= nc[a];
  }
  return ncells;
}

static double cells_limit(size_t n) { return (double)VBC_MAX_CELLS_PER_PARTICLE * (double)n + 1e6; }

double vbc_grid_cells_spanned(const vbc_vec *pos, size_t n, int dim, double cell, double *limit) {
  vbc_vec lo = vbc_vec_zero(), hi = vbc_vec_zero();
  double nc[3];
  *limit = cells_limit(n);
  if (n > 0 && !bounding_box(pos, n, &lo, &hi)) return INFINITY;
  return cells_over(lo, hi, dim, cell, n, nc);
}

/* A grid of far fewer cells than an earlier one gives the cells' arrays back instead of keeping
 * them resident: sim.c's overlap check builds the grid at cell l, the search at 2 l, 8 times
 * fewer cells in 3D, and the first's cell_start (8 B a cell, about 12 cells a particle at 10^6
 * fluid particles in the 3D peer dam break) stayed in the peak memory of the whole run. */
static void release_oversized(vbc_grid *g) {
  enum { KEEP = 1 << 16 }; /* cells any grid keeps: a small grid is not reallocated every build */
  const size_t cells = g->ncells + 2, team = (size_t)omp_get_max_threads();
  if (g->cap_cells > KEEP && g->cap_cells > 4 * cells)
    free(g->cell_start), g->cell_start = NULL, g->cap_cells = 0;
  if (g->cap_counts > KEEP && g->cap_counts > 4 * team * cells)
    free(g->counts), g->counts = NULL, g->cap_counts = 0;
}

int vbc_grid_build(vbc_grid *g, const vbc_vec *pos, size_t n, int dim, double cell,
                   vbc_error *err) {
  vbc_vec lo = vbc_vec_zero(), hi = vbc_vec_zero();
  if (n > 0 && !bounding_box(pos, n, &lo, &hi))
    return vbc_error_set(err, VBC_EXIT_FAILED, "neighbour search: non-finite particle position");
  if (n >= UINT32_MAX)
    return vbc_error_set(err, VBC_EXIT_INPUT, "too many particles (%zu)", n);
  g->dim = dim;
  g->cell = cell;
  g->lo = lo;
  g->n = n;
  double nc[3];
  const double ncells = cells_over(lo, hi, dim, cell, n, nc);
  /* checked before any count becomes a long (found by fuzz/state.c: a position of 1e208) */
  if (!(ncells <= cells_limit(n)))
    return vbc_error_set(err, VBC_EXIT_FAILED,
                         "neighbour search: particles spread over %.3g cells", ncells);
  for (int a = 0; a < 3; ++a) g->nc[a] = (long)nc[a];
  g->ncells = (size_t)ncells;
  release_oversized(g);
  if (vbc_grow(&g->cap_cells, g->ncells + 2, (void *[]){&g->cell_start},
               (size_t[]){sizeof *g->cell_start}, 1, err) != VBC_OK ||
      vbc_grow(&g->cap_n, n, (void *[]){&g->sorted, &g->sx, &g->sy, &g->sz, &g->cell_of},
               (size_t[]){sizeof *g->sorted, sizeof *g->sx, sizeof *g->sy, sizeof *g->sz,
                          sizeof *g->cell_of},
               5, err) != VBC_OK)
    return err->code;
  return sort_by_cell(g, pos, err);
}

void vbc_grid_free(vbc_grid *g) {
  free(g->cell_start);
  free(g->sorted);
  free(g->sx), free(g->sy), free(g->sz);
  free(g->cell_of);
  free(g->counts);
  memset(g, 0, sizeof *g);
}
