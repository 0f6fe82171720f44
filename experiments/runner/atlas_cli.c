/* atlas_cli.c — `vbc atlas SPEC.json …`: options; load and check the spec, every case file and
 * every cell's scene before the first run; run what is not done; write the table, the figures
 * and index.html from the stored results. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep.h"

static const char usage[] =
    "usage: vbc atlas SPEC.json [--out DIR] [--levels N] [-j N] [--threads N] [--budget S]\n"
    "                 [--force] [--quiet] [--emit-jobs FILE]\n"
    "\n"
    "Every case of the spec under every method preset at every spacing level, each cell a\n"
    "`vbc run` of the sweep runner (docs/atlas-format.md).\n"
    "  --out DIR        atlas.csv, atlas.json, index.html, cases/NAME/ (its sweep, table and\n"
    "                   figures) and runs/ (every run) go here (default results/atlas/<name>)\n"
    "  --levels N       only the first N levels of every case (coarsest first; default: all)\n"
    "  -j N             run up to N cells at once (separate processes; one thread each if N > 1,\n"
    "                   unless --threads)\n"
    "  --threads N      every cell's OpenMP threads\n"
    "  --budget S       CPU seconds a cell may need: levels run coarsest first, and a cell whose\n"
    "                   cost predicted from its method's coarser cell (on the first level: from\n"
    "                   a probe, its first 1/32 of the time) exceeds S is not run (the table\n"
    "                   gives the prediction); a cell that runs is stopped at 2 S (vbc run\n"
    "                   --cpu-limit) and is not run to its end until a larger budget; default:\n"
    "                   the spec's cell_budget_cpu_seconds; 0: no budget\n"
    "  --force          rerun cells that are already done\n"
    "  --quiet          no progress lines\n"
    "  --emit-jobs FILE write one shell command per cell still to run (GNU parallel, a Slurm\n"
    "                   array) instead of running them; run the atlas again afterwards for the\n"
    "                   table and figures. With a budget, the probes first, then only up to\n"
    "                   the first level not yet done: emit again once its jobs have run\n"
    "\n"
    "A refused cell (exit 2 before step 1) and a failed one (exit 3) are results: they are cells\n"
    "of the table with their messages, and so is a cell over the budget (not run, with its\n"
    "prediction). Exit codes: 0 every cell has a result or is over the budget, 2 bad spec, case\n"
    "file or arguments, 3 interrupted (cells not run), 4 system error (e.g. gnuplot missing: the\n"
    "tables and index.html are still written)\n";

typedef struct atlas_args {
  const char *spec, *out, *emit;
  long levels, jobs, threads;
  double budget; /* < 0: the spec's */
  int force, quiet;
} atlas_args;

static int usage_error(const char *fmt, const char *what) {
  fprintf(stderr, "vbc atlas: ");
  fprintf(stderr, fmt, what);
  fprintf(stderr, "\n(see vbc atlas --help)\n");
  return 2;
}

static long number_in(const char *text, long lo, long hi) {
  char *end;
  long n = text ? strtol(text, &end, 10) : -1;
  return text && end != text && *end == '\0' && n >= lo && n <= hi ? n : -1;
}

static int parse(int argc, char **argv, atlas_args *a) {
  memset(a, 0, sizeof *a);
  a->jobs = 1;
  a->budget = -1.0;
  for (int i = 2; i < argc; ++i) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long *number = strcmp(o, "--levels") == 0 ? &a->levels
                   : strcmp(o, "-j") == 0     ? &a->jobs
                   : strcmp(o, "--threads") == 0 ? &a->threads
                                                 : NULL;
    if (number) {
      if ((*number = number_in(v, 1, 1024)) < 0)
        return usage_error("%s: expected a whole number from 1 to 1024", o);
      ++i;
    } else if (strcmp(o, "--out") == 0 || strcmp(o, "--emit-jobs") == 0) {
      if (v == NULL || v[0] == '\0') return usage_error("%s: expected a path", o);
      *(strcmp(o, "--out") == 0 ? &a->out : &a->emit) = v;
      ++i;
    } else if (strcmp(o, "--budget") == 0) {
      char *end;
      a->budget = v ? strtod(v, &end) : -1.0;
      if (v == NULL || end == v || *end != '\0' || !(a->budget >= 0.0 && a->budget < 1e12))
        return usage_error("%s: expected CPU seconds >= 0 (0: no budget)", o);
      ++i;
    } else if (strcmp(o, "--force") == 0) {
      a->force = 1;
    } else if (strcmp(o, "--quiet") == 0) {
      a->quiet = 1;
    } else if (o[0] == '-' || a->spec) {
      return usage_error("unexpected argument '%s'", o);
    } else {
      a->spec = o;
    }
  }
  if (a->spec == NULL) return usage_error("%s", "expected an atlas spec (SPEC.json)");
  return 0;
}

static int report(const vbc_error *err) {
  fprintf(stderr, "vbc atlas: %s\n", err->message);
  return err->code;
}

static size_t count(const vbc_atlas *a, const char *status) {
  size_t n = 0;
  for (size_t i = 0; i < a->ncells; ++i) n += strcmp(a->cells[i].status, status) == 0;
  return n;
}

/* Cells not run because their predicted cost is over the budget. */
static size_t over_budget(const vbc_atlas *a) {
  size_t n = 0;
  for (size_t i = 0; i < a->ncells; ++i)
    n += strcmp(a->cells[i].status, "not run") == 0 && a->cells[i].message[0] != '\0';
  return n;
}

/* Table, figures and page from whatever is stored; rc is the run's outcome so far. */
static int write_outputs(vbc_atlas *a, int rc) {
  vbc_error err = {0};
  if (vbc_atlas_collect(a, &err) != VBC_OK || vbc_atlas_write_table(a, &err) != VBC_OK)
    return report(&err);
  int plotted = vbc_atlas_plot(a, &err);
  if (plotted != VBC_OK) report(&err);
  vbc_error_clear(&err);
  if (vbc_atlas_write_html(a, &err) != VBC_OK) return report(&err);
  fprintf(stderr,
          "atlas: %s/index.html, %s/atlas.csv (%zu cells: %zu ok, %zu failed, %zu refused, "
          "%zu not run, of which %zu over the budget)\n",
          a->out, a->out, a->ncells, count(a, "ok"), count(a, "failed"), count(a, "refused"),
          count(a, "not run"), over_budget(a));
  if (rc != VBC_OK) return rc;
  if (count(a, "not run") > over_budget(a)) return VBC_EXIT_FAILED;
  return plotted;
}

int vbc_atlas_main(int argc, char **argv, const struct vbc_registry *registry) {
  if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
    fputs(usage, stdout);
    return 0;
  }
  atlas_args args;
  if (parse(argc, argv, &args) != 0) return 2;
  char vbc[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", vbc, sizeof vbc - 1);
  if (len <= 0) return fprintf(stderr, "vbc atlas: cannot find the vbc executable\n"), 4;
  vbc[len] = '\0';
  vbc_atlas a;
  memset(&a, 0, sizeof a);
  a.registry = registry;
  a.levels = (size_t)args.levels;
  a.jobs = (int)args.jobs;
  a.threads = (int)args.threads;
  a.force = args.force;
  a.quiet = args.quiet;
  vbc_error err = {0};
  int rc = vbc_atlas_spec_load(&a.spec, args.spec, &err);
  if (rc == VBC_OK) {
    if (args.out) snprintf(a.out, sizeof a.out, "%s", args.out);
    else snprintf(a.out, sizeof a.out, "results/atlas/%s", a.spec.name);
    rc = vbc_sweep_check_path("--out", a.out, &err);
  }
  a.budget = args.budget >= 0.0 ? args.budget : a.spec.cell_budget;
  if (rc == VBC_OK) rc = vbc_atlas_prepare(&a, &err);
  if (rc == VBC_OK && args.emit) {
    size_t n;
    rc = vbc_atlas_emit_jobs(&a, vbc, args.emit, &n, &err);
    if (rc == VBC_OK)
      printf("wrote %zu commands to %s (levels 1 to %zu); run them (OMP_NUM_THREADS=1 parallel "
             "-j N < %s), then run the atlas again for the table and figures%s\n",
             n, args.emit, a.emitted_levels, args.emit,
             a.budget > 0.0 ? " (and --emit-jobs again for the finer levels)" : "");
  } else if (rc == VBC_OK) {
    int ran = vbc_atlas_execute(&a, vbc, &err);
    if (ran != VBC_OK) report(&err);
    rc = write_outputs(&a, ran);
    err.code = 0; /* reported */
  }
  if (rc != VBC_OK && err.code != 0) report(&err);
  vbc_atlas_free(&a);
  return rc;
}
