/* grid_scan.c — see grid_scan.h.
 *
 * The search reads its candidates row by row: about 180 a particle in 3D at H = 2 l, of which a
 * sixth are neighbours. The plain loop computes a batch's r^2 (vectorised by the compiler) and
 * then writes every candidate and keeps the near ones without a branch. The AVX-512 loop takes
 * eight candidates at a time: r^2 as the plain loop forms it ((dx dx + dy dy) + dz dz, each product
 * and sum rounded once), a mask of the near ones, and the near ones' indices and r^2 compressed
 * into place, so that the lists come out the same bits. With them (and the square roots eight at
 * a time) the search of the 3D peer dam break takes 3.5 ms a step on one thread instead of 5.6
 * (measured in docs/notes/bench-journal.md). */
#include <math.h>

#include "core/grid_scan.h"
#include "core/simd.h"

#ifdef VBC_X86_SIMD
#include <immintrin.h>
#endif

enum { BATCH = 32 }; /* candidates whose distances the plain loop computes together */

static size_t run_plain(const vbc_grid *g, size_t k, size_t end, vbc_vec pi, double r2max,
                        uint32_t i, uint32_t *out, double *r2out) {
  size_t count = 0;
  for (; k < end; k += BATCH) {
    const size_t m = end - k < BATCH ? end - k : BATCH;
    double r2[BATCH]; /* vbc_vec_norm2(r_j - r_i), a loop the compiler vectorises */
    for (size_t t = 0; t < m; ++t) {
      const double dx = g->sx[k + t] - pi.x, dy = g->sy[k + t] - pi.y, dz = g->sz[k + t] - pi.z;
      r2[t] = dx * dx + dy * dy + dz * dz;
    }
    /* every candidate is written and only a near one kept: no branch to mispredict */
    for (size_t t = 0; t < m; ++t) {
      const uint32_t j = g->sorted[k + t];
      out[count] = j, r2out[count] = r2[t];
      count += (size_t)((r2[t] < r2max) & (j != i));
    }
  }
  return count;
}

#ifdef VBC_X86_SIMD
#define WIDE __attribute__((target("avx512f,avx512vl,popcnt")))

/* The lanes of a step of eight with `left` entries still to go. */
static inline __mmask8 live_lanes(size_t left) {
  return left >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << left) - 1u);
}

/* Eight candidates a step; the last step's mask leaves the lanes past `end` unread. Each step
 * stores eight lanes at out + count (hence VBC_SCAN_SLACK), of which the near ones are kept. */
WIDE static size_t run_wide(const vbc_grid *g, size_t k, size_t end, vbc_vec pi, double r2max,
                            uint32_t i, uint32_t *out, double *r2out) {
  const __m512d px = _mm512_set1_pd(pi.x), py = _mm512_set1_pd(pi.y), pz = _mm512_set1_pd(pi.z);
  const __m512d limit = _mm512_set1_pd(r2max);
  const __m256i self = _mm256_set1_epi32((int)i);
  size_t count = 0;
  for (; k < end; k += 8) {
    const __mmask8 live = live_lanes(end - k);
    const __m512d dx = _mm512_sub_pd(_mm512_maskz_loadu_pd(live, g->sx + k), px);
    const __m512d dy = _mm512_sub_pd(_mm512_maskz_loadu_pd(live, g->sy + k), py);
    const __m512d dz = _mm512_sub_pd(_mm512_maskz_loadu_pd(live, g->sz + k), pz);
    const __m512d r2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy)),
                                     _mm512_mul_pd(dz, dz));
    const __m256i j = _mm256_maskz_loadu_epi32(live, g->sorted + k);
    const __mmask8 near = _mm512_mask_cmp_pd_mask(live, r2, limit, _CMP_LT_OQ) &
                          (__mmask8)~_mm256_cmpeq_epi32_mask(j, self);
    _mm512_storeu_pd(r2out + count, _mm512_maskz_compress_pd(near, r2));
    _mm256_storeu_si256((__m256i *)(out + count), _mm256_maskz_compress_epi32(near, j));
    count += (size_t)__builtin_popcount(near);
  }
  return count;
}

/* vsqrtpd rounds each lane as sqrt does. */
WIDE static void sqrt_wide(double *x, size_t n) {
  for (size_t q = 0; q < n; q += 8) {
    const __mmask8 live = live_lanes(n - q);
    _mm512_mask_storeu_pd(x + q, live, _mm512_sqrt_pd(_mm512_maskz_loadu_pd(live, x + q)));
  }
}
#endif

int vbc_scan_wide_available(void) {
#ifdef VBC_X86_SIMD
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#else
  return 0;
#endif
}

size_t vbc_scan_run(const vbc_grid *g, size_t k, size_t end, vbc_vec pi, double r2max,
                    uint32_t i, int wide, uint32_t *out, double *r2) {
#ifdef VBC_X86_SIMD
  if (wide) return run_wide(g, k, end, pi, r2max, i, out, r2);
#endif
  (void)wide;
  return run_plain(g, k, end, pi, r2max, i, out, r2);
}

void vbc_scan_sqrt(double *x, size_t n, int wide) {
#ifdef VBC_X86_SIMD
  if (wide) {
    sqrt_wide(x, n);
    return;
  }
#endif
  (void)wide;
  for (size_t q = 0; q < n; ++q) x[q] = sqrt(x[q]);
}
