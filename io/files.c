/* files.c — see files.h. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/files.h"

int vbc_mkdir_p(const char *dir, vbc_error *err) {
  char buf[1024];
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: path too long", dir);
  for (char *p = buf + 1; *p; ++p) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot create: %s", buf, strerror(errno));
    *p = '/';
  }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot create: %s", buf, strerror(errno));
  return VBC_OK;
}

int vbc_file_open(vbc_file *file, const char *path, const char *suffix, vbc_error *err) {
  memset(file, 0, sizeof *file);
  snprintf(file->path, sizeof file->path, "%s", path);
  snprintf(file->tmp, sizeof file->tmp, "%s%s", path, suffix);
  file->f = fopen(file->tmp, "wb");
  if (file->f == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot write: %s", file->tmp, strerror(errno));
  return VBC_OK;
}

int vbc_file_commit(vbc_file *file, vbc_error *err) {
  if (file->f == NULL) return VBC_OK;
  int ok = !ferror(file->f);
  ok = fclose(file->f) == 0 && ok;
  file->f = NULL;
  if (!ok || rename(file->tmp, file->path) != 0) {
    int e = errno;
    remove(file->tmp);
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot write: %s", file->path, strerror(e));
  }
  return VBC_OK;
}

void vbc_file_keep(vbc_file *file) {
  if (file->f == NULL) return;
  fclose(file->f);
  file->f = NULL;
}

void vbc_file_discard(vbc_file *file) {
  if (file->f == NULL) return;
  fclose(file->f);
  file->f = NULL;
  remove(file->tmp);
}

int vbc_write_file_atomic(const char *path, const char *text, vbc_error *err) {
  vbc_file f;
  if (vbc_file_open(&f, path, ".tmp", err) != VBC_OK) return err->code;
  fputs(text, f.f);
  return vbc_file_commit(&f, err);
}

int vbc_file_reopen(vbc_file *file, const char *path, const char *suffix, long size,
                    vbc_error *err) {
  memset(file, 0, sizeof *file);
  snprintf(file->path, sizeof file->path, "%s", path);
  snprintf(file->tmp, sizeof file->tmp, "%s%s", path, suffix);
  file->f = fopen(file->tmp, "r+b");
  if (file->f == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot reopen the interrupted run's stream: %s",
                         file->tmp, strerror(errno));
  long have = fseek(file->f, 0, SEEK_END) == 0 ? ftell(file->f) : -1;
  if (have < size || ftruncate(fileno(file->f), (off_t)size) != 0 ||
      fseek(file->f, 0, SEEK_END) != 0) {
    fclose(file->f);
    file->f = NULL;
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: %ld bytes, the checkpoint expects at least %ld",
                         file->tmp, have, size);
  }
  return VBC_OK;
}

int vbc_file_check(vbc_file *file, vbc_error *err) {
  if (file->f == NULL) return VBC_OK;
  /* A write that failed inside one of the row's fprintf calls (the buffer filled there) set the
   * stream's error flag and errno then; the stream drops that buffer, so the fflush below may
   * succeed with nothing to write and leave errno alone. Which of the two fails depends on where
   * the buffer boundaries fall, so keep the earlier errno for the message. */
  const int before = errno;
  errno = 0;
  const int flushed = fflush(file->f) == 0;
  const int e = errno ? errno : before;
  if (flushed && !ferror(file->f)) return VBC_OK;
  return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot write: %s", file->tmp,
                       e ? strerror(e) : "write error");
}

long vbc_file_size(vbc_file *file) {
  if (file->f == NULL || fflush(file->f) != 0) return -1;
  return ftell(file->f);
}
