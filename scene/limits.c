/* limits.c — see limits.h. */
#include <math.h>
#include <stdint.h>
#include <unistd.h>

#include "scene/body_shape.h"
#include "scene/generate.h"
#include "scene/limits.h"

static double box_count(int dim, double l, vbc_vec min, vbc_vec max, double n[3]) {
  double count = 1.0;
  for (int a = 0; a < 3; ++a) {
    n[a] = a < dim ? vbc_lattice_points(vbc_vec_get(max, a) - vbc_vec_get(min, a), l) : 1.0;
    count *= fmax(n[a], 0.0);
  }
  return count;
}

/* vbc_generate_tank: the interior grown by `layers` on every side but the open top. */
static double tank_count(int dim, double l, const vbc_shape *sh) {
  double n[3];
  const double inner = box_count(dim, l, sh->min, sh->max, n), L = (double)sh->layers;
  const double outer = (n[0] + 2.0 * L) * (n[1] + L) * (dim == 3 ? n[2] + 2.0 * L : 1.0);
  return outer - inner;
}

static double ball_count(int dim, double l, double r) {
  const double x = r / l;
  return dim == 3 ? 4.0 / 3.0 * M_PI * x * x * x : M_PI * x * x;
}

/* Area or volume over l^d: the lattice points inside a shape, to within its boundary layer. */
static double body_count(int dim, double l, const vbc_body_shape *sh) {
  const double cell = pow(l, dim);
  double n[3], area = 0.0;
  switch (sh->type) {
    case VBC_BODY_BOX: return box_count(dim, l, sh->min, sh->max, n);
    case VBC_BODY_DISK: return ball_count(dim, l, sh->radius);
    case VBC_BODY_CROSS: /* two bars crossing, the centre square (cube) counted once */
      return (dim == 3 ? (2.0 * sh->length - sh->width) * sh->width * sh->width
                       : (2.0 * sh->length - sh->width) * sh->width) / cell;
    case VBC_BODY_POLYGON: return vbc_body_polygon_measure(sh, dim) / cell;
    case VBC_BODY_UNION: /* parts may overlap: an upper bound */
      for (size_t k = 0; k < sh->nparts; ++k) area += body_count(dim, l, &sh->parts[k]);
      return area;
    case VBC_BODY_MESH: /* the lattice points of its bounding box: an upper bound */
      return vbc_body_lattice_cells(sh, dim, l);
  }
  return 0.0;
}

/* The fraction of a body's bounding box inside the fluid boxes: the share of its particles that
 * displace fluid ones (scene/generate.c). */
static double fluid_fraction(const vbc_scene *s, const vbc_body_shape *body) {
  vbc_vec a, b;
  vbc_body_shape_bounds(body, s->dim, &a, &b);
  double inside = 0.0;
  for (size_t i = 0; i < s->nshapes; ++i) {
    const vbc_shape *sh = &s->shapes[i];
    if (sh->type != VBC_SHAPE_FLUID_BOX) continue;
    double f = 1.0;
    for (int ax = 0; ax < s->dim; ++ax) {
      const double lo = fmax(vbc_vec_get(a, ax), vbc_vec_get(sh->min, ax));
      const double hi = fmin(vbc_vec_get(b, ax), vbc_vec_get(sh->max, ax));
      const double w = vbc_vec_get(b, ax) - vbc_vec_get(a, ax);
      f *= w > 0.0 ? fmax(hi - lo, 0.0) / w : 0.0;
    }
    inside += f;
  }
  return fmin(inside, 1.0);
}

double vbc_particle_estimate(const vbc_scene *s) {
  const double l = s->spacing;
  double total = 0.0, n[3];
  for (size_t i = 0; i < s->nshapes; ++i) {
    const vbc_shape *sh = &s->shapes[i];
    switch (sh->type) {
      case VBC_SHAPE_FLUID_BOX: total += box_count(s->dim, l, sh->min, sh->max, n); break;
      case VBC_SHAPE_FLUID_DISK: total += ball_count(s->dim, l, sh->radius); break;
      case VBC_SHAPE_TANK: total += tank_count(s->dim, l, sh); break;
    }
  }
  for (size_t k = 0; k < s->nbodies; ++k) {
    const vbc_body_shape *sh = &s->bodies[k].shape;
    /* a body beyond the generator's sanity limit is refused there, naming its shape */
    if (!(vbc_body_lattice_cells(sh, s->dim, l) <= VBC_MAX_BODY_CELLS)) continue;
    total += body_count(s->dim, l, sh) * (1.0 - fluid_fraction(s, sh));
  }
  return total;
}

double vbc_bytes_per_particle(const vbc_scene *s) {
  const double r = s->re_over_l;
  const double neighbours = s->dim == 3 ? 4.0 / 3.0 * M_PI * r * r * r : M_PI * r * r;
  return 400.0 + 30.0 * neighbours;
}

double vbc_default_max_particles(const vbc_scene *s) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const double ram = pages > 0 && page > 0 ? (double)pages * (double)page : 4e9;
  return floor(ram / vbc_bytes_per_particle(s));
}

int vbc_check_particle_limit(const vbc_scene *s, vbc_error *err) {
  const double count = vbc_particle_estimate(s), bytes = vbc_bytes_per_particle(s);
  const int given = s->max_particles > 0.0;
  const double limit = given ? s->max_particles : vbc_default_max_particles(s);
  if (count > (double)UINT32_MAX)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: spacing: expected at most %.0f particles (neighbour indices are "
                         "32-bit), spacing %g would create %.3g particles needing about %.3g GB",
                         s->file, (double)UINT32_MAX, s->spacing, count, count * bytes / 1e9);
  if (count <= limit) return VBC_OK;
  return vbc_error_set(err, VBC_EXIT_INPUT,
                       "%s: spacing: expected a scene of at most %.0f particles (%s), spacing %g "
                       "would create %.0f particles needing about %.3g GB (%.0f bytes each); "
                       "raise the limit with --max-particles N",
                       s->file, limit, given ? "--max-particles" : "what fits in physical memory",
                       s->spacing, count, count * bytes / 1e9, bytes);
}
