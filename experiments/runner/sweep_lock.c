/* sweep_lock.c — see sweep_lock.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/files.h"
#include "experiments/runner/sweep_lock.h"

static void read_holder(int fd, char *holder, size_t size) {
  ssize_t n = pread(fd, holder, size - 1, 0);
  holder[n > 0 ? n : 0] = '\0';
  holder[strcspn(holder, "\n")] = '\0';
  if (holder[0] == '\0') snprintf(holder, size, "another process");
}

int vbc_case_lock_try(vbc_case_lock *lk, const char *cases_dir, const char *id, char *holder,
                      size_t size, vbc_error *err) {
  lk->fd = -1;
  if (vbc_mkdir_p(cases_dir, err) != VBC_OK) return err->code;
  snprintf(lk->path, sizeof lk->path, "%s/.%s.lock", cases_dir, id);
  for (;;) {
    int fd = open(lk->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot create the case's lock: %s",
                           lk->path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      if (e == EWOULDBLOCK) read_holder(fd, holder, size);
      close(fd);
      if (e == EWOULDBLOCK) return VBC_LOCK_BUSY;
      return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot lock: %s", lk->path, strerror(e));
    }
    struct stat held, now;
    if (fstat(fd, &held) != 0 || stat(lk->path, &now) != 0 || held.st_ino != now.st_ino ||
        held.st_dev != now.st_dev) {
      close(fd); /* its holder released (unlinked) it meanwhile: take the path's new file */
      continue;
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    char text[300];
    int n = snprintf(text, sizeof text, "pid %ld on %s\n", (long)getpid(), host);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n) {
      /* the lock holds without its note; only messages lose the holder's name */
    }
    lk->fd = fd;
    return VBC_OK;
  }
}

void vbc_case_lock_inherit(const vbc_case_lock *lk, int inherit) {
  if (lk->fd >= 0) fcntl(lk->fd, F_SETFD, inherit ? 0 : FD_CLOEXEC);
}

void vbc_case_lock_release(vbc_case_lock *lk) {
  if (lk->fd < 0) return;
  unlink(lk->path);
  close(lk->fd);
  lk->fd = -1;
}
