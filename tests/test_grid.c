/* test_grid.c — the neighbour search returns exactly the brute-force set; with an active set, the
 * same lists in the same order for active particles and none for the others, the active set
 * holding every particle within two cell edges of a seed; near lists for the seeds and exactly
 * the particles within the radius of one; the colouring covers every row once and
 * never puts two interacting rows of one colour in parallel; the search's AVX-512 loops give the
 * plain loops' lists bit for bit; lists rebuilt in place as the points move equal fresh ones and
 * hold no scratch between builds. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "core/grid_scan.h"
#include "core/parallel.h"

static double frand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (double)((*s >> 8) & 0xffffff) / (double)0x1000000;
}

/* Random points plus points exactly on cell borders and duplicates. */
static vbc_vec *make_points(size_t n, int dim, double cell, unsigned seed) {
  vbc_vec *p = malloc(n * sizeof *p);
  for (size_t i = 0; i < n; ++i) {
    p[i] = vbc_vec_make(frand(&seed), frand(&seed), dim == 3 ? frand(&seed) : 0.0);
    if (i % 7 == 0) p[i].x = cell * (double)(i % 5); /* on a cell border */
    if (i % 11 == 0) p[i].y = cell * (double)(i % 3);
    if (i % 13 == 0 && i > 0) p[i] = p[i - 1];       /* coincident pair */
  }
  return p;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static void check_against_brute_force(int dim, size_t n, double radius, double cell) {
  vbc_vec *p = make_points(n, dim, cell, 12345u + (unsigned)dim);
  vbc_grid g = {0};
  vbc_neighbors nb = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, n, dim, cell, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(vbc_neighbors_build(&nb, &g, p, radius, &err), VBC_OK, "%s", err.message);
  uint32_t *expect = malloc(n * sizeof *expect);
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t m = 0;
    for (size_t j = 0; j < n; ++j)
      if (j != i && vbc_vec_norm2(vbc_vec_sub(p[j], p[i])) < radius * radius)
        expect[m++] = (uint32_t)j;
    size_t got_n = nb.start[i + 1] - nb.start[i];
    cr_assert_eq(got_n, m, "dim %d particle %zu: %zu neighbours, brute force %zu", dim, i, got_n,
                 m);
    uint32_t *got = malloc((m ? m : 1) * sizeof *got);
    for (size_t k = 0; k < m; ++k) got[k] = nb.index[nb.start[i] + k];
    qsort(got, m, sizeof *got, cmp_u32);
    for (size_t k = 0; k < m; ++k) cr_assert_eq(got[k], expect[k]);
    free(got);
    total += m;
  }
  cr_assert_eq(nb.npairs, total);
  cr_assert_gt(total, n, "the test set must have neighbours");
  free(expect);
  free(p);
  vbc_grid_free(&g);
  vbc_neighbors_free(&nb);
}

Test(neighbour_search, equals_brute_force_in_2d) { check_against_brute_force(2, 3000, 0.031, 0.031); }
Test(neighbour_search, equals_brute_force_in_3d) { check_against_brute_force(3, 4000, 0.09, 0.09); }
/* Seeds: every 40th point. vbc_grid_near with reach 2 must activate every point within 2 cells of
 * a seed (and may activate more, up to 2 cells per axis from the seed's cell); the active lists
 * equal the full search's, entry by entry. */
static void check_active(int dim, size_t n, double cell) {
  vbc_vec *p = make_points(n, dim, cell, 777u + (unsigned)dim);
  vbc_grid g = {0};
  vbc_neighbors all = {0}, some = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, n, dim, cell, &err), VBC_OK, "%s", err.message);
  unsigned char *seed = calloc(n, 1), *active = calloc(n, 1), *mark = calloc(g.ncells, 1);
  cr_assert(seed && active && mark);
  for (size_t i = 0; i < n; i += 40) seed[i] = 1;
  vbc_grid_near(&g, seed, 2, mark, active);
  size_t nactive = 0;
  for (size_t i = 0; i < n; ++i) {
    nactive += active[i];
    for (size_t j = 0; j < n && !active[i]; j += 40)
      cr_assert_gt(vbc_vec_norm2(vbc_vec_sub(p[i], p[j])), 4.0 * cell * cell,
                   "dim %d: particle %zu within 2 cells of seed %zu is not active", dim, i, j);
  }
  cr_assert(nactive > n / 40 && nactive < n, "dim %d: %zu of %zu active", dim, nactive, n);
  cr_assert_eq(vbc_neighbors_build(&all, &g, p, cell, &err), VBC_OK);
  cr_assert_eq(vbc_neighbors_build_active(&some, &g, p, cell, active, &err), VBC_OK);
  for (size_t i = 0; i < n; ++i) {
    const size_t m = some.start[i + 1] - some.start[i];
    cr_assert_eq(m, active[i] ? all.start[i + 1] - all.start[i] : 0, "dim %d particle %zu", dim,
                 i);
    for (size_t k = 0; k < m; ++k) {
      cr_assert_eq(some.index[some.start[i] + k], all.index[all.start[i] + k]);
      cr_assert(some.dist[some.start[i] + k] == all.dist[all.start[i] + k]);
    }
  }
  free(seed), free(active), free(mark), free(p);
  vbc_grid_free(&g);
  vbc_neighbors_free(&all), vbc_neighbors_free(&some);
}

Test(neighbour_search, active_lists_equal_the_full_ones_and_reach_two_cells) {
  check_active(2, 3000, 0.031);
  check_active(3, 4000, 0.09);
}

/* Seeds: every 40th point. vbc_neighbors_build_near gives the seeds and exactly the other points
 * closer than reach to a seed their full lists, entry by entry, and marks those other points;
 * every other point has an empty list. Two threads, so that the marks race. */
static void check_near(int dim, size_t n, double cell, double radius, double reach) {
  vbc_vec *p = make_points(n, dim, cell, 4242u + (unsigned)dim);
  vbc_grid g = {0};
  vbc_neighbors all = {0}, some = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, n, dim, cell, &err), VBC_OK, "%s", err.message);
  unsigned char *seed = calloc(n, 1), *near = calloc(n, 1);
  cr_assert(seed && near);
  for (size_t i = 0; i < n; i += 40) seed[i] = 1;
  cr_assert_eq(vbc_neighbors_build(&all, &g, p, radius, &err), VBC_OK);
  omp_set_num_threads(2);
  cr_assert_eq(vbc_neighbors_build_near(&some, &g, p, radius, seed, reach, near, &err), VBC_OK);
  size_t nnear = 0;
  for (size_t i = 0; i < n; ++i) {
    int close = 0;
    for (size_t j = 0; j < n && !close; j += 40)
      close = j != i && vbc_vec_norm(vbc_vec_sub(p[i], p[j])) < reach;
    cr_assert_eq(near[i], !seed[i] && close, "dim %d particle %zu: near %d", dim, i, near[i]);
    nnear += near[i];
    const size_t m = some.start[i + 1] - some.start[i];
    cr_assert_eq(m, seed[i] || close ? all.start[i + 1] - all.start[i] : 0,
                 "dim %d particle %zu", dim, i);
    for (size_t k = 0; k < m; ++k) {
      cr_assert_eq(some.index[some.start[i] + k], all.index[all.start[i] + k]);
      cr_assert(some.dist[some.start[i] + k] == all.dist[all.start[i] + k]);
    }
  }
  cr_assert(nnear > n / 40 && nnear + n / 40 < n / 2, "dim %d: %zu near", dim, nnear);
  omp_set_num_threads(1);
  free(seed), free(near), free(p);
  vbc_grid_free(&g);
  vbc_neighbors_free(&all), vbc_neighbors_free(&some);
}

Test(neighbour_search, near_lists_are_the_seeds_and_the_points_within_reach_of_one) {
  check_near(2, 5000, 0.031, 0.031, 0.031); /* above VBC_PARALLEL_MIN: the passes run in parallel */
  check_near(3, 5000, 0.09, 0.08, 0.08);
  check_near(2, 5000, 0.031, 0.031, 0.02);
  check_near(3, 5000, 0.09, 0.08, 0.06);
}

Test(neighbour_search, radius_below_cell_size_is_exact_too) {
  check_against_brute_force(2, 2000, 0.02, 0.05);
}

Test(neighbour_search, rejects_radius_above_cell_size) {
  vbc_vec p[2] = {{0, 0, 0}, {1, 0, 0}};
  vbc_grid g = {0};
  vbc_neighbors nb = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, 2, 2, 0.5, &err), VBC_OK);
  cr_assert_neq(vbc_neighbors_build(&nb, &g, p, 0.6, &err), VBC_OK);
  vbc_grid_free(&g);
  vbc_neighbors_free(&nb);
}

/* Found by fuzz/scene.c under clang's UBSan: with no pair at all the index array is never
 * allocated, and the fill pass must not offset its NULL pointer. */
Test(neighbour_search, particles_without_neighbours_have_no_pairs) {
  vbc_vec p[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  vbc_grid g = {0};
  vbc_neighbors nb = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, 3, 2, 0.5, &err), VBC_OK);
  cr_assert_eq(vbc_neighbors_build(&nb, &g, p, 0.5, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(nb.npairs, 0);
  for (size_t i = 0; i <= 3; ++i) cr_assert_eq(nb.start[i], 0);
  vbc_grid_free(&g);
  vbc_neighbors_free(&nb);
}

/* Found by fuzz/state.c: an axis the grid does not span (z in 2D) may hold any finite value. */
Test(neighbour_search, a_huge_coordinate_on_an_axis_the_grid_ignores_is_harmless) {
  vbc_vec p[2] = {{0, 0, 1e208}, {0.1, 0, -1e300}};
  vbc_grid g = {0};
  vbc_neighbors nb = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, 2, 2, 0.5, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(vbc_neighbors_build(&nb, &g, p, 0.5, &err), VBC_OK, "%s", err.message);
  cr_assert_eq(nb.npairs, 0); /* both in cell 0; distances include z, so they are not neighbours */
  cr_assert_eq(g.cell_of[0], 0);
  cr_assert_eq(g.cell_of[1], 0);
  vbc_grid_free(&g);
  vbc_neighbors_free(&nb);
}

Test(neighbour_search, reports_non_finite_positions) {
  vbc_vec p[2] = {{0, 0, 0}, {NAN, 0, 0}};
  vbc_grid g = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, 2, 2, 0.5, &err), VBC_EXIT_FAILED);
  vbc_grid_free(&g);
}

/* Every row appears once; rows in different strips of one colour are more than 2 cells apart. */
Test(colouring, covers_rows_once_and_separates_strips_of_a_colour) {
  const size_t n = 3000;
  const double cell = 0.04;
  vbc_vec *p = make_points(n, 2, cell, 99u);
  vbc_grid g = {0};
  vbc_colouring col = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, n, 2, cell, &err), VBC_OK);
  long *row_of = malloc(n * sizeof *row_of);
  size_t rows = 0;
  for (size_t i = 0; i < n; ++i) row_of[i] = i % 3 ? (long)rows++ : -1;
  cr_assert_eq(vbc_colouring_build(&col, &g, row_of, &err), VBC_OK);
  cr_assert_eq(col.nrows, rows);
  cr_assert_eq(col.ncolours, 2);
  int *seen = calloc(rows, sizeof *seen);
  size_t *particle_of = malloc(rows * sizeof *particle_of);
  for (size_t i = 0; i < n; ++i)
    if (row_of[i] >= 0) particle_of[row_of[i]] = i;
  for (size_t q = 0; q < col.nrows; ++q) seen[col.rows[q]]++;
  for (size_t r = 0; r < rows; ++r) cr_assert_eq(seen[r], 1, "row %zu seen %d times", r, seen[r]);
  for (int c = 0; c < col.ncolours; ++c)
    for (size_t g1 = col.colour_start[c]; g1 < col.colour_start[c + 1]; ++g1)
      for (size_t g2 = g1 + 1; g2 < col.colour_start[c + 1]; ++g2)
        for (size_t a = col.group_start[g1]; a < col.group_start[g1 + 1]; ++a)
          for (size_t b = col.group_start[g2]; b < col.group_start[g2 + 1]; ++b) {
            vbc_vec d = vbc_vec_sub(p[particle_of[col.rows[a]]], p[particle_of[col.rows[b]]]);
            cr_assert_gt(fabs(d.x), 2.0 * cell, "rows of one colour closer than 2 cells");
          }
  free(seen);
  free(particle_of);
  free(row_of);
  free(p);
  vbc_grid_free(&g);
  vbc_colouring_free(&col);
}

/* The counting sort runs in blocks per thread from VBC_PARALLEL_MIN_STREAM particles: the cells
 * must list their particles in index order, the same lists for 1, 2 and 3 threads. */
Test(grid, sort_by_cell_is_the_same_for_any_number_of_threads) {
  const size_t n = 40000;
  cr_assert_geq(n, VBC_PARALLEL_MIN_STREAM, "the sort would run on one thread");
  vbc_vec *p = make_points(n, 3, 0.1, 31u);
  vbc_grid g1 = {0}, g = {0};
  vbc_error err = {0};
  omp_set_num_threads(1);
  cr_assert_eq(vbc_grid_build(&g1, p, n, 3, 0.1, &err), VBC_OK);
  for (int threads = 2; threads <= 3; ++threads) {
    omp_set_num_threads(threads);
    cr_assert_eq(vbc_grid_build(&g, p, n, 3, 0.1, &err), VBC_OK);
    for (size_t c = 0; c <= g.ncells; ++c) cr_assert_eq(g.cell_start[c], g1.cell_start[c]);
    for (size_t k = 0; k < n; ++k) {
      cr_assert_eq(g.sorted[k], g1.sorted[k], "%d threads: entry %zu", threads, k);
      cr_assert(g.sx[k] == p[g.sorted[k]].x && g.sz[k] == p[g.sorted[k]].z);
    }
  }
  for (size_t c = 0; c < g.ncells; ++c)
    for (size_t k = g.cell_start[c] + 1; k < g.cell_start[c + 1]; ++k)
      cr_assert_lt(g.sorted[k - 1], g.sorted[k], "cell %zu is not in index order", c);
  omp_set_num_threads(1);
  free(p);
  vbc_grid_free(&g1), vbc_grid_free(&g);
}

/* With q_scale set the lists carry q = dist / q_scale per pair, the very value a kernel computes
 * from dist; without it, no q. */
Test(neighbour_search, lists_carry_the_kernel_argument_when_asked) {
  const size_t n = 6000;
  vbc_vec *p = make_points(n, 2, 0.03, 5u);
  vbc_grid g = {0};
  vbc_neighbors nb = {0};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, n, 2, 0.03, &err), VBC_OK);
  cr_assert_eq(vbc_neighbors_build(&nb, &g, p, 0.03, &err), VBC_OK);
  cr_assert_null(nb.q);
  nb.q_scale = 0.07;
  cr_assert_eq(vbc_neighbors_build(&nb, &g, p, 0.03, &err), VBC_OK);
  cr_assert_not_null(nb.q);
  cr_assert_gt(nb.npairs, n);
  for (size_t k = 0; k < nb.npairs; ++k) cr_assert(nb.q[k] == nb.dist[k] / 0.07, "pair %zu", k);
  free(p);
  vbc_grid_free(&g);
  vbc_neighbors_free(&nb);
}

/* The search's AVX-512 loops (core/grid_scan.h) give the plain loops' lists bit for bit: the same
 * neighbours in the same order with the same distances, full lists and near lists, in 2D and 3D,
 * at a radius of the cell size and below it. Where the processor or the build has no AVX-512
 * (the sanitizer build carries none) both searches take the plain loops. */
static void check_wide_equals_plain(int dim, size_t n, double cell, double radius) {
  vbc_vec *p = make_points(n, dim, cell, 77u + (unsigned)dim);
  unsigned char *seed = calloc(n, 1), *near_wide = calloc(n, 1), *near_plain = calloc(n, 1);
  for (size_t i = 0; i < n; i += 3) seed[i] = 1;
  vbc_grid g = {0};
  vbc_neighbors wide = {0}, plain = {.plain = 1};
  vbc_error err = {0};
  cr_assert_eq(vbc_grid_build(&g, p, n, dim, cell, &err), VBC_OK, "%s", err.message);
  for (int near = 0; near <= 1; ++near) {
    if (!near) {
      cr_assert_eq(vbc_neighbors_build(&wide, &g, p, radius, &err), VBC_OK);
      cr_assert_eq(vbc_neighbors_build(&plain, &g, p, radius, &err), VBC_OK);
    } else {
      const double reach = 0.6 * radius;
      cr_assert_eq(vbc_neighbors_build_near(&wide, &g, p, radius, seed, reach, near_wide, &err),
                   VBC_OK);
      cr_assert_eq(vbc_neighbors_build_near(&plain, &g, p, radius, seed, reach, near_plain, &err),
                   VBC_OK);
      cr_assert_eq(memcmp(near_wide, near_plain, n), 0, "dim %d: near sets differ", dim);
    }
    cr_assert_eq(wide.npairs, plain.npairs, "dim %d near %d", dim, near);
    cr_assert_gt(wide.npairs, n / 2, "the test set must have neighbours");
    for (size_t i = 0; i <= n; ++i) cr_assert_eq(wide.start[i], plain.start[i]);
    for (size_t k = 0; k < wide.npairs; ++k) {
      cr_assert_eq(wide.index[k], plain.index[k], "dim %d near %d pair %zu", dim, near, k);
      cr_assert_eq(memcmp(&wide.dist[k], &plain.dist[k], sizeof(double)), 0,
                   "dim %d near %d pair %zu: %.17g against %.17g", dim, near, k, wide.dist[k],
                   plain.dist[k]);
    }
  }
  free(p), free(seed), free(near_wide), free(near_plain);
  vbc_grid_free(&g);
  vbc_neighbors_free(&wide), vbc_neighbors_free(&plain);
}

Test(neighbour_search, wide_loops_give_the_plain_lists_bit_for_bit) {
  if (!vbc_scan_wide_available()) cr_log_info("no AVX-512 here: both searches are plain");
  check_wide_equals_plain(2, 5000, 0.03, 0.03);
  check_wide_equals_plain(3, 6000, 0.08, 0.08);
  check_wide_equals_plain(3, 6000, 0.08, 0.05);
}

/* One lists structure rebuilt as the points move (its blocks' regions sized by the build before:
 * some blocks outgrow theirs, some shrink, and build_near's blocks mix seeds and near points)
 * equals lists built afresh, entry by entry, and keeps no scratch between builds; on 1, 2 and 3
 * threads (the parallel move of the regions cuts the blocks into one run a thread). */
static void check_rebuilt(int near_lists, int threads) {
  const size_t n = 5000;
  const double cell = 0.09, radius = 0.08;
  vbc_vec *p0 = make_points(n, 3, cell, 777u), *p = malloc(n * sizeof *p);
  unsigned char *seed = calloc(n, 1), *near = calloc(n, 1);
  cr_assert(p && seed && near);
  for (size_t i = 0; i < n; i += 3) seed[i] = 1;
  vbc_grid g = {0};
  vbc_neighbors reused = {0};
  vbc_error err = {0};
  omp_set_num_threads(threads);
  const double squeeze[] = {1.0, 0.6, 1.0, 1.3, 0.8};
  for (size_t step = 0; step < sizeof squeeze / sizeof *squeeze; ++step) {
    for (size_t i = 0; i < n; ++i) /* the first half squeezed or spread about (0.5, 0.5, 0.5) */
      p[i] = i < n / 2 ? vbc_vec_add(vbc_vec_make(0.5, 0.5, 0.5),
                                     vbc_vec_scale(vbc_vec_sub(p0[i], vbc_vec_make(0.5, 0.5, 0.5)),
                                                   squeeze[step]))
                       : p0[i];
    cr_assert_eq(vbc_grid_build(&g, p, n, 3, cell, &err), VBC_OK, "%s", err.message);
    vbc_neighbors fresh = {0};
    if (near_lists) {
      cr_assert_eq(vbc_neighbors_build_near(&reused, &g, p, radius, seed, radius, near, &err),
                   VBC_OK);
      cr_assert_eq(vbc_neighbors_build_near(&fresh, &g, p, radius, seed, radius, near, &err),
                   VBC_OK);
    } else {
      cr_assert_eq(vbc_neighbors_build(&reused, &g, p, radius, &err), VBC_OK);
      cr_assert_eq(vbc_neighbors_build(&fresh, &g, p, radius, &err), VBC_OK);
    }
    cr_assert_eq(vbc_neighbors_scratch_bytes(&reused), 0, "step %zu", step);
    cr_assert_eq(reused.npairs, fresh.npairs, "step %zu", step);
    cr_assert_gt(fresh.npairs, n, "the test set must have neighbours");
    cr_assert_eq(memcmp(reused.start, fresh.start, (n + 1) * sizeof *fresh.start), 0);
    cr_assert_eq(memcmp(reused.index, fresh.index, fresh.npairs * sizeof *fresh.index), 0,
                 "step %zu", step);
    cr_assert_eq(memcmp(reused.dist, fresh.dist, fresh.npairs * sizeof *fresh.dist), 0);
    vbc_neighbors_free(&fresh);
  }
  omp_set_num_threads(1);
  free(p0), free(p), free(seed), free(near);
  vbc_grid_free(&g);
  vbc_neighbors_free(&reused);
}

Test(neighbour_search, lists_rebuilt_in_their_regions_equal_fresh_ones) {
  check_rebuilt(0, 2); /* above VBC_PARALLEL_MIN: the regions move in parallel when they can */
  check_rebuilt(1, 2);
  check_rebuilt(0, 3);
  check_rebuilt(1, 1);
}
