/* staggered_surface.c — what the staggered block (staggered.c) needs to know about the carrier
 * particles before it builds its rows: densities, neighbour counts, the solids' normals and the
 * free surface (He et al., ACM Trans. Graph. 31(6) 149, 2012, §5.1-5.2).
 *
 * Density (eq. 22): rho_i = m sum_j W(r_ij) over every neighbour j, fluid and solid, self
 * included, with the mass m of the ideal lattice (rho0 over the lattice sum of W), so that a
 * particle inside the lattice has rho0 exactly. Solid particles keep rho0 (§6: scripted and
 * static solids take the fluid's reference density).
 * Neighbour count N_i (eq. 7): neighbours closer than the support H, of every kind (§6: solids
 * count theirs as fluid particles do).
 * Solid normal (eq. 20): n_i^s = -alpha_i sum_j V_j phi_i grad W_ij over the solid neighbours j.
 * phi_i is one number per particle, so after the normalisation alpha_i this is the unit vector of
 * sum_j |W'(r_ij)| (x_i - x_j) / r_ij: it points away from the solid's own particles, out of the
 * solid. vbc has no signed distance field; the sign is fixed by "outward" instead. All solid
 * particles (walls and rigid) count as one solid here.
 * Free surface (eq. 25): Asy_i = |x_i - sum_j x_j W~_ij| with W~ normalised over the neighbours
 * j != i (solids included, which keeps the fluid next to a wall from being taken for surface);
 * surface when Asy_i > asymmetry h or rho_i < rho_min rho0. He et al. call h the smoothing
 * radius without fixing the kernel; vbc takes h = H/2, the smoothing length of the cubic spline
 * with support H (h = l at vbc's default H = 2 l). Measured on the square lattice with Wendland
 * C2 at H = 2 l: a top-layer particle has Asy = 0.394 l and rho = 0.869 rho0, every deeper one
 * Asy = 0. With self included (Asy = 0.151 l) or with h = H (threshold 0.6 l) the top layer
 * would not be found. On the cubic lattice in 3D it has Asy = 0.262 h (Wendland C2; 0.281 h with
 * the cubic spline, at most 0.30 h up to H = 4 l) and rho = 0.876 rho0: He's 0.3 h finds no
 * surface on still 3D water, the rule below then makes the whole region surface (p^v = 0) and the
 * water falls through its first steps, so the default threshold is 0.2 in 3D (0.3, He's, in 2D).
 * Regions without surface (§5.2): every connected fluid region (fluid pairs closer than H) in
 * which no particle is surface is marked surface as a whole, so that the pressure equation has a
 * Dirichlet condition in every region and is positive definite (surface 2: they keep p = 0
 * under surface_pressure interface too).
 *
 * surface_pressure = interface (not He's; the default holds p = 0 on the surface particles).
 * A surface particle stands for the cell around it, so the free surface lies about l/2 beyond
 * it (where the hydrostatic benchmark measures it), and p = 0 on the particle puts every
 * pressure rho g l/2 low (docs/notes/staggered-journal.md). With the option p = 0 sits at d = interface_depth
 * beyond the surface particle s along its outward normal -n_s (n_s: eq. 25's asymmetry sum,
 * solids included, unit), and s holds the pressure of its row neighbour i extrapolated linearly
 * to it, as a ghost-fluid boundary does (Gibou, Fedkiw, Cheng & Kang, J. Comput. Phys. 176,
 * 2002):
 *     p_s = share_is p_i,   share_is = d / (d + delta),   delta = max(d / 10, (x_i - x_s) . n_s),
 * delta the depth of i below s. Row i's term c_is (p_s - p_i) becomes -c_is (1 - share_is) p_i,
 * a diagonal term only, so A stays symmetric with A_ij <= 0, and a surface neighbour level with
 * i holds 0.91 of i's pressure (SHARE_MIN_DEPTH below). After the solve each surface particle
 * takes the c-weighted mean of its row neighbours' extrapolations, which the remap and the
 * frames read.
 * The normal n_s: eq. 25's asymmetry direction tilts whenever the surface layer's particles step
 * sideways, the shares and so the rows' pressures follow it, and on still water a surface mode
 * grew from 1-2 s (docs/notes/staggered-journal.md). With surface_fit_radius > 0, n_s is instead the normal of
 * the least-squares line (plane) through the surface particles within that radius, s included,
 * equal weights (the smallest principal direction of their scatter), oriented into the fluid by
 * the asymmetry direction; sideways steps within the layer leave it unchanged. Where the fit is
 * not a line (plane) -- fewer than d particles, or a scatter across it more than a quarter of the
 * next direction's -- the asymmetry direction stays. */
#include <math.h>

#include "core/parallel.h"
#include "core/solid_normal.h"
#include "solvers/blocks/staggered/staggered.h"

static void densities_and_counts(vbc_staggered_state *s, const vbc_system *sys) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double w0 = vbc_sph_W(&s->k, 0.0), H = s->k.H;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    double sum = w0, n = 0.0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const double d = nb->dist[q];
      if (!vbc_staggered_pair(d, H)) continue;
      sum += vbc_sph_W(&s->k, d);
      n += 1.0;
    }
    s->count[i] = n;
    s->rho[i] = p->kind[i] == VBC_FLUID ? sys->density * sum / s->lattice_sum : sys->density;
  }
}

/* eq. 25 and the density test. */
static void free_surface(vbc_staggered_state *s, const vbc_system *sys) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double H = s->k.H, h = 0.5 * H;
#pragma omp parallel for schedule(guided, 4) if (p->n >= VBC_PARALLEL_MIN)
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID) {
      s->surface[i] = 0;
      s->inward[i] = vbc_vec_zero();
      continue;
    }
    double sum = 0.0;
    vbc_vec off = vbc_vec_zero();
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const double d = nb->dist[q];
      if (!vbc_staggered_pair(d, H)) continue;
      const double w = vbc_sph_W(&s->k, d);
      sum += w;
      off = vbc_vec_axpy(off, w, vbc_vec_sub(p->pos[nb->index[q]], p->pos[i]));
    }
    const double len = vbc_vec_norm(off), asy = sum > 0.0 ? len / sum : INFINITY;
    s->surface[i] = asy > s->asymmetry * h || s->rho[i] < s->rho_min * sys->density;
    s->inward[i] = s->surface[i] && len > 0.0 ? vbc_vec_scale(off, 1.0 / len) : vbc_vec_zero();
  }
}

void vbc_staggered_close_regions(vbc_staggered_state *s, const vbc_system *sys) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double H = s->k.H;
  for (size_t i = 0; i < p->n; ++i) s->component[i] = -1;
  for (size_t seed = 0; seed < p->n; ++seed) {
    if (p->kind[seed] != VBC_FLUID || s->component[seed] >= 0) continue;
    /* breadth-first over fluid pairs; the queue holds the region when it is done */
    size_t head = 0, tail = 0;
    int has_surface = 0;
    s->queue[tail++] = (uint32_t)seed;
    s->component[seed] = (long)seed;
    while (head < tail) {
      const size_t i = s->queue[head++];
      has_surface |= s->surface[i];
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
        const size_t j = nb->index[q];
        if (p->kind[j] != VBC_FLUID || s->component[j] >= 0 || !vbc_staggered_pair(nb->dist[q], H))
          continue;
        s->component[j] = (long)seed;
        s->queue[tail++] = (uint32_t)j;
      }
    }
    if (!has_surface)
      for (size_t k = 0; k < tail; ++k) s->surface[s->queue[k]] = 2;
  }
}

/* delta is taken as at least this times d: a row level with a surface particle (delta = 0, as in
 * a splash or a thin sheet) would hold none of the Dirichlet condition through that pair (share
 * 1), and a group of rows with only such pairs has none at all: A is then singular, and the
 * cylinder entry blew up at 0.197 s under the option. At 0.1 d (share <= 0.91) it runs
 * (penetration_error_mean 0.394 D against He's form's 0.440), and the tank at rest is as still as
 * without the floor (mean of the largest speed over 1-10 s 0.0085 against 0.0083 m/s; a floor at
 * d: 0.0187, He's form 0.0119). */
static const double SHARE_MIN_DEPTH = 0.1;

double vbc_staggered_surface_share(const vbc_staggered_state *s, const vbc_system *sys,
                                   size_t surf, size_t row) {
  const vbc_vec *x = sys->particles->pos;
  const double d = s->interface_depth;
  const double depth = vbc_vec_dot(vbc_vec_sub(x[row], x[surf]), s->inward[surf]);
  return d / (d + fmax(SHARE_MIN_DEPTH * d, depth));
}

/* Whether list entry q of a surface particle takes part in its fit. */
static int in_fit(const vbc_staggered_state *s, const vbc_neighbors *nb, size_t q) {
  return s->surface[nb->index[q]] == 1 && nb->dist[q] < s->fit_radius;
}

/* The normal of the line (plane) fitted to the eq. 25 surface particles within fit_radius of
 * surface particle i; 0 when they are not one. */
static int fitted_normal(const vbc_staggered_state *s, const vbc_system *sys, size_t i,
                         vbc_vec *normal) {
  const vbc_vec *x = sys->particles->pos;
  const vbc_neighbors *nb = sys->nbrs;
  /* offsets from x_i: the same fit, without the cancellation of absolute coordinates */
  vbc_vec mean = vbc_vec_zero();
  double n = 1.0; /* i itself, at offset 0 */
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
    if (in_fit(s, nb, q)) mean = vbc_vec_add(mean, vbc_vec_sub(x[nb->index[q]], x[i])), n += 1.0;
  if (n < (double)sys->dim) return 0;
  mean = vbc_vec_scale(mean, 1.0 / n);
  double c[3][3] = {{0.0}};
  vbc_staggered_add_moment(c, vbc_vec_scale(mean, -1.0));
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
    if (in_fit(s, nb, q))
      vbc_staggered_add_moment(c, vbc_vec_sub(vbc_vec_sub(x[nb->index[q]], x[i]), mean));
  if (sys->dim == 2) { /* the smaller principal direction of the 2x2 scatter */
    const double half = 0.5 * (c[0][0] + c[1][1]);
    const double rad = hypot(0.5 * (c[0][0] - c[1][1]), c[0][1]);
    if (half - rad > 0.25 * (half + rad)) return 0;
    const double th = 0.5 * atan2(2.0 * c[0][1], c[0][0] - c[1][1]); /* the larger one */
    *normal = vbc_vec_make(-sin(th), cos(th), 0.0);
    return 1;
  }
  double v[3][3];
  vbc_staggered_eigen3(c, v);
  int lo = 0, mid;
  for (int k = 1; k < 3; ++k)
    if (c[k][k] < c[lo][lo]) lo = k;
  mid = lo == 0 ? 1 : 0;
  for (int k = 0; k < 3; ++k)
    if (k != lo && c[k][k] < c[mid][mid]) mid = k;
  if (c[lo][lo] > 0.25 * c[mid][mid]) return 0;
  *normal = vbc_vec_make(v[0][lo], v[1][lo], v[2][lo]);
  return 1;
}

/* surface_pressure interface with surface_fit_radius > 0: inward becomes the fitted normal, into
 * the fluid (only particle i's own entry changes, so the loop is parallel; surface particles are
 * fluid, so it visits the fluid list). */
static void fit_surface_normals(vbc_staggered_state *s, const vbc_system *sys) {
  const size_t nf = vbc_fluid_count(sys);
#pragma omp parallel for schedule(guided, 4) if (nf >= VBC_PARALLEL_MIN)
  for (size_t f = 0; f < nf; ++f) {
    const size_t i = vbc_fluid_at(sys, f);
    vbc_vec n;
    if (s->surface[i] != 1 || vbc_vec_dot(s->inward[i], s->inward[i]) == 0.0 ||
        !fitted_normal(s, sys, i, &n))
      continue;
    s->inward[i] = vbc_vec_dot(n, s->inward[i]) < 0.0 ? vbc_vec_scale(n, -1.0) : n;
  }
}

void vbc_staggered_geometry(vbc_staggered_state *s, const vbc_system *sys) {
  densities_and_counts(s, sys);
  /* eq. 20 (core/solid_normal.h) over the staggered pairs: 0 < r < H (1 - 1e-9) */
  vbc_solid_normals(sys, &s->k, s->k.H * (1.0 - 1e-9), s->normal);
  free_surface(s, sys);
  if (s->interface_depth > 0.0 && s->fit_radius > 0.0) fit_surface_normals(s, sys);
  vbc_staggered_close_regions(s, sys);
}
