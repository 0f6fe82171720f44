/* error.c — see error.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int vbc_error_set(vbc_error *err, int code, const char *fmt, ...) {
  if (err == NULL) return code;
  if (err->code != VBC_OK) return err->code;
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return code;
}

void vbc_error_clear(vbc_error *err) {
  err->code = VBC_OK;
  err->message[0] = '\0';
}

void *vbc_calloc(size_t n, size_t size, vbc_error *err) {
  if (n == 0) n = 1;
  void *p = calloc(n, size);
  if (p == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (%zu x %zu bytes)", n, size);
  return p;
}

void *vbc_realloc(void *p, size_t n, size_t size, vbc_error *err) {
  if (n == 0) n = 1;
  if (size != 0 && n > SIZE_MAX / size) {
    vbc_error_set(err, VBC_EXIT_SYSTEM, "allocation overflow (%zu x %zu bytes)", n, size);
    return NULL;
  }
  void *q = realloc(p, n * size);
  if (q == NULL) vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (%zu x %zu bytes)", n, size);
  return q;
}

char *vbc_strdup(const char *s, vbc_error *err) {
  const size_t n = strlen(s) + 1;
  char *d = vbc_realloc(NULL, n, 1, err);
  if (d) memcpy(d, s, n);
  return d;
}

int vbc_grow(size_t *cap, size_t need, void *const *arrays, const size_t *sizes, size_t n,
             vbc_error *err) {
  if (need <= *cap) return VBC_OK;
  const size_t want = need + need / 2 + 16;
  for (size_t k = 0; k < n; ++k) {
    void *p; /* through memcpy: every `T *` has void *'s representation (POSIX) */
    memcpy(&p, arrays[k], sizeof p);
    p = vbc_realloc(p, want, sizes[k], err);
    if (p == NULL) return err ? err->code : VBC_EXIT_SYSTEM;
    memcpy(arrays[k], &p, sizeof p);
  }
  *cap = want;
  return VBC_OK;
}
