/* atlas_plot.c — the figures of every case: the sweep runner draws the observable (every
 * method at the finest level run, with the references) and the error against spacing (log-log,
 * each method's fitted order); this file adds the error against cost (wall seconds, log-log,
 * one curve per method through its levels). Data, gnuplot scripts and PNG/SVG/PDF as the runner
 * writes them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep.h"
#include "experiments/runner/sweep_gnuplot.h"
#include "io/files.h"

/* One gnuplot curve a method: the index of its block in the .dat file. */
static int cost_plot(const vbc_atlas *a, size_t c, const char *gnuplot, vbc_error *err) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  vbc_sweep *sw = &a->sweeps[c];
  char dir[1200], path[1300];
  snprintf(dir, sizeof dir, "%s/plots", sw->out);
  if (vbc_mkdir_p(dir, err) != VBC_OK) return err->code;
  snprintf(path, sizeof path, "%s/error_vs_cost.dat", dir);
  vbc_file dat, gp;
  if (vbc_file_open(&dat, path, ".tmp", err) != VBC_OK) return err->code;
  fprintf(dat.f, "# error_vs_cost: %s of case %s against wall seconds, one block a method\n",
          k->errors[0].metric, k->name);
  char cmd[16384];
  size_t n = 0;
  int blocks = 0;
  for (size_t m = 0; m < a->spec.nmethods; ++m) {
    int points = 0;
    for (size_t l = 0; l < vbc_atlas_case_levels(a, c); ++l) {
      const vbc_atlas_cell *x = vbc_atlas_cell_at(a, c, m, l);
      if (x == NULL || strcmp(x->status, "ok") != 0 || !(x->errors[0] > 0.0) ||
          !(x->wall_seconds > 0.0))
        continue;
      if (points++ == 0) fprintf(dat.f, "%s# method %s\n", blocks ? "\n\n" : "", a->spec.methods[m]);
      fprintf(dat.f, "%.10g %.10g %.10g\n", x->wall_seconds, x->errors[0], x->spacing);
    }
    if (points == 0) continue;
    char title[200];
    if (n < sizeof cmd)
      n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                            "%s'error_vs_cost.dat' index %d using 1:2 with linespoints title %s",
                            blocks ? ", \\\n     " : "plot ", blocks,
                            vbc_gp_quote(a->spec.methods[m], title, sizeof title));
    blocks++;
  }
  if (vbc_file_commit(&dat, err) != VBC_OK) return err->code;
  snprintf(path, sizeof path, "%s/error_vs_cost.gp", dir);
  if (vbc_file_open(&gp, path, ".tmp", err) != VBC_OK) return err->code;
  char title[600];
  snprintf(title, sizeof title, "%s: error against cost", k->title);
  vbc_sweep_plot pl = {.name = "error_vs_cost", .title = title, .xlabel = "wall seconds [s]",
                       .ylabel = k->errors[0].label, .logx = 1, .logy = 1};
  vbc_gp_head(gp.f, sw, &pl, "wall_seconds", k->errors[0].label, blocks);
  if (blocks == 0)
    fprintf(gp.f, "set label 1 \"no finished run with an error to plot\" at graph 0.5,0.5 center\n");
  vbc_gp_render(gp.f, "error_vs_cost", blocks ? cmd : "plot [1:10][1:10] NaN notitle");
  if (vbc_file_commit(&gp, err) != VBC_OK) return err->code;
  if (gnuplot == NULL) return VBC_OK;
  return vbc_gnuplot_run(gnuplot, dir, "error_vs_cost.gp", "error_vs_cost.log", err);
}

int vbc_atlas_plot(vbc_atlas *a, vbc_error *err) {
  char gbuf[1100];
  const char *gnuplot = vbc_gnuplot_find(gbuf, sizeof gbuf);
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    if (vbc_sweep_write_table(&a->sweeps[c], err) != VBC_OK) return err->code;
    int rc = vbc_sweep_plot_all(&a->sweeps[c], err);
    if (rc != VBC_OK && gnuplot != NULL) return rc; /* without gnuplot: scripts and data only */
    if (cost_plot(a, c, gnuplot, err) != VBC_OK) return err->code;
  }
  if (gnuplot == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM,
                         "gnuplot not found: atlas.csv and every plot's data and script are "
                         "written in %s/cases/*/plots; install gnuplot (apt-get install "
                         "gnuplot-nox) and run the atlas again to draw them",
                         a->out);
  return VBC_OK;
}
