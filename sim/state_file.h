/* state_file.h — frozen states: everything one time step reads, saved just before that step, so
 * that `vbc run --from-state FILE` can replay the step's pressure solve under any solver and every
 * solver sees the identical problem (convergence compared on the same state).
 *
 * Why the start of a step: the coupler's step recomputes neighbours, n_i and the explicit terms
 * from positions and velocities deterministically, so the state at the start of step k (the state
 * after step k - 1) is exactly what step k's solve depends on; a warm start also reads the
 * pressure of step k - 1. The file therefore holds the particle arrays and the domain, not rows.
 *
 * Layout, native byte order and IEEE doubles (a byte-order mark tells a foreign file apart):
 *   char[8] magic "VBCSTATE", u32 format version (1), u32 byte-order mark 0x01020304,
 *   u32 dim, u64 particle count n, i64 step (steps completed: the file is the state step + 1
 *   starts from), f64 time, f64 spacing, f64 dt, u32 length + bytes of the scene name,
 *   u32 number of sections, then each section: u32 length + bytes of its name, u64 element
 *   count, u64 element size, count * size bytes.
 * Sections of version 1: pos, vel (n x 24: x, y, z), kind (n x 1), body (n x 4, int32),
 * pressure, pressure_smoothed, number_density (n x 8), domain (2 x 24: min, max). Readers skip
 * sections they do not know, so later issues add sections (rigid bodies) without a new version;
 * the version changes only when this layout does. */
#ifndef VBC_STATE_FILE_H
#define VBC_STATE_FILE_H

#include <stddef.h>

#include "core/particles.h"
#include "sim/sim.h"

#define VBC_STATE_VERSION 1u

typedef struct vbc_state_header {
  int dim;
  size_t n;
  long step;
  double time, spacing, dt;
  char scene[256];
} vbc_state_header;

typedef struct vbc_state_section {
  const char *name;
  size_t count, size;
  const void *data;
} vbc_state_section;

/* A section the particle reader does not use (checkpoints add theirs: sim/checkpoint.c). */
typedef struct vbc_state_extra {
  char name[65];
  size_t count, size;
  const unsigned char *data; /* into vbc_state.file */
} vbc_state_extra;

enum { VBC_STATE_MAX_EXTRA = 16 };

/* A state as read from a file. */
typedef struct vbc_state {
  vbc_state_header h;
  vbc_particles particles; /* pos, vel, kind, body, pressure, pressure_smoothed, number_density */
  vbc_vec domain_min, domain_max;
  unsigned char *file; /* the file's bytes, which extra points into */
  vbc_state_extra extra[VBC_STATE_MAX_EXTRA];
  size_t nextra;
} vbc_state;

/* The extra section named name, NULL if the file has none. */
const vbc_state_extra *vbc_state_find(const vbc_state *st, const char *name);

/* Write the header and sections to path atomically (path.tmp, then rename). */
int vbc_state_write_sections(const char *path, const vbc_state_header *h,
                             const vbc_state_section *sections, size_t nsections, vbc_error *err);
/* The header of sim's current state, and its eight particle sections (the domain goes to
 * domain[2], which must outlive the sections): what vbc_state_write writes, and the start of a
 * checkpoint (sim/checkpoint.c). */
enum { VBC_STATE_PARTICLE_SECTIONS = 8 };
vbc_state_header vbc_state_header_of(const vbc_sim *sim);
size_t vbc_state_particle_sections(const vbc_sim *sim, vbc_vec domain[2],
                                   vbc_state_section *s);
/* Write sim's current state (step and time as they are: call it before sim->step++). */
int vbc_state_write(const char *path, const vbc_sim *sim, vbc_error *err);
/* Read a state file; VBC_EXIT_INPUT naming path for a wrong magic, version or byte order, a
 * truncated file or a malformed or missing section. */
int vbc_state_read(const char *path, vbc_state *st, vbc_error *err);
void vbc_state_free(vbc_state *st);
/* Replace sim's particle state, domain, step and time by st's. VBC_EXIT_INPUT naming path if the
 * state does not fit the scene sim was set up from: dim, particle count, kinds, bodies, spacing
 * or dt differ. */
int vbc_state_apply(const vbc_state *st, const char *path, vbc_sim *sim, vbc_error *err);
/* The same, for a scene with bodies too: the caller restores the bodies (a checkpoint does). */
int vbc_state_apply_particles(const vbc_state *st, const char *path, vbc_sim *sim,
                              vbc_error *err);

#endif
