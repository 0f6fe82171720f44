/* sweep_plot.c — the plots of a sweep: for each, DIR/plots/NAME.dat (the numbers drawn, taken
 * from the finished cases' files) and NAME.gp (the script that drew them), rendered by gnuplot.
 * Kinds (docs/sweep-format.md): metric, spatial_convergence (with the fitted order in the key),
 * series, convergence (one curve per case: sweep_plot_cases.c), script; any of the first four
 * can add reference curves from data files. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "experiments/runner/sweep_csv.h"
#include "experiments/runner/sweep_gnuplot.h"
#include "experiments/runner/sweep_plot.h"

typedef vbc_plot_buf buf;
typedef vbc_plot_job plot_job;

static void bprintf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(buf *b, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = b->oom ? 0 : vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (b->oom || (b->s && b->len + (size_t)n < b->cap)) {
      b->len += b->oom ? 0 : (size_t)n;
      return;
    }
    size_t cap = 2 * (b->cap + (size_t)n + 64);
    char *s = realloc(b->s, cap);
    if (s == NULL) {
      b->oom = 1;
      return;
    }
    b->s = s, b->cap = cap;
  }
}

static int key_index(const vbc_sweep_spec *s, const char *key) {
  int k = 0;
  for (size_t a = 0; a < s->naxes; ++a)
    for (size_t j = 0; j < s->axes[a].nkeys; ++j, ++k)
      if (strcmp(s->axes[a].keys[j], key) == 0) return k;
  return -1;
}

static const cJSON *axis_list(const vbc_sweep_spec *s, const char *key) {
  for (size_t a = 0; a < s->naxes; ++a)
    for (size_t j = 0; j < s->axes[a].nkeys; ++j)
      if (strcmp(s->axes[a].keys[j], key) == 0) return s->axes[a].lists[j];
  return NULL;
}

int vbc_plot_wanted(const vbc_sweep *sw, const vbc_sweep_case *c, const cJSON *where) {
  if (c->is_state || c->state != VBC_CASE_DONE) return 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, where) {
    int k = key_index(&sw->spec, e->string);
    if (k < 0 || !cJSON_Compare(c->values[k], e, 1)) return 0;
  }
  return 1;
}

static void value_text(const cJSON *v, char *out, size_t size) {
  if (cJSON_IsString(v)) {
    snprintf(out, size, "%s", v->valuestring);
  } else if (cJSON_IsNumber(v)) {
    snprintf(out, size, "%g", v->valuedouble);
  } else {
    char *t = cJSON_PrintUnformatted(v);
    snprintf(out, size, "%s", t ? t : "?");
    free(t);
  }
}

/* A curve's name: the case's varied values except those the plot fixes (x, series, where). */
void vbc_plot_case_title(const plot_job *J, const vbc_sweep_case *c, char *out, size_t size) {
  const vbc_sweep_spec *s = &J->sw->spec;
  size_t n = 0;
  out[0] = '\0';
  for (size_t a = 0, k = 0; a < s->naxes; ++a)
    for (size_t j = 0; j < s->axes[a].nkeys; ++j, ++k) {
      const char *key = s->axes[a].keys[j];
      if ((J->pl->x && strcmp(key, J->pl->x) == 0) ||
          (J->pl->where && cJSON_GetObjectItemCaseSensitive(J->pl->where, key)))
        continue;
      char v[128];
      const char *dot = strrchr(key, '.'); /* "omega=0.2": the last part of the key suffices */
      value_text(c->values[k], v, sizeof v);
      n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s=%s", n ? " " : "",
                            dot ? dot + 1 : key, v);
      if (n >= size) return;
    }
  if (n == 0) snprintf(out, size, "%s", c->id);
}

void vbc_plot_curve(plot_job *J, const char *spec, const char *title) {
  char q[512];
  bprintf(&J->cmd, "%s \\\n  %s title %s", J->curves ? "," : "plot", spec,
          vbc_gp_quote(title, q, sizeof q));
  J->curves++;
}

/* A number of a .dat file: a missing value (an empty cell, nan in a case's CSV) is NaN, which
 * the script declares missing (vbc_gp_head); anything else as the file had it. */
void vbc_plot_dat_cell(FILE *dat, const char *cell, const char *sep) {
  char *end;
  const double v = strtod(cell, &end);
  fprintf(dat, "%s%s", sep, end == cell || isnan(v) ? "NaN" : cell);
}

static void dat_number(FILE *dat, double v, const char *sep) {
  if (isnan(v)) fprintf(dat, "%sNaN", sep);
  else fprintf(dat, "%s%.10g", sep, v);
}

void vbc_plot_begin_block(plot_job *J, const char *comment) {
  if (J->blocks++) fprintf(J->dat, "\n\n");
  fprintf(J->dat, "# %s\n", comment);
}

/* --- metric and spatial_convergence ------------------------------------------------------ */

typedef struct point {
  double x;
  const vbc_sweep_case *c;
  char label[128];
} point;

static int by_x(const void *a, const void *b) {
  double u = ((const point *)a)->x, v = ((const point *)b)->x;
  return (u > v) - (u < v);
}

/* The points of one series: done cases with that series value, x as number or category. */
static size_t gather(plot_job *J, const cJSON *series_value, point *pts) {
  const vbc_sweep_spec *s = &J->sw->spec;
  int kx = key_index(s, J->pl->x), ks = J->pl->series ? key_index(s, J->pl->series) : -1;
  const cJSON *xs = axis_list(s, J->pl->x);
  size_t n = 0;
  for (size_t i = 0; i < J->sw->ncases; ++i) {
    const vbc_sweep_case *c = &J->sw->cases[i];
    if (!vbc_plot_wanted(J->sw, c, J->pl->where)) continue;
    if (ks >= 0 && !cJSON_Compare(c->values[ks], series_value, 1)) continue;
    const cJSON *xv = c->values[kx];
    point *p = &pts[n++];
    p->c = c;
    value_text(xv, p->label, sizeof p->label);
    p->x = cJSON_IsNumber(xv) ? xv->valuedouble : NAN;
    for (int j = 0; !cJSON_IsNumber(xv) && j < cJSON_GetArraySize(xs); ++j)
      if (cJSON_Compare(cJSON_GetArrayItem(xs, j), xv, 1)) p->x = j + 1;
  }
  qsort(pts, n, sizeof *pts, by_x);
  return n;
}

/* The fitted power law of metric j through the points (x_i, val[i * ny + j]). */
static void fit_curve(plot_job *J, const point *pts, const double *val, size_t n, size_t j,
                      const char *name, FILE *fits) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  if (x == NULL || y == NULL) return free(x), free(y);
  for (size_t i = 0; i < n; ++i) x[i] = pts[i].x, y[i] = val[i * J->pl->ny + j];
  double order, c;
  size_t used = vbc_fit_order(x, y, n, &order, &c);
  free(x), free(y);
  char title[400], spec[200];
  if (used == 0) {
    printf("plot %s: %s: fewer than 2 points with positive values, no order fitted\n",
           J->pl->name, name);
    return;
  }
  printf("plot %s: %s ~ %s^%.3f (order %.2f, fitted to %zu points)\n", J->pl->name, name,
         J->pl->x, order, order, used);
  fprintf(fits, "\"%s\",%s,%.6g,%.6g,%zu\n", name, J->pl->y[j], order, c, used);
  snprintf(spec, sizeof spec, "%.10g*x**%.10g with lines dt 2 lc %d", c, order, J->curves);
  snprintf(title, sizeof title, "fit: order %.2f", order);
  vbc_plot_curve(J, spec, title);
}

static void metric_group(plot_job *J, const cJSON *series_value, point *pts, FILE *fits) {
  size_t n = gather(J, series_value, pts), ny = J->pl->ny;
  double *val = malloc((n ? n : 1) * ny * sizeof *val); /* each summary.json read once */
  if (n == 0 || val == NULL) return free(val);
  char group[200] = "", value[160];
  if (series_value) { /* "solver=pgs": the last part of the key names the series */
    const char *dot = strrchr(J->pl->series, '.');
    value_text(series_value, value, sizeof value);
    snprintf(group, sizeof group, "%.30s=%s", dot ? dot + 1 : J->pl->series, value);
  }
  char comment[300];
  snprintf(comment, sizeof comment, "%s: columns x, x label, %s ...",
           series_value ? group : "all cases", J->pl->y[0]);
  vbc_plot_begin_block(J, comment);
  for (size_t i = 0; i < n; ++i) {
    cJSON *summary = vbc_sweep_case_json(J->sw, pts[i].c, "summary.json");
    char label[sizeof pts[i].label];
    size_t n = 0; /* a data column: no quote or line break inside */
    for (const char *s = pts[i].label; *s; ++s)
      label[n++] = *s == '"' || (unsigned char)*s < 0x20 ? '\'' : *s;
    label[n] = '\0';
    dat_number(J->dat, pts[i].x, "");
    fprintf(J->dat, " \"%s\"", label);
    for (size_t j = 0; j < ny; ++j) {
      val[i * ny + j] = vbc_sweep_case_metric(summary, J->pl->y[j]);
      dat_number(J->dat, val[i * ny + j], " ");
    }
    fputc('\n', J->dat);
    cJSON_Delete(summary);
  }
  int categorical = !cJSON_IsNumber(cJSON_GetArrayItem(axis_list(&J->sw->spec, J->pl->x), 0));
  for (size_t j = 0; j < ny; ++j) {
    /* a curve without one value to draw (every case missing it, or none positive on a log
     * axis) is left out: gnuplot refuses a plot whose points are all undefined */
    size_t drawable = 0;
    for (size_t i = 0; i < n; ++i)
      drawable += isfinite(val[i * ny + j]) && (!J->pl->logy && J->pl->kind != VBC_PLOT_ORDER
                                                    ? 1 : val[i * ny + j] > 0.0);
    if (drawable == 0) continue;
    char spec[300], title[400];
    snprintf(spec, sizeof spec, "\"%s.dat\" index %zu using 1:%zu%s with linespoints pt 7 lc %d",
             J->pl->name, J->blocks - 1, j + 3, categorical ? ":xtic(2)" : "", J->curves + 1);
    snprintf(title, sizeof title, "%s%s%s", ny > 1 || !series_value ? J->pl->y[j] : "",
             ny > 1 && series_value ? ", " : "", series_value ? group : "");
    vbc_plot_curve(J, spec, title);
    if (J->pl->kind == VBC_PLOT_ORDER) fit_curve(J, pts, val, n, j, title, fits);
  }
  free(val);
}

static int metric_plot(plot_job *J, vbc_error *err) {
  point *pts = vbc_calloc(J->sw->ncases ? J->sw->ncases : 1, sizeof *pts, err);
  if (pts == NULL) return err->code;
  FILE *fits = NULL;
  vbc_file fitfile = {0};
  if (J->pl->kind == VBC_PLOT_ORDER) {
    char path[1300];
    snprintf(path, sizeof path, "%s/%s.fit.csv", J->dir, J->pl->name);
    if (vbc_file_open(&fitfile, path, ".tmp", err) != VBC_OK) return free(pts), err->code;
    fits = fitfile.f;
    fprintf(fits, "curve,metric,order,constant,points\n");
  }
  const cJSON *values = J->pl->series ? axis_list(&J->sw->spec, J->pl->series) : NULL;
  if (values == NULL) {
    metric_group(J, NULL, pts, fits);
  } else {
    const cJSON *v;
    cJSON_ArrayForEach(v, values) metric_group(J, v, pts, fits);
  }
  free(pts);
  return fits ? vbc_file_commit(&fitfile, err) : VBC_OK;
}

/* --- references and the script ------------------------------------------------------------- */

static int reference(plot_job *J, size_t k, vbc_error *err) {
  const vbc_plot_reference *r = &J->pl->refs[k];
  vbc_table t;
  char path[1300], name[300];
  if (vbc_table_read(&t, r->file, err) != VBC_OK) return vbc_table_free(&t), err->code;
  int cx = vbc_table_column(&t, r->x), cy = vbc_table_column(&t, r->y);
  if (cx < 0 || cy < 0) {
    vbc_table_free(&t);
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: plot %s: reference %s has no column %s",
                         J->sw->spec.file, J->pl->name, r->file, cx < 0 ? "x" : "y");
  }
  snprintf(name, sizeof name, "%.200s.ref%zu.dat", J->pl->name, k);
  if (snprintf(path, sizeof path, "%s/%s", J->dir, name) >= (int)sizeof path)
    return vbc_table_free(&t), vbc_error_set(err, VBC_EXIT_INPUT, "%s: path too long", J->dir);
  vbc_file f;
  if (vbc_file_open(&f, path, ".tmp", err) != VBC_OK) return vbc_table_free(&t), err->code;
  char from[1100];
  fprintf(f.f, "# from %s\n", vbc_gp_comment(r->file, from, sizeof from));
  for (size_t i = 0; i < t.nrows; ++i) {
    vbc_plot_dat_cell(f.f, vbc_table_cell(&t, i, cx), "");
    vbc_plot_dat_cell(f.f, vbc_table_cell(&t, i, cy), " ");
    fputc('\n', f.f);
  }
  vbc_table_free(&t);
  if (vbc_file_commit(&f, err) != VBC_OK) return err->code;
  /* open circle, square, triangle, diamond: references told apart in black and white */
  static const int point_type[] = {6, 4, 8, 12};
  char spec[400], style[80];
  if (strcmp(r->style, "lines") == 0)
    snprintf(style, sizeof style, "lines lw 2 dt %zu lc rgb \"black\"", 3 + k % 4);
  else
    snprintf(style, sizeof style, "points pt %d ps 1.2 lc rgb \"black\"", point_type[k % 4]);
  snprintf(spec, sizeof spec, "\"%s\" using 1:2 with %s", name, style);
  vbc_plot_curve(J, spec, r->title);
  return VBC_OK;
}

/* The y axis: the one name drawn (relative_residual when a convergence plot names none), or
 * "value", with the unit the names share when they share one (vbc_gp_head adds a name's). */
static const char *default_ylabel(const vbc_sweep_plot *pl, char *buf, size_t size) {
  if (pl->kind == VBC_PLOT_CONVERGENCE) return pl->ny ? pl->y[0] : "relative_residual";
  if (pl->ny == 1) return pl->y[0];
  const char *unit = vbc_gp_unit(pl->y[0]);
  for (size_t j = 1; unit && j < pl->ny; ++j)
    if (vbc_gp_unit(pl->y[j]) == NULL || strcmp(vbc_gp_unit(pl->y[j]), unit) != 0) unit = NULL;
  if (unit) snprintf(buf, size, "value [%s]", unit);
  else snprintf(buf, size, "value");
  return buf;
}

/* Write NAME.dat and NAME.gp of one data plot. */
static int data_plot(plot_job *J, vbc_error *err) {
  char path[1300];
  vbc_file dat, gp;
  snprintf(path, sizeof path, "%s/%s.dat", J->dir, J->pl->name);
  if (vbc_file_open(&dat, path, ".tmp", err) != VBC_OK) return err->code;
  J->dat = dat.f;
  fprintf(J->dat, "# %s: data of plot %s of sweep %s\n", J->pl->name, J->pl->name,
          J->sw->spec.file);
  int rc = J->pl->kind == VBC_PLOT_METRIC || J->pl->kind == VBC_PLOT_ORDER ? metric_plot(J, err)
                                                                           : vbc_plot_per_case(J, err);
  for (size_t k = 0; rc == VBC_OK && k < J->pl->nrefs; ++k) rc = reference(J, k, err);
  if (rc != VBC_OK) return vbc_file_discard(&dat), rc;
  if (vbc_file_commit(&dat, err) != VBC_OK) return err->code;
  if (J->cmd.oom) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory");
  snprintf(path, sizeof path, "%s/%s.gp", J->dir, J->pl->name);
  if (vbc_file_open(&gp, path, ".tmp", err) != VBC_OK) return err->code;
  char ylabel[200];
  vbc_gp_head(gp.f, J->sw, J->pl, J->pl->x, default_ylabel(J->pl, ylabel, sizeof ylabel),
              J->curves);
  if (J->curves == 0) fprintf(gp.f, "set label 1 \"no finished case with a value to plot\" at graph 0.5,0.5 center\n");
  vbc_gp_render(gp.f, J->pl->name, J->curves ? J->cmd.s : "plot [1:10][1:10] NaN notitle");
  return vbc_file_commit(&gp, err);
}

/* A script plot: NAME.gp sets `run` (the case directory) and `out` (the output prefix) and loads
 * the spec's script, once per matching case (NAME_ID.gp when there are several). */
static int script_plot(plot_job *J, const char *gnuplot, vbc_error *err) {
  char script[PATH_MAX], dir[1100], casedir[PATH_MAX];
  if (realpath(J->pl->script, script) == NULL)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: plot %s: cannot find the script %s",
                         J->sw->spec.file, J->pl->name, J->pl->script);
  size_t matches = 0;
  for (size_t i = 0; i < J->sw->ncases; ++i) matches += vbc_plot_wanted(J->sw, &J->sw->cases[i], J->pl->where);
  for (size_t i = 0; i < J->sw->ncases; ++i) {
    const vbc_sweep_case *c = &J->sw->cases[i];
    if (!vbc_plot_wanted(J->sw, c, J->pl->where)) continue;
    if (realpath(vbc_sweep_case_dir(J->sw, c, dir, sizeof dir), casedir) == NULL) continue;
    char name[200], path[1300], log[240];
    if (matches > 1) snprintf(name, sizeof name, "%s_%s", J->pl->name, c->id);
    else snprintf(name, sizeof name, "%s", J->pl->name);
    if (snprintf(path, sizeof path, "%s/%s.gp", J->dir, name) >= (int)sizeof path)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: path too long", J->dir);
    char text[7 * PATH_MAX + 300], qrun[2 * PATH_MAX + 3], qscript[2 * PATH_MAX + 3];
    char c1[PATH_MAX], c2[PATH_MAX];
    if (vbc_gp_path(casedir, qrun, sizeof qrun) == NULL ||
        vbc_gp_path(script, qscript, sizeof qscript) == NULL)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: plot %s: expected a script and a case "
                           "directory whose paths have no line breaks (%s, %s)",
                           J->sw->spec.file, J->pl->name, script, casedir);
    snprintf(text, sizeof text,
             "# %s.gp: plot %s of sweep %s, drawn by %s from case %s\n"
             "run = %s\nout = '%s'\nload %s\n",
             name, J->pl->name, vbc_gp_comment(J->sw->spec.file, c1, sizeof c1),
             vbc_gp_comment(J->pl->script, c2, sizeof c2), c->id, qrun, name, qscript);
    if (vbc_write_file_atomic(path, text, err) != VBC_OK) return err->code;
    snprintf(log, sizeof log, "%s.log", name);
    snprintf(path, sizeof path, "%s.gp", name);
    if (gnuplot && vbc_gnuplot_run(gnuplot, J->dir, path, log, err) != VBC_OK) return err->code;
  }
  return VBC_OK;
}

int vbc_sweep_plot_all(vbc_sweep *sw, vbc_error *err) {
  if (sw->spec.nplots == 0) return VBC_OK;
  char dir[1100], gbuf[1100];
  snprintf(dir, sizeof dir, "%s/plots", sw->out);
  if (vbc_mkdir_p(dir, err) != VBC_OK) return err->code;
  const char *gnuplot = vbc_gnuplot_find(gbuf, sizeof gbuf);
  for (size_t p = 0; p < sw->spec.nplots; ++p) {
    plot_job J = {.sw = sw, .pl = &sw->spec.plots[p]};
    snprintf(J.dir, sizeof J.dir, "%s", dir);
    int rc = J.pl->kind == VBC_PLOT_SCRIPT ? script_plot(&J, gnuplot, err) : data_plot(&J, err);
    free(J.cmd.s);
    if (rc != VBC_OK) return rc;
    if (J.pl->kind == VBC_PLOT_SCRIPT || gnuplot == NULL) continue;
    char script[300], log[300];
    snprintf(script, sizeof script, "%s.gp", J.pl->name);
    snprintf(log, sizeof log, "%s.log", J.pl->name);
    if (vbc_gnuplot_run(gnuplot, dir, script, log, err) != VBC_OK) return err->code;
    fprintf(stderr, "plot %s: %s/%s.png\n", J.pl->name, dir, J.pl->name);
  }
  if (gnuplot == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM,
                         "gnuplot not found (looked for %s in PATH): table.csv and the data and "
                         "scripts of every plot are written in %s; install gnuplot (apt-get "
                         "install gnuplot-nox) and run the sweep again to draw them",
                         getenv("VBC_GNUPLOT") && *getenv("VBC_GNUPLOT") ? getenv("VBC_GNUPLOT")
                                                                        : "gnuplot",
                         dir);
  return VBC_OK;
}
