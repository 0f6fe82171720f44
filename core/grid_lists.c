/* grid_lists.c — the neighbour lists of grid.h: a one-pass search over the cells around each
 * particle (grid_scan.h's distance test), each block of particles writing into its own region of
 * the final lists, then the prefix sum of the counts and a move into place. No paper: the lists
 * are exactly the brute-force sets (every j != i closer than the radius), in cell order (z, y, x)
 * and index order within a cell, for any number of threads. Choices: blocks of 128 particles, and
 * a region of the last count plus a 32nd and 128 pairs (below). */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "core/grid.h"
#include "core/grid_scan.h"
#include "core/parallel.h"

static void cell_coords(const vbc_grid *g, size_t cell, long c[3]) {
  c[0] = (long)(cell % (size_t)g->nc[0]);
  c[1] = (long)((cell / (size_t)g->nc[0]) % (size_t)g->nc[1]);
  c[2] = (long)(cell / ((size_t)g->nc[0] * (size_t)g->nc[1]));
}

/* The cells around particle i's cell c: r[a] cells each way along axis a, and along x the span
 * x0..x1 (c - 1 .. c + 1 within the grid). Cells x0..x1 of one row are consecutive, so their
 * particles are one run of g->sorted, in the order the cells would be visited one by one. */
typedef struct cell_rows {
  long c[3], r[3], x0, x1;
} cell_rows;

static cell_rows rows_around(const vbc_grid *g, size_t i) {
  cell_rows w;
  cell_coords(g, g->cell_of[i], w.c);
  w.r[0] = 1, w.r[1] = g->dim > 1, w.r[2] = g->dim > 2;
  w.x0 = w.c[0] > 0 ? w.c[0] - 1 : 0;
  w.x1 = w.c[0] + 1 < g->nc[0] ? w.c[0] + 1 : g->nc[0] - 1;
  return w;
}

/* The run of g->sorted holding cells x0..x1 of row (y, z); empty off the grid. */
static void row_run(const vbc_grid *g, const cell_rows *w, long y, long z, size_t *begin,
                    size_t *end) {
  *begin = *end = 0;
  if (y < 0 || y >= g->nc[1] || z < 0 || z >= g->nc[2]) return;
  const size_t row = (size_t)(g->nc[0] * (y + g->nc[1] * z));
  *begin = g->cell_start[row + (size_t)w->x0];
  *end = g->cell_start[row + (size_t)w->x1 + 1];
}

/* Room for `need` pairs in a chunk's storage; 0 when out of memory. A chunk that outgrows its
 * region moves what it has found (its first `keep` entries) to scratch of its own and goes on
 * there. */
static int chunk_reserve(vbc_neighbor_chunk *b, size_t need, size_t keep) {
  if (need <= b->cap) return 1;
  const size_t cap = need > 2 * b->cap ? need : 2 * b->cap;
  uint32_t *index =
      b->scratch ? realloc(b->index, cap * sizeof *index) : malloc(cap * sizeof *index);
  if (index == NULL) return 0;
  double *dist = b->scratch ? realloc(b->dist, cap * sizeof *dist) : malloc(cap * sizeof *dist);
  if (dist == NULL) {
    if (!b->scratch) free(index);
    else b->index = index;
    return 0;
  }
  if (!b->scratch && keep > 0) {
    memcpy(index, b->index, keep * sizeof *index);
    memcpy(dist, b->dist, keep * sizeof *dist);
  }
  b->index = index, b->dist = dist, b->cap = cap, b->scratch = 1;
  return 1;
}

static void chunk_free_scratch(vbc_neighbor_chunk *b) {
  if (b->scratch) free(b->index), free(b->dist);
  b->index = NULL, b->dist = NULL, b->cap = b->used = 0, b->scratch = 0;
}

/* Append to chunk b's storage (after b->used) every j != i within `radius` of particle i (at pi)
 * with its distance, cell by cell (z, y, x) and in index order within a cell. Returns the count,
 * or SIZE_MAX when the scratch cannot grow. wide: the AVX-512 loops (grid_scan.h). */
static size_t scan_neighbours(const vbc_grid *g, size_t i, vbc_vec pi, double radius, int wide,
                              vbc_neighbor_chunk *b) {
  const cell_rows w = rows_around(g, i);
  const double r2max = radius * radius;
  size_t count = 0;
  for (long z = w.c[2] - w.r[2]; z <= w.c[2] + w.r[2]; ++z)
    for (long y = w.c[1] - w.r[1]; y <= w.c[1] + w.r[1]; ++y) {
      size_t k, end;
      row_run(g, &w, y, z, &k, &end);
      if (k == end) continue;
      if (!chunk_reserve(b, b->used + count + (end - k) + VBC_SCAN_SLACK, b->used + count))
        return SIZE_MAX;
      count += vbc_scan_run(g, k, end, pi, r2max, (uint32_t)i, wide, b->index + b->used + count,
                            b->dist + b->used + count); /* r^2 until the end */
    }
  vbc_scan_sqrt(b->dist + b->used, count, wide);
  return count;
}

enum { CHUNK = 128 }; /* particles per block of the search's scratch: blocks small enough that the
                       * seeds' pass (the fluid only) splits evenly over the threads */

/* One pass over the particles (two for build_near): each block of CHUNK particles scans into its
 * own region of the lists, the prefix sum of the counts places the lists, and they are moved into
 * place. The lists are those of a count-then-fill search, in the same order. A block's region
 * holds its previous count and a margin (particles move little in a step), so the lists need no
 * second copy beside them: scratch of its own (12 B a pair, beside the lists' 12 and
 * sph_density's 36; without it the 3D peer dam break at 10^5 fluid particles peaks at 288 MiB
 * instead of 312) is only taken by a block that outgrows its region, and freed once its lists
 * are in place. */
int vbc_neighbors_build(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos, double radius,
                        vbc_error *err) {
  return vbc_neighbors_build_active(nb, g, pos, radius, NULL, err);
}

/* The margin of a block's region over its last count: room for a row of candidates
 * (VBC_SCAN_SLACK past the last kept one) and for some growth. A block that listed nothing keeps
 * no region. */
static size_t region_for(size_t pairs) { return pairs ? pairs + pairs / 32 + 128 : 0; }

/* Room for the lists of n particles and the blocks' regions; the lists start empty. */
static int lists_reserve(vbc_neighbors *nb, size_t n, double radius, vbc_error *err) {
  if (vbc_grow(&nb->cap_n, n + 1, (void *[]){&nb->start, &nb->offset},
               (size_t[]){sizeof *nb->start, sizeof *nb->offset}, 2, err) != VBC_OK)
    return err->code;
  nb->n = n;
  nb->radius = radius;
  nb->build++;
  memset(nb->start, 0, (n + 1) * sizeof *nb->start);
  const size_t nchunks = (n + CHUNK - 1) / CHUNK;
  if (nchunks > nb->nchunks) {
    vbc_neighbor_chunk *c = realloc(nb->chunk, nchunks * sizeof *c);
    if (c == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (neighbour search)");
    memset(c + nb->nchunks, 0, (nchunks - nb->nchunks) * sizeof *c);
    nb->chunk = c;
    nb->nchunks = nchunks;
  }
  size_t total = 0;
  for (size_t c = 0; c < nchunks; ++c) nb->chunk[c].base = total, total += nb->chunk[c].region;
  if (vbc_grow(&nb->cap_pairs, total, (void *[]){&nb->index, &nb->dist},
               (size_t[]){sizeof *nb->index, sizeof *nb->dist}, 2, err) != VBC_OK)
    return err->code;
  for (size_t c = 0; c < nchunks; ++c) {
    vbc_neighbor_chunk *b = &nb->chunk[c];
    chunk_free_scratch(b); /* held only when a build failed half-way */
    b->cap = b->region;
    b->index = b->region ? nb->index + b->base : NULL;
    b->dist = b->region ? nb->dist + b->base : NULL;
  }
  return VBC_OK;
}

/* Scan the particles with select[i] != 0 (select NULL: all) into their chunk's storage, after
 * what it holds: particle i's list goes to offset[i] there, its length to start[i + 1]. Each
 * block of CHUNK particles has its own storage, so any thread may take it. With near, every
 * particle found closer than reach that is not a seed is marked near[j] = 1. */
static int scan_pass(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos,
                     const unsigned char *select, const unsigned char *seed, double reach,
                     unsigned char *near, vbc_error *err) {
  const size_t n = nb->n, nchunks = (n + CHUNK - 1) / CHUNK;
  const int wide = !nb->plain && vbc_scan_wide_available();
  int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) if (n >= VBC_PARALLEL_MIN)
  for (size_t c = 0; c < nchunks; ++c) {
    /* a copy on this thread's stack: two chunks share a cache line, and the other thread is
     * on the next chunk, so updating `used` in place after every particle made the line bounce
     * between the cores (2D, 36 candidates a particle: the scan took 52 % more CPU on 2 threads
     * than on 1) */
    vbc_neighbor_chunk chunk = nb->chunk[c], *b = &chunk;
    const size_t hi = (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n;
    for (size_t i = c * CHUNK; i < hi; ++i) {
      if (select && !select[i]) continue;
      const size_t k = scan_neighbours(g, i, pos[i], nb->radius, wide, b);
      if (k == SIZE_MAX) {
#pragma omp atomic write
        failed = 1;
        break;
      }
      const uint32_t *found = b->index + b->used;
      const double *dist = b->dist + b->used;
      if (near) /* one test, rarely true (most neighbours of a seed are seeds): well predicted */
        for (size_t m = 0; m < k; ++m)
          if ((dist[m] < reach) & !seed[found[m]]) {
#pragma omp atomic write
            near[found[m]] = 1;
          }
      nb->offset[i] = b->used;
      nb->start[i + 1] = k;
      b->used += k;
    }
    nb->chunk[c] = chunk;
  }
  if (failed) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (neighbour search)");
  return VBC_OK;
}

/* 1 when chunk c's lists lie in its storage in particle order, one after the other (a single
 * pass; build_near's second pass appends the near particles after the seeds). */
static int chunk_in_order(const vbc_neighbors *nb, size_t c) {
  const size_t hi = (c + 1) * CHUNK < nb->n ? (c + 1) * CHUNK : nb->n;
  size_t next = 0;
  for (size_t i = c * CHUNK; i < hi; ++i) {
    const size_t count = nb->start[i + 1] - nb->start[i];
    if (count == 0) continue;
    if (nb->offset[i] != next) return 0;
    next += count;
  }
  return 1;
}

/* Chunk c's lists, in order in its region, to their place start[c CHUNK] (memmove: the two
 * may overlap). */
static void chunk_move(vbc_neighbors *nb, size_t c) {
  const vbc_neighbor_chunk *b = &nb->chunk[c];
  const size_t to = nb->start[c * CHUNK];
  if (b->used == 0 || to == b->base) return;
  memmove(nb->index + to, nb->index + b->base, b->used * sizeof *nb->index);
  memmove(nb->dist + to, nb->dist + b->base, b->used * sizeof *nb->dist);
}

/* The lists of the chunks in regions to their places. A chunk moves left (to < base) unless a
 * chunk before it outgrew its region; the right-movers go first, last chunk first, then the
 * left-movers, first chunk first, so that none overwrites lists not yet moved. */
static void regions_compact(vbc_neighbors *nb, size_t nchunks) {
  for (size_t c = nchunks; c-- > 0;)
    if (!nb->chunk[c].scratch && nb->start[c * CHUNK] > nb->chunk[c].base) chunk_move(nb, c);
  for (size_t c = 0; c < nchunks; ++c)
    if (!nb->chunk[c].scratch && nb->start[c * CHUNK] < nb->chunk[c].base) chunk_move(nb, c);
}

/* 1 when no block's lists go right of its region (every block's place start[c CHUNK] <= its
 * base): no block before it outgrew its region. */
static int all_move_left(const vbc_neighbors *nb, size_t nchunks) {
  for (size_t c = 0; c < nchunks; ++c)
    if (nb->start[c * CHUNK] > nb->chunk[c].base) return 0;
  return 1;
}

/* Entries [from, from + count) of the lists to `to`, those at or past `saved_from` read from the
 * copy of [saved_from, ...) in saved_index / saved_dist (the next run has overwritten them). */
static void move_entries(vbc_neighbors *nb, size_t to, size_t from, size_t count,
                         size_t saved_from, const uint32_t *saved_index,
                         const double *saved_dist) {
  const size_t in_place = from >= saved_from           ? 0
                          : from + count <= saved_from ? count
                                                       : saved_from - from;
  if (in_place > 0 && to != from) {
    memmove(nb->index + to, nb->index + from, in_place * sizeof *nb->index);
    memmove(nb->dist + to, nb->dist + from, in_place * sizeof *nb->dist);
  }
  if (in_place < count) {
    const size_t k = from + in_place - saved_from;
    memcpy(nb->index + to + in_place, saved_index + k, (count - in_place) * sizeof *nb->index);
    memcpy(nb->dist + to + in_place, saved_dist + k, (count - in_place) * sizeof *nb->dist);
  }
}

/* The parallel move of the regions, when every block moves left: the blocks are cut into runs
 * of about equal pairs, one a thread, each moved first block first as the serial compaction does.
 * A run writes only its own places, which end where the next run's begin, so the only lists it
 * can overwrite before they are moved are the previous run's that lie between its first block's
 * place and that block's base: those entries are copied aside first, and the previous run reads
 * them from the copy (at most the margins of the regions before the cut). It runs in the team of
 * the gather's copy (one team start, as when the scratch was copied). */
enum { MAX_RUNS = 64 };
typedef struct move_plan {
  size_t runs, first[MAX_RUNS + 1], saved_at[MAX_RUNS + 1];
  uint32_t *saved_index;
  double *saved_dist;
} move_plan;

/* 1 with the plan for `team` runs; 0 (nothing allocated) when the copy cannot be allocated. */
static int plan_make(move_plan *m, const vbc_neighbors *nb, size_t nchunks, int team) {
  const size_t T = team < MAX_RUNS ? (size_t)team : MAX_RUNS;
  size_t total = 0;
  m->runs = T;
  m->first[0] = 0, m->first[T] = nchunks;
  for (size_t t = 1, c = 0; t < T; ++t) { /* run t starts at the first block placed past t/T */
    while (c < nchunks && nb->start[c * CHUNK] < nb->npairs / T * t) ++c;
    m->first[t] = c;
  }
  for (size_t t = 1; t <= T; ++t) {
    m->saved_at[t - 1] = total;
    if (t < T && m->first[t] < nchunks)
      total += nb->chunk[m->first[t]].base - nb->start[m->first[t] * CHUNK];
  }
  m->saved_index = malloc((total ? total : 1) * sizeof *m->saved_index);
  m->saved_dist = malloc((total ? total : 1) * sizeof *m->saved_dist);
  if (m->saved_index && m->saved_dist) return 1;
  free(m->saved_index), free(m->saved_dist);
  return 0;
}

/* Thread t0 of nt takes runs t0, t0 + nt, ... (a team smaller than the plan's takes them in
 * turn): every span is saved before the barrier, and after it the runs touch disjoint entries. */
static void plan_run(const move_plan *m, vbc_neighbors *nb, size_t nchunks, size_t t0,
                     size_t nt) {
  for (size_t run = t0; run + 1 < m->runs; run += nt) { /* run + 1's span, read by run */
    const size_t next = m->first[run + 1];
    if (next >= nchunks) continue;
    const size_t lo = nb->start[next * CHUNK], span = nb->chunk[next].base - lo;
    memcpy(m->saved_index + m->saved_at[run], nb->index + lo, span * sizeof *nb->index);
    memcpy(m->saved_dist + m->saved_at[run], nb->dist + lo, span * sizeof *nb->dist);
  }
#pragma omp barrier
  for (size_t run = t0; run < m->runs; run += nt) {
    const size_t next = m->first[run + 1];
    const size_t cut = run + 1 < m->runs && next < nchunks ? nb->start[next * CHUNK] : SIZE_MAX;
    for (size_t c = m->first[run]; c < next; ++c) {
      const vbc_neighbor_chunk *b = &nb->chunk[c];
      if (b->scratch || b->used == 0) continue;
      move_entries(nb, nb->start[c * CHUNK], b->base, b->used, cut,
                   m->saved_index + m->saved_at[run], m->saved_dist + m->saved_at[run]);
    }
  }
#pragma omp barrier
}

/* The prefix sum of the lengths places the lists; those in regions are moved into place, those
 * in scratch copied (and the scratch freed); each block's region for the next build is its count
 * and a margin. */
static int lists_gather(vbc_neighbors *nb, vbc_error *err) {
  const size_t n = nb->n, nchunks = (n + CHUNK - 1) / CHUNK;
  for (size_t i = 0; i < n; ++i) nb->start[i + 1] += nb->start[i];
  nb->npairs = nb->start[n];
  /* a block whose lists are out of particle order goes through scratch (a copy per list) */
  for (size_t c = 0; c < nchunks; ++c) {
    vbc_neighbor_chunk *b = &nb->chunk[c];
    if (!b->scratch && b->used > 0 && !chunk_in_order(nb, c) &&
        !chunk_reserve(b, b->cap + 1, b->used))
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (neighbour search)");
  }
  if (vbc_grow(&nb->cap_pairs, nb->npairs, (void *[]){&nb->index, &nb->dist},
               (size_t[]){sizeof *nb->index, sizeof *nb->dist}, 2, err) != VBC_OK)
    return err->code;
  const double scale = nb->q_scale;
  if (scale > 0.0 && vbc_grow(&nb->cap_q, nb->npairs, (void *[]){&nb->q},
                              (size_t[]){sizeof *nb->q}, 1, err) != VBC_OK)
    return err->code;
  if (!(scale > 0.0)) free(nb->q), nb->q = NULL, nb->cap_q = 0;
  const int team = n >= VBC_PARALLEL_MIN ? omp_get_max_threads() : 1;
  move_plan plan;
  const int parallel_move = nb->npairs > 0 && team > 1 && all_move_left(nb, nchunks) &&
                            plan_make(&plan, nb, nchunks, team);
  if (nb->npairs > 0 && !parallel_move) regions_compact(nb, nchunks);
#pragma omp parallel if (n >= VBC_PARALLEL_MIN)
  {
    if (parallel_move)
      plan_run(&plan, nb, nchunks, (size_t)omp_get_thread_num(),
               (size_t)omp_get_num_threads());
    /* by the search's chunks, one at a time to whichever thread is free: the lists lie where the
     * scanned particles are, mostly at the start in the 3D peer dam break (fluid first), so
     * guided's first block (half the particles) handed one thread nearly the whole copy */
#pragma omp for schedule(dynamic, 1)
    for (size_t c = 0; c < nchunks; ++c) {
      vbc_neighbor_chunk *b = &nb->chunk[c];
      const size_t hi = (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n;
      for (size_t i = c * CHUNK; i < hi; ++i) {
        const size_t lo = nb->start[i], count = nb->start[i + 1] - lo;
        if (count == 0) continue;
        if (b->scratch) {
          memcpy(nb->index + lo, b->index + nb->offset[i], count * sizeof *nb->index);
          memcpy(nb->dist + lo, b->dist + nb->offset[i], count * sizeof *nb->dist);
        }
        if (scale > 0.0)
          for (size_t m = lo; m < lo + count; ++m) nb->q[m] = nb->dist[m] / scale;
      }
      b->region = region_for(nb->start[hi] - nb->start[c * CHUNK]);
      chunk_free_scratch(b);
    }
  }
  if (parallel_move) free(plan.saved_index), free(plan.saved_dist);
  return VBC_OK;
}

static int check_radius(const vbc_grid *g, double radius, vbc_error *err) {
  if (radius > g->cell * (1.0 + 1e-12))
    return vbc_error_set(err, VBC_EXIT_INPUT, "neighbour radius %g exceeds the cell size %g",
                         radius, g->cell);
  return VBC_OK;
}

int vbc_neighbors_build_active(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos,
                               double radius, const unsigned char *active, vbc_error *err) {
  if (check_radius(g, radius, err) != VBC_OK || lists_reserve(nb, g->n, radius, err) != VBC_OK ||
      scan_pass(nb, g, pos, active, NULL, 0.0, NULL, err) != VBC_OK)
    return err->code;
  return lists_gather(nb, err);
}

int vbc_neighbors_build_near(vbc_neighbors *nb, const vbc_grid *g, const vbc_vec *pos,
                             double radius, const unsigned char *seed, double reach,
                             unsigned char *near, vbc_error *err) {
  if (check_radius(g, radius, err) != VBC_OK || lists_reserve(nb, g->n, radius, err) != VBC_OK)
    return err->code;
  memset(near, 0, g->n);
  if (scan_pass(nb, g, pos, seed, seed, reach, near, err) != VBC_OK ||
      scan_pass(nb, g, pos, near, NULL, 0.0, NULL, err) != VBC_OK)
    return err->code;
  return lists_gather(nb, err);
}

void vbc_grid_near(const vbc_grid *g, const unsigned char *seed, long reach, unsigned char *mark,
                   unsigned char *active) {
  enum { SEEDED = 1, NEAR = 2 };
  memset(mark, 0, g->ncells);
  for (size_t i = 0; i < g->n; ++i)
    if (seed[i]) mark[g->cell_of[i]] = SEEDED;
  const long r[3] = {reach, g->dim > 1 ? reach : 0, g->dim > 2 ? reach : 0};
  for (size_t cell = 0; cell < g->ncells; ++cell) {
    if (!(mark[cell] & SEEDED)) continue;
    long c[3];
    cell_coords(g, cell, c);
    for (long z = c[2] - r[2]; z <= c[2] + r[2]; ++z)
      for (long y = c[1] - r[1]; y <= c[1] + r[1]; ++y)
        for (long x = c[0] - r[0]; x <= c[0] + r[0]; ++x)
          if (x >= 0 && x < g->nc[0] && y >= 0 && y < g->nc[1] && z >= 0 && z < g->nc[2])
            mark[(size_t)(x + g->nc[0] * (y + g->nc[1] * z))] |= NEAR;
  }
#pragma omp parallel for schedule(static) if (g->n >= VBC_PARALLEL_MIN_LIGHT)
  for (size_t i = 0; i < g->n; ++i) active[i] = seed[i] || (mark[g->cell_of[i]] & NEAR);
}

size_t vbc_neighbors_scratch_bytes(const vbc_neighbors *nb) {
  size_t bytes = 0;
  for (size_t c = 0; c < nb->nchunks; ++c)
    if (nb->chunk[c].scratch) bytes += nb->chunk[c].cap * (sizeof(uint32_t) + sizeof(double));
  return bytes;
}

void vbc_neighbors_free(vbc_neighbors *nb) {
  for (size_t c = 0; c < nb->nchunks; ++c) chunk_free_scratch(&nb->chunk[c]);
  free(nb->chunk);
  free(nb->start);
  free(nb->offset);
  free(nb->index);
  free(nb->dist);
  free(nb->q);
  memset(nb, 0, sizeof *nb);
}
