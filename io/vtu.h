/* vtu.h — particle frames for ParaView: VTK UnstructuredGrid (.vtu, one vertex cell per
 * particle, appended raw little-endian data with UInt64 headers) and the .pvd collection that
 * gives them their times (docs/outputs.md#framesvtu-and-framespvd).
 *
 * With rigid bodies, each frame also carries the bodies' poses, so that a body can be followed
 * without reconstructing it from its particles: as FieldData of the particle frame
 * (body_position, 3 components per body; body_orientation, the unit quaternion w, x, y, z that
 * turns the body frame into the world; body_velocity; body_angular_velocity) and as a second
 * .vtu with one vertex per body at its centre of mass (point data body, orientation, axis_x,
 * axis_y, axis_z — the body frame's axes in the world, for glyphs — velocity and
 * angular_velocity), listed in the .pvd as part 1 beside the particles' part 0.
 *
 * The scene's output.compress_frames writes the appended data zlib-compressed
 * (compressor="vtkZLibDataCompressor", io/vtu_zlib.h), for large 3D runs. */
#ifndef VBC_VTU_H
#define VBC_VTU_H

#include "core/body.h"
#include "core/error.h"
#include "core/particles.h"

/* Write the particles to `path` atomically, with the poses of the nbodies bodies as FieldData
 * (none if nbodies is 0: a fluid-only frame has no FieldData); with compress != 0 the appended
 * data are zlib-compressed as VTK does it (io/vtu_zlib.h), else raw. */
int vbc_vtu_write(const char *path, const vbc_particles *p, const vbc_body *bodies,
                  size_t nbodies, int compress, vbc_error *err);
/* Write the bodies' poses, one vertex per body, to `path` atomically. */
int vbc_vtu_write_bodies(const char *path, const vbc_body *bodies, size_t nbodies,
                         int compress, vbc_error *err);
/* Write a .pvd listing files[i] at times[i] (paths relative to the .pvd), atomically; with
 * body_files (NULL: none), body_files[i] as part 1 at the same time. */
int vbc_pvd_write(const char *path, const char *const *files, const char *const *body_files,
                  const double *times, size_t n, vbc_error *err);

#endif
