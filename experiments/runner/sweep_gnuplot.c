/* sweep_gnuplot.c — see sweep_gnuplot.h. Scripts are self-contained: `gnuplot NAME.gp` in the
 * plots directory redraws every format, so a user can restyle a figure and rerun it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "experiments/runner/sweep_gnuplot.h"
#include "experiments/runner/sweep_spawn.h"

const char *vbc_gnuplot_find(char *buf, size_t size) {
  return vbc_program_find("VBC_GNUPLOT", "gnuplot", buf, size);
}

const char *vbc_program_find(const char *env, const char *program, char *buf, size_t size) {
  const char *name = getenv(env);
  if (name == NULL || name[0] == '\0') name = program;
  if (strchr(name, '/')) {
    snprintf(buf, size, "%s", name);
    return access(buf, X_OK) == 0 ? buf : NULL;
  }
  const char *path = getenv("PATH");
  if (path == NULL) path = "/usr/local/bin:/usr/bin:/bin";
  for (const char *p = path; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(buf, size, "%.*s/%s", (int)len, len ? p : ".", name);
    if (access(buf, X_OK) == 0) return buf;
    p += len + (p[len] == ':');
  }
  return NULL;
}

/* '…' with ' doubled: gnuplot substitutes `…` and @macros inside double quotes, never inside
 * single ones. A line break would end the command: for display text (path 0) every control
 * character becomes a space; a path (path 1) keeps them but for line breaks, which make it
 * inexact. The string is cut, whole characters only, where it does not fit. Returns whether
 * nothing was replaced or cut. */
static int gp_literal(const char *s, char *buf, size_t size, int path) {
  size_t n = 0;
  int exact = 1;
  buf[n++] = '\'';
  for (; s && *s; ++s) {
    const int quote = *s == '\'';
    if (n + 2 + quote >= size) {
      exact = 0;
      break;
    }
    if (path ? *s == '\n' || *s == '\r' : (unsigned char)*s < 0x20 || *s == 0x7f) {
      buf[n++] = path ? '?' : ' ';
      exact = 0;
      continue;
    }
    if (quote) buf[n++] = '\'';
    buf[n++] = *s;
  }
  buf[n++] = '\'';
  buf[n] = '\0';
  return exact;
}

const char *vbc_gp_quote(const char *s, char *buf, size_t size) {
  gp_literal(s, buf, size, 0);
  return buf;
}

const char *vbc_gp_path(const char *s, char *buf, size_t size) {
  return gp_literal(s, buf, size, 1) ? buf : NULL;
}

const char *vbc_gp_comment(const char *s, char *buf, size_t size) {
  size_t n = 0;
  for (; s && *s && n + 1 < size; ++s)
    buf[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
  buf[n] = '\0';
  return buf;
}

/* Units of the names plots put on their axes, where vbc knows them: scene keys a sweep varies
 * (docs/scene-format.md), the run's figures (docs/outputs.md: summary.json), the columns of
 * series.csv and convergence.csv and the benchmarks' columns of the same unit. A name not here
 * is labelled without a unit (dimensionless, or not known to the runner). */
static const char *const units[][2] = {
    {"spacing", "m"}, {"time.dt", "s"}, {"time.end", "s"}, {"time.output_interval", "s"},
    {"time", "s"}, {"seconds", "s"}, {"wall_seconds", "s"}, {"solve_seconds", "s"},
    {"particle_steps_per_second", "1/s"}, {"kinetic_energy", "J, 2D: J/m"},
    {"kinetic_energy_bodies", "J, 2D: J/m"}, {"max_speed", "m/s"}, {"surface_height", "m"},
    {"semi_minor", "m"}, {"semi_major", "m"}, {"semi_minor_theory", "m"},
    {"semi_major_theory", "m"}, {"semi_minor_extent", "m"}, {"semi_major_extent", "m"},
    {"body_y", "m"}, {"body_speed", "m/s"}, {"front_x", "m"}, {"height_H", "m"},
    {"body_velocity_down", "m/s"}, {"penetration", "m"}};

const char *vbc_gp_unit(const char *name) {
  for (size_t i = 0; name && i < sizeof units / sizeof *units; ++i)
    if (strcmp(units[i][0], name) == 0) return units[i][1];
  return NULL;
}

/* "spacing [m]": a default axis label, the name with its unit where known. */
static const char *with_unit(const char *name, char *buf, size_t size) {
  const char *unit = vbc_gp_unit(name);
  if (unit) snprintf(buf, size, "%s [%s]", name, unit);
  else snprintf(buf, size, "%s", name ? name : "");
  return buf;
}

void vbc_gp_head(FILE *f, const vbc_sweep *sw, const vbc_sweep_plot *pl, const char *xlabel,
                 const char *ylabel, int curves) {
  char q[1100], c1[300], c2[1100], label[400];
  fprintf(f, "# %s.gp: %s plot of sweep %s (%s), written by vbc sweep.\n", pl->name,
          vbc_plot_kind_name(pl->kind), vbc_gp_comment(sw->spec.name, c1, sizeof c1),
          vbc_gp_comment(sw->spec.file, c2, sizeof c2));
  fprintf(f, "# Edit and rerun in this directory: gnuplot %s.gp\n", pl->name);
  fprintf(f, "set encoding utf8\n");
  /* names such as lemke_contacts are text, not gnuplot's enhanced mark-up (_ a subscript):
   * every terminal below is noenhanced, and so is every text set here. A missing value is NaN
   * in the .dat files (whitespace-separated: an empty field cannot be told from none) */
  fprintf(f, "set datafile missing NaN\n");
  fprintf(f, "set title %s noenhanced\n", vbc_gp_quote(pl->title, q, sizeof q));
  fprintf(f, "set xlabel %s noenhanced\n",
          vbc_gp_quote(pl->xlabel ? pl->xlabel : with_unit(xlabel, label, sizeof label), q,
                       sizeof q));
  fprintf(f, "set ylabel %s noenhanced\n",
          vbc_gp_quote(pl->ylabel ? pl->ylabel : with_unit(ylabel, label, sizeof label), q,
                       sizeof q));
  fprintf(f, "set xtics noenhanced\nset ytics noenhanced\n");
  if (pl->logx) fprintf(f, "set logscale x\nset format x \"%%g\"\n");
  if (pl->logy) fprintf(f, "set logscale y\nset format y \"%%.0e\"\n");
  /* the key is drawn over the plot only where the spec puts it there; by default it goes below
   * the plot, in as many columns as fit, so that no curve hides behind it however many there
   * are */
  if (pl->key) fprintf(f, "set grid\nset key noenhanced box %s\n", pl->key);
  else fprintf(f, "set grid\nset key noenhanced below horizontal height 1%s\n",
               curves > 12 ? " font \",9\"" : ""); /* unboxed: a box ran into the x label */
}

void vbc_gp_render(FILE *f, const char *name, const char *plot_command) {
  fprintf(f,
          "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
          "  set terminal pngcairo noenhanced size 960,640 font \",11\"\n"
          "} else {\n"
          "  set terminal png noenhanced size 960,640\n"
          "}\n"
          "set output \"%s.png\"\n"
          "%s\n"
          "set terminal svg noenhanced size 960,640 font \"sans,11\"\n"
          "set output \"%s.svg\"\n"
          "replot\n"
          "if (strstrt(GPVAL_TERMINALS, \"pdfcairo\") > 0) {\n"
          "  set terminal pdfcairo noenhanced size 6in,4in font \",9\"\n"
          "  set output \"%s.pdf\"\n"
          "  replot\n"
          "}\n"
          "set output\n",
          name, plot_command, name, name);
}

int vbc_gnuplot_run(const char *gnuplot, const char *dir, const char *script, const char *log,
                    vbc_error *err) {
  char *const argv[] = {(char *)gnuplot, (char *)script, NULL};
  pid_t pid = vbc_spawn_logged(gnuplot, argv, dir, log, 0, NULL, err);
  if (pid < 0) return err->code;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return vbc_error_set(err, VBC_EXIT_SYSTEM, "waitpid: %s", strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return VBC_OK;
  return vbc_error_set(err, VBC_EXIT_SYSTEM, "gnuplot failed on %s/%s (see %s/%s)", dir, script,
                       dir, log);
}
