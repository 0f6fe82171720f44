/* particles.h — structure-of-arrays particle store.
 *
 * Every particle has a position, a velocity, a kind (fluid, rigid, wall), the index of the body it
 * belongs to (-1 for fluid), and the per-particle results of the fluid solve: pressure (raw, as the
 * constraint impulse converted to pascals), smoothed pressure (Miyamoto eq. 42) and the particle
 * number density n_i (eq. 4). Arrays are separate so that the hot loops stream only what they use. */
#ifndef VBC_PARTICLES_H
#define VBC_PARTICLES_H

#include <stddef.h>

#include "core/error.h"
#include "core/vec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vbc_kind { VBC_FLUID = 0, VBC_RIGID = 1, VBC_WALL = 2 } vbc_kind;

typedef struct vbc_particles {
  size_t n, cap;
  vbc_vec *pos;
  vbc_vec *vel;
  unsigned char *kind;        /* vbc_kind */
  int *body;                  /* body index, -1 for fluid */
  double *pressure;           /* p_i [Pa] */
  double *pressure_smoothed;  /* p~_i [Pa], eq. 42 */
  double *number_density;     /* n_i, eq. 4 */
} vbc_particles;

int vbc_particles_reserve(vbc_particles *p, size_t cap, vbc_error *err);
/* Append one particle; pressure and density start at 0. Returns its index or -1 on failure. */
long vbc_particles_add(vbc_particles *p, vbc_vec pos, vbc_vec vel, vbc_kind kind, int body,
                       vbc_error *err);
void vbc_particles_free(vbc_particles *p);
size_t vbc_particles_count(const vbc_particles *p, vbc_kind kind);
const char *vbc_kind_name(vbc_kind kind);

#ifdef __cplusplus
}
#endif

#endif
