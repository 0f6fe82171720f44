/* dfsph_passes.c — the dfsph block's residual and apply passes (Bender & Koschier 2017, BK17:
 * eq. 9, D rho_i/Dt = sum_j m_j (v_i - v_j) . grad W_ij, the row's -J_i v; the pressure update
 * of Algorithms 2-3, v_i -= h sum_j m_j (kappa_i/rho_i + kappa_j/rho_j) grad W_ij, i.e.
 * v += M^-1 J^T d) on sph_density's rows, kernels, gradients and volumes, summed for speed.
 *
 * The operator is sph_density's (solvers/blocks/sph_density.c); only the order of the sums
 * differs. sph_density sums each row's terms pair after pair into one accumulator, with the dot
 * product of each pair rounded first, so every pair waits for the addition before it. Here a row
 * keeps its three components apart, in two partial sums each, one over the even and one over the
 * odd entries of its neighbour list, added at the end:
 *     div_i = ((Sx_even + Sx_odd) + (Sy_even + Sy_odd)) + (Sz_even + Sz_odd),
 *     S_even = sum over even list entries of V_j ((v_i - v_j) * grad W_ij), per component,
 *     J_i v = -rho0 div_i,
 * and with the volume every particle shares (the lattice volume l^d / S, sph_density's default)
 * V leaves the sums: J_i v = -rho0 V div_i. The apply pass sums d_j grad W_ij the same way (d_j = 0
 * for a neighbour without a row). Those are the lanes of a 256-bit vector (x, y, z and a zero), so
 * on processors with AVX-512VL the passes run one pair a vector instruction (masked loads of the
 * three doubles of v_j and grad W_ij), with the plain loop's roundings in the plain loop's order
 * (C11: no contraction into FMA): the same bits on any processor (core/simd.h). The results differ
 * from sph_density's passes by round-off only (tests/test_dfsph.c compares them), depend on each
 * row's own list only, so not on the thread count. With bodies (whose particles move with their
 * body, vbc_system_velocity) the dfsph block keeps sph_density's passes. */
#include "core/grid_scan.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "solvers/blocks/dfsph_passes.h"

#ifdef VBC_X86_SIMD
#include <immintrin.h>
#define WIDE __attribute__((target("avx512f,avx512vl")))
#endif

int vbc_dfsph_uniform_volume(const vbc_sph_rows_view *v, size_t np) {
  for (size_t i = 0; i < np; ++i)
    if (v->volume[i] != v->cell) return 0;
  return 1;
}

int vbc_dfsph_wide_available(void) { return vbc_scan_wide_available(); }

/* div_i of the header, plain. */
static inline double divergence_plain(const vbc_sph_rows_view *v, const vbc_system *sys, size_t i,
                                      int uniform) {
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_vec *vel = sys->particles->vel, *grad = v->grad;
  const vbc_vec vi = vel[i];
  double x0 = 0.0, y0 = 0.0, z0 = 0.0, x1 = 0.0, y1 = 0.0, z1 = 0.0;
  size_t q = nb->start[i];
  const size_t end = nb->start[i + 1];
  for (; q + 1 < end; q += 2) {
    const size_t j0 = nb->index[q], j1 = nb->index[q + 1];
    const double c0 = uniform ? 1.0 : v->volume[j0], c1 = uniform ? 1.0 : v->volume[j1];
    x0 += c0 * ((vi.x - vel[j0].x) * grad[q].x);
    y0 += c0 * ((vi.y - vel[j0].y) * grad[q].y);
    z0 += c0 * ((vi.z - vel[j0].z) * grad[q].z);
    x1 += c1 * ((vi.x - vel[j1].x) * grad[q + 1].x);
    y1 += c1 * ((vi.y - vel[j1].y) * grad[q + 1].y);
    z1 += c1 * ((vi.z - vel[j1].z) * grad[q + 1].z);
  }
  if (q < end) {
    const size_t j = nb->index[q];
    const double c = uniform ? 1.0 : v->volume[j];
    x0 += c * ((vi.x - vel[j].x) * grad[q].x);
    y0 += c * ((vi.y - vel[j].y) * grad[q].y);
    z0 += c * ((vi.z - vel[j].z) * grad[q].z);
  }
  return ((x0 + x1) + (y0 + y1)) + (z0 + z1);
}

/* sum_j d_j grad W_ij of the header, plain. */
static inline vbc_vec pressure_sum_plain(const vbc_sph_rows_view *v, const vbc_neighbors *nb,
                                         size_t i, const double *d) {
  const vbc_vec *grad = v->grad;
  double x0 = 0.0, y0 = 0.0, z0 = 0.0, x1 = 0.0, y1 = 0.0, z1 = 0.0;
  size_t q = nb->start[i];
  const size_t end = nb->start[i + 1];
  for (; q + 1 < end; q += 2) {
    const int32_t r0 = v->pair_row[q], r1 = v->pair_row[q + 1];
    const double d0 = r0 >= 0 ? d[r0] : 0.0, d1 = r1 >= 0 ? d[r1] : 0.0;
    x0 += d0 * grad[q].x, y0 += d0 * grad[q].y, z0 += d0 * grad[q].z;
    x1 += d1 * grad[q + 1].x, y1 += d1 * grad[q + 1].y, z1 += d1 * grad[q + 1].z;
  }
  if (q < end) {
    const double dq = v->pair_row[q] >= 0 ? d[v->pair_row[q]] : 0.0;
    x0 += dq * grad[q].x, y0 += dq * grad[q].y, z0 += dq * grad[q].z;
  }
  return (vbc_vec){x0 + x1, y0 + y1, z0 + z1};
}

#ifdef VBC_X86_SIMD
/* The three doubles of a vbc_vec in lanes 0-2 of a vector, lane 3 zero. */
WIDE static inline __m256d load3(const vbc_vec *a) {
  return _mm256_maskz_loadu_pd((__mmask8)0x7, (const double *)a);
}

/* divergence_plain, a pair a vector instruction: lane by lane the same operations. */
WIDE static double divergence_wide(const vbc_sph_rows_view *v, const vbc_system *sys, size_t i,
                                   int uniform) {
  const vbc_neighbors *nb = sys->nbrs;
  const vbc_vec *vel = sys->particles->vel, *grad = v->grad;
  const __m256d vi = load3(vel + i);
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
  size_t q = nb->start[i];
  const size_t end = nb->start[i + 1];
  for (; q + 1 < end; q += 2) {
    const size_t j0 = nb->index[q], j1 = nb->index[q + 1];
    __m256d t0 = _mm256_mul_pd(_mm256_sub_pd(vi, load3(vel + j0)), load3(grad + q));
    __m256d t1 = _mm256_mul_pd(_mm256_sub_pd(vi, load3(vel + j1)), load3(grad + q + 1));
    if (!uniform) {
      t0 = _mm256_mul_pd(_mm256_set1_pd(v->volume[j0]), t0);
      t1 = _mm256_mul_pd(_mm256_set1_pd(v->volume[j1]), t1);
    }
    s0 = _mm256_add_pd(s0, t0);
    s1 = _mm256_add_pd(s1, t1);
  }
  if (q < end) {
    const size_t j = nb->index[q];
    __m256d t = _mm256_mul_pd(_mm256_sub_pd(vi, load3(vel + j)), load3(grad + q));
    if (!uniform) t = _mm256_mul_pd(_mm256_set1_pd(v->volume[j]), t);
    s0 = _mm256_add_pd(s0, t);
  }
  double s[4];
  _mm256_storeu_pd(s, _mm256_add_pd(s0, s1));
  return (s[0] + s[1]) + s[2];
}

WIDE static vbc_vec pressure_sum_wide(const vbc_sph_rows_view *v, const vbc_neighbors *nb,
                                      size_t i, const double *d) {
  const vbc_vec *grad = v->grad;
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
  size_t q = nb->start[i];
  const size_t end = nb->start[i + 1];
  for (; q + 1 < end; q += 2) {
    const int32_t r0 = v->pair_row[q], r1 = v->pair_row[q + 1];
    const double d0 = r0 >= 0 ? d[r0] : 0.0, d1 = r1 >= 0 ? d[r1] : 0.0;
    s0 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_set1_pd(d0), load3(grad + q)));
    s1 = _mm256_add_pd(s1, _mm256_mul_pd(_mm256_set1_pd(d1), load3(grad + q + 1)));
  }
  if (q < end) {
    const double dq = v->pair_row[q] >= 0 ? d[v->pair_row[q]] : 0.0;
    s0 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_set1_pd(dq), load3(grad + q)));
  }
  double s[4];
  _mm256_storeu_pd(s, _mm256_add_pd(s0, s1));
  return (vbc_vec){s[0], s[1], s[2]};
}
#endif

static inline double divergence(const vbc_sph_rows_view *v, const vbc_system *sys, size_t i,
                                int uniform, int wide) {
#ifdef VBC_X86_SIMD
  if (wide) return divergence_wide(v, sys, i, uniform);
#endif
  (void)wide;
  return uniform ? divergence_plain(v, sys, i, 1) : divergence_plain(v, sys, i, 0);
}

void vbc_dfsph_residual_pass(const vbc_sph_rows_view *v, const vbc_system *sys,
                             const vbc_rows *rows, int uniform, int wide, double *res) {
  const double rho0v = sys->density * (uniform ? v->cell : 1.0);
#pragma omp parallel for schedule(guided, 4) if (rows->n >= VBC_PARALLEL_MIN)
  for (size_t r = 0; r < rows->n; ++r) /* b - J v, J v = -rho0 V div */
    res[r] = rows->target[r] + rho0v * divergence(v, sys, v->particle_of[r], uniform, wide);
}

/* v_i += (rho0/m_i)(-g_i d_i - V_i sum_j d_j grad W_ij) over the moving rows, as sph_density's
 * apply with the sum of the header. */
void vbc_dfsph_apply_pass(const vbc_sph_rows_view *v, vbc_system *sys, int wide, const double *d) {
  vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const double rho0 = sys->density;
#pragma omp parallel for schedule(guided, 4) if (v->nmoving >= VBC_PARALLEL_MIN)
  for (size_t m = 0; m < v->nmoving; ++m) {
    const size_t r = v->moving[m], i = v->particle_of[r];
#ifdef VBC_X86_SIMD
    const vbc_vec sum = wide ? pressure_sum_wide(v, nb, i, d) : pressure_sum_plain(v, nb, i, d);
#else
    const vbc_vec sum = pressure_sum_plain(v, nb, i, d);
#endif
    const vbc_vec dv = vbc_vec_axpy(vbc_vec_scale(v->g[r], -d[r]), -v->volume[i], sum);
    p->vel[i] = vbc_vec_axpy(p->vel[i], rho0 * vbc_system_inv_mass(sys, i), dv);
  }
  (void)wide;
}
