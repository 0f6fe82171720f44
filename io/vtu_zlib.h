/* vtu_zlib.h — VTK's compressed appended data (vtkZLibDataCompressor, header_type UInt64), as
 * the VTK XML format documentation and VTK's own writer (vtkXMLWriter) lay it out: an array's
 * bytes are cut into blocks of VBC_VTU_BLOCK bytes, each compressed on its own with zlib, and
 * preceded by one header of UInt64 values
 *
 *   [number of blocks, uncompressed block size, uncompressed size of the last block
 *    (0 when it is a full block), compressed size of block 1, ..., of block n]
 *
 * The DataArray's `offset` points at that header. zlib (a maintained library, the one VTK itself
 * uses) rather than our own deflate: the readers decode the stream with zlib, so any other
 * encoder would only add ways to disagree. */
#ifndef VBC_VTU_ZLIB_H
#define VBC_VTU_ZLIB_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* VTK's default block size (vtkXMLWriter: 32 KiB). */
#define VBC_VTU_BLOCK 32768u

/* One array's appended entry: header and compressed blocks, `size` bytes (vbc_calloc'd). */
typedef struct vbc_vtu_zentry {
  unsigned char *bytes;
  size_t size;
} vbc_vtu_zentry;

/* Compress `size` bytes of data into e, at zlib level 1 (Z_BEST_SPEED): on the 3D dam break
 * it writes 4x faster than the default level 6 for frames 1.5 % larger (docs/notes/run-measurements.md). */
int vbc_vtu_deflate(const void *data, size_t size, vbc_vtu_zentry *e, vbc_error *err);
/* Decode the entry at `at` (at most `avail` bytes readable there): *out (vbc_calloc'd, free it)
 * holds the *size uncompressed bytes. `what` names the file and array in messages (exit 2 for
 * a malformed entry). */
int vbc_vtu_inflate(const unsigned char *at, size_t avail, void **out, size_t *size,
                    const char *what, vbc_error *err);

#endif
