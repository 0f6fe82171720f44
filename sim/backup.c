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
}

/* Copy the state into the backup (save) or back. Every step makes this copy (about 3 MB on the 3D
 * peer dam break, 2.4 % of a one-thread step there), so it runs as one parallel region in which
 * each thread copies its share of every array; the bytes do not depend on who copies them.
 * Below VBC_PARALLEL_MIN_STREAM particles the copy takes less than a team start. */
void vbc_backup_swap(vbc_backup *b, vbc_particles *p, int save) {
  const struct {
    void *kept, *live;
    size_t size;
  } field[] = {{b->pos, p->pos, sizeof *p->pos},
               {b->vel, p->vel, sizeof *p->vel},
               {b->pressure, p->pressure, sizeof *p->pressure},
               {b->pressure_smoothed, p->pressure_smoothed, sizeof *p->pressure_smoothed},
               {b->number_density, p->number_density, sizeof *p->number_density}};
  const size_t n = b->n, nfields = sizeof field / sizeof field[0];
#pragma omp parallel if (n >= VBC_PARALLEL_MIN_STREAM)
  {
    const size_t T = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
    const size_t lo = n * t / T, hi = n * (t + 1) / T;
    for (size_t f = 0; f < nfields; ++f) {
      char *kept = (char *)field[f].kept + lo * field[f].size;
      char *live = (char *)field[f].live + lo * field[f].size;
      if (hi > lo) memcpy(save ? kept : live, save ? live : kept, (hi - lo) * field[f].size);
    }
  }
}
