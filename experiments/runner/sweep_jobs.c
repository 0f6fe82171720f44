/* sweep_jobs.c — `vbc sweep --emit-jobs FILE`: one shell command per case still to run, for sh,
 * GNU parallel or a Slurm array (`sed -n Np FILE | sh`).
 *
 * Every path in a line is data, whatever it holds: each is one single-quoted sh word, a quote
 * inside written as '\'' (close, escaped quote, reopen), so spaces, double quotes, ;, $(…),
 * backquotes and non-ASCII pass through untouched. A line break cannot: these consumers split the
 * file into jobs at line breaks, so a path with one is refused (exit 2) before anything runs
 * (vbc_sweep_check_paths). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/files.h"
#include "experiments/runner/sweep.h"

typedef struct text {
  char *s;
  size_t len, cap;
} text;

static int put(text *t, const char *s, size_t n, vbc_error *err) {
  if (vbc_grow(&t->cap, t->len + n + 1, (void *[]){&t->s}, (size_t[]){1}, 1, err) != VBC_OK)
    return err->code;
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
  return VBC_OK;
}

static int put_str(text *t, const char *s, vbc_error *err) { return put(t, s, strlen(s), err); }

/* s as one sh word: '…' with every ' written as '\''. */
static int put_word(text *t, const char *s, vbc_error *err) {
  if (put(t, "'", 1, err) != VBC_OK) return err->code;
  for (const char *q; (q = strchr(s, '\'')) != NULL; s = q + 1)
    if (put(t, s, (size_t)(q - s), err) != VBC_OK || put_str(t, "'\\''", err) != VBC_OK)
      return err->code;
  if (put_str(t, s, err) != VBC_OK) return err->code;
  return put(t, "'", 1, err);
}

int vbc_sweep_check_path(const char *what, const char *path, vbc_error *err) {
  if (strpbrk(path, "\n\r") == NULL) return VBC_OK;
  char shown[300];
  size_t n = 0;
  for (const char *p = path; *p && n + 3 < sizeof shown; ++p) {
    if (*p == '\n' || *p == '\r') shown[n++] = '\\', shown[n++] = *p == '\n' ? 'n' : 'r';
    else shown[n++] = *p;
  }
  shown[n] = '\0';
  return vbc_error_set(err, VBC_EXIT_INPUT,
                       "%s: expected a path without line breaks (the job lines and plot scripts "
                       "vbc writes hold one command per line), got \"%s\"", what, shown);
}

int vbc_sweep_emit_jobs(const vbc_sweep *sw, const char *vbc, const char *path, int force,
                        size_t *njobs, vbc_error *err) {
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "getcwd: %s", strerror(errno));
  if (vbc_sweep_check_path("the current directory", cwd, err) != VBC_OK ||
      vbc_sweep_check_path("the vbc executable", vbc, err) != VBC_OK)
    return err->code;
  text t = {0};
  int rc = put_str(&t, "", err);
  *njobs = 0;
  for (size_t i = 0; rc == VBC_OK && i < sw->ncases; ++i) {
    const vbc_sweep_case *c = &sw->cases[i];
    if (c->is_state || !(force || c->state == VBC_CASE_PENDING ||
                         c->state == VBC_CASE_INCOMPLETE))
      continue;
    if (put_str(&t, "cd ", err) || put_word(&t, cwd, err) || put_str(&t, " && ", err) ||
        put_word(&t, vbc, err) || put_str(&t, " sweep ", err) ||
        put_word(&t, sw->spec.file, err) || put_str(&t, " --out ", err) ||
        put_word(&t, sw->out, err) || put_str(&t, " --cases ", err) ||
        put_word(&t, sw->cases_dir, err) || put_str(&t, " --case ", err) ||
        put_str(&t, c->id, err) || put_str(&t, force ? " --force\n" : "\n", err))
      rc = err->code;
    else
      (*njobs)++;
  }
  if (rc == VBC_OK) rc = vbc_write_file_atomic(path, t.s, err);
  free(t.s);
  return rc;
}
