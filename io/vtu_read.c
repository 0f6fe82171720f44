/* vtu_read.c — see vtu_read.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/vtu_read.h"
#include "io/vtu_zlib.h"

typedef struct text {
  const char *path;
  char *bytes;
  size_t size;
  const char *data; /* the first byte after the '_' of AppendedData */
  int compressed;
} text;

static int load(text *t, const char *path, vbc_error *err) {
  memset(t, 0, sizeof *t);
  t->path = path;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot read the frame", path);
  long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot read the frame", path);
  }
  t->size = (size_t)size;
  if ((t->bytes = vbc_calloc(t->size + 1, 1, err)) == NULL) return fclose(f), err->code;
  size_t got = fread(t->bytes, 1, t->size, f);
  fclose(f);
  const char *mark = "<AppendedData encoding=\"raw\">";
  char *at = got == t->size ? strstr(t->bytes, mark) : NULL;
  char *us = at ? strchr(at, '_') : NULL;
  if (us == NULL || strstr(t->bytes, "header_type=\"UInt64\"") == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: not a frame written by vbc (expected VTK XML "
                         "with raw appended data and UInt64 headers)", path);
  *us = '\0'; /* the XML head ends here: searches stay in it */
  t->data = us + 1;
  t->compressed = strstr(t->bytes, "compressor=\"vtkZLibDataCompressor\"") != NULL;
  return VBC_OK;
}

/* The value of attribute `key` in the tag that starts at `tag` (NULL if absent). */
static const char *attr(const char *tag, const char *key, char *buf, size_t size) {
  const char *end = strchr(tag, '>');
  char pat[64];
  snprintf(pat, sizeof pat, " %s=\"", key);
  const char *at = strstr(tag, pat);
  if (at == NULL || (end && at > end)) return NULL;
  at += strlen(pat);
  snprintf(buf, size, "%.*s", (int)strcspn(at, "\""), at);
  return buf;
}

/* The DataArray named `name` inside the section from `open` to `close`; NULL if none. */
static const char *find_array(const text *t, const char *open, const char *close,
                              const char *name) {
  const char *from = strstr(t->bytes, open), *to = from ? strstr(from, close) : NULL;
  char buf[128];
  for (const char *a = from; a && (a = strstr(a, "<DataArray ")) != NULL && a < to; ++a) {
    const char *nm = attr(a, "Name", buf, sizeof buf);
    if (nm && strcmp(nm, name) == 0) return a;
  }
  return NULL;
}

static void names(const text *t, char *out, size_t size) {
  const char *from = strstr(t->bytes, "<PointData"), *to = from ? strstr(from, "</PointData>") : NULL;
  char buf[128];
  size_t len = 0;
  out[0] = '\0';
  for (const char *a = from; a && (a = strstr(a, "<DataArray ")) != NULL && a < to; ++a)
    if (attr(a, "Name", buf, sizeof buf) && len + strlen(buf) + 3 < size)
      len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "", buf);
}

/* The array at tag as n tuples of `comps` doubles (*out vbc_calloc'd). */
static int decode(const text *t, const char *tag, size_t n, int comps, double **out,
                  vbc_error *err) {
  char type[32], buf[64], comps_buf[32], name[64], what[1200];
  const char *nm = attr(tag, "Name", name, sizeof name);
  snprintf(what, sizeof what, "%s: array %s", t->path, nm ? nm : "?");
  const char *off = attr(tag, "offset", buf, sizeof buf);
  const char *ty = attr(tag, "type", type, sizeof type);
  const char *nc = attr(tag, "NumberOfComponents", comps_buf, sizeof comps_buf);
  size_t width = !ty ? 0 : !strcmp(ty, "Float64") || !strcmp(ty, "Int64") ? 8
                 : !strcmp(ty, "Int32") || !strcmp(ty, "Float32") ? 4 : !strcmp(ty, "UInt8");
  const size_t avail = t->size - (size_t)(t->data - t->bytes);
  const unsigned long long o = off ? strtoull(off, NULL, 10) : avail;
  if (width == 0 || (nc ? atoi(nc) : 1) != comps || o + 8 > avail)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: unexpected type, components or offset", what);
  void *raw = NULL;
  size_t bytes;
  if (t->compressed) {
    if (vbc_vtu_inflate((const unsigned char *)t->data + o, avail - o, &raw, &bytes, what,
                        err) != VBC_OK)
      return err->code;
  } else {
    uint64_t b;
    memcpy(&b, t->data + o, sizeof b);
    bytes = (size_t)b;
    if (bytes > avail - o - 8 || (raw = vbc_calloc(bytes + 1, 1, err)) == NULL)
      return err->code ? err->code : vbc_error_set(err, VBC_EXIT_INPUT, "%s: cut short", what);
    memcpy(raw, t->data + o + 8, bytes);
  }
  const size_t count = n * (size_t)comps;
  double *v = bytes == count * width ? vbc_calloc(count ? count : 1, sizeof *v, err) : NULL;
  if (v == NULL) {
    free(raw);
    return err->code ? err->code
                     : vbc_error_set(err, VBC_EXIT_INPUT, "%s: %zu bytes for %zu values", what,
                                     bytes, count);
  }
  for (size_t i = 0; i < count; ++i) {
    const unsigned char *p = (const unsigned char *)raw + i * width;
    double d = 0.0, f8;
    float f4;
    int32_t i4;
    int64_t i8;
    if (!strcmp(ty, "Float64")) memcpy(&f8, p, 8), d = f8;
    else if (!strcmp(ty, "Float32")) memcpy(&f4, p, 4), d = f4;
    else if (!strcmp(ty, "Int32")) memcpy(&i4, p, 4), d = i4;
    else if (!strcmp(ty, "Int64")) memcpy(&i8, p, 8), d = (double)i8;
    else d = *p;
    v[i] = d;
  }
  free(raw);
  *out = v;
  return VBC_OK;
}

void vbc_vtu_frame_free(vbc_vtu_frame *f) {
  free(f->pos), free(f->kind), free(f->value);
  f->pos = NULL, f->kind = NULL, f->value = NULL;
}

static int read_arrays(const text *t, const char *array, vbc_vtu_frame *f, vbc_error *err) {
  char buf[64];
  const char *piece = strstr(t->bytes, "<Piece ");
  const char *np = piece ? attr(piece, "NumberOfPoints", buf, sizeof buf) : NULL;
  if (np == NULL) return vbc_error_set(err, VBC_EXIT_INPUT, "%s: no Piece", t->path);
  f->n = strtoull(np, NULL, 10);
  const char *want = array ? array : "pressure_smoothed";
  const char *tag = find_array(t, "<PointData", "</PointData>", want);
  if (tag == NULL && array == NULL) tag = find_array(t, "<PointData", "</PointData>", want = "pressure");
  if (tag == NULL) {
    char list[512];
    names(t, list, sizeof list);
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: no point array \"%s\" (it has: %s)", t->path,
                         array ? array : "pressure_smoothed or pressure", list);
  }
  snprintf(f->array, sizeof f->array, "%s", want);
  const char *nc = attr(tag, "NumberOfComponents", buf, sizeof buf);
  const int comps = nc ? atoi(nc) : 1;
  const char *kind = find_array(t, "<PointData", "</PointData>", "kind");
  const char *pts = find_array(t, "<Points>", "</Points>", "Points");
  double *k = NULL, *v = NULL;
  if (kind == NULL || pts == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: no kind or Points array", t->path);
  if (comps < 1 || comps > 9 || decode(t, pts, f->n, 3, &f->pos, err) != VBC_OK ||
      decode(t, kind, f->n, 1, &k, err) != VBC_OK || decode(t, tag, f->n, comps, &v, err) != VBC_OK ||
      (f->kind = vbc_calloc(f->n ? f->n : 1, sizeof *f->kind, err)) == NULL ||
      (f->value = vbc_calloc(f->n ? f->n : 1, sizeof *f->value, err)) == NULL) {
    free(k), free(v);
    return err->code ? err->code : vbc_error_set(err, VBC_EXIT_INPUT, "%s: bad array", t->path);
  }
  for (size_t i = 0; i < f->n; ++i) {
    f->kind[i] = (int32_t)k[i];
    double s = 0.0;
    for (int c = 0; c < comps; ++c) s += v[comps * i + c] * v[comps * i + c];
    f->value[i] = comps == 1 ? v[i] : sqrt(s);
  }
  free(k), free(v);
  return VBC_OK;
}

int vbc_vtu_read(const char *path, const char *array, vbc_vtu_frame *f, vbc_error *err) {
  memset(f, 0, sizeof *f);
  text t;
  int rc = load(&t, path, err);
  if (rc == VBC_OK) {
    f->compressed = t.compressed;
    rc = read_arrays(&t, array, f, err);
  }
  free(t.bytes);
  if (rc != VBC_OK) vbc_vtu_frame_free(f);
  return rc;
}
