/* sweep_plot.h — what the files of the runner's plots share (sweep_plot.c: the plots, their
 * metric kinds, references and scripts; sweep_plot_cases.c: the kinds with one curve per case).
 * Not an interface beyond experiments/runner/. */
#ifndef VBC_SWEEP_PLOT_H
#define VBC_SWEEP_PLOT_H

#include <stdio.h>

#include "experiments/runner/sweep.h"

/* A growing text: the plot command being written (oom: memory ran out, the text is lost). */
typedef struct vbc_plot_buf {
  char *s;
  size_t len, cap;
  int oom;
} vbc_plot_buf;

/* One plot being written: its data file, the curves of its plot command, the curve count. */
typedef struct vbc_plot_job {
  vbc_sweep *sw;
  const vbc_sweep_plot *pl;
  char dir[1100];
  FILE *dat;
  size_t blocks;
  vbc_plot_buf cmd;
  int curves;
} vbc_plot_job;

/* Whether case c is drawn: done, not the frozen-state dump, and matching the plot's `where`. */
int vbc_plot_wanted(const vbc_sweep *sw, const vbc_sweep_case *c, const cJSON *where);
/* A curve's name: the case's varied values except those the plot fixes (x, series, where). */
void vbc_plot_case_title(const vbc_plot_job *J, const vbc_sweep_case *c, char *out, size_t size);
/* One more curve of the plot command: spec (data and style) and its key entry. */
void vbc_plot_curve(vbc_plot_job *J, const char *spec, const char *title);
/* A new data block of NAME.dat (gnuplot's `index`), with a comment line. */
void vbc_plot_begin_block(vbc_plot_job *J, const char *comment);
/* A number of a .dat file after sep: a missing value (an empty cell, nan) as NaN. */
void vbc_plot_dat_cell(FILE *dat, const char *cell, const char *sep);

/* series and convergence plots: the curves of every case drawn (sweep_plot_cases.c). */
int vbc_plot_per_case(vbc_plot_job *J, vbc_error *err);

#endif
