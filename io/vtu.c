/* vtu.c — see vtu.h. The file layout follows the VTK XML format documentation: every DataArray
 * is `format="appended"` with an `offset` into the AppendedData block, where each array is a
 * UInt64 byte count followed by the raw values, or (compressed) the zlib header and blocks of
 * io/vtu_zlib.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "io/vtu.h"
#include "io/vtu_zlib.h"

typedef struct array_desc {
  const char *name, *type;
  int components;
  size_t bytes;
  const void *data;
  size_t tuples; /* FieldData only: NumberOfTuples */
} array_desc;

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

/* entry: the array's bytes in the AppendedData block, header included. */
static void header_array(FILE *f, const array_desc *a, size_t entry, uint64_t *offset) {
  fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" ",
          a->type, a->name, a->components);
  if (a->tuples) fprintf(f, "NumberOfTuples=\"%zu\" ", a->tuples);
  fprintf(f, "format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)*offset);
  *offset += entry;
}

static void block(FILE *f, const void *data, size_t bytes) {
  uint64_t n = bytes;
  fwrite(&n, sizeof n, 1, f);
  fwrite(data, 1, bytes, f);
}

/* The appended entries of arrays a[0..n): raw (z == NULL: a UInt64 byte count, then the values)
 * or compressed (z[k], io/vtu_zlib.h). */
static size_t entry_size(const array_desc *a, const vbc_vtu_zentry *z, size_t k) {
  return z ? z[k].size : sizeof(uint64_t) + a[k].bytes;
}

static void entry_write(FILE *f, const array_desc *a, const vbc_vtu_zentry *z, size_t k) {
  if (z) fwrite(z[k].bytes, 1, z[k].size, f);
  else block(f, a[k].data, a[k].bytes);
}

#define MAX_ARRAYS 24

/* n points, one vertex cell each, with point data pd and field data fd (nfd = 0: none);
 * compressed with compress != 0. */
static int write_grid(const char *path, size_t n, const vbc_vec *points, const array_desc *pd,
                      size_t npd, const char *point_attrs, const array_desc *fd, size_t nfd,
                      int compress, vbc_error *err) {
  if (!host_is_little_endian())
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "VTU output assumes a little-endian machine");
  int64_t *conn = vbc_calloc(n ? n : 1, sizeof *conn, err);
  int64_t *offs = conn ? vbc_calloc(n ? n : 1, sizeof *offs, err) : NULL;
  uint8_t *types = offs ? vbc_calloc(n ? n : 1, 1, err) : NULL;
  if (types == NULL) {
    free(conn), free(offs);
    return err->code;
  }
  for (size_t i = 0; i < n; ++i) {
    conn[i] = (int64_t)i;
    offs[i] = (int64_t)i + 1;
    types[i] = 1; /* VTK_VERTEX */
  }
  /* every array in the order of the header and of the appended data */
  array_desc all[MAX_ARRAYS];
  const size_t na = nfd + npd + 4;
  if (na > MAX_ARRAYS) {
    free(conn), free(offs), free(types);
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: %zu arrays, at most %d", path, na, MAX_ARRAYS);
  }
  if (nfd) memcpy(all, fd, nfd * sizeof *fd); /* fd may be NULL */
  memcpy(all + nfd, pd, npd * sizeof *pd);
  const array_desc rest[] = {{"Points", "Float64", 3, n * sizeof(vbc_vec), points, 0},
                             {"connectivity", "Int64", 1, n * sizeof(int64_t), conn, 0},
                             {"offsets", "Int64", 1, n * sizeof(int64_t), offs, 0},
                             {"types", "UInt8", 1, n, types, 0}};
  memcpy(all + nfd + npd, rest, sizeof rest);
  vbc_vtu_zentry z[MAX_ARRAYS] = {{0}};
  int rc = VBC_OK;
  for (size_t k = 0; compress && k < na && rc == VBC_OK; ++k)
    rc = vbc_vtu_deflate(all[k].data, all[k].bytes, &z[k], err);
  vbc_file file;
  if (rc == VBC_OK) rc = vbc_file_open(&file, path, ".tmp", err);
  if (rc == VBC_OK) {
    const vbc_vtu_zentry *zz = compress ? z : NULL;
    FILE *f = file.f;
    uint64_t off = 0;
    size_t k = 0;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
               "byte_order=\"LittleEndian\" header_type=\"UInt64\"%s>\n  <UnstructuredGrid>\n",
            compress ? " compressor=\"vtkZLibDataCompressor\"" : "");
    if (nfd) {
      fprintf(f, "    <FieldData>\n");
      for (; k < nfd; ++k) header_array(f, &all[k], entry_size(all, zz, k), &off);
      fprintf(f, "    </FieldData>\n");
    }
    fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n      <PointData%s>\n",
            n, n, point_attrs);
    for (; k < nfd + npd; ++k) header_array(f, &all[k], entry_size(all, zz, k), &off);
    fprintf(f, "      </PointData>\n      <Points>\n");
    header_array(f, &all[k], entry_size(all, zz, k), &off);
    fprintf(f, "      </Points>\n      <Cells>\n");
    for (++k; k < na; ++k) header_array(f, &all[k], entry_size(all, zz, k), &off);
    fprintf(f, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n  <AppendedData "
               "encoding=\"raw\">\n   _");
    for (k = 0; k < na; ++k) entry_write(f, all, zz, k);
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    rc = vbc_file_commit(&file, err);
  }
  for (size_t k = 0; k < na; ++k) free(z[k].bytes);
  free(conn), free(offs), free(types);
  return rc;
}

/* The bodies' poses as arrays of doubles: x (3), q (4), the body axes (3 x 3), v (3), w (3). */
typedef struct poses { double *x, *q, *axes, *v, *w; int32_t *index; } poses;

static void poses_free(poses *s) {
  free(s->x), free(s->q), free(s->axes), free(s->v), free(s->w), free(s->index);
}

static int poses_make(poses *s, const vbc_body *b, size_t nb, vbc_error *err) {
  memset(s, 0, sizeof *s);
  const size_t m = nb ? nb : 1;
  if ((s->x = vbc_calloc(3 * m, sizeof *s->x, err)) == NULL ||
      (s->q = vbc_calloc(4 * m, sizeof *s->q, err)) == NULL ||
      (s->axes = vbc_calloc(9 * m, sizeof *s->axes, err)) == NULL ||
      (s->v = vbc_calloc(3 * m, sizeof *s->v, err)) == NULL ||
      (s->w = vbc_calloc(3 * m, sizeof *s->w, err)) == NULL ||
      (s->index = vbc_calloc(m, sizeof *s->index, err)) == NULL) {
    poses_free(s);
    return err->code;
  }
  for (size_t k = 0; k < nb; ++k) {
    vbc_mat3 R;
    vbc_quat_to_mat3(b[k].q, &R);
    const double q[4] = {b[k].q.w, b[k].q.x, b[k].q.y, b[k].q.z};
    memcpy(&s->q[4 * k], q, sizeof q);
    for (int a = 0; a < 3; ++a) {
      s->x[3 * k + a] = vbc_vec_get(b[k].x, a);
      s->v[3 * k + a] = vbc_vec_get(b[k].v, a);
      s->w[3 * k + a] = vbc_vec_get(b[k].w, a);
      for (int c = 0; c < 3; ++c) s->axes[9 * k + 3 * c + a] = R.a[a][c]; /* column c: axis c */
    }
    s->index[k] = (int32_t)k;
  }
  return VBC_OK;
}

int vbc_vtu_write(const char *path, const vbc_particles *p, const vbc_body *bodies,
                  size_t nbodies, int compress, vbc_error *err) {
  const size_t n = p->n;
  int32_t *kind = vbc_calloc(n ? n : 1, sizeof *kind, err);
  poses s;
  if (kind == NULL || poses_make(&s, bodies, nbodies, err) != VBC_OK) {
    free(kind);
    return err->code;
  }
  for (size_t i = 0; i < n; ++i) kind[i] = p->kind[i];
  const array_desc data[] = {
      {"velocity", "Float64", 3, n * sizeof(vbc_vec), p->vel, 0},
      {"pressure", "Float64", 1, n * sizeof(double), p->pressure, 0},
      {"pressure_smoothed", "Float64", 1, n * sizeof(double), p->pressure_smoothed, 0},
      {"number_density", "Float64", 1, n * sizeof(double), p->number_density, 0},
      {"kind", "Int32", 1, n * sizeof(int32_t), kind, 0},
      {"body", "Int32", 1, n * sizeof(int32_t), p->body, 0},
  };
  const size_t nb = nbodies;
  const array_desc field[] = {
      {"body_position", "Float64", 3, 3 * nb * sizeof(double), s.x, nb},
      {"body_orientation", "Float64", 4, 4 * nb * sizeof(double), s.q, nb},
      {"body_velocity", "Float64", 3, 3 * nb * sizeof(double), s.v, nb},
      {"body_angular_velocity", "Float64", 3, 3 * nb * sizeof(double), s.w, nb},
  };
  int rc = write_grid(path, n, p->pos, data, sizeof data / sizeof *data,
                      " Scalars=\"pressure\" Vectors=\"velocity\"", field,
                      nb ? sizeof field / sizeof *field : 0, compress, err);
  free(kind);
  poses_free(&s);
  return rc;
}

int vbc_vtu_write_bodies(const char *path, const vbc_body *bodies, size_t nbodies,
                         int compress, vbc_error *err) {
  const size_t nb = nbodies;
  poses s;
  vbc_vec *x = vbc_calloc(nb ? nb : 1, sizeof *x, err);
  if (x == NULL || poses_make(&s, bodies, nb, err) != VBC_OK) {
    free(x);
    return err->code;
  }
  for (size_t k = 0; k < nb; ++k) x[k] = bodies[k].x;
  double *axis[3];
  for (int c = 0; c < 3; ++c) axis[c] = vbc_calloc(3 * (nb ? nb : 1), sizeof(double), err);
  int rc = axis[0] && axis[1] && axis[2] ? VBC_OK : err->code;
  for (size_t k = 0; rc == VBC_OK && k < nb; ++k)
    for (int c = 0; c < 3; ++c) memcpy(&axis[c][3 * k], &s.axes[9 * k + 3 * c], 3 * sizeof(double));
  const array_desc data[] = {
      {"body", "Int32", 1, nb * sizeof(int32_t), s.index, 0},
      {"orientation", "Float64", 4, 4 * nb * sizeof(double), s.q, 0},
      {"axis_x", "Float64", 3, 3 * nb * sizeof(double), axis[0], 0},
      {"axis_y", "Float64", 3, 3 * nb * sizeof(double), axis[1], 0},
      {"axis_z", "Float64", 3, 3 * nb * sizeof(double), axis[2], 0},
      {"velocity", "Float64", 3, 3 * nb * sizeof(double), s.v, 0},
      {"angular_velocity", "Float64", 3, 3 * nb * sizeof(double), s.w, 0},
  };
  if (rc == VBC_OK)
    rc = write_grid(path, nb, x, data, sizeof data / sizeof *data, " Vectors=\"velocity\"", NULL,
                    0, compress, err);
  for (int c = 0; c < 3; ++c) free(axis[c]);
  free(x);
  poses_free(&s);
  return rc;
}

int vbc_pvd_write(const char *path, const char *const *files, const char *const *body_files,
                  const double *times, size_t n, vbc_error *err) {
  vbc_file file;
  if (vbc_file_open(&file, path, ".tmp", err) != VBC_OK) return err->code;
  fprintf(file.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
                  "byte_order=\"LittleEndian\">\n  <Collection>\n");
  for (size_t i = 0; i < n; ++i) {
    fprintf(file.f, "    <DataSet timestep=\"%.9g\" group=\"\" part=\"0\" file=\"%s\"/>\n",
            times[i], files[i]);
    if (body_files)
      fprintf(file.f, "    <DataSet timestep=\"%.9g\" group=\"\" part=\"1\" file=\"%s\"/>\n",
              times[i], body_files[i]);
  }
  fprintf(file.f, "  </Collection>\n</VTKFile>\n");
  return vbc_file_commit(&file, err);
}
