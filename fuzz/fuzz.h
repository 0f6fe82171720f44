/* fuzz.h — what the harnesses share (fuzz/README.md). Every harness is one
 * LLVMFuzzerTestOneInput over one untrusted reader, driven by libFuzzer (scripts/fuzz.sh, clang)
 * or, in the test suite, by fuzz/driver.c over its seed corpus once. The readers take files, so
 * an input is written to a file in a directory of this process's own first. */
#ifndef VBC_FUZZ_H
#define VBC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "registry/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* This process's scratch directory (created once, removed at exit). */
const char *fuzz_dir(void);
/* Write data to fuzz_dir()/name; returns the path (static buffer rotated among 4). */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);
/* data as a NUL-terminated string (malloc'd). */
char *fuzz_string(const uint8_t *data, size_t size);
const vbc_registry *fuzz_registry(void);
/* A path in the source tree. */
const char *fuzz_source(const char *rel);
/* stdout to /dev/null: what `vbc lcp` prints is not the harness's business. With
 * VBC_FUZZ_VERBOSE set they stay, and fuzz_note prints what a reader said (to check that the
 * seeds get past the first checks). */
void fuzz_quiet(void);
void fuzz_note(const char *what, const vbc_error *err);

#endif
