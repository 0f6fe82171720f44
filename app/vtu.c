/* vtu.c — see vtu.h. The file layout follows the VTK XML format documentation: every DataArray
 * is `format="appended"` with an `offset` into the AppendedData block, where each array is a
 * UInt64 byte count followed by the raw values. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/files.h"
#include "app/vtu.h"

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

static void header_array(FILE *f, const array_desc *a, uint64_t *offset) {
  fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" ",
          a->type, a->name, a->components);
  if (a->tuples) fprintf(f, "NumberOfTuples=\"%zu\" ", a->tuples);
  fprintf(f, "format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)*offset);
  *offset += sizeof(uint64_t) + a->bytes;
}

static void block(FILE *f, const void *data, size_t bytes) {
  uint64_t n = bytes;
  fwrite(&n, sizeof n, 1, f);
  fwrite(data, 1, bytes, f);
}

/* n points, one vertex cell each, with point data pd and field data fd (nfd = 0: none). */
static int write_grid(const char *path, size_t n, const vbc_vec *points, const array_desc *pd,
                      size_t npd, const char *point_attrs, const array_desc *fd, size_t nfd,
                      vbc_error *err) {
  if (!host_is_little_endian())
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "VTU output assumes a little-endian machine");
  int64_t *conn = vbc_calloc(n ? n : 1, sizeof *conn, err);
  int64_t *offs = conn ? vbc_calloc(n ? n : 1, sizeof *offs, err) : NULL;
  uint8_t *types = offs ? vbc_calloc(n ? n : 1, 1, err) : NULL;
  vbc_file file;
  if (types == NULL || vbc_file_open(&file, path, ".tmp", err) != VBC_OK) {
    free(conn), free(offs), free(types);
    return err->code;
  }
  for (size_t i = 0; i < n; ++i) {
    conn[i] = (int64_t)i;
    offs[i] = (int64_t)i + 1;
    types[i] = 1; /* VTK_VERTEX */
  }
  const array_desc pts = {"Points", "Float64", 3, n * sizeof(vbc_vec), points, 0};
  const array_desc cells[] = {{"connectivity", "Int64", 1, n * sizeof(int64_t), conn, 0},
                              {"offsets", "Int64", 1, n * sizeof(int64_t), offs, 0},
                              {"types", "UInt8", 1, n, types, 0}};
  FILE *f = file.f;
  uint64_t off = 0;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
             "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n");
  if (nfd) {
    fprintf(f, "    <FieldData>\n");
    for (size_t a = 0; a < nfd; ++a) header_array(f, &fd[a], &off);
    fprintf(f, "    </FieldData>\n");
  }
  fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n      <PointData%s>\n",
          n, n, point_attrs);
  for (size_t a = 0; a < npd; ++a) header_array(f, &pd[a], &off);
  fprintf(f, "      </PointData>\n      <Points>\n");
  header_array(f, &pts, &off);
  fprintf(f, "      </Points>\n      <Cells>\n");
  for (size_t a = 0; a < 3; ++a) header_array(f, &cells[a], &off);
  fprintf(f, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n  <AppendedData "
             "encoding=\"raw\">\n   _");
  for (size_t a = 0; a < nfd; ++a) block(f, fd[a].data, fd[a].bytes);
  for (size_t a = 0; a < npd; ++a) block(f, pd[a].data, pd[a].bytes);
  block(f, pts.data, pts.bytes);
  for (size_t a = 0; a < 3; ++a) block(f, cells[a].data, cells[a].bytes);
  fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
  free(conn), free(offs), free(types);
  return vbc_file_commit(&file, err);
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
                  size_t nbodies, vbc_error *err) {
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
                      nb ? sizeof field / sizeof *field : 0, err);
  free(kind);
  poses_free(&s);
  return rc;
}

int vbc_vtu_write_bodies(const char *path, const vbc_body *bodies, size_t nbodies,
                         vbc_error *err) {
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
                    0, err);
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
