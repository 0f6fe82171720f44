/* sweep_engines.h — what the tests of the cluster engines share (tests/test_sweep_engines.c:
 * GNU parallel and the Slurm script; tests/test_sweep_slurm.c: a single-node Slurm): a 4-case
 * sweep in a directory with a hostile name, programs run with a working directory and
 * redirections, and the checks that every case ran exactly once. */
#ifndef VBC_TEST_SWEEP_ENGINES_H
#define VBC_TEST_SWEEP_ENGINES_H

#include <stddef.h>
#include <stdio.h>

/* Every character sh acts on, GNU parallel's replacement strings, and non-ASCII. */
#define HOSTILE_SH "a b'c\"d;e$(touch PWNED)`touch PWNED`&|<>\\ é {} {.} {=1 $_=\"z\" =}"
/* As above but no backslash (Slurm expands no %A in a log path holding one: refused), and the two
 * characters sbatch's #SBATCH lines and log patterns act on: # and %. */
#define HOSTILE_SLURM "a b'c\"d;e$(touch PWNED)`touch PWNED`&|<> é #x 100%A"
#define SPEC_NAME "sp'ec $(touch PWNED).json"
#define OUT_NAME "out ;'\""
#define NCASES 4

/* Skip the test saying why. Criterion prints a skip's reason only with --verbose, so it goes to
 * stderr too, where ctest's SKIP_REGULAR_EXPRESSION (tests/CMakeLists.txt) reports the skip. */
#define SKIP_SAYING(...)                                                                         \
  do {                                                                                           \
    fprintf(stderr, "SKIPPED: " __VA_ARGS__);                                                    \
    fputc('\n', stderr);                                                                         \
    cr_skip_test(__VA_ARGS__);                                                                   \
  } while (0)

/* a/b into buf (fails the test if it does not fit). */
void cat_path(char *buf, size_t size, const char *a, const char *b);
/* Run argv[0] (a full path) with argv in cwd (NULL: this one), stdin from in and stdout and
 * stderr to out (NULL: inherited). Returns the exit code, or -1. */
int run_program(const char *const *argv, const char *cwd, const char *in, const char *out);
/* name found in PATH, /usr/sbin or /sbin (Debian puts daemons there, outside a user's PATH) */
int find_program(const char *name, char *buf, size_t size);
/* dir/SPEC_NAME: 4 tiny cases of the hydrostatic tank (0.3 m of water at l = 0.05, 20 ms). */
void write_spec(const char *dir);
/* `vbc sweep SPEC_NAME --out OUT_NAME …` run in dir, output to log; extra: more arguments,
 * NULL-terminated (may be NULL). */
int sweep_in(const char *dir, const char *log, const char *const *extra);
/* The case ids of the `--case ID` words of text, in order. */
int case_ids(const char *text, char ids[][16], int max);
/* The ids of the cases a sweep's progress lines report as run ("[ 1/4] ID …  ok  …"). */
int ran_ids(const char *text, char ids[][16], int max);
int count_of(char ids[][16], int n, const char *id);
/* No file named PWNED anywhere under root. */
void expect_no_injection(const char *root);
/* Rerun the sweep in dir: nothing runs (every summary.json as the engine left it) and table.csv
 * has every case done. */
void expect_complete_without_running(const char *dir, char ids[][16]);

#endif
