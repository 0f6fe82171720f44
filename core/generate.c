/* generate.c — see generate.h. */
#include <math.h>

#include "core/generate.h"

static long lattice_count(double extent, double l) { return (long)floor(extent / l + 1e-6); }

/* u = vel + A0 (x - xc, -(y - yc)): the strain field of the circular patch (Miyamoto eq. 73). */
static vbc_vec initial_velocity(vbc_vec x, vbc_vec centre, vbc_vec vel, double strain) {
  return vbc_vec_make(vel.x + strain * (x.x - centre.x), vel.y - strain * (x.y - centre.y),
                      vel.z);
}

int vbc_generate_fluid_box(vbc_particles *p, int dim, double l, vbc_vec min, vbc_vec max,
                           vbc_vec vel, double strain_rate, vbc_error *err) {
  long n[3] = {1, 1, 1};
  for (int a = 0; a < dim; ++a) n[a] = lattice_count(vbc_vec_get(max, a) - vbc_vec_get(min, a), l);
  vbc_vec centre = vbc_vec_scale(vbc_vec_add(min, max), 0.5);
  for (long k = 0; k < n[2]; ++k)
    for (long j = 0; j < n[1]; ++j)
      for (long i = 0; i < n[0]; ++i) {
        vbc_vec x = vbc_vec_make(min.x + (i + 0.5) * l, min.y + (j + 0.5) * l,
                                 dim == 3 ? min.z + (k + 0.5) * l : 0.0);
        vbc_vec u = initial_velocity(x, centre, vel, strain_rate);
        if (vbc_particles_add(p, x, u, VBC_FLUID, -1, err) < 0) return err->code;
      }
  return VBC_OK;
}

int vbc_generate_fluid_ball(vbc_particles *p, int dim, double l, vbc_vec c, double radius,
                            vbc_vec vel, double strain_rate, vbc_error *err) {
  long K = (long)ceil(radius / l) + 1;
  long kz = dim == 3 ? K : 0;
  for (long k = -kz; k <= kz; ++k)
    for (long j = -K; j <= K; ++j)
      for (long i = -K; i <= K; ++i) {
        vbc_vec d = vbc_vec_make((i + 0.5) * l, (j + 0.5) * l, dim == 3 ? (k + 0.5) * l : 0.0);
        if (dim == 2 && k != 0) continue;
        if (vbc_vec_norm(d) >= radius) continue;
        vbc_vec x = vbc_vec_add(c, d);
        if (vbc_particles_add(p, x, initial_velocity(x, c, vel, strain_rate), VBC_FLUID, -1,
                              err) < 0)
          return err->code;
      }
  return VBC_OK;
}

int vbc_generate_tank(vbc_particles *p, int dim, double l, vbc_vec min, vbc_vec max, long layers,
                      int body, vbc_error *err) {
  long n[3] = {1, 1, 1};
  for (int a = 0; a < dim; ++a) n[a] = lattice_count(vbc_vec_get(max, a) - vbc_vec_get(min, a), l);
  long lo[3] = {-layers, -layers, dim == 3 ? -layers : 0};
  long hi[3] = {n[0] + layers, n[1], dim == 3 ? n[2] + layers : 1}; /* open top: y ends at n */
  for (long k = lo[2]; k < hi[2]; ++k)
    for (long j = lo[1]; j < hi[1]; ++j)
      for (long i = lo[0]; i < hi[0]; ++i) {
        int inside = i >= 0 && i < n[0] && j >= 0 && (dim == 2 || (k >= 0 && k < n[2]));
        if (inside) continue;
        vbc_vec x = vbc_vec_make(min.x + (i + 0.5) * l, min.y + (j + 0.5) * l,
                                 dim == 3 ? min.z + (k + 0.5) * l : 0.0);
        if (vbc_particles_add(p, x, vbc_vec_zero(), VBC_WALL, body, err) < 0) return err->code;
      }
  return VBC_OK;
}

int vbc_generate(const vbc_scene *s, vbc_particles *p, vbc_error *err) {
  for (size_t i = 0; i < s->nshapes; ++i) {
    const vbc_shape *sh = &s->shapes[i];
    int rc = VBC_OK;
    if (sh->type == VBC_SHAPE_FLUID_BOX)
      rc = vbc_generate_fluid_box(p, s->dim, s->spacing, sh->min, sh->max, sh->velocity,
                                  sh->strain_rate, err);
    else if (sh->type == VBC_SHAPE_FLUID_DISK)
      rc = vbc_generate_fluid_ball(p, s->dim, s->spacing, sh->center, sh->radius, sh->velocity,
                                   sh->strain_rate, err);
    if (rc != VBC_OK) return rc;
  }
  int body = 0; /* walls are fixed bodies of infinite mass; one body per tank */
  for (size_t i = 0; i < s->nshapes; ++i) {
    const vbc_shape *sh = &s->shapes[i];
    if (sh->type != VBC_SHAPE_TANK) continue;
    if (vbc_generate_tank(p, s->dim, s->spacing, sh->min, sh->max, sh->layers, body++, err))
      return err->code;
  }
  return VBC_OK;
}
