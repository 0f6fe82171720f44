/* test_python.c — the Python package (python/vbc, docs/python.md) end to end: /usr/bin/python3
 * runs each script of tests/python/ against this build tree's libvbc.so (VBC_LIBRARY) and the
 * source's package (PYTHONPATH); a script prints "ok N" after its N checks, and any failed check
 * or exception exits non-zero. The counts are asserted, so a script that stops checking fails.
 *
 * Under the sanitizers (VBC_TEST_LIBASAN: the build tree is ASan+UBSan) the interpreter is not
 * instrumented, so the ASan runtime must come first in the process: it is preloaded. Leak
 * detection is off there, since the interpreter keeps much of its memory until exit by design;
 * every out-of-bounds access or use after free in the library still aborts the script. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

/* Run tests/python/SCRIPT.py with (vbc binary, source tree, scratch directory); its output goes
 * to the scratch directory's output.txt, whose text is returned (malloc'd) with the exit status
 * in *status. */
static char *run_script(const char *script, int *status) {
  const char *dir = test_dir(script);
  cr_assert_not_null(dir);
  char out[1200], path[1200];
  snprintf(out, sizeof out, "%s/output.txt", dir);
  snprintf(path, sizeof path, "%s/tests/python/%s.py", VBC_SOURCE_DIR, script);
  fflush(NULL);
  const pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    setenv("VBC_LIBRARY", VBC_SHARED_LIBRARY, 1);
    setenv("PYTHONPATH", VBC_SOURCE_DIR "/python", 1);
    setenv("PYTHONDONTWRITEBYTECODE", "1", 1); /* no __pycache__ in the source tree */
#ifdef VBC_TEST_LIBASAN
    setenv("LD_PRELOAD", VBC_TEST_LIBASAN, 1);
    setenv("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1", 1);
#endif
    if (freopen(out, "w", stdout) == NULL || dup2(fileno(stdout), 2) < 0) _exit(126);
    execl("/usr/bin/python3", "python3", path, VBC_BINARY, VBC_SOURCE_DIR, dir, (char *)NULL);
    _exit(127);
  }
  int wstatus = 0;
  cr_assert(waitpid(pid, &wstatus, 0) == pid);
  *status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  char *text = read_text(out);
  cr_assert_not_null(text);
  return text;
}

/* The script exits 0 and its last line is "ok CHECKS". */
static void expect_script(const char *script, int checks) {
  int status;
  char *text = run_script(script, &status);
  char want[32];
  snprintf(want, sizeof want, "ok %d\n", checks);
  const size_t n = strlen(text), w = strlen(want);
  cr_assert(status == 0 && n >= w && strcmp(text + n - w, want) == 0,
            "tests/python/%s.py: exit %d, expected exit 0 and a last line \"ok %d\"; output:\n%s",
            script, status, checks, text);
  free(text);
}

/* Simulation.step gives vbc run's bits (frames byte for byte, iterations, kinetic energy); the
 * views' shapes and flags; method presets as a dict, a file, a missing name; vbc.modules();
 * run(until). */
Test(python, stepping_matches_vbc_run, .timeout = 300) { expect_script("step_bits", 36); }

/* Metrics in Python become series.csv columns, the others byte-identical; results.load and
 * results.table as structured arrays. */
Test(python, metrics_and_results, .timeout = 300) { expect_script("metric_series", 16); }

/* Every bad input is an exception with vbc's message and exit code, none a crash. */
Test(python, bad_input_raises, .timeout = 300) { expect_script("bad_input", 69); }

/* Stepping runs the run-time monitors: Simulation.warnings as summary.json's, strict=True fails
 * the first step that warns, a still tank has none. */
Test(python, monitors_run_when_stepping, .timeout = 300) { expect_script("monitors", 12); }

/* docs/python.md's worked example runs as written and finds rho g. */
Test(python, docs_example, .timeout = 300) { expect_script("docs_example", 6); }

/* The exit code of the script itself is seen: a failing check is not an "ok". */
Test(python, failing_script_fails) {
  int status;
  char *text = run_script("fails", &status);
  cr_assert_eq(status, 1, "%s", text);
  cr_assert(strstr(text, "AssertionError: deliberately") != NULL, "%s", text);
  free(text);
}
