/* grid.h — uniform-grid neighbour search and the cell colouring used by parallel sweeps.
 *
 * The grid covers the bounding box of the particles with cubic cells of edge `cell` (>= the search
 * radius). Particles are bucketed by a stable counting sort, so within a cell they keep index order
 * and every list below is deterministic whatever the number of threads. Neighbour lists are CSR:
 * the neighbours of i are index[start[i] .. start[i+1]), every j != i with |r_j - r_i| < radius,
 * i.e. exactly the brute-force set, and dist[] holds those distances.
 *
 * Colouring for parallel Gauss–Seidel: the grid is cut into strips two cells wide across x;
 * even strips have colour 0, odd strips colour 1. Two particles in different strips of one colour
 * are more than two cells (2 r_e) apart, so their neighbourhoods are disjoint: all strips of one
 * colour can be swept at once, one thread per strip, each strip in a fixed order (cell by cell,
 * index order within a cell). The result is that of a sequential Gauss–Seidel sweep in that
 * order, for any number of threads, with only one barrier per colour. */
#ifndef VBC_GRID_H
#define VBC_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/vec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vbc_grid {
  int dim;
  double cell;
  vbc_vec lo;
  long nc[3];
  size_t ncells, n;
  size_t *cell_start; /* ncells + 1 (room for ncells + 2: the one-thread sort counts in it) */
  uint32_t *sorted;   /* particle indices, grouped by cell */
  double *sx, *sy, *sz; /* pos[sorted[k]] by axis: the search reads candidates in a row */
  size_t *cell_of;    /* cell index of each particle */
  size_t *counts;     /* scratch of the parallel sort: per thread and cell (dense grids only) */
  size_t cap_counts;
  size_t cap_cells, cap_n;
} vbc_grid;

/* One block of particles as the one-pass search fills it (vbc_neighbors_build): its lists go to
 * its region of the final lists, sized from its previous build, or, when they outgrow it, to
 * scratch of its own, freed once the lists are in place. */
typedef struct vbc_neighbor_chunk {
  uint32_t *index; /* where the scan writes: nb->index + base, or the scratch */
  double *dist;
  size_t cap, used;
  size_t base, region; /* its region: [base, base + region) of nb->index and nb->dist */
  int scratch;         /* 1: index and dist are its own scratch */
} vbc_neighbor_chunk;

typedef struct vbc_neighbors {
  size_t n, npairs;
  double radius;
  size_t *start;   /* n + 1 */
  uint32_t *index; /* npairs */
  double *dist;    /* npairs: |r_j - r_i|, so that no pass computes it again */
  double q_scale;  /* set by the caller: > 0 asks for q below (the SPH kernel's H) */
  double *q;       /* npairs: dist / q_scale when q_scale > 0, else NULL: the kernel's argument
                      r / H, divided once per pair and step instead of in every pass */
  size_t cap_q;
  size_t *offset;  /* n: where the search left particle i's list in its chunk's storage */
  size_t cap_n, cap_pairs;
  vbc_neighbor_chunk *chunk; /* the search's blocks; their regions are kept between builds */
  size_t nchunks;
  int plain;       /* set by the caller: 1 keeps the search on its plain loops where the AVX-512
                      ones could run (core/grid_scan.h; the same lists: tests/test_grid.c) */
  unsigned long build; /* counts the builds, so that values kept per pair can say which lists
                          they belong to (vbc_system.pair_w) */
} vbc_neighbors;

typedef struct vbc_colouring {
  int ncolours;
  size_t ngroups, nrows;
  size_t colour_start[3]; /* groups (strips) of colour c: [colour_start[c], colour_start[c+1]) */
  size_t *group_start;    /* rows of group g: rows[group_start[g] .. group_start[g+1]) */
  uint32_t *rows;
  size_t cap_groups, cap_rows;
} vbc_colouring;

/* How many cells of size `cell` the bounding box of pos spans, and in *limit the most that
 * vbc_grid_build accepts for n particles (beyond it the particles are scattered over a huge
 * region and the build fails): a set-up can refuse such a scene before anything runs. */
double vbc_grid_cells_spanned(const vbc_vec *pos, size_t n, int dim, double cell, double *limit);

int vbc_grid_build(vbc_grid *g, const vbc_vec *pos, size_t n, int dim, double cell,
                   vbc_error *err);
void vbc_grid_free(vbc_grid *g);

/* pos: the positions the grid was built with. With nb->q_scale > 0 the lists also hold
 * q = dist / q_scale per pair. */
int vbc_neighbors_build(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos, double radius,
                        vbc_error *err);

/* The same lists for the particles with active[i] != 0, and empty lists for the others (active
 * NULL: every particle). An active particle's list is complete: inactive particles appear in it. */
int vbc_neighbors_build_active(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos,
                               double radius, const unsigned char *active, vbc_error *err);

/* Lists for the seeds (seed[i] != 0) and for every other particle closer than reach (<= radius)
 * to a seed, empty lists for the rest; near[i] (n bytes, written) is 1 for those other
 * particles. A listed particle's list is complete. Cheaper than vbc_grid_near's cell-wide reach
 * when the readers of the lists need no more (sim/sim.h). */
int vbc_neighbors_build_near(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos,
                             double radius, const unsigned char *seed, double reach,
                             unsigned char *near, vbc_error *err);

/* active[i] = 1 for the seeds (seed[i] != 0) and for every particle in a cell at most `reach`
 * cells (along each axis) from a cell holding a seed, else 0; so every particle within reach
 * cell edges of a seed is active. mark: scratch of g->ncells bytes. */
void vbc_grid_near(const vbc_grid *g, const unsigned char *seed, long reach, unsigned char *mark,
                   unsigned char *active);
void vbc_neighbors_free(vbc_neighbors *nb);

/* Bytes of scratch the search holds beside the lists between builds (0 once they are gathered:
 * the peak memory of a 10^6-particle run counted them twice otherwise). */
size_t vbc_neighbors_scratch_bytes(const vbc_neighbors *nb);

/* Group rows by strip and colour. row_of[i] is the row of particle i, or -1 if it has none. */
int vbc_colouring_build(vbc_colouring *c, const vbc_grid *g, const long *row_of,
                        vbc_error *err);
void vbc_colouring_free(vbc_colouring *c);

#ifdef __cplusplus
}
#endif

#endif
