/* test_backup.c — the last good state of a run (sim/backup.c): a save and a restore give back
 * every particle array as saved, on 1 and 2 threads alike; after the first save the walls'
 * positions and velocities are not copied again (walls never move), the other arrays of the
 * walls are. */
#include <criterion/criterion.h>
#include <omp.h>
#include <string.h>

#include "sim/backup.h"

/* Fluid, then walls, then fluid again: two runs of particles that are not walls. */
static void particles(vbc_particles *p, size_t n) {
  vbc_error err = {0};
  memset(p, 0, sizeof *p);
  for (size_t i = 0; i < n; ++i) {
    const vbc_kind kind = i >= n / 4 && i < n / 2 ? VBC_WALL : VBC_FLUID;
    cr_assert_geq(vbc_particles_add(p, vbc_vec_make((double)i, 0.5 * (double)i, 0.0),
                                    vbc_vec_make(0.0, -(double)i, 1.0), kind, -1, &err),
                  0, "%s", err.message);
    p->pressure[i] = 2.0 * (double)i;
    p->pressure_smoothed[i] = 3.0 * (double)i;
    p->number_density[i] = 4.0 * (double)i;
  }
}

/* Every array of every particle moved by `by`: what a step would change, walls included. */
static void disturb(vbc_particles *p, double by) {
  for (size_t i = 0; i < p->n; ++i) {
    p->pos[i].x += by, p->vel[i].y += by;
    p->pressure[i] += by, p->pressure_smoothed[i] += by, p->number_density[i] += by;
  }
}

static void save_and_restore(int threads) {
  enum { N = 40000 }; /* above VBC_PARALLEL_MIN_STREAM: the copy runs in a team */
  omp_set_num_threads(threads);
  vbc_error err = {0};
  vbc_particles p, kept;
  particles(&p, N);
  particles(&kept, N);
  vbc_backup b;
  cr_assert_eq(vbc_backup_init(&b, N, 0, &err), 0, "%s", err.message);
  vbc_backup_swap(&b, &p, 1); /* the first save: every particle */
  cr_assert_eq(b.nmoving, 2);
  disturb(&p, 1.0);
  for (size_t i = 0; i < N; ++i) /* as if the fluid had moved and the walls had not */
    if (p.kind[i] == VBC_WALL) p.pos[i] = kept.pos[i], p.vel[i] = kept.vel[i];
  vbc_particles_free(&kept);
  particles(&kept, N);
  disturb(&kept, 1.0);
  vbc_backup_swap(&b, &p, 1); /* the state to fall back to */
  disturb(&p, 5.0);
  vbc_backup_swap(&b, &p, 0);
  /* the fluid as saved the second time, the walls as the first save had them */
  for (size_t i = 0; i < N; ++i) {
    const int wall = p.kind[i] == VBC_WALL;
    const vbc_vec x = wall ? vbc_vec_make((double)i, 0.5 * (double)i, 0.0) : kept.pos[i];
    const vbc_vec v = wall ? vbc_vec_make(0.0, -(double)i, 1.0) : kept.vel[i];
    cr_assert(p.pos[i].x == x.x && p.pos[i].y == x.y && p.vel[i].y == v.y, "particle %zu", i);
    cr_assert(p.pressure[i] == kept.pressure[i] &&
                  p.pressure_smoothed[i] == kept.pressure_smoothed[i] &&
                  p.number_density[i] == kept.number_density[i],
              "particle %zu", i);
  }
  vbc_backup_free(&b);
  vbc_particles_free(&p);
  vbc_particles_free(&kept);
}

Test(backup, restores_the_saved_state_on_one_thread) { save_and_restore(1); }
Test(backup, restores_the_saved_state_on_two_threads) { save_and_restore(2); }

/* The walls' positions and velocities come from the first save: a wall that moved after it (which
 * no method does) would be restored to where it was then. Their pressures are saved every time. */
Test(backup, walls_positions_are_saved_once) {
  enum { N = 100 };
  vbc_error err = {0};
  vbc_particles p;
  particles(&p, N);
  vbc_backup b;
  cr_assert_eq(vbc_backup_init(&b, N, 0, &err), 0, "%s", err.message);
  vbc_backup_swap(&b, &p, 1);
  const size_t w = N / 4;
  cr_assert_eq(p.kind[w], VBC_WALL);
  p.pos[w].x = 1e6, p.pressure[w] = 7.0, p.pos[0].x = -1.0;
  vbc_backup_swap(&b, &p, 1);
  p.pos[w].x = 0.0, p.pressure[w] = 0.0, p.pos[0].x = 0.0;
  vbc_backup_swap(&b, &p, 0);
  cr_assert_eq(p.pos[w].x, (double)w);
  cr_assert_eq(p.pressure[w], 7.0);
  cr_assert_eq(p.pos[0].x, -1.0);
  vbc_backup_free(&b);
  vbc_particles_free(&p);
}
