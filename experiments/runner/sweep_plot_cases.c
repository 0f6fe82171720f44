/* sweep_plot_cases.c — the plot kinds with one curve per case (docs/sweep-format.md): `series`
 * (columns of each case's series.csv or another of its CSV files) and `convergence` (one column
 * of convergence.csv against the iteration or the wall time, at one sampled step and block). */
#include <stdio.h>
#include <string.h>

#include "experiments/runner/sweep_csv.h"
#include "experiments/runner/sweep_plot.h"

typedef vbc_plot_job plot_job;

static int case_table(plot_job *J, const vbc_sweep_case *c, const char *file, vbc_table *t,
                      vbc_error *err) {
  char dir[1100], path[1300];
  snprintf(path, sizeof path, "%s/%s", vbc_sweep_case_dir(J->sw, c, dir, sizeof dir), file);
  return vbc_table_read(t, path, err);
}

static int missing_column(plot_job *J, const vbc_sweep_case *c, const char *file,
                          const char *col, vbc_error *err) {
  char dir[1100];
  return vbc_error_set(err, VBC_EXIT_INPUT, "%s: plot %s: no column '%s' in %s/%s",
                       J->sw->spec.file, J->pl->name, col,
                       vbc_sweep_case_dir(J->sw, c, dir, sizeof dir), file);
}

static int series_case(plot_job *J, const vbc_sweep_case *c, vbc_error *err) {
  vbc_table t;
  if (case_table(J, c, J->pl->file, &t, err) != VBC_OK) return vbc_table_free(&t), err->code;
  int cols[64], ny = (int)(J->pl->ny < 63 ? J->pl->ny : 63);
  cols[0] = vbc_table_column_named(&t, J->pl->x);
  if (cols[0] < 0) return vbc_table_free(&t), missing_column(J, c, J->pl->file, J->pl->x, err);
  for (int j = 0; j < ny; ++j)
    if ((cols[j + 1] = vbc_table_column_named(&t, J->pl->y[j])) < 0)
      return vbc_table_free(&t), missing_column(J, c, J->pl->file, J->pl->y[j], err);
  char title[300];
  vbc_plot_case_title(J, c, title, sizeof title);
  vbc_plot_begin_block(J, title);
  for (size_t r = 0; r < t.nrows; ++r) {
    for (int j = 0; j <= ny; ++j) vbc_plot_dat_cell(J->dat, vbc_table_cell(&t, r, cols[j]), j ? " " : "");
    fputc('\n', J->dat);
  }
  vbc_table_free(&t);
  for (int j = 0; j < ny; ++j) {
    char spec[200], name[400];
    snprintf(spec, sizeof spec, "\"%s.dat\" index %zu using 1:%d with lines lw 2", J->pl->name,
             J->blocks - 1, j + 2);
    snprintf(name, sizeof name, "%s%s%s", ny > 1 ? J->pl->y[j] : "", ny > 1 ? " " : "", title);
    vbc_plot_curve(J, spec, name);
  }
  return VBC_OK;
}

/* The block a convergence curve follows: as asked, else "total" when the solve had several
 * blocks, else the only one. */
static const char *pick_block(const plot_job *J, const vbc_table *t, int cs, int cb, long step) {
  if (J->pl->block) return J->pl->block;
  const char *first = NULL;
  for (size_t r = 0; r < t->nrows; ++r) {
    if ((long)vbc_table_number(t, r, cs) != step) continue;
    const char *b = vbc_table_cell(t, r, cb);
    if (strcmp(b, "total") == 0) return b;
    if (first == NULL) first = b;
  }
  return first ? first : "";
}

static int convergence_case(plot_job *J, const vbc_sweep_case *c, vbc_error *err) {
  vbc_table t;
  if (case_table(J, c, "convergence.csv", &t, err) != VBC_OK) return vbc_table_free(&t), err->code;
  const char *y = J->pl->ny ? J->pl->y[0] : "relative_residual";
  const char *need[] = {"step", "block", "iteration", y, J->pl->x};
  int col[5];
  for (int k = 0; k < 5; ++k)
    if ((col[k] = vbc_table_column_named(&t, need[k])) < 0)
      return vbc_table_free(&t), missing_column(J, c, "convergence.csv", need[k], err);
  long step = J->pl->step;
  for (size_t r = 0; step == 0 && r < t.nrows; ++r)
    if (r + 1 == t.nrows) step = (long)vbc_table_number(&t, r, col[0]);
  const char *block = pick_block(J, &t, col[0], col[1], step);
  char title[300], comment[400];
  vbc_plot_case_title(J, c, title, sizeof title);
  snprintf(comment, sizeof comment, "%s: step %ld, block %s: %s %s", title, step, block,
           J->pl->x, y);
  vbc_plot_begin_block(J, comment);
  size_t rows = 0;
  for (size_t r = 0; r < t.nrows; ++r) {
    if ((long)vbc_table_number(&t, r, col[0]) != step || strcmp(vbc_table_cell(&t, r, col[1]), block) ||
        vbc_table_cell(&t, r, col[3])[0] == '\0') /* mean_error is empty without a measure */
      continue;
    vbc_plot_dat_cell(J->dat, vbc_table_cell(&t, r, col[4]), "");
    vbc_plot_dat_cell(J->dat, vbc_table_cell(&t, r, col[3]), " ");
    fputc('\n', J->dat);
    rows++;
  }
  vbc_table_free(&t);
  char spec[200];
  snprintf(spec, sizeof spec, "\"%s.dat\" index %zu using 1:2 with lines lw 2", J->pl->name,
           J->blocks - 1);
  if (rows > 0) vbc_plot_curve(J, spec, title);
  return VBC_OK;
}

int vbc_plot_per_case(plot_job *J, vbc_error *err) {
  for (size_t i = 0; i < J->sw->ncases; ++i) {
    const vbc_sweep_case *c = &J->sw->cases[i];
    if (!vbc_plot_wanted(J->sw, c, J->pl->where)) continue;
    int rc = J->pl->kind == VBC_PLOT_SERIES ? series_case(J, c, err) : convergence_case(J, c, err);
    if (rc != VBC_OK) return rc;
  }
  return VBC_OK;
}
