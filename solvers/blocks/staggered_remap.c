/* staggered_remap.c — the particles' velocity change from their staggered particles (He et al.,
 * ACM Trans. Graph. 31(6) 149, 2012, eq. 14-19; the choices are in staggered.c's head comment).
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

#include "solvers/blocks/staggered.h"

/* Eigenvalues (diagonal of a on return) and eigenvectors (columns of v) of the symmetric 3x3 a,
 * by cyclic Jacobi rotations (a fixed order: the same bits on every thread). */
static void eigen3(double a[3][3], double v[3][3]) {
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

/* M^-1 b with M's eigenvalues raised to at least `floor`. */
static vbc_vec solve_floored(double m[3][3], vbc_vec b, double floor) {
  double v[3][3];
  eigen3(m, v);
  const double bb[3] = {b.x, b.y, b.z};
  double x[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < 3; ++k) {
    const double proj = v[0][k] * bb[0] + v[1][k] * bb[1] + v[2][k] * bb[2];
    const double lambda = fmax(m[k][k], floor);
    for (int r = 0; r < 3; ++r) x[r] += v[r][k] * proj / lambda;
  }
  return vbc_vec_make(x[0], x[1], x[2]);
}

static void add_moment(double m[3][3], vbc_vec n) {
  const double v[3] = {n.x, n.y, n.z};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) m[a][b] += v[a] * v[b];
}

vbc_vec vbc_staggered_remap(const vbc_staggered_state *s, const vbc_system *sys, size_t i) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double h = sys->dt;
  double m[3][3] = {{0}};
  vbc_vec sum = vbc_vec_zero();
  size_t k = 0;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    if (s->grad[q] != 0.0) { /* a fluid pair: dv = -(h/rho) (p_j - p_i)/r n  (eq. 11, 14) */
      const vbc_vec n = vbc_vec_scale(vbc_vec_sub(p->pos[j], p->pos[i]), 1.0 / nb->dist[q]);
      sum = vbc_vec_axpy(sum, -h * s->grad[q] * (p->pressure[j] - p->pressure[i]), n);
      add_moment(m, n), ++k;
    } else if (vbc_vec_norm2(s->wall_dir[q]) > 0.0) { /* an imposed solid pair */
      sum = vbc_vec_add(sum, s->wall_dv[q]);
      add_moment(m, s->wall_dir[q]), ++k;
    }
  }
  if (k == 0) return vbc_vec_zero();
  if (s->remap == VBC_REMAP_LITERAL) return vbc_vec_scale(sum, 1.0 / s->count[i]); /* eq. 19 */
  return solve_floored(m, sum, s->remap_floor * (double)k / sys->dim);
}
