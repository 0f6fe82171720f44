/* mesh_stl.c — reading STL files (vbc_stl_read in scene/mesh.h).
 *
 * Our own reader rather than ADMesh (Debian's libadmesh-dev): ADMesh is GPL-2.0-or-later, which
 * would bind every program linking the installable libvbc; it reports a bad file through a flag
 * and its own output on stderr, while a scene needs one exit-2 line naming the file and what is
 * wrong; and the checks a body needs (closed, consistently oriented, not degenerate) are a few
 * sorted passes in scene/mesh.c. STL itself is small: binary is an 80-byte header, a uint32
 * triangle count and 50 bytes per triangle (normal, 3 corners as little-endian float32,
 * a uint16), ASCII is `solid ... facet normal n n n outer loop vertex x y z (x3) endloop
 * endfacet ... endsolid`. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/mesh.h"

#define STL_MAX_BYTES ((size_t)1 << 31) /* 2 GiB: a sanity limit */

/* The whole file; NULL with why set if it cannot be read. */
static char *slurp(const char *path, size_t *len, char *why, size_t size, vbc_error *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(why, size, "a file that cannot be read (%s)", strerror(errno));
    return NULL;
  }
  char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n + 65536 + 1 > cap && vbc_grow(&cap, n + 65536 + 1, (void *const[]){&buf},
                                        (const size_t[]){1}, 1, err) != VBC_OK)
      break;
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0 || n > STL_MAX_BYTES) break;
  }
  const int read_error = ferror(f), too_large = n > STL_MAX_BYTES;
  fclose(f);
  if (err->code || read_error || too_large) {
    if (!err->code) snprintf(why, size, read_error ? "a file that cannot be read (read error)"
                                                   : "a file larger than 2 GiB");
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

static float le_float(const unsigned char *b) {
  uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static int read_binary(const unsigned char *b, size_t n, vbc_mesh *m, char *why, size_t size,
                       vbc_error *err) {
  if (n && (m->v = vbc_calloc(3 * n, sizeof *m->v, err)) == NULL) return err->code;
  m->ntriangles = n;
  for (size_t t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k) {
      const unsigned char *c = b + 84 + 50 * t + 12 + 12 * k;
      vbc_vec x = vbc_vec_make(le_float(c), le_float(c + 4), le_float(c + 8));
      if (!vbc_vec_isfinite(x))
        return snprintf(why, size, "a binary STL with a non-finite coordinate in triangle %zu",
                        t), VBC_EXIT_INPUT;
      m->v[3 * t + k] = x;
    }
  return VBC_OK;
}

/* Tokens of an ASCII STL: whitespace-separated, NUL-terminated in place, with the line each
 * starts on. */
typedef struct tokens {
  char *s;
  size_t len, pos;
  long line;     /* of the last token returned */
  int newline;   /* the last token ended at a newline (now its NUL) */
} tokens;

static char *token(tokens *t) {
  t->line += t->newline;
  t->newline = 0;
  while (t->pos < t->len && strchr(" \t\r\n\v\f", t->s[t->pos])) t->line += t->s[t->pos++] == '\n';
  if (t->pos >= t->len) return NULL;
  char *start = t->s + t->pos;
  while (t->pos < t->len && !strchr(" \t\r\n\v\f", t->s[t->pos])) ++t->pos;
  if (t->pos < t->len) {
    t->newline = t->s[t->pos] == '\n';
    t->s[t->pos++] = '\0';
  }
  return start;
}

/* Corners are the numbers after each `vertex`; every other token is structure, checked only as
 * far as a corner count that is a multiple of 3 and three numbers per vertex. */
static int read_ascii(char *s, size_t len, vbc_mesh *m, char *why, size_t size, vbc_error *err) {
  tokens t = {s, len, 0, 1, 0};
  size_t cap = 0, nv = 0;
  char *tok;
  while ((tok = token(&t)) != NULL) {
    if (strcmp(tok, "vertex") != 0) continue;
    if (nv + 1 > cap &&
        vbc_grow(&cap, nv + 1, (void *const[]){&m->v}, (const size_t[]){sizeof *m->v}, 1, err))
      return err->code;
    double x[3];
    for (int a = 0; a < 3; ++a) {
      const char *num = token(&t);
      char *end = NULL;
      x[a] = num ? strtod(num, &end) : 0.0;
      if (num == NULL || *end != '\0' || !isfinite(x[a]))
        return snprintf(why, size, "an ASCII STL with a vertex that is not 3 finite numbers "
                        "at line %ld", t.line), VBC_EXIT_INPUT;
    }
    m->v[nv++] = vbc_vec_make(x[0], x[1], x[2]);
  }
  if (nv % 3 != 0)
    return snprintf(why, size, "an ASCII STL with %zu vertices, not a multiple of 3", nv),
           VBC_EXIT_INPUT;
  m->ntriangles = nv / 3;
  return VBC_OK;
}

int vbc_stl_read(const char *path, vbc_mesh *m, char *why, size_t size, vbc_error *err) {
  memset(m, 0, sizeof *m);
  size_t len = 0;
  char *buf = slurp(path, &len, why, size, err);
  if (buf == NULL) return err->code ? err->code : VBC_EXIT_INPUT;
  const unsigned char *b = (const unsigned char *)buf;
  const size_t n = len >= 84 ? ((size_t)b[80] | (size_t)b[81] << 8 | (size_t)b[82] << 16 |
                                (size_t)b[83] << 24) : 0;
  int rc = VBC_EXIT_INPUT;
  if (len >= 84 && len == 84 + 50 * n) rc = read_binary(b, n, m, why, size, err);
  else if (len >= 5 && strncmp(buf, "solid", 5) == 0) rc = read_ascii(buf, len, m, why, size, err);
  else if (len == 0) snprintf(why, size, "an empty file");
  else if (len >= 84)
    snprintf(why, size, "neither an ASCII STL (starting with \"solid\") nor a binary STL (84 + 50 "
             "x %zu = %zu bytes for its %zu triangles; the file has %zu)", n, 84 + 50 * n, n, len);
  else
    snprintf(why, size, "neither an ASCII STL (starting with \"solid\") nor a binary STL (at "
             "least 84 bytes; the file has %zu)", len);
  free(buf);
  if (rc != VBC_OK) vbc_mesh_free(m);
  return rc;
}
