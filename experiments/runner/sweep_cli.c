/* sweep_cli.c — `vbc sweep SPEC.json …`: options, then check everything (spec, every case's
 * scene, metrics, plots) before the first case starts; run what is not done; write table.csv and
 * the plots from the stored results. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiments/runner/sweep.h"

static const char usage[] =
    "usage: vbc sweep SPEC.json [-j N] [--threads N] [--out DIR] [--cases DIR]\n"
    "                 [--set KEY=VALUE]... [--force] [--quiet] [--progress-seconds S]\n"
    "                 [--case ID] [--list] [--emit-jobs FILE]\n"
    "                 [--emit-slurm FILE [--partition NAME] [--time-limit T]\n"
    "                  [--cpus-per-task N] [--throttle N]]\n"
    "\n"
    "  -j N             run up to N cases at once (separate processes; one thread each if N > 1,\n"
    "                   unless --threads)\n"
    "  --threads N      every case's OpenMP threads (vbc run --threads N; default: one each\n"
    "                   with -j N > 1, else all cores)\n"
    "  --out DIR        table.csv and plots/ go here (default results/sweeps/<spec name>)\n"
    "  --cases DIR      case directories (default DIR/cases); sweeps sharing it share cases,\n"
    "                   each run by one of them (a lock per case; the others wait for it)\n"
    "  --set KEY=VALUE  override a base-scene key in every case (as vbc run --set)\n"
    "  --force          rerun cases that are already done\n"
    "  --progress-seconds S\n"
    "                   a line per running case at least every S seconds: its id, simulated\n"
    "                   time of its end time, wall time so far (default 10; 0: none)\n"
    "  --quiet          no such progress lines (the line per finished case and errors stay)\n"
    "  --case ID        run only this case (no table, no plots): one job of a cluster array\n"
    "  --list           print the cases and their state, and the metrics available; run nothing\n"
    "                   (a metric the scene does not report is named after the list, exit 2)\n"
    "  --emit-jobs FILE write one shell command per case still to run (for GNU parallel or a\n"
    "                   Slurm array job); copy the case directories back to merge the results\n"
    "  --emit-slurm FILE\n"
    "                   write an sbatch array script: one task per case still to run, each\n"
    "                   running its case's job line, its log in DIR/slurm/slurm-JOB_TASK.log;\n"
    "                   submit it with sbatch FILE. With it:\n"
    "    --partition NAME   the partition (default: the cluster's default)\n"
    "    --time-limit T     each task's time limit as sbatch --time: M, H:M:S, D-H, D-H:M:S\n"
    "    --cpus-per-task N  CPUs of each task, also its case's OpenMP threads (default 1)\n"
    "    --throttle N       at most N tasks running at once (--array=1-M%N; default no limit)\n"
    "\n"
    "exit codes: 0 every case done, 2 bad spec or arguments, 3 a case failed or the sweep was\n"
    "interrupted, 4 system error (e.g. gnuplot missing: tables are still written)\n";

typedef struct sweep_args {
  const char *spec, *out, *cases, *only, *emit, *emit_slurm;
  const char *sets[256];
  int nsets, jobs, force, list, threads, quiet;
  double progress_seconds;
  vbc_slurm_options slurm;
  int slurm_options; /* how many of --partition … --throttle were given */
} sweep_args;

static int usage_error(const char *fmt, const char *what) {
  fprintf(stderr, "vbc sweep: ");
  fprintf(stderr, fmt, what);
  fprintf(stderr, "\n(see vbc sweep --help)\n");
  return 2;
}

/* A whole number from lo to hi, or -1. */
static long number_in(const char *text, long lo, long hi) {
  char *end;
  long n = text ? strtol(text, &end, 10) : -1;
  return text && end != text && *end == '\0' && n >= lo && n <= hi ? n : -1;
}

/* Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S, every field digits. */
static int is_time_limit(const char *t) {
  int colons = 0, dashes = 0;
  size_t field = 0; /* digits of the current field */
  for (const char *p = t; *p; ++p) {
    if (isdigit((unsigned char)*p)) { ++field; continue; }
    if (field == 0 || !(*p == ':' ? ++colons <= 2 : *p == '-' && ++dashes == 1 && colons == 0))
      return 0;
    field = 0;
  }
  return field > 0;
}

/* --partition: a name or a comma-separated list of names. */
static int is_partition(const char *p) {
  if (*p == '\0') return 0;
  for (; *p; ++p)
    if (!(isalnum((unsigned char)*p) || strchr("_-.,", *p))) return 0;
  return 1;
}

/* --partition, --time-limit, --cpus-per-task, --throttle: 1 taken (*i advanced), 0 not one of
 * them, -1 bad value (reported). */
static int parse_slurm_option(const char *s, const char *next, int *i, sweep_args *a) {
  vbc_slurm_options *o = &a->slurm;
  if (strcmp(s, "--partition") == 0) {
    if (next == NULL || !is_partition(next))
      return usage_error("%s: expected a partition name (letters, digits, _ - . or a "
                         "comma-separated list)", s), -1;
    o->partition = next;
  } else if (strcmp(s, "--time-limit") == 0) {
    if (next == NULL || !is_time_limit(next))
      return usage_error("%s: expected a Slurm time limit: minutes, M:S, H:M:S, D-H, D-H:M or "
                         "D-H:M:S", s), -1;
    o->time_limit = next;
  } else if (strcmp(s, "--cpus-per-task") == 0) {
    long n = number_in(next, 1, 4096);
    if (n < 0) return usage_error("%s: expected a number of CPUs from 1 to 4096", s), -1;
    o->cpus_per_task = (int)n;
  } else if (strcmp(s, "--throttle") == 0) {
    long n = number_in(next, 1, 1000000);
    if (n < 0) return usage_error("%s: expected a number of tasks from 1 to 1000000", s), -1;
    o->throttle = (int)n;
  } else {
    return 0;
  }
  ++*i, ++a->slurm_options;
  return 1;
}

static int parse(int argc, char **argv, sweep_args *a) {
  memset(a, 0, sizeof *a);
  a->jobs = 1;
  a->progress_seconds = 10.0;
  a->slurm.cpus_per_task = 1;
  for (int i = 2; i < argc; ++i) {
    const char *s = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    int slurm = parse_slurm_option(s, next, &i, a);
    if (slurm < 0) return 2;
    if (slurm > 0) continue;
    if (strcmp(s, "-j") == 0 || strcmp(s, "--jobs") == 0) {
      long n = number_in(next, 1, 256);
      if (n < 0) return usage_error("%s: expected a number of jobs from 1 to 256", s);
      a->jobs = (int)n, ++i;
    } else if (strcmp(s, "--threads") == 0) {
      long n = number_in(next, 1, 1024);
      if (n < 0) return usage_error("%s: expected a number of threads from 1 to 1024", s);
      a->threads = (int)n, ++i;
    } else if (strcmp(s, "--progress-seconds") == 0) {
      char *end;
      double t = next ? strtod(next, &end) : -1.0;
      if (next == NULL || end == next || *end != '\0' || !(t >= 0.0 && t <= 1e6))
        return usage_error("%s: expected a number of seconds from 0 to 1e6", s);
      a->progress_seconds = t, ++i;
    } else if (strcmp(s, "--quiet") == 0) {
      a->quiet = 1;
    } else if (strcmp(s, "--set") == 0 && next) {
      if (a->nsets == 256) return usage_error("%s: too many overrides", s);
      a->sets[a->nsets++] = argv[++i];
    } else if (strcmp(s, "--out") == 0 && next) {
      a->out = argv[++i];
    } else if (strcmp(s, "--cases") == 0 && next) {
      a->cases = argv[++i];
    } else if (strcmp(s, "--case") == 0 && next) {
      a->only = argv[++i];
    } else if (strcmp(s, "--emit-jobs") == 0 && next) {
      a->emit = argv[++i];
    } else if (strcmp(s, "--emit-slurm") == 0 && next) {
      a->emit_slurm = argv[++i];
    } else if (strcmp(s, "--force") == 0) {
      a->force = 1;
    } else if (strcmp(s, "--list") == 0) {
      a->list = 1;
    } else if (s[0] == '-') {
      int takes_value = !strcmp(s, "--set") || !strcmp(s, "--out") || !strcmp(s, "--cases") ||
                        !strcmp(s, "--case") || !strcmp(s, "--emit-jobs") ||
                        !strcmp(s, "--emit-slurm");
      return usage_error(takes_value ? "%s needs a value" : "unknown option %s", s);
    } else if (a->spec == NULL) {
      a->spec = s;
    } else {
      return usage_error("unexpected argument %s", s);
    }
  }
  if (a->spec == NULL) return usage_error("%s", "a sweep spec (SPEC.json) is needed");
  if (a->list + (a->only != NULL) + (a->emit != NULL) + (a->emit_slurm != NULL) > 1)
    return usage_error("%s", "--list, --case, --emit-jobs and --emit-slurm exclude each other");
  if (a->threads > 0 && (a->emit != NULL || a->emit_slurm != NULL))
    return usage_error("%s", "--threads sets the threads of the cases this sweep runs; for the "
                             "job lines set OMP_NUM_THREADS, for Slurm --cpus-per-task");
  if (a->slurm_options > 0 && a->emit_slurm == NULL)
    return usage_error("%s", "--partition, --time-limit, --cpus-per-task and --throttle go with "
                             "--emit-slurm FILE");
  return 0;
}

/* The cases, then what the scene reports; a metric of the spec it does not report is said after
 * the list (returned as the exit code), so that the list shows the names to choose from. */
static int list_cases(const vbc_sweep *sw, vbc_error *err) {
  printf("sweep %s (%s): %zu cases in %s\n", sw->spec.name, sw->spec.file, sw->ncases,
         sw->cases_dir);
  for (size_t i = 0; i < sw->ncases; ++i) {
    const vbc_sweep_case *c = &sw->cases[i];
    printf("  %s  %-10s  %s%s%s\n", c->id, vbc_case_state_name(c->state), c->label,
           c->message[0] ? "  -- " : "", c->message);
  }
  printf("metrics available:");
  for (size_t i = 0; i < sw->nknown; ++i) printf(" %s", sw->known_metrics[i]);
  printf("\n");
  return vbc_sweep_check_metrics(sw, err);
}

/* The paths that go into job lines and gnuplot scripts, before anything runs (sweep_jobs.c). */
static int check_paths(const vbc_sweep *sw, vbc_error *err) {
  if (vbc_sweep_check_path("the spec", sw->spec.file, err) ||
      vbc_sweep_check_path("--out", sw->out, err) ||
      vbc_sweep_check_path("--cases", sw->cases_dir, err))
    return err->code;
  for (size_t p = 0; p < sw->spec.nplots; ++p)
    if (sw->spec.plots[p].kind == VBC_PLOT_SCRIPT &&
        vbc_sweep_check_path(sw->spec.file, sw->spec.plots[p].script, err))
      return err->code;
  return VBC_OK;
}

static int report(const vbc_error *err) {
  fprintf(stderr, "vbc sweep: %s\n", err->message);
  return err->code;
}

static size_t count(const vbc_sweep *sw, vbc_case_state s) {
  size_t n = 0;
  for (size_t i = 0; i < sw->ncases; ++i) n += !sw->cases[i].is_state && sw->cases[i].state == s;
  return n;
}

/* --case ID: that case alone; a replay needs its frozen state first. */
static int run_one(vbc_sweep *sw, const char *vbc, const sweep_args *a, vbc_error *err) {
  vbc_sweep_case *c = vbc_sweep_find_case(sw, a->only);
  if (c == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: no case with id %s (vbc sweep %s --list)",
                         sw->spec.file, a->only, sw->spec.file);
  if (c->state == VBC_CASE_REFUSED)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: case %s: %s", sw->spec.file, c->label,
                         c->message);
  if (!c->is_state && sw->ncases > 0 && sw->cases[0].is_state &&
      sw->cases[0].state != VBC_CASE_DONE)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "case %s replays the frozen state of case %s, which is not done: run "
                         "vbc sweep %s --case %s first",
                         c->id, sw->cases[0].id, sw->spec.file, sw->cases[0].id);
  if (c->state == VBC_CASE_DONE && !a->force) {
    fprintf(stderr, "vbc sweep: case %s is already done (--force reruns it)\n", c->id);
    return VBC_OK;
  }
  if (vbc_sweep_execute(sw, vbc, 1, a->force, c->id, err) != VBC_OK) return err->code;
  if (c->state == VBC_CASE_DONE) return VBC_OK;
  /* a run stopped at cpu_limit_seconds (or told to stop) exits as vbc run did: 152, 143 */
  cJSON *result = vbc_sweep_case_json(sw, c, "result.json");
  const cJSON *code = cJSON_GetObjectItemCaseSensitive(result, "exit_code");
  const int rc = c->state == VBC_CASE_INCOMPLETE && cJSON_IsNumber(code) &&
                 code->valueint > VBC_EXIT_INTERRUPTED ? code->valueint : VBC_EXIT_FAILED;
  cJSON_Delete(result);
  return rc;
}

/* Every job reads the frozen state: make it here, once, before the jobs are spread. */
static int make_frozen_state(vbc_sweep *sw, const char *vbc, vbc_error *err) {
  if (sw->ncases > 0 && sw->cases[0].is_state && sw->cases[0].state != VBC_CASE_DONE &&
      vbc_sweep_execute(sw, vbc, 1, 0, sw->cases[0].id, err) != VBC_OK)
    return err->code;
  return VBC_OK;
}

static int emit_slurm(vbc_sweep *sw, const char *vbc, const sweep_args *a, vbc_error *err) {
  size_t n;
  if (make_frozen_state(sw, vbc, err) != VBC_OK ||
      vbc_sweep_emit_slurm(sw, vbc, a->emit_slurm, a->force, &a->slurm, &n, err) != VBC_OK)
    return err->code;
  if (n == 0)
    printf("every case is done: nothing to submit, %s not written (--force reruns them all)\n",
           a->emit_slurm);
  else
    printf("wrote a Slurm array of %zu tasks to %s (logs in %s/slurm). Submit it with sbatch %s; "
           "when it is done, run the sweep again (without --emit-slurm) for the table and "
           "plots.\n",
           n, a->emit_slurm, sw->out, a->emit_slurm);
  return VBC_OK;
}

static int emit(vbc_sweep *sw, const char *vbc, const sweep_args *a, vbc_error *err) {
  if (make_frozen_state(sw, vbc, err) != VBC_OK) return err->code;
  size_t n;
  if (vbc_sweep_emit_jobs(sw, vbc, a->emit, a->force, &n, err) != VBC_OK) return err->code;
  printf("wrote %zu commands to %s. Run them with GNU parallel (OMP_NUM_THREADS=1 parallel -j N "
         "< %s: one thread per case) or as a Slurm array (vbc sweep --emit-slurm writes its "
         "script), copy the case directories into %s, then run the sweep again for the table "
         "and plots.\n",
         n, a->emit, a->emit, sw->cases_dir);
  return VBC_OK;
}

static int run_all(vbc_sweep *sw, const char *vbc, const sweep_args *a, vbc_error *err) {
  int rc = vbc_sweep_execute(sw, vbc, a->jobs, a->force, NULL, err);
  if (rc != VBC_OK) report(err);
  vbc_error e2;
  vbc_error_clear(&e2);
  if (vbc_sweep_write_table(sw, &e2) != VBC_OK) return report(&e2);
  fprintf(stderr, "table: %s/table.csv (%zu done, %zu failed, %zu not run)\n", sw->out,
          count(sw, VBC_CASE_DONE), count(sw, VBC_CASE_FAILED),
          count(sw, VBC_CASE_PENDING) + count(sw, VBC_CASE_INCOMPLETE));
  if (vbc_sweep_plot_all(sw, &e2) != VBC_OK) {
    report(&e2);
    if (rc == VBC_OK) rc = e2.code;
  }
  if (rc == VBC_OK && count(sw, VBC_CASE_FAILED) > 0) {
    fprintf(stderr, "vbc sweep: %zu case(s) failed; their messages are in table.csv\n",
            count(sw, VBC_CASE_FAILED));
    rc = VBC_EXIT_FAILED;
  }
  return rc;
}

int vbc_sweep_main(int argc, char **argv, const struct vbc_registry *registry) {
  if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
    fputs(usage, stdout);
    return 0;
  }
  sweep_args a;
  if (parse(argc, argv, &a) != 0) return 2;
  char vbc[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", vbc, sizeof vbc - 1);
  if (len <= 0) return fprintf(stderr, "vbc sweep: cannot find the vbc executable\n"), 4;
  vbc[len] = '\0';
  vbc_sweep sw;
  memset(&sw, 0, sizeof sw);
  sw.registry = registry;
  vbc_error err;
  vbc_error_clear(&err);
  int rc = vbc_sweep_spec_load(&sw.spec, a.spec, a.sets, a.nsets, &err);
  if (rc == VBC_OK) {
    if (a.out) snprintf(sw.out, sizeof sw.out, "%s", a.out);
    else snprintf(sw.out, sizeof sw.out, "results/sweeps/%s", sw.spec.name);
    if (a.cases) snprintf(sw.cases_dir, sizeof sw.cases_dir, "%s", a.cases);
    else snprintf(sw.cases_dir, sizeof sw.cases_dir, "%s/cases", sw.out);
    rc = check_paths(&sw, &err);
    /* --case ID runs one case: another case's bad scene or preset (a refused cell of an atlas)
     * is not its concern; its own is still exit 2 (run_one) */
    sw.keep_refused = a.only != NULL;
    if (rc == VBC_OK) rc = vbc_sweep_expand_cases(&sw, &err);
    if (rc == VBC_OK && !a.list) rc = vbc_sweep_check_metrics(&sw, &err);
  }
  sw.threads = a.threads;
  sw.quiet = a.quiet;
  sw.progress_seconds = a.progress_seconds;
  if (rc == VBC_OK) {
    if (a.list) rc = list_cases(&sw, &err);
    else if (a.only) rc = run_one(&sw, vbc, &a, &err);
    else if (a.emit) rc = emit(&sw, vbc, &a, &err);
    else if (a.emit_slurm) rc = emit_slurm(&sw, vbc, &a, &err);
    else rc = run_all(&sw, vbc, &a, &err), err.code = 0; /* run_all reports its own errors */
  }
  if (rc != VBC_OK && err.code != 0) report(&err);
  vbc_sweep_free(&sw);
  return rc;
}
