/* staggered_error.c — the error measure E of the staggered block's p^v rows (He, Liu, Wang,
 * Zhang, Li, Shao & Wang, ACM Trans. Graph. 31(6) 149, 2012, eq. 29) in two units.
 *
 * Eq. 29 defines E as the mean relative density change, E = mean |Delta rho_i| / rho_i =
 * mean |div v_i| h (its printed "/Delta t" must be "* Delta t": a divergence in 1/s times a time
 * step). The rows' residual is eq. 10's divergence, and eq. 10 is not a consistent divergence: on
 * the ideal lattice of spacing l (m_{i-} = m/N, rho = rho0, so V_{i-j} = 2 l^d / N) the field
 * v = x, whose divergence is d, gives
 *     div_i = sum_j V_{i-j} |W'(r_j/2)| (x_j/2) . n_j = (l^d / N) sum_j |W'(r_j/2)| r_j = c d,
 * c the lattice factor: 0.267 (cubic spline) and 0.335 (Wendland C2) in 2D, 0.143 and 0.179 in
 * 3D at H = 2 l. So h |eq. 10 residual| is c times the density change it stands for. The paper
 * does not say which divergence its E was computed from; its Table 1 needed 13-40 iterations for
 * E = 1 %, which the eq. 10 measure meets at iteration 0 on vbc's scenes, so the density reading
 * is He's. error_measure chooses the unit error_tolerance bounds:
 *     divergence: E = h mean |r_i|          (eq. 10 as it stands; vbc's first reading)
 *     density:    E = h mean |r_i| / c      (the density change, eq. 29's first equality).
 * The p^v solve itself is unchanged (eq. 12 carries the same c).
 *
 * divergence_filter (staggered.c's head comment has why): the rows' targets -div_i replaced by
 * (1 - alpha) (-div_i) + alpha <-div>_i, the Shepard mean over row i (weight W(0)) and its row
 * neighbours closer than H (weights W(r_ij)). */
#include <math.h>

#include "core/parallel.h"
#include "solvers/blocks/staggered/staggered.h"

double vbc_staggered_lattice_factor(const vbc_sph_kernel *k, int dim, double l) {
  const int n = (int)ceil(k->H / l);
  double sum = 0.0, count = 0.0;
  for (int a = -n; a <= n; ++a)
    for (int b = -n; b <= n; ++b)
      for (int z = dim == 3 ? -n : 0; z <= (dim == 3 ? n : 0); ++z) {
        const double r = l * sqrt((double)(a * a + b * b + z * z));
        if (!vbc_staggered_pair(r, k->H)) continue;
        sum += fabs(vbc_sph_dW(k, 0.5 * r)) * r;
        count += 1.0;
      }
  return count > 0.0 ? pow(l, dim) * sum / (count * dim) : 1.0;
}

double vbc_staggered_initial_error(const vbc_rows *rows, double h) {
  double sum = 0.0;
  size_t count = 0;
  for (size_t r = 0; r < rows->n; ++r) { /* zero impulses: the residual is the target */
    const double b = rows->target[r];
    const int free_to_move = (b > 0.0 && rows->hi[r] > 0.0) || (b < 0.0 && rows->lo[r] < 0.0);
    sum += rows->diag[r] > 0.0 && free_to_move ? fabs(b) : 0.0;
    count += rows->diag[r] > 0.0;
  }
  return count ? h * sum / (double)count : 0.0;
}

void vbc_staggered_filter_targets(vbc_staggered_state *s, const vbc_system *sys, vbc_rows *rows) {
  const vbc_neighbors *nb = sys->nbrs;
  const size_t n = rows->n;
  const double w0 = vbc_sph_W(&s->k, 0.0);
#pragma omp parallel for schedule(guided, 4) if (n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < n; ++r) {
    const size_t i = s->particle_of[r];
    double num = w0 * rows->target[r], den = w0;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const long rj = s->row_of[nb->index[q]];
      if (rj < 0 || !vbc_staggered_pair(nb->dist[q], s->k.H)) continue;
      const double w = vbc_sph_W(&s->k, nb->dist[q]);
      num += w * rows->target[rj], den += w;
    }
    s->y[r] = (1.0 - s->filter) * rows->target[r] + s->filter * num / den;
  }
  for (size_t r = 0; r < n; ++r) rows->target[r] = s->y[r], s->y[r] = 0.0;
}
