/* sweep_gnuplot.h — gnuplot as an external program: finding it, the common head and the
 * rendering tail of every script the runner writes, and running a script. */
#ifndef VBC_SWEEP_GNUPLOT_H
#define VBC_SWEEP_GNUPLOT_H

#include <stdio.h>

#include "core/error.h"
#include "experiments/runner/sweep.h"

/* $VBC_GNUPLOT if set (a path or a name looked up in PATH), else gnuplot in PATH; NULL if it is
 * not there. */
const char *vbc_gnuplot_find(char *buf, size_t size);
/* The same for any program: $env if set (a path or a name looked up in PATH), else program in
 * PATH; NULL if it is not there (vbc animate: VBC_FFMPEG, ffmpeg). */
const char *vbc_program_find(const char *env, const char *program, char *buf, size_t size);

/* Title, axis labels (the spec's, else xlabel and ylabel with their units where known), log
 * scales, grid and key (the spec's position, else below the plot) of a plot of `curves` curves;
 * every text is plain (noenhanced) and NaN in the data is a missing value. */
void vbc_gp_head(FILE *f, const vbc_sweep *sw, const vbc_sweep_plot *pl, const char *xlabel,
                 const char *ylabel, int curves);
/* The unit of a scene key, run figure or column ("m", "s", …), NULL where the runner knows none. */
const char *vbc_gp_unit(const char *name);
/* Draw `plot_command` into NAME.png (pngcairo, else png), NAME.svg and NAME.pdf (pdfcairo, when
 * that terminal exists). */
void vbc_gp_render(FILE *f, const char *name, const char *plot_command);
/* Text the runner puts into a gnuplot script is data: a complete single-quoted literal, ' doubled
 * (inside double quotes gnuplot would run `commands` and expand @macros). vbc_gp_quote: display
 * text (titles, labels), control characters shown as spaces, cut to fit. vbc_gp_path: a path,
 * NULL if it holds a line break or does not fit (the caller refuses it). vbc_gp_comment:
 * text for a # comment, control characters shown as '?', no quotes. */
const char *vbc_gp_quote(const char *s, char *buf, size_t size);
const char *vbc_gp_path(const char *s, char *buf, size_t size);
const char *vbc_gp_comment(const char *s, char *buf, size_t size);

/* Run `gnuplot SCRIPT` in dir with its output in dir/LOG; VBC_EXIT_SYSTEM naming the log when
 * gnuplot fails. */
int vbc_gnuplot_run(const char *gnuplot, const char *dir, const char *script, const char *log,
                    vbc_error *err);

#endif
