/* particles.c — see particles.h. */
#include <stdlib.h>
#include <string.h>

#include "core/particles.h"

int vbc_particles_reserve(vbc_particles *p, size_t cap, vbc_error *err) {
  void *const fields[] = {&p->pos,      &p->vel,           &p->kind,          &p->body,
                          &p->pressure, &p->pressure_smoothed, &p->number_density};
  const size_t sizes[] = {sizeof *p->pos,      sizeof *p->vel,
                          sizeof *p->kind,     sizeof *p->body,
                          sizeof *p->pressure, sizeof *p->pressure_smoothed,
                          sizeof *p->number_density};
  return vbc_grow(&p->cap, cap, fields, sizes, 7, err);
}

long vbc_particles_add(vbc_particles *p, vbc_vec pos, vbc_vec vel, vbc_kind kind, int body,
                       vbc_error *err) {
  if (vbc_particles_reserve(p, p->n + 1, err) != VBC_OK) return -1;
  size_t i = p->n++;
  p->pos[i] = pos;
  p->vel[i] = vel;
  p->kind[i] = (unsigned char)kind;
  p->body[i] = body;
  p->pressure[i] = 0.0;
  p->pressure_smoothed[i] = 0.0;
  p->number_density[i] = 0.0;
  return (long)i;
}

void vbc_particles_free(vbc_particles *p) {
  free(p->pos);
  free(p->vel);
  free(p->kind);
  free(p->body);
  free(p->pressure);
  free(p->pressure_smoothed);
  free(p->number_density);
  memset(p, 0, sizeof *p);
}

size_t vbc_particles_count(const vbc_particles *p, vbc_kind kind) {
  size_t c = 0;
  for (size_t i = 0; i < p->n; ++i) c += p->kind[i] == kind;
  return c;
}

const char *vbc_kind_name(vbc_kind kind) {
  switch (kind) {
    case VBC_FLUID: return "fluid";
    case VBC_RIGID: return "rigid";
    case VBC_WALL: return "wall";
  }
  return "?";
}
