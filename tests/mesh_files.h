/* mesh_files.h — STL files for the mesh tests (tests/test_mesh*.c): a cube written as ASCII or
 * binary STL, with one triangle left out or turned around on request. */
#ifndef VBC_TEST_MESH_FILES_H
#define VBC_TEST_MESH_FILES_H

#include <stdio.h>
#include <string.h>

/* The 12 triangles of the cube [0, a]^3, outward (counter-clockwise seen from outside). */
static void cube_triangles(double a, double t[12][3][3]) {
  static const int quad[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                 {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (int f = 0; f < 6; ++f)
    for (int h = 0; h < 2; ++h)
      for (int k = 0; k < 3; ++k) {
        const int corner = quad[f][h == 0 ? k : (k == 0 ? 0 : k + 1)];
        for (int ax = 0; ax < 3; ++ax) t[2 * f + h][k][ax] = (corner >> ax & 1) ? a : 0.0;
      }
}

enum { CUBE_WHOLE = 0, CUBE_HOLE = 1, CUBE_FLIPPED = 2 };

/* Write the cube [0, a]^3 to path, ASCII or binary; CUBE_HOLE leaves the last triangle out,
 * CUBE_FLIPPED turns it around. */
static void write_cube(const char *path, double a, int binary, int defect) {
  double t[12][3][3];
  cube_triangles(a, t);
  if (defect == CUBE_FLIPPED)
    for (int ax = 0; ax < 3; ++ax) {
      double s = t[11][1][ax];
      t[11][1][ax] = t[11][2][ax], t[11][2][ax] = s;
    }
  const int n = defect == CUBE_HOLE ? 11 : 12;
  FILE *f = fopen(path, binary ? "wb" : "w");
  if (f == NULL) return;
  if (binary) {
    char header[80];
    memset(header, ' ', sizeof header);
    fwrite(header, 1, 80, f);
    const unsigned char count[4] = {(unsigned char)n, 0, 0, 0};
    fwrite(count, 1, 4, f);
    for (int i = 0; i < n; ++i) {
      float rec[12] = {0};
      for (int k = 0; k < 3; ++k)
        for (int ax = 0; ax < 3; ++ax) rec[3 + 3 * k + ax] = (float)t[i][k][ax];
      fwrite(rec, sizeof(float), 12, f); /* little-endian hosts (x86, arm64) */
      fwrite("\0\0", 1, 2, f);
    }
  } else {
    fprintf(f, "solid cube\n");
    for (int i = 0; i < n; ++i) {
      fprintf(f, "facet normal 0 0 0\n outer loop\n");
      for (int k = 0; k < 3; ++k)
        fprintf(f, "  vertex %.17g %.17g %.17g\n", t[i][k][0], t[i][k][1], t[i][k][2]);
      fprintf(f, " endloop\nendfacet\n");
    }
    fprintf(f, "endsolid cube\n");
  }
  fclose(f);
}

#endif
