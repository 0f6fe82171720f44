/* fuzz_util.c — see fuzz.h. */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules/builtin.h"
#include "fuzz/fuzz.h"

static char dir[256];

static void remove_dir(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) { /* best effort */
  }
}

const char *fuzz_dir(void) {
  if (dir[0] == '\0') {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/vbc-fuzz.%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    if (mkdir(dir, 0700) != 0) abort();
    atexit(remove_dir);
  }
  return dir;
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size) {
  static char buf[4][512];
  static int k;
  char *path = buf[k++ % 4];
  snprintf(path, sizeof buf[0], "%s/%s", fuzz_dir(), name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
  return path;
}

char *fuzz_string(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (s == NULL) abort();
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

const vbc_registry *fuzz_registry(void) {
  static vbc_registry reg;
  static int filled;
  vbc_error err = {0};
  if (!filled && vbc_registry_builtin(&reg, &err) != VBC_OK) abort();
  filled = 1;
  return &reg;
}

const char *fuzz_source(const char *rel) {
  static char buf[4][1024];
  static int k;
  char *p = buf[k++ % 4];
  snprintf(p, sizeof buf[0], "%s/%s", VBC_SOURCE_DIR, rel);
  return p;
}

void fuzz_note(const char *what, const vbc_error *err) {
  if (getenv("VBC_FUZZ_VERBOSE")) fprintf(stderr, "%s: %d %s\n", what, err->code, err->message);
}

void fuzz_quiet(void) {
  static int done;
  if (done || getenv("VBC_FUZZ_VERBOSE")) return;
  done = 1;
  int null = open("/dev/null", O_WRONLY);
  if (null < 0) return;
  fflush(stdout), fflush(stderr);
  dup2(null, 1); /* not stderr: the sanitizers and libFuzzer report there */
  close(null);
}
