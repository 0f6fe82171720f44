/* cli.c — see cli.h. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/checkpoint.h"
#include "registry/registry.h"
#include "modules/builtin.h"
#include "sim/run.h"
#include "scene/method_preset.h"
#include "scene/scene.h"
#include "experiments/runner/animate.h"
#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep.h"

#define RUN_SYNOPSIS                                                                              \
  "usage: vbc run SCENE.json [--method NAME] [--set KEY=VALUE]... [--out DIR] [--threads N]\n"       \
  "               [--quiet] [--strict]\n"                                                            \
  "               [--dump-state STEP FILE | --from-state FILE] [--dump-lcp STEP DIR]\n"              \
  "               [--exact-reference] [--checkpoint-every STEPS | --checkpoint-seconds S]\n"          \
  "               [--profile] [--max-particles N] [--cpu-limit S]\n"                             \
  "       vbc run [SCENE.json [--set KEY=VALUE]...] --resume DIR [--threads N] [--quiet]\n"   \
  "               [--cpu-limit S]\n"
#define VALIDATE_SYNOPSIS \
  "vbc validate SCENE.json [--method NAME] [--set KEY=VALUE]... [--max-particles N]\n"
#define LIST_SYNOPSIS "vbc list [--format text|markdown|json|compatibility]\n"
#define LCP_SYNOPSIS                                                                              \
  "vbc lcp FILE [--solver lemke|pgs|jacobi|mprgp|...] [--max-pivots N] [--max-iterations N] [--tol T]\n" \
  "               [--omega W] [--reference REF.json] [--trace FILE.csv]\n"
#define ANIMATE_SYNOPSIS "vbc animate DIR [--array NAME] [--out FILE] [--fps N] [--keep-png]\n"
#define RUN_TEXT                                                                                  \
  "  run        simulate the scene; writes summary.json, series.csv, convergence.csv\n"             \
  "             (step,time,block,iteration,residual,relative_residual,mean_error,\n"                \
  "             reference_error,reference_w_error,seconds)\n"                                        \
  "             and (when output.frames is true) frames/*.vtu + frames.pvd into DIR\n"               \
  "             (default results/<scene name>)\n"
#define VALIDATE_TEXT                                                                             \
  "  validate   check the scene (with its --set overrides) and set it up without running it\n"
#define LIST_TEXT                                                                                 \
  "  list       print the registered blocks, solvers, couplers and benchmarks with their\n"         \
  "             parameters (--format markdown: docs/modules.md; json: the same as data;\n"       \
  "             compatibility: which combinations set up, docs/compatibility.md)\n"
#define LCP_TEXT                                                                                  \
  "  lcp        solve the LCP in FILE (n, M row by row, q; # comments), print JSON: status,\n"      \
  "             pivots or iterations, error, seconds, z, w (docs/lcp.md); exit 0 if solved;\n"      \
  "             --reference REF: also the distance to REF's z (e.g. Lemke's output);\n"             \
  "             --trace: per iteration of pgs/jacobi, errors against REF as CSV\n"
#define ANIMATE_TEXT                                                                              \
  "  animate    turn the frames of the run in DIR (DIR/frames.pvd) into DIR/animation.mp4\n"       \
  "             (ffmpeg; DIR/animation.gif without it, or with --out FILE.gif): fluid\n"             \
  "             coloured by --array (default pressure_smoothed, else pressure; a vector by its\n"    \
  "             magnitude), walls grey, bodies outlined, the time in the corner; 3D frames\n"         \
  "             projected onto x-y; --fps N (default 10); --keep-png keeps the PNGs, data and\n"   \
  "             gnuplot script in OUT_frames/ (docs/cli.md)\n"
#define SET_OPTION                                                                                \
  "  --method NAME    replace the scene's whole `method` by a preset's (experiments/methods/\n"   \
  "                   NAME.json, or a preset file's path; vbc list shows them); --set applies\n"  \
  "                   on top\n"                                                                      \
  "  --set KEY=VALUE  KEY is a dotted path into the scene JSON (time.end, method.fluid.solver,\n"   \
  "                   geometry.0.max.1); VALUE is parsed as JSON, else taken as a string\n"
#define MAX_PARTICLES_OPTION                                                                      \
  "  --max-particles N\n"                                                                           \
  "                   the most particles the scene may create (default: what fits in physical\n"  \
  "                   memory, about 1 kB per particle in 2D); a scene over it exits 2 before\n"    \
  "                   allocating, with the count and the memory it would need\n"
#define RUN_OPTIONS                                                                               \
  "  --out DIR        output directory\n"                                                          \
  "  --threads N      OpenMP threads (default: all cores; results do not depend on N)\n"          \
  "  --quiet          no progress output\n"                                                        \
  "  --dump-state STEP FILE\n"                                                                      \
  "                   write the complete state at the start of step STEP (1..steps), i.e.\n"     \
  "                   just before its pressure solve, to FILE; the run goes on\n"                \
  "  --from-state FILE\n"                                                                           \
  "                   replace the scene's particles by FILE's state and run only the step it\n"  \
  "                   was dumped before, with every iteration in convergence.csv; metrics are\n" \
  "                   that solve's iterations, stop_reason, final_relative_residual and\n"       \
  "                   solve_seconds (vary method.fluid.* to compare solvers on one problem)\n"   \
  "  --dump-lcp STEP DIR\n"                                                                         \
  "                   write every solve of step STEP (1..steps; step k advances t = (k-1) dt\n"   \
  "                   to k dt) as the LCP Lemke would solve, z = impulses, w = J v - b, in the\n" \
  "                   format of vbc lcp: DIR/stepSSSSSS_solveK_BLOCKS.lcp (docs/lcp.md)\n"       \
  "  --exact-reference\n"                                                                           \
  "                   solve every traced solve (the sampled steps' fluid solve; with\n"          \
  "                   --from-state the one step) also with Lemke and write each iterate's\n"     \
  "                   |z - z*|/|z*| and |w - w*|/|w* - q| (max norms) as reference_error and\n" \
  "                   reference_w_error in convergence.csv; the results do not change\n"        \
  "                   (docs/lcp.md)\n"                                                              \
  "  --profile        print at the end where the wall time went: neighbour search, explicit\n"   \
  "                   terms, each stage's rows and solve (us per row-iteration), bodies,\n"       \
  "                   output (summary.json has it as `timing` either way)\n"                     \
  "  --strict         the first run-time warning (summary.json `warnings`: a solve stopped at\n"  \
  "                   iteration 0 with a large local error, fluid deep inside a body) fails\n"   \
  "                   the run: exit 3, the last good state written\n"                             \
  "  --checkpoint-every STEPS, --checkpoint-seconds S\n"                                            \
  "                   write DIR/checkpoint.vbc after every STEPS steps, or whenever S wall\n"     \
  "                   seconds have passed since the last one (atomically; removed when the\n"    \
  "                   run completes)\n"                                                           \
  MAX_PARTICLES_OPTION                                                                            \
  "  --cpu-limit S    stop after the first step that takes the run's CPU time (all threads)\n"  \
  "                   over S seconds, as SIGINT/SIGTERM would (below), with exit 152 (128 +\n" \
  "                   SIGXCPU) and summary.json cpu_limit.reached; --resume continues it\n"     \
  "  --resume DIR     continue the run a kill interrupted from DIR/checkpoint.vbc; without\n"    \
  "                   SCENE the checkpoint's scene file and --set assignments are used; the\n"   \
  "                   results are those of an uninterrupted run, bit for bit\n"                  \
  "\n"                                                                                             \
  "  SIGINT/SIGTERM   stop after the current step: a checkpoint when --checkpoint-* is on,\n"   \
  "                   summary.json with \"status\": \"interrupted\", exit 128 + the signal\n"
#define EXIT_CODES                                                                                \
  "exit codes: 0 success, 2 bad input, 3 the simulation failed, 4 system error,\n"                \
  "            130/143 interrupted by SIGINT/SIGTERM (run, sweep), 152 stopped at\n"        \
  "            --cpu-limit (run)\n"

static const char usage[] =
    RUN_SYNOPSIS
    "       " VALIDATE_SYNOPSIS
    "       " LIST_SYNOPSIS
    "       vbc sweep SPEC.json [-j N] [--threads N] [--out DIR] [--force] [--case ID] [--list] [--emit-jobs FILE]\n"
    "       vbc atlas SPEC.json [--out DIR] [--levels N] [-j N] [--emit-jobs FILE]\n"
    "       " LCP_SYNOPSIS
    "       " ANIMATE_SYNOPSIS
    "       vbc --help | --version\n"
    "       vbc COMMAND --help: that command's usage\n"
    "\n"
    RUN_TEXT VALIDATE_TEXT LIST_TEXT
    "  sweep      run a parameter sweep (docs/sweep-format.md; vbc sweep --help)\n"
    "  atlas      every method preset on common validation cases under refinement (docs/atlas-format.md;\n"
    "             vbc atlas --help)\n"
    LCP_TEXT ANIMATE_TEXT
    "\n" SET_OPTION RUN_OPTIONS "\n" EXIT_CODES;

/* `vbc COMMAND --help`: that command's usage on stdout (sweep and atlas print their own). */
static const char *const command_usage[][2] = {
    {"run", RUN_SYNOPSIS "\n" RUN_TEXT "\n" SET_OPTION RUN_OPTIONS "\n" EXIT_CODES},
    {"validate", "usage: " VALIDATE_SYNOPSIS "\n" VALIDATE_TEXT "\n" SET_OPTION
                 MAX_PARTICLES_OPTION "\nexit codes: 0 valid, 2 bad input, 4 system error\n"},
    {"list", "usage: " LIST_SYNOPSIS "\n" LIST_TEXT},
    {"lcp", "usage: " LCP_SYNOPSIS "\n" LCP_TEXT
            "\nexit codes: 0 solved, 2 bad input, 3 not solved, 4 system error (docs/lcp.md)\n"},
    {"animate", "usage: " ANIMATE_SYNOPSIS "\n" ANIMATE_TEXT
                "\nexit codes: 0 written, 2 bad input, 4 system error (e.g. gnuplot missing)\n"}};

/* 1 if an argument after the command asks for help. */
static int wants_help(int argc, char **argv) {
  for (int i = 2; i < argc; ++i)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
  return 0;
}

typedef struct args {
  const char *command, *scene, *out;
  const char *sets[256];
  int nsets, threads, quiet, exact_reference, profile, strict;
  long dump_step, dump_lcp_step, checkpoint_every;
  double checkpoint_seconds, max_particles, cpu_limit;
  const char *dump_path, *from_state, *dump_lcp_dir, *resume;
  const char *method; /* --method NAME: a preset (scene/method_preset.h) */
  vbc_method_preset preset;
  char *method_set; /* the preset's "method={...}", a->sets[0] */
} args;

static int bad_usage(const char *fmt, const char *what) {
  fprintf(stderr, "vbc: ");
  fprintf(stderr, fmt, what);
  fprintf(stderr, "\n(see vbc --help)\n");
  return 2;
}

static int parse(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->command = argv[1];
  for (int i = 2; i < argc; ++i) {
    const char *s = argv[i];
    int has_value = i + 1 < argc;
    if (strcmp(s, "--method") == 0) {
      if (!has_value) return bad_usage("%s needs a preset name (vbc list shows them)", s);
      a->method = argv[++i];
    } else if (strcmp(s, "--set") == 0) {
      if (!has_value) return bad_usage("%s needs KEY=VALUE", s);
      if (a->nsets == 256) return bad_usage("%s: too many overrides", s);
      a->sets[a->nsets++] = argv[++i];
    } else if (strcmp(s, "--out") == 0) {
      if (!has_value) return bad_usage("%s needs a directory", s);
      a->out = argv[++i];
    } else if (strcmp(s, "--threads") == 0) {
      char *end;
      if (!has_value) return bad_usage("%s needs a number", s);
      long n = strtol(argv[++i], &end, 10);
      if (*end != '\0' || n < 1 || n > 1024) return bad_usage("--threads: expected 1..1024, got %s", argv[i]);
      a->threads = (int)n;
    } else if (strcmp(s, "--quiet") == 0) {
      a->quiet = 1;
    } else if (strcmp(s, "--profile") == 0) {
      a->profile = 1;
    } else if (strcmp(s, "--strict") == 0) {
      a->strict = 1;
    } else if (strcmp(s, "--exact-reference") == 0) {
      a->exact_reference = 1;
    } else if (strcmp(s, "--dump-state") == 0) {
      char *end;
      if (i + 2 >= argc) return bad_usage("%s needs STEP and FILE", s);
      long n = strtol(argv[++i], &end, 10);
      if (*end != '\0' || end == argv[i])
        return bad_usage("--dump-state: expected a step number, got %s", argv[i]);
      a->dump_step = n;
      a->dump_path = argv[++i];
    } else if (strcmp(s, "--dump-lcp") == 0) {
      char *end;
      if (i + 2 >= argc) return bad_usage("%s needs STEP and DIR", s);
      long n = strtol(argv[++i], &end, 10);
      if (*end != '\0' || end == argv[i] || n < 1)
        return bad_usage("--dump-lcp: expected a positive step number, got %s", argv[i]);
      a->dump_lcp_step = n;
      a->dump_lcp_dir = argv[++i];
    } else if (strcmp(s, "--checkpoint-every") == 0) {
      char *end;
      if (!has_value) return bad_usage("%s needs a number of steps", s);
      a->checkpoint_every = strtol(argv[++i], &end, 10);
      if (*end != '\0' || end == argv[i] || a->checkpoint_every < 1)
        return bad_usage("--checkpoint-every: expected a positive number of steps, got %s",
                         argv[i]);
    } else if (strcmp(s, "--checkpoint-seconds") == 0) {
      char *end;
      if (!has_value) return bad_usage("%s needs a number of seconds", s);
      a->checkpoint_seconds = strtod(argv[++i], &end);
      if (*end != '\0' || end == argv[i] || !(a->checkpoint_seconds > 0.0))
        return bad_usage("--checkpoint-seconds: expected a positive number, got %s", argv[i]);
    } else if (strcmp(s, "--cpu-limit") == 0) {
      char *end;
      if (!has_value) return bad_usage("%s needs a number of CPU seconds", s);
      a->cpu_limit = strtod(argv[++i], &end);
      if (*end != '\0' || end == argv[i] || !(a->cpu_limit > 0.0 && a->cpu_limit < 1e12))
        return bad_usage("--cpu-limit: expected a positive number of CPU seconds, got %s",
                         argv[i]);
    } else if (strcmp(s, "--max-particles") == 0) {
      char *end;
      if (!has_value) return bad_usage("%s needs a number of particles", s);
      a->max_particles = strtod(argv[++i], &end);
      if (*end != '\0' || end == argv[i] || !(a->max_particles >= 1.0))
        return bad_usage("--max-particles: expected a positive number, got %s", argv[i]);
    } else if (strcmp(s, "--resume") == 0) {
      if (!has_value) return bad_usage("%s needs the run's directory", s);
      a->resume = argv[++i];
    } else if (strcmp(s, "--from-state") == 0) {
      if (!has_value) return bad_usage("%s needs a state file", s);
      a->from_state = argv[++i];
    } else if (s[0] == '-') {
      return bad_usage("unknown option %s", s);
    } else if (a->scene == NULL) {
      a->scene = s;
    } else {
      return bad_usage("unexpected argument %s", s);
    }
  }
  return 0;
}

static int report(const vbc_error *err) {
  fprintf(stderr, "vbc: %s\n", err->message);
  return err->code;
}

/* --method NAME: the preset's method replaces the scene's before any --set (its assignment goes
 * first, so that a checkpoint records it with the others). */
static int use_method(args *a, vbc_error *err) {
  if (a->method == NULL) return VBC_OK;
  if (a->nsets == 256) return vbc_error_set(err, VBC_EXIT_INPUT, "--method: too many --set");
  if (vbc_method_preset_load(&a->preset, a->method, err) != VBC_OK ||
      (a->method_set = vbc_method_preset_assignment(&a->preset, err)) == NULL)
    return err->code;
  memmove(a->sets + 1, a->sets, (size_t)a->nsets * sizeof *a->sets);
  a->sets[0] = a->method_set;
  a->nsets++;
  return VBC_OK;
}

/* The scene with the --method preset and the --set assignments, checked against what the preset
 * requires; s->method_preset names the preset. */
static int load_scene(vbc_scene *s, args *a, const vbc_registry *reg, vbc_error *err) {
  if (vbc_scene_load_within(s, a->scene, a->sets, a->nsets, reg, a->max_particles, err) != VBC_OK)
    return err->code;
  return a->method ? vbc_method_preset_apply(&a->preset, s, err) : VBC_OK;
}

static void drop_method(args *a) {
  vbc_method_preset_free(&a->preset);
  free(a->method_set);
  a->method_set = NULL;
}

static int cmd_validate(args *a, const vbc_registry *reg) {
  vbc_scene scene = {0};
  vbc_error err;
  vbc_error_clear(&err);
  int rc = use_method(a, &err);
  if (rc == VBC_OK) rc = load_scene(&scene, a, reg, &err);
  scene.max_particles = a->max_particles;
  if (rc == 0) rc = vbc_check(&scene, &err);
  if (rc == 0) printf("%s: valid\n", a->scene);
  vbc_scene_free(&scene);
  drop_method(a);
  return rc ? report(&err) : 0;
}

/* `--resume DIR` without a scene: the checkpoint's scene file and --set assignments. */
static int resume_scene(args *a, char *scene, size_t size, char ***sets, vbc_error *err) {
  int n = 0;
  if (vbc_checkpoint_scene(a->resume, scene, size, sets, &n, err) != VBC_OK) return err->code;
  if (n > 256) return vbc_error_set(err, VBC_EXIT_INPUT, "%s: too many --set", a->resume);
  a->scene = scene;
  for (int i = 0; i < n; ++i) a->sets[i] = (*sets)[i];
  a->nsets = n;
  return VBC_OK;
}

/* SIGINT/SIGTERM during `vbc run`: the handler only records the signal; the time loop stops
 * between steps (sim/run.h, `interrupt`). */
static volatile sig_atomic_t run_interrupt;

static void on_run_signal(int sig) { run_interrupt = sig; }

static void catch_signals(struct sigaction old[2]) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_run_signal;
  sigemptyset(&sa.sa_mask);
  run_interrupt = 0;
  sigaction(SIGINT, &sa, &old[0]);
  sigaction(SIGTERM, &sa, &old[1]);
}

static int cmd_run(args *a, const vbc_registry *reg) {
  vbc_scene scene = {0};
  vbc_error err;
  vbc_error_clear(&err);
  char resumed[1024], **sets = NULL;
  const int nsets = a->nsets;
  int rc = a->resume && a->scene == NULL ? resume_scene(a, resumed, sizeof resumed, &sets, &err)
                                         : use_method(a, &err);
  if (rc == VBC_OK) rc = load_scene(&scene, a, reg, &err);
  if (rc != VBC_OK) {
    vbc_scene_free(&scene);
    vbc_checkpoint_sets_free(sets, a->nsets - nsets);
    drop_method(a);
    return report(&err);
  }
  scene.max_particles = a->max_particles;
  if (a->threads > 0) omp_set_num_threads(a->threads);
  char out[1024];
  if (a->resume) snprintf(out, sizeof out, "%s", a->resume);
  else if (a->out) snprintf(out, sizeof out, "%s", a->out);
  else snprintf(out, sizeof out, "results/%s", scene.name);
  vbc_run_options opt = {.out_dir = out,
                         .progress = a->quiet ? VBC_PROGRESS_OFF
                                     : isatty(fileno(stderr)) ? VBC_PROGRESS_BAR
                                                              : VBC_PROGRESS_LINES,
                         .dump_step = a->dump_step, .dump_path = a->dump_path,
                         .from_state = a->from_state, .dump_lcp_step = a->dump_lcp_step,
                         .dump_lcp_dir = a->dump_lcp_dir, .exact_reference = a->exact_reference,
                         .profile = a->profile, .strict = a->strict,
                         .checkpoint_every = a->checkpoint_every,
                         .checkpoint_seconds = a->checkpoint_seconds, .resume = a->resume != NULL,
                         .cpu_limit = a->cpu_limit,
                         .sets = a->sets, .nsets = a->nsets, .interrupt = &run_interrupt};
  struct sigaction old[2];
  catch_signals(old);
  rc = vbc_run(&scene, &opt, &err);
  sigaction(SIGINT, &old[0], NULL);
  sigaction(SIGTERM, &old[1], NULL);
  vbc_scene_free(&scene);
  vbc_checkpoint_sets_free(sets, a->nsets - nsets);
  drop_method(a);
  if (rc != 0) {
    report(&err);
    if (rc == 3) fprintf(stderr, "vbc: the last good state is the last frame in %s/frames.pvd\n", out);
    return rc;
  }
  if (!a->quiet && a->dump_path)
    fprintf(stderr, "vbc: wrote %s (the state before step %ld)\n", a->dump_path, a->dump_step);
  if (!a->quiet) fprintf(stderr, "vbc: wrote %s/summary.json\n", out);
  return 0;
}

/* vbc list [--format text|markdown|json] */
static int cmd_list(int argc, char **argv, const vbc_registry *reg) {
  const char *format = "text";
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) format = argv[++i];
    else return bad_usage("list: unknown argument '%s' (vbc list [--format text|markdown|json|compatibility])",
                          argv[i]);
  }
  if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
      strcmp(format, "compatibility"))
    return bad_usage("list --format: expected text, markdown, json or compatibility, got '%s'",
                     format);
  vbc_error err = {0};
  if (strcmp(format, "compatibility") == 0)
    return vbc_compatibility_print_markdown(reg, stdout, &err) == VBC_OK ? 0 : report(&err);
  cJSON *presets = vbc_method_presets_json(&err);
  if (presets == NULL) return report(&err);
  int rc = VBC_OK;
  if (strcmp(format, "text") == 0) {
    vbc_registry_print(reg, stdout);
    vbc_method_presets_print(presets, stdout);
  } else if (strcmp(format, "markdown") == 0) {
    rc = vbc_registry_print_markdown(reg, stdout, &err);
    if (rc == VBC_OK) vbc_method_presets_print_markdown(presets, stdout);
  } else {
    char *text = vbc_modules_json(reg, &err);
    if (text) puts(text);
    else rc = err.code;
    free(text);
  }
  cJSON_Delete(presets);
  return rc == VBC_OK ? 0 : report(&err);
}

int vbc_main(int argc, char **argv) {
  vbc_registry reg;
  vbc_error err = {0};
  if (vbc_registry_builtin(&reg, &err) != VBC_OK) return report(&err);
  /* a write past a file size limit (ulimit -f) fails with EFBIG and is reported (exit 4, the
   * path) instead of killing the process half-way through a file */
  signal(SIGXFSZ, SIG_IGN);
  if (argc < 2) {
    fputs(usage, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("vbc %s\n", VBC_VERSION);
    return 0;
  }
  for (size_t i = 0; i < sizeof command_usage / sizeof *command_usage; ++i)
    if (strcmp(cmd, command_usage[i][0]) == 0 && wants_help(argc, argv)) {
      fputs(command_usage[i][1], stdout);
      return 0;
    }
  if (strcmp(cmd, "sweep") == 0) return vbc_sweep_main(argc, argv, &reg);
  if (strcmp(cmd, "atlas") == 0) return vbc_atlas_main(argc, argv, &reg);
  if (strcmp(cmd, "lcp") == 0) return vbc_lcp_main(argc, argv, &reg);
  if (strcmp(cmd, "animate") == 0) return vbc_animate_main(argc, argv);
  if (strcmp(cmd, "list") == 0) return cmd_list(argc, argv, &reg);
  args a;
  if (parse(argc, argv, &a) != 0) return 2;
  if (strcmp(cmd, "run") != 0 && strcmp(cmd, "validate") != 0)
    return bad_usage("unknown command '%s'", cmd);
  const int run = strcmp(cmd, "run") == 0;
  if (a.scene == NULL && !(run && a.resume)) return bad_usage("%s needs a scene file", cmd);
  if (a.scene == NULL && a.nsets)
    return bad_usage("%s: --set needs the scene file (without one, --resume takes the "
                     "checkpoint's assignments)", cmd);
  if (!run && (a.out || a.threads || a.quiet || a.profile || a.strict || a.dump_path || a.from_state || a.dump_lcp_dir ||
               a.exact_reference || a.resume || a.checkpoint_every || a.checkpoint_seconds > 0.0 ||
               a.cpu_limit > 0.0))
    return bad_usage("%s takes only a scene and --set", cmd);
  if (a.dump_path && a.from_state)
    return bad_usage("%s: --dump-state and --from-state exclude each other", cmd);
  if (a.from_state && (a.resume || a.checkpoint_every || a.checkpoint_seconds > 0.0))
    return bad_usage("%s: --from-state runs one step: no --checkpoint-* or --resume", cmd);
  if (a.resume && a.scene == NULL && a.method)
    return bad_usage("%s: --resume DIR without a scene takes the checkpoint's method; drop "
                     "--method", cmd);
  if (a.checkpoint_every && a.checkpoint_seconds > 0.0)
    return bad_usage("%s: --checkpoint-every and --checkpoint-seconds exclude each other", cmd);
  if (a.resume && a.out && strcmp(a.resume, a.out) != 0)
    return bad_usage("%s: --resume DIR writes into DIR; drop --out", cmd);
  return run ? cmd_run(&a, &reg) : cmd_validate(&a, &reg);
}
