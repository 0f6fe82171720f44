/* backup.h — the last good state of a run: a copy of the particles' arrays (and the bodies'
 * poses) taken before every step, which a failing step falls back to so that the last frame and
 * summary.json describe the state before it (sim/run.c). */
#ifndef VBC_BACKUP_H
#define VBC_BACKUP_H

#include "core/body.h"
#include "core/error.h"
#include "core/particles.h"

typedef struct vbc_backup {
  size_t n;
  vbc_vec *pos, *vel;
  double *pressure, *pressure_smoothed, *number_density;
  vbc_body *bodies; /* their poses for the failure frame only: the sim's are not restored */
  /* Walls never move (sim/sim.c's neighbour search relies on it too): their positions and
   * velocities are copied by the first save only; later saves copy those of the particles in
   * moving[0..nmoving), runs [begin, end) of the particles that are not walls. */
  size_t *moving, nmoving;
  int walls_kept;
  size_t nbodies;
  double time;
} vbc_backup;

/* Room for n particles and nbodies bodies. */
int vbc_backup_init(vbc_backup *b, size_t n, size_t nbodies, vbc_error *err);
void vbc_backup_free(vbc_backup *b);
/* Copy the particles into the backup (save) or back (save 0); the same bits for any number of
 * threads. */
void vbc_backup_swap(vbc_backup *b, vbc_particles *p, int save);

#endif
