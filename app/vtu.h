/* vtu.h — particle frames for ParaView: VTK UnstructuredGrid (.vtu, one vertex cell per
 * particle, appended raw little-endian data with UInt64 headers) and the .pvd collection that
 * gives them their times. */
#ifndef VBC_VTU_H
#define VBC_VTU_H

#include "core/error.h"
#include "core/particles.h"

/* Write the particles to `path` atomically. */
int vbc_vtu_write(const char *path, const vbc_particles *p, vbc_error *err);
/* Write a .pvd listing files[i] at times[i] (paths relative to the .pvd), atomically. */
int vbc_pvd_write(const char *path, const char *const *files, const double *times, size_t n,
                  vbc_error *err);

#endif
