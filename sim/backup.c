/* backup.c — see backup.h. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "sim/backup.h"

int vbc_backup_init(vbc_backup *b, size_t n, size_t nbodies, vbc_error *err) {
  memset(b, 0, sizeof *b);
  b->n = n;
  b->nbodies = nbodies;
  b->bodies = vbc_calloc(nbodies ? nbodies : 1, sizeof *b->bodies, err);
  b->pos = vbc_calloc(n, sizeof *b->pos, err);
  b->vel = vbc_calloc(n, sizeof *b->vel, err);
  b->pressure = vbc_calloc(n, sizeof(double), err);
  b->pressure_smoothed = vbc_calloc(n, sizeof(double), err);
  b->number_density = vbc_calloc(n, sizeof(double), err);
  return err->code;
}

void vbc_backup_free(vbc_backup *b) {
  free(b->pos), free(b->vel), free(b->pressure), free(b->pressure_smoothed);
  free(b->number_density);
  free(b->bodies);
  free(b->moving);
}

/* The runs of particles that are not walls, as pairs begin, end into b->moving; 0 when out of
 * memory (the saves then copy every particle). */
static int find_moving(vbc_backup *b, const vbc_particles *p) {
  size_t runs = 0;
  for (size_t i = 0; i < b->n; ++i)
    runs += p->kind[i] != VBC_WALL && (i == 0 || p->kind[i - 1] == VBC_WALL);
  b->moving = malloc((2 * runs + 1) * sizeof *b->moving);
  if (b->moving == NULL) return 0;
  b->nmoving = 0;
  for (size_t i = 0; i < b->n; ++i) {
    if (p->kind[i] == VBC_WALL) continue;
    if (i == 0 || p->kind[i - 1] == VBC_WALL) b->moving[2 * b->nmoving++] = i;
    b->moving[2 * b->nmoving - 1] = i + 1;
  }
  return 1;
}

/* Entries [lo, hi) of one array, in the direction of save. */
static void copy_span(void *kept, void *live, size_t size, size_t lo, size_t hi, int save) {
  if (hi <= lo) return;
  char *k = (char *)kept + lo * size, *l = (char *)live + lo * size;
  memcpy(save ? k : l, save ? l : k, (hi - lo) * size);
}

/* Copy the state into the backup (save) or back. Every step makes this copy (about 3 MB on the 3D
 * peer dam break, most of it the walls' positions and velocities, which after the first save are
 * left out), so it runs as one parallel region in which each thread copies its share of every
 * array; the bytes do not depend on who copies them. Below VBC_PARALLEL_MIN_STREAM particles the
 * copy takes less than a team start. */
void vbc_backup_swap(vbc_backup *b, vbc_particles *p, int save) {
  const struct {
    void *kept, *live;
    size_t size;
    int walls_fixed; /* unchanged for walls */
  } field[] = {{b->pos, p->pos, sizeof *p->pos, 1},
               {b->vel, p->vel, sizeof *p->vel, 1},
               {b->pressure, p->pressure, sizeof *p->pressure, 0},
               {b->pressure_smoothed, p->pressure_smoothed, sizeof *p->pressure_smoothed, 0},
               {b->number_density, p->number_density, sizeof *p->number_density, 0}};
  const size_t n = b->n, nfields = sizeof field / sizeof field[0];
  const int skip_walls = save && b->walls_kept;
  if (save && !b->walls_kept) b->walls_kept = find_moving(b, p);
#pragma omp parallel if (n >= VBC_PARALLEL_MIN_STREAM)
  {
    const size_t T = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
    const size_t lo = n * t / T, hi = n * (t + 1) / T;
    for (size_t f = 0; f < nfields; ++f) {
      if (!(skip_walls && field[f].walls_fixed)) {
        copy_span(field[f].kept, field[f].live, field[f].size, lo, hi, save);
        continue;
      }
      for (size_t r = 0; r < b->nmoving; ++r) {
        const size_t a = b->moving[2 * r], e = b->moving[2 * r + 1];
        copy_span(field[f].kept, field[f].live, field[f].size, a > lo ? a : lo, e < hi ? e : hi,
                  save);
      }
    }
  }
}
