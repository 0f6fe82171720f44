/* jacobi_bound.h — the relaxation bound of projected relaxed Jacobi on the ideal lattice, and
 * the same bound measured on the rows a scene assembles.
 *
 * Relaxed Jacobi, x' = x + omega D^-1 (b - A x), converges on a symmetric positive (semi)definite
 * A only for omega < 2 / lambda_max(D^-1 A). For the fluid rows of vbc (the sph_density block,
 * IISPH's; the mps block, Miyamoto eq. 15) on the interior of the square or cubic lattice of
 * spacing l, A = J M^-1 J^T with J_i u = sum_j g(r_ij) e_ij . (u_i - u_j) and equal masses, and
 * the lattice's Fourier modes diagonalise D^-1 A. With k_j the lattice offsets within the
 * support, Sum_j g_j e_j = 0 by symmetry, so
 *     lambda(theta) = |sum_j g(r_j) e_j sin(theta . k_j)|^2 / sum_j g(r_j)^2,
 * and lambda_max is its largest value over theta in [0, pi]^d (the lattice is symmetric under
 * each axis' reflection). A constant factor of g cancels, so an SPH block's calibrated gradient
 * gives the same bound as the plain kernel's. Near walls and free surfaces the rows differ; the
 * bound is the interior's, where a wide support first fails: the highest mode (theta = pi in one
 * axis) gets an ever larger lambda as the support grows (docs/iisph.md, "Wider supports"). */
#ifndef VBC_JACOBI_BOUND_H
#define VBC_JACOBI_BOUND_H

#include "core/constraint.h"

/* lambda_max of D^-1 A above, for dim 2 or 3, lattice spacing l and the radial gradient
 * g(r) = grad(r, ctx) (zero at r >= reach); the maximum over a grid of theta with `n` points per
 * axis (0: 65 in 2D, 25 in 3D). */
double vbc_jacobi_lattice_lambda_max(int dim, double l, double reach,
                                     double (*grad)(double r, const void *ctx), const void *ctx,
                                     int n);

/* lambda_max(D^-1 A) of the rows of pb as they are assembled (walls, free surfaces, bodies and
 * every block of the problem together), where the lattice bound above only knows the interior:
 * the power iteration on the symmetric D^-1/2 A D^-1/2 from a fixed start vector, `iterations`
 * steps, returning the last Rayleigh quotient. That quotient never exceeds lambda_max, so
 * 2 / (the estimate) is an upper estimate of the bound: an omega at or above it makes the
 * unprojected iteration diverge. Matrix-free, A x = r(v) - r(v + M^-1 J^T x) from the blocks'
 * residual and apply passes (their own operator where they have one); v is put back by applying
 * -x, up to round-off, so it is meant for a state that is thrown away afterwards. Only the
 * rows a projected update moves take part: those with A_kk > 0 whose impulse lies inside its
 * bounds, or sits on a bound the residual pushes it off (r_k > 0 at lo_k = 0 for an LCP row).
 * The others stay clamped and their modes cannot grow: over all rows of the still tank the
 * estimate was 2 / 5.83 = 0.34 while relaxed Jacobi with omega 0.5 converged on its MPS rows. NAN with err set when out of memory; 0 without rows. Serial over the
 * rows' vectors, so the same on any number of threads. */
double vbc_problem_lambda_max(vbc_problem *pb, int iterations, vbc_error *err);
/* The same from a given start (n impulses over pb's rows, block after block; NULL: the fixed
 * start): a diverging relaxed Jacobi's last impulse change is already close to the top mode, so
 * the power steps begin near it, where from the fixed start 60 steps can still read low. */
double vbc_problem_lambda_max_from(vbc_problem *pb, int iterations, const double *start,
                                   vbc_error *err);

#endif
