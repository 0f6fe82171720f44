/* blob.h — byte buffers for checkpoints: modules append their state with put, and read it back
 * with a reader that knows how many bytes remain, so a truncated or foreign checkpoint is reported
 * as bad input instead of read past its end. Native byte order (a checkpoint is read back by the
 * same vbc version on the same machine kind; sim/checkpoint.h checks both). */
#ifndef VBC_BLOB_H
#define VBC_BLOB_H

#include <stddef.h>

#include "core/error.h"

typedef struct vbc_blob {
  unsigned char *data;
  size_t n, cap;
} vbc_blob;

void vbc_blob_free(vbc_blob *b);
int vbc_blob_put(vbc_blob *b, const void *data, size_t size, vbc_error *err);
/* A count (u64) and count elements of size bytes. */
int vbc_blob_put_array(vbc_blob *b, const void *data, size_t count, size_t size, vbc_error *err);
int vbc_blob_put_string(vbc_blob *b, const char *s, vbc_error *err);

typedef struct vbc_reader {
  const unsigned char *p;
  size_t left;
  const char *what; /* "checkpoint DIR/checkpoint.vbc, section benchmark": for messages */
} vbc_reader;

/* size bytes into data; VBC_EXIT_INPUT (truncated) if fewer remain. */
int vbc_reader_get(vbc_reader *r, void *data, size_t size, vbc_error *err);
/* An array written by vbc_blob_put_array: exactly count elements of size bytes into data. */
int vbc_reader_get_array(vbc_reader *r, void *data, size_t count, size_t size, vbc_error *err);
/* An array of any length, allocated (*data, *count; free it). */
int vbc_reader_get_alloc(vbc_reader *r, void **data, size_t *count, size_t size, vbc_error *err);
/* narrays arrays of one length written one after another by vbc_blob_put_array (a benchmark's
 * per-sample history): peek the count, grow the caller's arrays (*arrays[k] of sizes[k] bytes
 * an element, capacity *cap) and read them; *n = the count. A count the bytes left cannot hold
 * is bad input: "WHAT: N <what> (corrupt?)". */
int vbc_reader_get_arrays(vbc_reader *r, const char *what, size_t *cap, size_t *n,
                          void *const *arrays, const size_t *sizes, size_t narrays,
                          vbc_error *err);
/* A string written by vbc_blob_put_string into buf (NUL-terminated; longer is bad input). */
int vbc_reader_get_string(vbc_reader *r, char *buf, size_t size, vbc_error *err);

#endif
