/* sweep_jobs.c — `vbc sweep --emit-jobs FILE`: one shell command per case still to run, for sh
 * or GNU parallel; `vbc sweep --emit-slurm FILE`: the same commands as an sbatch array script,
 * task k running the k-th of them.
 *
 * Every path in a line is data, whatever it holds: each is one single-quoted sh word, a quote
 * inside written as '\'' (close, escaped quote, reopen), so spaces, double quotes, ;, $(…),
 * backquotes and non-ASCII pass through untouched. A line break cannot: these consumers split the
 * file into jobs at line breaks, so a path with one is refused (exit 2) before anything runs
 * (vbc_sweep_check_paths). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
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

/* The working directory every job line starts with (the spec and paths may be relative). */
static int job_cwd(const char *vbc, char *cwd, size_t size, vbc_error *err) {
  if (getcwd(cwd, size) == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "getcwd: %s", strerror(errno));
  if (vbc_sweep_check_path("the current directory", cwd, err) != VBC_OK ||
      vbc_sweep_check_path("the vbc executable", vbc, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

static int job_wanted(const vbc_sweep_case *c, int force) {
  return !c->is_state && c->state != VBC_CASE_REFUSED && !c->held &&
         (force || c->state == VBC_CASE_PENDING || c->state == VBC_CASE_INCOMPLETE);
}

/* Case c's command, without a line break: cd, then `vbc sweep SPEC --out --cases --case ID`. */
static int put_job(text *t, const vbc_sweep *sw, const vbc_sweep_case *c, const char *cwd,
                   const char *vbc, int force, vbc_error *err) {
  if (put_str(t, "cd ", err) || put_word(t, cwd, err) || put_str(t, " && ", err) ||
      put_word(t, vbc, err) || put_str(t, " sweep ", err) || put_word(t, sw->spec.file, err) ||
      put_str(t, " --out ", err) || put_word(t, sw->out, err) || put_str(t, " --cases ", err) ||
      put_word(t, sw->cases_dir, err) || put_str(t, " --case ", err) || put_str(t, c->id, err) ||
      put_str(t, force ? " --force" : "", err))
    return err->code;
  return VBC_OK;
}

int vbc_sweep_emit_jobs(const vbc_sweep *sw, const char *vbc, const char *path, int force,
                        size_t *njobs, vbc_error *err) {
  char cwd[4096];
  if (job_cwd(vbc, cwd, sizeof cwd, err) != VBC_OK) return err->code;
  text t = {0};
  int rc = put_str(&t, "", err);
  *njobs = 0;
  for (size_t i = 0; rc == VBC_OK && i < sw->ncases; ++i) {
    if (!job_wanted(&sw->cases[i], force)) continue;
    if (put_job(&t, sw, &sw->cases[i], cwd, vbc, force, err) || put_str(&t, "\n", err))
      rc = err->code;
    else
      (*njobs)++;
  }
  if (rc == VBC_OK) rc = vbc_write_file_atomic(path, t.s, err);
  free(t.s);
  return rc;
}

/* s, then pattern, as one double-quoted sbatch argument. With a pattern, slurmstepd expands
 * %-sequences in the argument, so a % of s is written %%. */
static int put_directive_word(text *t, const char *s, const char *pattern, vbc_error *err) {
  if (put(t, "\"", 1, err) != VBC_OK) return err->code;
  for (; *s; ++s) {
    const char *piece = *s == '"' ? "\\\"" : *s == '\\' ? "\\\\" : NULL;
    if (*s == '%' && pattern) piece = "%%";
    if (piece ? put_str(t, piece, err) : put(t, s, 1, err)) return err->code;
  }
  if (pattern && put_str(t, pattern, err)) return err->code;
  return put(t, "\"", 1, err);
}

/* The per-task logs' directory: OUT/slurm, absolute (sbatch resolves a relative --output against
 * the directory it is run from, which need not be this one). */
static int log_dir(const vbc_sweep *sw, const char *cwd, char *dir, size_t size, vbc_error *err) {
  int n = sw->out[0] == '/' ? snprintf(dir, size, "%s/slurm", sw->out)
                            : snprintf(dir, size, "%s/%s/slurm", cwd, sw->out);
  if (n < 0 || (size_t)n >= size)
    return vbc_error_set(err, VBC_EXIT_INPUT, "--out: the path %s/slurm is too long", sw->out);
  if (strchr(dir, '\\') != NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "--emit-slurm: expected a log directory without a backslash (Slurm "
                         "expands no %%A or %%a in such a path, so every task would write one "
                         "file), got \"%s\"; choose another --out", dir);
  return vbc_mkdir_p(dir, err);
}

/* #SBATCH lines: name, array (with its throttle), log, CPUs, and the optional limits. */
static int put_directives(text *t, const vbc_sweep *sw, const vbc_slurm_options *o, size_t n,
                          const char *logs, vbc_error *err) {
  char line[256], name[64];
  size_t k = 0;
  for (const char *p = sw->spec.name; *p && k + 1 < sizeof name; ++p)
    name[k++] = isalnum((unsigned char)*p) || *p == '-' || *p == '.' ? *p : '_';
  name[k] = '\0';
  snprintf(line, sizeof line, "#!/bin/sh\n#SBATCH --job-name=vbc-%s\n#SBATCH --array=1-%zu", name,
           n);
  if (put_str(t, line, err)) return err->code;
  if (o->throttle > 0 && (snprintf(line, sizeof line, "%%%d", o->throttle), put_str(t, line, err)))
    return err->code;
  snprintf(line, sizeof line, "\n#SBATCH --cpus-per-task=%d\n", o->cpus_per_task);
  if (put_str(t, "\n#SBATCH --output=", err) ||
      put_directive_word(t, logs, "/slurm-%A_%a.log", err) || put_str(t, line, err))
    return err->code;
  if (o->partition && (put_str(t, "#SBATCH --partition=", err) ||
                       put_directive_word(t, o->partition, NULL, err) || put_str(t, "\n", err)))
    return err->code;
  if (o->time_limit && (put_str(t, "#SBATCH --time=", err) ||
                        put_directive_word(t, o->time_limit, NULL, err) || put_str(t, "\n", err)))
    return err->code;
  return VBC_OK;
}

int vbc_sweep_emit_slurm(const vbc_sweep *sw, const char *vbc, const char *path, int force,
                         const vbc_slurm_options *o, size_t *ntasks, vbc_error *err) {
  char cwd[4096], logs[5200];
  *ntasks = 0;
  for (size_t i = 0; i < sw->ncases; ++i) *ntasks += (size_t)job_wanted(&sw->cases[i], force);
  if (*ntasks == 0) return VBC_OK; /* sbatch takes no empty array: no script */
  if (job_cwd(vbc, cwd, sizeof cwd, err) || log_dir(sw, cwd, logs, sizeof logs, err))
    return err->code;
  text t = {0};
  int rc = put_directives(&t, sw, o, *ntasks, logs, err);
  if (rc == VBC_OK &&
      put_str(&t,
              "# Written by vbc sweep --emit-slurm: array task k runs the k-th of the cases that "
              "were\n# still to run (vbc sweep --case ID), one OpenMP thread per CPU Slurm gives "
              "it.\n# Submit with sbatch FILE; when the array is done, run the sweep again for "
              "the\n# table and plots.\nexport OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-1}\"\n"
              "case \"${SLURM_ARRAY_TASK_ID:-}\" in\n",
              err))
    rc = err->code;
  size_t task = 0;
  for (size_t i = 0; rc == VBC_OK && i < sw->ncases; ++i) {
    if (!job_wanted(&sw->cases[i], force)) continue;
    char arm[32];
    snprintf(arm, sizeof arm, "%zu) ", ++task);
    if (put_str(&t, arm, err) || put_job(&t, sw, &sw->cases[i], cwd, vbc, force, err) ||
        put_str(&t, " ;;\n", err))
      rc = err->code;
  }
  char last[200];
  snprintf(last, sizeof last,
           "*) echo \"vbc sweep: no case for array task '${SLURM_ARRAY_TASK_ID:-}' (tasks 1-%zu)\""
           " >&2; exit 2 ;;\nesac\n",
           *ntasks);
  if (rc == VBC_OK && put_str(&t, last, err)) rc = err->code;
  if (rc == VBC_OK) rc = vbc_write_file_atomic(path, t.s, err);
  free(t.s);
  return rc;
}
