/* lattice.h — constants of the MPS discretisation measured on the ideal initial lattice.
 *
 * Miyamoto & Koshizuka define n^0 as the particle number density (eq. 4) of an interior particle of
 * the initial arrangement and choose the gradient constant C (eq. 6) so that the gradient model
 * (eq. 5) is exact for a linear field on that arrangement. vbc's initial arrangement is the square
 * (2D) or cubic (3D) lattice of spacing l; the neighbours of a particle at the origin are the
 * lattice points k l, k != 0, with |k l| < r_e. With w' < 0 the constant C is negative; the paper
 * keeps its sign in every formula (eq. 7, 28, 40-41) and so does vbc.
 *
 * lambda is the constant of the standard MPS Laplacian model (Koshizuka & Oka 1996),
 * lambda = sum r^2 w / sum w on the same lattice, used by the explicit viscosity term. */
#ifndef VBC_LATTICE_H
#define VBC_LATTICE_H

typedef struct vbc_mps_constants {
  double n0;      /* standard particle number density, eq. 4 on the lattice */
  double C;       /* gradient constant, eq. 6 (negative) */
  double lambda;  /* Laplacian model constant [m^2] */
  int neighbours; /* lattice neighbours within r_e */
} vbc_mps_constants;

vbc_mps_constants vbc_mps_lattice_constants(int dim, double spacing, double re);

#endif
