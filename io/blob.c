/* blob.c — see blob.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/blob.h"

void vbc_blob_free(vbc_blob *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

int vbc_blob_put(vbc_blob *b, const void *data, size_t size, vbc_error *err) {
  if (size == 0) return VBC_OK;
  if (vbc_grow(&b->cap, b->n + size, (void *[]){&b->data}, (size_t[]){1}, 1, err) != VBC_OK)
    return err->code;
  memcpy(b->data + b->n, data, size);
  b->n += size;
  return VBC_OK;
}

int vbc_blob_put_array(vbc_blob *b, const void *data, size_t count, size_t size, vbc_error *err) {
  const uint64_t n = count;
  if (vbc_blob_put(b, &n, sizeof n, err) != VBC_OK) return err->code;
  return vbc_blob_put(b, data, count * size, err);
}

int vbc_blob_put_string(vbc_blob *b, const char *s, vbc_error *err) {
  return vbc_blob_put_array(b, s, strlen(s), 1, err);
}

int vbc_reader_get(vbc_reader *r, void *data, size_t size, vbc_error *err) {
  if (size > r->left)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: truncated (%zu bytes wanted, %zu left)",
                         r->what, size, r->left);
  if (size) memcpy(data, r->p, size);
  r->p += size;
  r->left -= size;
  return VBC_OK;
}

static int get_count(vbc_reader *r, size_t size, size_t *count, vbc_error *err) {
  uint64_t n = 0;
  if (vbc_reader_get(r, &n, sizeof n, err) != VBC_OK) return err->code;
  if (size && n > r->left / size)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: an array of %llu elements of %zu bytes, "
                         "%zu bytes left (corrupt?)", r->what, (unsigned long long)n, size,
                         r->left);
  *count = (size_t)n;
  return VBC_OK;
}

int vbc_reader_get_array(vbc_reader *r, void *data, size_t count, size_t size, vbc_error *err) {
  size_t n = 0;
  if (get_count(r, size, &n, err) != VBC_OK) return err->code;
  if (n != count)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %zu elements, expected %zu", r->what, n,
                         count);
  return vbc_reader_get(r, data, n * size, err);
}

int vbc_reader_get_alloc(vbc_reader *r, void **data, size_t *count, size_t size,
                         vbc_error *err) {
  if (get_count(r, size, count, err) != VBC_OK) return err->code;
  *data = vbc_calloc(*count ? *count : 1, size, err);
  if (*data == NULL) return err->code;
  return vbc_reader_get(r, *data, *count * size, err);
}

int vbc_reader_get_arrays(vbc_reader *r, const char *what, size_t *cap, size_t *n,
                          void *const *arrays, const size_t *sizes, size_t narrays,
                          vbc_error *err) {
  uint64_t count = 0;
  vbc_reader peek = *r; /* the count leads the first array */
  if (vbc_reader_get(&peek, &count, sizeof count, err) != VBC_OK) return err->code;
  if (count > peek.left / sizes[0])
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %llu %s (corrupt?)", r->what,
                         (unsigned long long)count, what);
  if (vbc_grow(cap, (size_t)count, arrays, sizes, narrays, err) != VBC_OK) return err->code;
  for (size_t k = 0; k < narrays; ++k)
    if (vbc_reader_get_array(r, *(void **)arrays[k], (size_t)count, sizes[k], err) != VBC_OK)
      return err->code;
  *n = (size_t)count;
  return VBC_OK;
}

int vbc_reader_get_string(vbc_reader *r, char *buf, size_t size, vbc_error *err) {
  size_t n = 0;
  if (get_count(r, 1, &n, err) != VBC_OK) return err->code;
  if (n >= size)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: a string of %zu bytes, at most %zu expected",
                         r->what, n, size - 1);
  if (vbc_reader_get(r, buf, n, err) != VBC_OK) return err->code;
  buf[n] = '\0';
  return VBC_OK;
}
