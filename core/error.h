/* error.h — error reporting with context, shared by every module.
 *
 * A function that can fail takes a `vbc_error *` and returns a status. The message names the
 * file, the JSON path and what was expected (bad input), or the step and time (simulation failure),
 * so that the command line can print it as one line and exit with `code`. */
#ifndef VBC_ERROR_H
#define VBC_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  VBC_OK = 0,
  VBC_EXIT_INPUT = 2,   /* bad input: the scene, an argument, a parameter */
  VBC_EXIT_FAILED = 3,  /* the simulation failed: non-finite values, escape, solver breakdown */
  VBC_EXIT_SYSTEM = 4,  /* the machine refused: out of memory, cannot write a file */
  VBC_EXIT_INTERRUPTED = 128 /* + the signal number: stopped by SIGINT (130) or SIGTERM (143),
                                the shell's convention for a process a signal ended, or at
                                `vbc run --cpu-limit` (152: 128 + SIGXCPU, as `ulimit -t`) */
};

typedef struct vbc_error {
  int code;
  char message[1024];
} vbc_error;

/* Record an error (first one wins: later errors are consequences) and return its code. */
int vbc_error_set(vbc_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void vbc_error_clear(vbc_error *err);

/* Allocation helpers that record VBC_EXIT_SYSTEM on failure. */
void *vbc_calloc(size_t n, size_t size, vbc_error *err);
void *vbc_realloc(void *p, size_t n, size_t size, vbc_error *err);
char *vbc_strdup(const char *s, vbc_error *err);
/* The one grow-on-demand helper: make the n arrays whose addresses are in arrays (a `T **`
 * each, elements of sizes[k] bytes, all sharing the capacity *cap) hold at least need elements.
 * The capacity grows geometrically (to at least need + need / 2 + 16), so that arrays filled one
 * element at a time cost amortised O(1). On failure *cap is unchanged and every array is still
 * valid (some may have grown). */
int vbc_grow(size_t *cap, size_t need, void *const *arrays, const size_t *sizes, size_t n,
             vbc_error *err);

#ifdef __cplusplus
}
#endif

#endif
