/* vtu_read.h — reading back the particle frames vbc writes (io/vtu.h): raw or zlib-compressed
 * appended data, UInt64 headers, little-endian. Not a general VTK reader: it finds arrays by
 * name in the XML head and decodes them at their offsets, which is all vbc's own files need
 * (`vbc animate`). */
#ifndef VBC_VTU_READ_H
#define VBC_VTU_READ_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

typedef struct vbc_vtu_frame {
  size_t n;           /* points */
  double *pos;        /* 3 n: x, y, z */
  int32_t *kind;      /* n: 0 fluid, 1 rigid, 2 wall */
  double *value;      /* n: the chosen point array, |v| for a vector */
  char array[64];     /* its name */
  int compressed;     /* the file's appended data are zlib-compressed */
} vbc_vtu_frame;

/* Read the frame at `path` with the point array `array` (NULL: pressure_smoothed, else
 * pressure). Exit code 2 naming path for a file that cannot be read or is not a vbc frame, and
 * for an array the frame does not have (the message lists those it has). */
int vbc_vtu_read(const char *path, const char *array, vbc_vtu_frame *f, vbc_error *err);
void vbc_vtu_frame_free(vbc_vtu_frame *f);

#endif
