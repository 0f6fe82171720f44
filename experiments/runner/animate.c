/* animate.c — see animate.h. Every file gnuplot and ffmpeg touch has a name made here
 * (frame_NNNNNN.png, wNNNNNN.dat, ...) in the work directory they run in, so no user path enters
 * a script; the one user text in the script, the run directory's name in the title, is written
 * as a single-quoted gnuplot string with quotes doubled and control characters replaced. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/files.h"
#include "io/vtu_read.h"
#include "experiments/runner/animate.h"
#include "experiments/runner/sweep_gnuplot.h"
#include "experiments/runner/sweep_spawn.h"

#define WIDTH 960
#define HEIGHT 720

typedef struct anim {
  const vbc_animate_options *o;
  char **files; /* the frames' paths */
  double *times;
  size_t n, cap;
  char work[1200], out[1100], array[64];
  int gif, three_d;
  double lo[2], hi[2], vmin, vmax, spacing;
  size_t nonempty[3]; /* per kind: frames with such particles */
} anim;

/* s as the body of a gnuplot single-quoted string. */
static const char *gp_single(const char *s, char *buf, size_t size) {
  size_t n = 0;
  for (; *s && n + 2 < size; ++s) {
    if (*s == '\'') buf[n++] = '\'';
    buf[n++] = (unsigned char)*s < 0x20 ? '?' : *s;
  }
  buf[n] = '\0';
  return buf;
}

static int read_pvd(anim *A, vbc_error *err) {
  char path[1200];
  snprintf(path, sizeof path, "%s/frames.pvd", A->o->dir);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot read it (%s); a run writes it with "
                         "output.frames = true", path, strerror(errno));
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    const char *ds = strstr(line, "<DataSet "), *file = strstr(line, " file=\"");
    const char *part = strstr(line, " part=\""), *ts = strstr(line, " timestep=\"");
    if (ds == NULL || file == NULL || ts == NULL || (part && strncmp(part, " part=\"0\"", 9)))
      continue;
    void *const arrays[] = {&A->files, &A->times};
    const size_t sizes[] = {sizeof *A->files, sizeof *A->times};
    char name[1400];
    snprintf(name, sizeof name, "%s/%.*s", A->o->dir, (int)strcspn(file + 7, "\""), file + 7);
    if (vbc_grow(&A->cap, A->n + 1, arrays, sizes, 2, err) != VBC_OK ||
        (A->files[A->n] = vbc_strdup(name, err)) == NULL)
      return fclose(f), err->code;
    A->times[A->n++] = strtod(ts + 11, NULL);
  }
  fclose(f);
  if (A->n == 0) return vbc_error_set(err, VBC_EXIT_INPUT, "%s: lists no frames", path);
  return VBC_OK;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The smallest positive gap between sorted coordinates: the lattice spacing of the first
 * frame, which sizes the points. */
static double lattice_spacing(const vbc_vtu_frame *f, vbc_error *err) {
  double *x = vbc_calloc(f->n ? f->n : 1, sizeof *x, err), l = INFINITY;
  if (x == NULL) return NAN;
  for (size_t i = 0; i < f->n; ++i) x[i] = f->pos[3 * i];
  qsort(x, f->n, sizeof *x, cmp_double);
  const double tiny = 1e-9 * (f->n ? fabs(x[f->n - 1] - x[0]) + 1e-300 : 1);
  for (size_t i = 1; i < f->n; ++i)
    if (x[i] - x[i - 1] > tiny && x[i] - x[i - 1] < l) l = x[i] - x[i - 1];
  free(x);
  return l;
}

/* A particle's depth and index, to draw nearer ones (larger z) last. */
typedef struct depth { double z; size_t i; } depth;

static int cmp_depth(const void *a, const void *b) {
  const depth *x = a, *y = b;
  if (x->z != y->z) return (x->z > y->z) - (x->z < y->z);
  return (x->i > y->i) - (x->i < y->i); /* a stable order */
}

/* Points of one kind in `order`, as "x y value" lines. */
static int depth_order(const vbc_vtu_frame *f, size_t *order, vbc_error *err) {
  depth *d = vbc_calloc(f->n ? f->n : 1, sizeof *d, err);
  if (d == NULL) return err->code;
  for (size_t i = 0; i < f->n; ++i) d[i] = (depth){f->pos[3 * i + 2], i};
  qsort(d, f->n, sizeof *d, cmp_depth);
  for (size_t i = 0; i < f->n; ++i) order[i] = d[i].i;
  free(d);
  return VBC_OK;
}

static int write_kind(anim *A, const vbc_vtu_frame *f, const size_t *order, size_t k, int kind,
                      vbc_error *err) {
  static const char prefix[3] = {'f', 'b', 'w'};
  size_t count = 0;
  for (size_t j = 0; j < f->n; ++j) count += f->kind[order[j]] == kind;
  if (count == 0) return VBC_OK;
  char path[1300];
  snprintf(path, sizeof path, "%s/%c%06zu.dat", A->work, prefix[kind], k);
  vbc_file file;
  if (vbc_file_open(&file, path, ".tmp", err) != VBC_OK) return err->code;
  for (size_t j = 0; j < f->n; ++j) {
    const size_t i = order[j];
    if (f->kind[i] != kind) continue;
    fprintf(file.f, "%.9g %.9g %.9g\n", f->pos[3 * i], f->pos[3 * i + 1], f->value[i]);
  }
  A->nonempty[kind]++;
  return vbc_file_commit(&file, err);
}

/* The fluid values' q-quantile (0..1) in f, NAN without fluid. */
static double quantile(const vbc_vtu_frame *f, double q, vbc_error *err) {
  double *v = vbc_calloc(f->n ? f->n : 1, sizeof *v, err);
  size_t m = 0;
  if (v == NULL) return NAN;
  for (size_t i = 0; i < f->n; ++i)
    if (f->kind[i] == 0 && isfinite(f->value[i])) v[m++] = f->value[i];
  qsort(v, m, sizeof *v, cmp_double);
  double x = m ? v[(size_t)(q * (double)(m - 1) + 0.5)] : NAN;
  free(v);
  return x;
}

/* Every frame: its data files, and the ranges over the whole run; the colour scale runs from
 * the smallest 1st to the largest 99th percentile of the frames' fluid values, so that one
 * impact spike does not wash out the rest of the run. */
static int write_data(anim *A, vbc_error *err) {
  A->lo[0] = A->lo[1] = A->vmin = INFINITY;
  A->hi[0] = A->hi[1] = A->vmax = -INFINITY;
  for (size_t k = 0; k < A->n; ++k) {
    vbc_vtu_frame f;
    if (vbc_vtu_read(A->files[k], A->o->array, &f, err) != VBC_OK) return err->code;
    snprintf(A->array, sizeof A->array, "%s", f.array);
    size_t *order = vbc_calloc(f.n ? f.n : 1, sizeof *order, err);
    if (order == NULL) return vbc_vtu_frame_free(&f), err->code;
    for (size_t i = 0; i < f.n; ++i) {
      order[i] = i;
      for (int a = 0; a < 2; ++a) {
        A->lo[a] = fmin(A->lo[a], f.pos[3 * i + a]);
        A->hi[a] = fmax(A->hi[a], f.pos[3 * i + a]);
      }
      if (k == 0 && f.pos[3 * i + 2] != 0.0) A->three_d = 1;
    }
    const double q1 = quantile(&f, 0.01, err), q99 = quantile(&f, 0.99, err);
    if (!isnan(q1)) A->vmin = fmin(A->vmin, q1), A->vmax = fmax(A->vmax, q99);
    if (k == 0) A->spacing = lattice_spacing(&f, err);
    int rc = A->three_d ? depth_order(&f, order, err) : VBC_OK;
    for (int kind = 0; kind < 3 && rc == VBC_OK; ++kind) rc = write_kind(A, &f, order, k, kind, err);
    free(order);
    vbc_vtu_frame_free(&f);
    if (rc != VBC_OK || isnan(A->spacing)) return err->code;
  }
  if (!(A->vmin <= A->vmax)) A->vmin = 0.0, A->vmax = 1.0;
  if (A->vmin == A->vmax) A->vmin -= 0.5 * fabs(A->vmin) + 0.5, A->vmax += 0.5 * fabs(A->vmax) + 0.5;
  return VBC_OK;
}

static int exists(const anim *A, char prefix, size_t k) {
  char path[1300];
  snprintf(path, sizeof path, "%s/%c%06zu.dat", A->work, prefix, k);
  return access(path, F_OK) == 0;
}

/* One frame's plot command (walls, fluid, bodies filled then outlined). */
static void plot_frame(FILE *f, const anim *A, size_t k, double ps) {
  fprintf(f, "set label 1 't = %.4f s' at graph 0.02, graph 0.95 left front boxed\n", A->times[k]);
  const char *sep = "plot ";
  if (exists(A, 'w', k))
    fprintf(f, "%s'w%06zu.dat' using 1:2 with points pt 7 ps %.3g lc rgb '#b8b8b8' notitle", sep,
            k, ps), sep = ", \\\n     ";
  if (exists(A, 'f', k))
    fprintf(f, "%s'f%06zu.dat' using 1:2:3 with points pt 7 ps %.3g lc palette notitle", sep, k,
            ps), sep = ", \\\n     ";
  if (exists(A, 'b', k))
    fprintf(f, "%s'b%06zu.dat' using 1:2 with points pt 7 ps %.3g lc rgb 'white' notitle, "
               "'' using 1:2 with points pt 6 ps %.3g lc rgb 'black' notitle", sep, k, ps, ps),
        sep = ", \\\n     ";
  fprintf(f, "%s\n", strcmp(sep, "plot ") == 0 ? "plot NaN notitle" : "");
}

static int write_script(const anim *A, vbc_error *err) {
  char path[1300], q[600], d[1100];
  snprintf(path, sizeof path, "%s/animate.gp", A->work);
  vbc_file file;
  if (vbc_file_open(&file, path, ".tmp", err) != VBC_OK) return err->code;
  FILE *f = file.f;
  const char *base = strrchr(A->o->dir, '/');
  snprintf(d, sizeof d, "%s", base && base[1] ? base + 1 : A->o->dir);
  const double mx = 0.03 * (A->hi[0] - A->lo[0] + A->spacing), my = 0.03 * (A->hi[1] - A->lo[1] + A->spacing);
  const double dx = A->hi[0] - A->lo[0] + 2 * mx, dy = A->hi[1] - A->lo[1] + 2 * my;
  const double px = fmin(0.8 * WIDTH / dx, 0.85 * HEIGHT / dy) * A->spacing;
  double ps = isfinite(px) ? px / 10.0 : 0.5; /* pt 7 at ps 1 is about 9 px across; a little less than l */
  ps = fmax(0.1, fmin(ps, 3.0));
  fprintf(f, "# animate.gp: written by vbc animate; rerun here with: gnuplot animate.gp\n"
             "set encoding utf8\nset title '%s: %s%s' noenhanced\n",
          gp_single(d, q, sizeof q), A->array, A->three_d ? " (3D, projected onto x-y)" : "");
  fprintf(f, "set xlabel 'x [m]'\nset ylabel 'y [m]'\nset size ratio -1\nunset key\n"
             "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\nset cbrange [%.9g:%.9g]\n"
             "set cblabel '%s' noenhanced\nset style textbox opaque noborder\n",
          A->lo[0] - mx, A->hi[0] + mx, A->lo[1] - my, A->hi[1] + my, A->vmin, A->vmax, A->array);
  fprintf(f, "set palette defined (0 '#30123b', 0.2 '#4686fb', 0.4 '#1ae4b6', 0.6 '#a2fc3c', "
             "0.8 '#fb8022', 1 '#7a0403')\n");
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
             "  set terminal pngcairo size %d,%d font ',11'\n} else {\n"
             "  set terminal png size %d,%d\n}\n", WIDTH, HEIGHT, WIDTH, HEIGHT);
  for (size_t k = 0; k < A->n; ++k) {
    fprintf(f, "set output 'frame_%06zu.png'\n", k);
    plot_frame(f, A, k, ps);
  }
  fprintf(f, "set output\n");
  if (A->gif) {
    fprintf(f, "set terminal gif animate delay %d size %d,%d\nset output 'animation.gif'\n",
            (100 + A->o->fps / 2) / A->o->fps, WIDTH, HEIGHT);
    for (size_t k = 0; k < A->n; ++k) plot_frame(f, A, k, ps);
    fprintf(f, "set output\n");
  }
  return vbc_file_commit(&file, err);
}

static int run_ffmpeg(const anim *A, const char *ffmpeg, vbc_error *err) {
  char fps[16];
  snprintf(fps, sizeof fps, "%d", A->o->fps);
  char *const argv[] = {(char *)ffmpeg, "-y", "-v", "error", "-framerate", fps, "-i",
                        "frame_%06d.png", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                        "animation.mp4", NULL};
  pid_t pid = vbc_spawn_logged(ffmpeg, argv, A->work, "ffmpeg.log", 0, NULL, err);
  if (pid < 0) return err->code;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return vbc_error_set(err, VBC_EXIT_SYSTEM, "waitpid: %s", strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return VBC_OK;
  return vbc_error_set(err, VBC_EXIT_SYSTEM, "ffmpeg failed (see %s/ffmpeg.log)", A->work);
}

/* Remove the files this command writes into the work directory (and it, when then empty). */
static void remove_work(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *s = e->d_name;
    size_t len = strlen(s);
    int ours = (len == 11 && strchr("wfb", s[0]) && strcmp(s + 7, ".dat") == 0) ||
               (len == 16 && strncmp(s, "frame_", 6) == 0 && strcmp(s + 12, ".png") == 0) ||
               !strcmp(s, "animate.gp") || !strcmp(s, "gnuplot.log") ||
               !strcmp(s, "ffmpeg.log") || !strcmp(s, "animation.mp4") ||
               !strcmp(s, "animation.gif");
    if (ours) {
      char path[1500];
      snprintf(path, sizeof path, "%s/%s", dir, s);
      remove(path);
    }
  }
  closedir(d);
  rmdir(dir);
}

static int ends_with(const char *s, const char *tail) {
  size_t a = strlen(s), b = strlen(tail);
  return a >= b && strcasecmp(s + a - b, tail) == 0;
}

/* The output file and the work directory beside it (OUT without its extension + _frames). */
static int set_paths(anim *A, const char *ffmpeg, vbc_error *err) {
  const vbc_animate_options *o = A->o;
  if (o->out) snprintf(A->out, sizeof A->out, "%s", o->out);
  else snprintf(A->out, sizeof A->out, "%s/animation.%s", o->dir, ffmpeg ? "mp4" : "gif");
  A->gif = ends_with(A->out, ".gif");
  snprintf(A->work, sizeof A->work, "%s", A->out);
  char *dot = strrchr(A->work, '.'), *slash = strrchr(A->work, '/');
  if (dot && (slash == NULL || dot > slash + 1)) *dot = '\0';
  strcat(A->work, "_frames");
  struct stat st;
  if (stat(A->out, &st) == 0 && S_ISDIR(st.st_mode))
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: is a directory, expected a file name",
                         A->out);
  remove_work(A->work);
  if (mkdir(A->work, 0755) != 0 && errno != EEXIST)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot write there (creating %s: %s)",
                         A->out, A->work, strerror(errno));
  FILE *probe = fopen(A->out, "ab");
  if (probe == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot write it (%s)", A->out,
                         strerror(errno));
  fclose(probe);
  if (stat(A->out, &st) == 0 && st.st_size == 0) remove(A->out);
  return VBC_OK;
}

static int animate(anim *A, vbc_error *err) {
  char gbuf[1100], fbuf[1100];
  const char *gnuplot = vbc_gnuplot_find(gbuf, sizeof gbuf);
  const char *ffmpeg = vbc_program_find("VBC_FFMPEG", "ffmpeg", fbuf, sizeof fbuf);
  if (read_pvd(A, err) != VBC_OK) return err->code;
  if (gnuplot == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "gnuplot not found (apt-get install gnuplot-nox)");
  if (set_paths(A, ffmpeg, err) != VBC_OK) return err->code;
  if (!A->gif && ffmpeg == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: an MP4 needs ffmpeg, which is not installed "
                         "(apt-get install ffmpeg), or name a .gif", A->out);
  if (write_data(A, err) != VBC_OK || write_script(A, err) != VBC_OK ||
      vbc_gnuplot_run(gnuplot, A->work, "animate.gp", "gnuplot.log", err) != VBC_OK ||
      (!A->gif && run_ffmpeg(A, ffmpeg, err) != VBC_OK))
    return err->code;
  char made[1300];
  snprintf(made, sizeof made, "%s/animation.%s", A->work, A->gif ? "gif" : "mp4");
  if (rename(made, A->out) != 0)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot write it (%s)", A->out, strerror(errno));
  if (!A->o->keep_png) remove_work(A->work);
  return VBC_OK;
}

int vbc_animate(const vbc_animate_options *o, vbc_error *err) {
  anim A = {.o = o};
  int rc = animate(&A, err);
  for (size_t k = 0; k < A.n; ++k) free(A.files[k]);
  free(A.files);
  free(A.times);
  if (rc == VBC_OK)
    fprintf(stderr, "vbc: wrote %s (%zu frames of %s, %d per second)%s%s\n", A.out, A.n,
            A.array, o->fps, o->keep_png ? "; PNGs in " : "", o->keep_png ? A.work : "");
  return rc;
}

static int usage_error(const char *what, const char *arg) {
  fprintf(stderr, "vbc animate: %s%s\nusage: vbc animate DIR [--array NAME] [--out FILE] "
                  "[--fps N] [--keep-png]\n", what, arg ? arg : "");
  return VBC_EXIT_INPUT;
}

int vbc_animate_main(int argc, char **argv) {
  vbc_animate_options o = {.fps = 10};
  for (int i = 2; i < argc; ++i) {
    const char *s = argv[i];
    const int has = i + 1 < argc;
    if (strcmp(s, "--array") == 0 && has) o.array = argv[++i];
    else if (strcmp(s, "--out") == 0 && has) o.out = argv[++i];
    else if (strcmp(s, "--keep-png") == 0) o.keep_png = 1;
    else if (strcmp(s, "--fps") == 0 && has) {
      char *end;
      long n = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || n < 1 || n > 100)
        return usage_error("--fps: expected 1..100, got ", argv[i]);
      o.fps = (int)n;
    } else if (s[0] == '-') {
      return usage_error(has || strncmp(s, "--", 2) ? "unknown option or missing value: "
                                                      : "missing value: ", s);
    } else if (o.dir == NULL) {
      o.dir = s;
    } else {
      return usage_error("unexpected argument ", s);
    }
  }
  if (o.dir == NULL) return usage_error("needs the run directory", NULL);
  vbc_error err;
  vbc_error_clear(&err);
  if (vbc_animate(&o, &err) != VBC_OK) {
    fprintf(stderr, "vbc: %s\n", err.message);
    return err.code;
  }
  return 0;
}
