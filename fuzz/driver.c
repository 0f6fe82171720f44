/* driver.c — runs a harness over files and directories of inputs once, without libFuzzer (the
 * test suite's `fuzz_*_seeds`, any compiler): `fuzz_scene_seeds DIR|FILE...`. Exit 0 unless the
 * harness crashes (the sanitizers of an ASan build abort it). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 1;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf == NULL) return 1;
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  FILE *report = fdopen(dup(2), "w"); /* harnesses silence stdout and stderr */
  int bad = 0, runs = 0;
  for (int i = 1; i < argc; ++i) {
    struct stat st;
    if (stat(argv[i], &st) != 0) return fprintf(stderr, "%s: no such file\n", argv[i]), 2;
    if (!S_ISDIR(st.st_mode)) {
      bad |= run_file(argv[i]), ++runs;
      continue;
    }
    struct dirent **list;
    int n = scandir(argv[i], &list, NULL, alphasort);
    for (int k = 0; k < n; ++k) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], list[k]->d_name);
      if (list[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        bad |= run_file(path), ++runs;
      free(list[k]);
    }
    free(list);
  }
  fprintf(report ? report : stderr, "%d inputs\n", runs);
  return bad || runs == 0;
}
