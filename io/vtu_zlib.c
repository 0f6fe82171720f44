/* vtu_zlib.c — see vtu_zlib.h. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/vtu_zlib.h"

int vbc_vtu_deflate(const void *data, size_t size, vbc_vtu_zentry *e, vbc_error *err) {
  const size_t nblocks = (size + VBC_VTU_BLOCK - 1) / VBC_VTU_BLOCK;
  const size_t head = (3 + nblocks) * sizeof(uint64_t);
  const size_t bound = nblocks ? compressBound(VBC_VTU_BLOCK) : 0;
  e->size = 0;
  e->bytes = vbc_calloc(head + nblocks * bound + 1, 1, err);
  if (e->bytes == NULL) return err->code;
  uint64_t h[3] = {nblocks, VBC_VTU_BLOCK, size % VBC_VTU_BLOCK};
  memcpy(e->bytes, h, sizeof h);
  size_t at = head;
  for (size_t k = 0; k < nblocks; ++k) {
    const size_t from = k * VBC_VTU_BLOCK;
    const size_t n = size - from < VBC_VTU_BLOCK ? size - from : VBC_VTU_BLOCK;
    uLongf out = (uLongf)bound;
    int z = compress2(e->bytes + at, &out, (const Bytef *)data + from, (uLong)n,
                      Z_BEST_SPEED);
    if (z != Z_OK) {
      free(e->bytes);
      e->bytes = NULL;
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "zlib compress2 failed (%d)", z);
    }
    const uint64_t c = out;
    memcpy(e->bytes + (3 + k) * sizeof(uint64_t), &c, sizeof c);
    at += out;
  }
  e->size = at;
  return VBC_OK;
}

static uint64_t get64(const unsigned char *at) {
  uint64_t v;
  memcpy(&v, at, sizeof v);
  return v;
}

int vbc_vtu_inflate(const unsigned char *at, size_t avail, void **out, size_t *size,
                    const char *what, vbc_error *err) {
  *out = NULL;
  *size = 0;
  if (avail < 3 * sizeof(uint64_t))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: compressed header cut short", what);
  const uint64_t nblocks = get64(at), block = get64(at + 8), last = get64(at + 16);
  if (nblocks > (avail / sizeof(uint64_t)) - 3 || (nblocks && block == 0) || last > block)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: malformed compressed header (%llu blocks of "
                         "%llu bytes)", what, (unsigned long long)nblocks,
                         (unsigned long long)block);
  const uint64_t total = nblocks == 0 ? 0 : (nblocks - (last != 0)) * block + last;
  unsigned char *data = vbc_calloc(total ? total : 1, 1, err);
  if (data == NULL) return err->code;
  size_t pos = (3 + nblocks) * sizeof(uint64_t), done = 0;
  for (uint64_t k = 0; k < nblocks; ++k) {
    const uint64_t c = get64(at + (3 + k) * sizeof(uint64_t));
    const uint64_t want = k + 1 == nblocks && last ? last : block;
    uLongf got = (uLongf)want;
    if (c > avail - pos || uncompress(data + done, &got, at + pos, (uLong)c) != Z_OK ||
        got != want) {
      free(data);
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: block %llu does not decompress to %llu "
                           "bytes", what, (unsigned long long)k + 1, (unsigned long long)want);
    }
    pos += c;
    done += got;
  }
  *out = data;
  *size = total;
  return VBC_OK;
}
