/* vtu.c — see vtu.h. The file layout follows the VTK XML format documentation: every DataArray
 * is `format="appended"` with an `offset` into the AppendedData block, where each array is a
 * UInt64 byte count followed by the raw values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/files.h"
#include "app/vtu.h"

typedef struct array_desc {
  const char *name, *type;
  int components;
  size_t bytes;
} array_desc;

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

static void header_array(FILE *f, const array_desc *a, uint64_t *offset) {
  fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
             "format=\"appended\" offset=\"%llu\"/>\n",
          a->type, a->name, a->components, (unsigned long long)*offset);
  *offset += sizeof(uint64_t) + a->bytes;
}

static void block(FILE *f, const void *data, size_t bytes) {
  uint64_t n = bytes;
  fwrite(&n, sizeof n, 1, f);
  fwrite(data, 1, bytes, f);
}

int vbc_vtu_write(const char *path, const vbc_particles *p, vbc_error *err) {
  if (!host_is_little_endian())
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "VTU output assumes a little-endian machine");
  size_t n = p->n;
  int64_t *conn = vbc_calloc(n, sizeof *conn, err);
  int64_t *offs = conn ? vbc_calloc(n, sizeof *offs, err) : NULL;
  uint8_t *types = offs ? vbc_calloc(n, 1, err) : NULL;
  int32_t *kind = types ? vbc_calloc(n, sizeof *kind, err) : NULL;
  if (kind == NULL) {
    free(conn), free(offs), free(types);
    return err->code;
  }
  for (size_t i = 0; i < n; ++i) {
    conn[i] = (int64_t)i;
    offs[i] = (int64_t)i + 1;
    types[i] = 1; /* VTK_VERTEX */
    kind[i] = p->kind[i];
  }
  const array_desc points = {"Points", "Float64", 3, n * sizeof(vbc_vec)};
  const array_desc data[] = {
      {"velocity", "Float64", 3, n * sizeof(vbc_vec)},
      {"pressure", "Float64", 1, n * sizeof(double)},
      {"pressure_smoothed", "Float64", 1, n * sizeof(double)},
      {"number_density", "Float64", 1, n * sizeof(double)},
      {"kind", "Int32", 1, n * sizeof(int32_t)},
      {"body", "Int32", 1, n * sizeof(int32_t)},
  };
  const void *data_ptr[] = {p->vel, p->pressure, p->pressure_smoothed, p->number_density, kind,
                            p->body};
  const array_desc cells[] = {{"connectivity", "Int64", 1, n * sizeof(int64_t)},
                              {"offsets", "Int64", 1, n * sizeof(int64_t)},
                              {"types", "UInt8", 1, n}};
  const void *cell_ptr[] = {conn, offs, types};

  vbc_file file;
  if (vbc_file_open(&file, path, ".tmp", err) != VBC_OK) {
    free(conn), free(offs), free(types), free(kind);
    return err->code;
  }
  FILE *f = file.f;
  uint64_t off = 0;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
             "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n"
             "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n      <PointData "
             "Scalars=\"pressure\" Vectors=\"velocity\">\n",
          n, n);
  for (size_t a = 0; a < sizeof data / sizeof *data; ++a) header_array(f, &data[a], &off);
  fprintf(f, "      </PointData>\n      <Points>\n");
  header_array(f, &points, &off);
  fprintf(f, "      </Points>\n      <Cells>\n");
  for (size_t a = 0; a < 3; ++a) header_array(f, &cells[a], &off);
  fprintf(f, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n  <AppendedData "
             "encoding=\"raw\">\n   _");
  for (size_t a = 0; a < sizeof data / sizeof *data; ++a) block(f, data_ptr[a], data[a].bytes);
  block(f, p->pos, points.bytes);
  for (size_t a = 0; a < 3; ++a) block(f, cell_ptr[a], cells[a].bytes);
  fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
  free(conn), free(offs), free(types), free(kind);
  return vbc_file_commit(&file, err);
}

int vbc_pvd_write(const char *path, const char *const *files, const double *times, size_t n,
                  vbc_error *err) {
  vbc_file file;
  if (vbc_file_open(&file, path, ".tmp", err) != VBC_OK) return err->code;
  fprintf(file.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
                  "byte_order=\"LittleEndian\">\n  <Collection>\n");
  for (size_t i = 0; i < n; ++i)
    fprintf(file.f, "    <DataSet timestep=\"%.9g\" group=\"\" part=\"0\" file=\"%s\"/>\n",
            times[i], files[i]);
  fprintf(file.f, "  </Collection>\n</VTKFile>\n");
  return vbc_file_commit(&file, err);
}
