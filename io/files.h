/* files.h — output files that never look complete before they are.
 *
 * Every file vbc writes goes to NAME.part (streams) or NAME.tmp (one-shot) and is renamed when
 * it is complete, so an interrupted run leaves only .part/.tmp files besides complete ones. */
#ifndef VBC_FILES_H
#define VBC_FILES_H

#include <stdio.h>

#include "core/error.h"

typedef struct vbc_file {
  FILE *f;
  char path[1024];
  char tmp[1040];
} vbc_file;

int vbc_mkdir_p(const char *dir, vbc_error *err);
/* Open path's temporary sibling for writing (suffix ".part" or ".tmp"). */
int vbc_file_open(vbc_file *file, const char *path, const char *suffix, vbc_error *err);
/* Reopen the temporary sibling an interrupted run left (suffix ".part"), cut it back to its first
 * `size` bytes and position at its end, to append where a checkpoint recorded it. VBC_EXIT_INPUT
 * naming the file if it is missing or shorter than size. */
int vbc_file_reopen(vbc_file *file, const char *path, const char *suffix, long size,
                    vbc_error *err);
/* Flush and check the stream: VBC_EXIT_SYSTEM naming the temporary file and the reason (a full
 * disk, a file size limit) if any write so far failed, so that a run stops at the first failed
 * write rather than at its end. */
int vbc_file_check(vbc_file *file, vbc_error *err);
/* Flush and return the bytes written so far (-1 on an error). */
long vbc_file_size(vbc_file *file);
/* Close and rename into place; on a write error the temporary file is removed. */
int vbc_file_commit(vbc_file *file, vbc_error *err);
/* Close and keep the temporary name (a checkpoint refers to it; resume reopens it). */
void vbc_file_keep(vbc_file *file);
/* Close and remove without renaming (used when the data would be misleading). */
void vbc_file_discard(vbc_file *file);
int vbc_write_file_atomic(const char *path, const char *text, vbc_error *err);

#endif
