/* staggered_remap.c — the particles' velocity change from their staggered particles (He et al.,
 * ACM Trans. Graph. 31(6) 149, 2012, eq. 14-19; the choices are in staggered.c's head comment),
 * and what the bodies take back through them (eq. 21, 28 and the body_load pressure term).
 *
 * Each staggered particle P_{i-j} of fluid particle i changes by dv_{i-j} along one direction
 * n_{i-j}: -(h / rho_{i-j}) (p_j - p_i) / r_ij along n_ij for a fluid pair (eq. 11, 14), the
 * imposed change along n^s (free slip) or along the relative velocity (no slip) for a solid pair
 * (eq. 26-27). The literal remap is eq. 19, dv_i = (1/N_i) sum_j dv_{i-j}. The normalised one is
 * the least-squares velocity change whose components along the n_{i-j} are the dv_{i-j}:
 *     dv_i = M^-1 sum_j dv_{i-j},   M = sum_j n_{i-j} n_{i-j}^T,
 * exact for a linear pressure on any neighbourhood that spans the space. On a splash particle
 * with one neighbour, or a few nearly collinear ones, M is (nearly) singular and M^-1 would kick
 * it along the missing direction; so the eigenvalues of M / k (k pairs) are raised to at least
 * remap_floor / d (1/d is every eigenvalue of a full, symmetric neighbourhood: there nothing
 * changes; a free-surface particle of the square lattice has 0.8 / d and 1.2 / d). */
#include <math.h>

#include "solvers/blocks/staggered/staggered.h"

void vbc_staggered_eigen3(double a[3][3], double v[3][3]) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) v[r][c] = r == c;
  for (int sweep = 0; sweep < 32; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-32 * diag) return;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (a[p][q] == 0.0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) { /* a P */
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq, a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) { /* P^T (a P) */
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk, a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) { /* v P */
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq, v[k][q] = s * vkp + c * vkq;
        }
      }
  }
}

/* The remap's linear map dv -> M^-1 dv with M's eigenvalues raised to at least `floor`: M's
 * eigenvectors (columns of v) and its floored eigenvalues. */
typedef struct remap_map {
  double v[3][3], lambda[3];
} remap_map;

static remap_map floored_inverse(double m[3][3], double floor) {
  remap_map r;
  vbc_staggered_eigen3(m, r.v);
  for (int k = 0; k < 3; ++k) r.lambda[k] = fmax(m[k][k], floor);
  return r;
}

static vbc_vec remap_apply(const remap_map *r, vbc_vec b) {
  const double bb[3] = {b.x, b.y, b.z};
  double x[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < 3; ++k) {
    const double proj = r->v[0][k] * bb[0] + r->v[1][k] * bb[1] + r->v[2][k] * bb[2];
    for (int c = 0; c < 3; ++c) x[c] += r->v[c][k] * proj / r->lambda[k];
  }
  return vbc_vec_make(x[0], x[1], x[2]);
}

void vbc_staggered_add_moment(double m[3][3], vbc_vec n) {
  const double v[3] = {n.x, n.y, n.z};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) m[a][b] += v[a] * v[b];
}

/* M = sum n n^T and the sum of the staggered changes of particle i; returns the number of
 * staggered particles that count (fluid pairs and imposed solid pairs). */
static size_t gather(const vbc_staggered_state *s, const vbc_system *sys, size_t i,
                     double m[3][3], vbc_vec *sum) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double h = sys->dt;
  size_t k = 0;
  *sum = vbc_vec_zero();
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    if (s->grad[q] != 0.0) { /* a fluid pair: dv = -(h/rho) (p_j - p_i)/r n  (eq. 11, 14) */
      const vbc_vec n = vbc_vec_scale(vbc_vec_sub(p->pos[j], p->pos[i]), 1.0 / nb->dist[q]);
      *sum = vbc_vec_axpy(*sum, -h * s->grad[q] * (p->pressure[j] - p->pressure[i]), n);
      vbc_staggered_add_moment(m, n), ++k;
    } else if (vbc_vec_norm2(s->wall_dir[q]) > 0.0) { /* an imposed solid pair */
      *sum = vbc_vec_add(*sum, s->wall_dv[q]);
      vbc_staggered_add_moment(m, s->wall_dir[q]), ++k;
    }
  }
  return k;
}

vbc_vec vbc_staggered_remap(const vbc_staggered_state *s, const vbc_system *sys, size_t i) {
  double m[3][3] = {{0}};
  vbc_vec sum;
  const size_t k = gather(s, sys, i, m, &sum);
  if (k == 0) return vbc_vec_zero();
  if (s->remap == VBC_REMAP_LITERAL) return vbc_vec_scale(sum, 1.0 / s->count[i]); /* eq. 19 */
  const remap_map r = floored_inverse(m, s->remap_floor * (double)k / sys->dim);
  return remap_apply(&r, sum);
}

/* Whether fluid particle i has an imposed staggered particle with a rigid particle (of any
 * body: the coupler moves the movable ones and records the impulse on all). */
static int touches_body(const vbc_staggered_state *s, const vbc_system *sys, size_t i) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
    if (p->kind[nb->index[q]] == VBC_RIGID && vbc_vec_norm2(s->wall_dir[q]) > 0.0) return 1;
  return 0;
}

void vbc_staggered_solid_impulses(const vbc_staggered_state *s, const vbc_system *sys,
                                  vbc_vec *impulse) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double mf = sys->fluid_mass;
  for (size_t i = 0; i < p->n; ++i) {
    if (p->kind[i] != VBC_FLUID || !touches_body(s, sys, i)) continue;
    double m[3][3] = {{0}};
    vbc_vec sum;
    const size_t k = gather(s, sys, i, m, &sum);
    const int literal = s->remap == VBC_REMAP_LITERAL;
    remap_map r;
    if (!literal) r = floored_inverse(m, s->remap_floor * (double)k / sys->dim);
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      if (p->kind[j] == VBC_FLUID || vbc_vec_norm2(s->wall_dir[q]) == 0.0) continue;
      /* what this staggered particle gave particle i, m R_i(dv_{i-j}), taken from j */
      const vbc_vec dv = literal ? vbc_vec_scale(s->wall_dv[q], 1.0 / s->count[i])
                                 : remap_apply(&r, s->wall_dv[q]);
      impulse[j] = vbc_vec_axpy(impulse[j], -mf, dv);
    }
  }
}

/* The pressure term (body_load pressure): a fluid-solid staggered particle holds the solid's velocity
 * condition, so its pressure change is not p^v's and the reaction above is only the momentum the
 * condition moved. The pressure p_i of the fluid particle still presses on the solid: across the
 * pair it drops from p_i to the solid's (no row, 0), eq. 11's gradient p_i / r_ij on the staggered
 * particle's volume V_{i-j} (eq. 9), taken along the solid normal n^s (eq. 20, as eq. 23 directs
 * a solid pair's pressure force). Each pair carries one component of the gradient, so, as in the
 * normalised remap, the sum is multiplied by d: on the ideal lattice a flat wall then takes
 * exactly p A for any support (sum over the pairs crossing a plane of V_{i-j}/r_ij n_ij . n = A/d
 * in 2D and 3D, H = 2l to 3l). */
void vbc_staggered_pressure_impulses(const vbc_staggered_state *s, const vbc_system *sys,
                                     const vbc_rows *rows, vbc_vec *impulse) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double m = sys->fluid_mass, H = s->k.H;
  for (size_t i = 0; i < p->n; ++i) {
    const long r = s->row_of[i];
    if (r < 0 || rows->impulse[r] == 0.0) continue;
    const double lambda = rows->impulse[r], mi = m / s->count[i];
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const size_t j = nb->index[q];
      const double d = nb->dist[q];
      if (p->kind[j] != VBC_RIGID || !vbc_staggered_pair(d, H)) continue;
      const double V = mi / s->rho[i] + m / s->count[j] / s->rho[j]; /* eq. 9 */
      const vbc_vec n = vbc_vec_scale(vbc_vec_sub(p->pos[j], p->pos[i]), 1.0 / d);
      vbc_vec ns = s->normal[j];
      if (vbc_vec_norm2(ns) == 0.0) ns = vbc_vec_scale(n, -1.0);
      impulse[j] = vbc_vec_axpy(impulse[j], sys->dim * V * lambda / d * vbc_vec_dot(n, ns), ns);
    }
  }
}
