/* atlas_html.c — DIR/index.html: one static page (no network, no script) with the case × method
 * table coloured by error at the finest level run (the best of each case marked), the fitted
 * orders, and per case what its reference is, how its error is defined, how to read it, its
 * three figures and every cell with its cost and message. Images are the PNGs the plots wrote,
 * by relative path, so the directory can be moved or served as it is. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "experiments/runner/atlas.h"
#include "experiments/runner/sweep.h"
#include "io/files.h"

static void text(FILE *f, const char *s) {
  for (; s && *s; ++s) {
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
  }
}

static void number(FILE *f, double v, const char *fmt) {
  if (isfinite(v)) fprintf(f, fmt, v);
  else fputs("&ndash;", f);
}

static const char style[] =
    "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;color:#222}\n"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
    "td,th{border:1px solid #bbb;padding:3px 6px;font-size:90%;text-align:right}\n"
    "th{background:#eee}td.l,th.l{text-align:left}\n"
    "td.best{font-weight:bold;outline:2px solid #222}\n"
    ".g1{background:#b8e6b8}.g2{background:#e6f0a8}.g3{background:#f6d49a}.g4{background:#f4a8a0}\n"
    ".refused{background:#ddd;color:#555}.failed{background:#a33;color:#fff}"
    ".notrun{background:#fff;color:#999}\n"
    "img{width:48%;min-width:320px;border:1px solid #ccc;margin:2px}\n"
    "p.about{max-width:60em}\n";

/* Colour classes by the error over the case's best: within 1.5x, 3x, 10x, beyond. */
static const char *colour(const vbc_atlas_cell *x, double best) {
  if (strcmp(x->status, "refused") == 0) return "refused";
  if (strcmp(x->status, "failed") == 0) return "failed";
  if (strcmp(x->status, "ok") != 0 || !isfinite(x->errors[0])) return "notrun";
  double r = best > 0.0 ? x->errors[0] / best : x->errors[0] > 0.0 ? INFINITY : 1.0;
  return r <= 1.5 ? "g1" : r <= 3.0 ? "g2" : r <= 10.0 ? "g3" : "g4";
}

static void cell_summary(FILE *f, const vbc_atlas_cell *x, double best, int is_best) {
  fprintf(f, "<td class=\"%s%s\" title=\"", colour(x, best), is_best ? " best" : "");
  text(f, x->status);
  if (x->message[0]) fputs(": ", f), text(f, x->message);
  if (x->warnings[0]) fputs(" warnings: ", f), text(f, x->warnings);
  fputs("\">", f);
  if (strcmp(x->status, "ok") == 0) number(f, x->errors[0], "%.3g");
  else text(f, x->status);
  if (x->warnings[0]) fputs(" &#9888;", f);
  fputs("</td>", f);
}

static void summary_table(FILE *f, const vbc_atlas *a) {
  fputs("<h2 id=\"table\">Error of every method on every case</h2>\n<p class=\"about\">At the "
        "finest spacing each case ran at. Colour: the error over the best method's on that case "
        "(green within 1.5&times;, yellow 3&times;, orange 10&times;, red beyond); the best is "
        "framed, the lowest error among the runs without warnings (a flagged run's lower error is "
        "shown, not framed, unless every run of the case was flagged); grey: refused before step "
        "1 (exit 2); dark red: failed (exit 3); &#9888;: the run reported warnings. Hover a cell "
        "for its message.</p>\n<table>\n<tr><th class=\"l\">case"
        "</th><th>l [m]</th>",
        f);
  for (size_t m = 0; m < a->spec.nmethods; ++m)
    fputs("<th>", f), text(f, a->spec.methods[m]), fputs("</th>", f);
  fputs("</tr>\n", f);
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    const vbc_atlas_case *k = &a->spec.cases[c];
    const size_t b = vbc_atlas_best(a, c);
    const vbc_atlas_cell *xb = b == SIZE_MAX ? NULL : vbc_atlas_finest_cell(a, c, b);
    const double best = xb ? xb->errors[0] : INFINITY;
    fprintf(f, "<tr><td class=\"l\"><a href=\"#case-%s\">", k->name);
    text(f, k->name);
    fputs("</a></td><td>", f);
    const vbc_atlas_cell *x0 = vbc_atlas_finest_cell(a, c, 0);
    number(f, x0 ? x0->spacing : NAN, "%g");
    fputs("</td>", f);
    for (size_t m = 0; m < a->spec.nmethods; ++m) {
      const vbc_atlas_cell *x = vbc_atlas_finest_cell(a, c, m);
      if (x) cell_summary(f, x, best, m == b);
      else fputs("<td class=\"notrun\">&ndash;</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void orders_table(FILE *f, const vbc_atlas *a) {
  fputs("<h2 id=\"orders\">Observed order</h2>\n<p class=\"about\">The slope of log error "
        "against log spacing, fitted over the levels with a finished run and a positive error "
        "(in brackets: how many). A positive order: the error falls with the spacing.</p>\n"
        "<table>\n<tr><th class=\"l\">case</th>",
        f);
  for (size_t m = 0; m < a->spec.nmethods; ++m)
    fputs("<th>", f), text(f, a->spec.methods[m]), fputs("</th>", f);
  fputs("</tr>\n", f);
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    fputs("<tr><td class=\"l\">", f);
    text(f, a->spec.cases[c].name);
    fputs("</td>", f);
    for (size_t m = 0; m < a->spec.nmethods; ++m) {
      size_t n;
      double p = vbc_atlas_fitted_order(a, c, m, &n);
      fputs("<td>", f);
      number(f, p, "%.2f");
      if (n >= 2) fprintf(f, " (%zu)", n);
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void figure(FILE *f, const vbc_atlas_case *k, const char *name, const char *alt) {
  fprintf(f, "<a href=\"cases/%s/plots/%s.svg\"><img src=\"cases/%s/plots/%s.png\" alt=\"", k->name,
          name, k->name, name);
  text(f, alt);
  fputs("\"></a>\n", f);
}

static void case_cells(FILE *f, const vbc_atlas *a, size_t c) {
  fputs("<table>\n<tr><th class=\"l\">method</th><th>l [m]</th><th class=\"l\">status</th>"
        "<th>error</th><th>order</th><th>wall s</th><th>particle-steps/s</th><th>peak MiB</th>"
        "<th>iterations</th><th class=\"l\">warnings</th><th class=\"l\">message</th></tr>\n",
        f);
  for (size_t m = 0; m < a->spec.nmethods; ++m)
    for (size_t l = 0; l < vbc_atlas_case_levels(a, c); ++l) {
      const vbc_atlas_cell *x = vbc_atlas_cell_at(a, c, m, l);
      if (x == NULL) continue;
      fputs("<tr><td class=\"l\">", f);
      text(f, a->spec.methods[m]);
      fprintf(f, "</td><td>%g</td><td class=\"l\">", x->spacing);
      text(f, x->status);
      fputs("</td><td>", f);
      number(f, x->errors[0], "%.4g");
      fputs("</td><td>", f);
      number(f, x->order, "%.2f");
      fputs("</td><td>", f);
      number(f, x->wall_seconds, "%.3g");
      fputs("</td><td>", f);
      number(f, x->particle_steps_per_second, "%.3g");
      fputs("</td><td>", f);
      number(f, x->peak_memory_mib, "%.0f");
      fputs("</td><td>", f);
      number(f, x->iterations_mean, "%.1f");
      fputs("</td><td class=\"l\">", f);
      text(f, x->warnings);
      fputs("</td><td class=\"l\">", f);
      text(f, x->message);
      fputs("</td></tr>\n", f);
    }
  fputs("</table>\n", f);
}

static void case_section(FILE *f, const vbc_atlas *a, size_t c) {
  const vbc_atlas_case *k = &a->spec.cases[c];
  fprintf(f, "<h2 id=\"case-%s\">", k->name);
  text(f, k->title);
  fprintf(f, " <small>(%s, %dD)</small></h2>\n<p class=\"about\"><b>Reference.</b> ", k->name,
          k->dim);
  text(f, k->about_reference);
  fputs("</p>\n<p class=\"about\"><b>Error</b> (<code>", f);
  text(f, k->errors[0].metric);
  fputs("</code>: ", f);
  text(f, k->errors[0].label);
  fputs("). ", f);
  text(f, k->about_error);
  fputs("</p>\n<p class=\"about\"><b>How to read it.</b> ", f);
  text(f, k->about_reading);
  fputs("</p>\n", f);
  figure(f, k, "observable", "the observable against time with the reference");
  figure(f, k, "error_vs_spacing", "error against spacing");
  figure(f, k, "error_vs_cost", "error against wall seconds");
  case_cells(f, a, c);
}

static size_t count_status(const vbc_atlas *a, const char *status) {
  size_t n = 0;
  for (size_t i = 0; i < a->ncells; ++i) n += strcmp(a->cells[i].status, status) == 0;
  return n;
}

int vbc_atlas_write_html(const vbc_atlas *a, vbc_error *err) {
  char path[1100];
  snprintf(path, sizeof path, "%s/index.html", a->out);
  vbc_file out;
  if (vbc_file_open(&out, path, ".tmp", err) != VBC_OK) return err->code;
  FILE *f = out.f;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
  text(f, a->spec.name);
  fprintf(f, " &mdash; vbc atlas</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
  text(f, a->spec.name);
  fputs(": every method on common validation cases</h1>\n<p class=\"about\">", f);
  text(f, a->spec.description);
  fprintf(f, "</p>\n<p class=\"about\">%zu cases &times; %zu methods: %zu cells ok, %zu failed, "
             "%zu refused, %zu not run. The data are in <a href=\"atlas.csv\">atlas.csv</a> and "
             "<a href=\"atlas.json\">atlas.json</a>; every figure links to its SVG, and its data "
             "and gnuplot script are beside it.</p>\n<p>",
          a->spec.ncases, a->spec.nmethods, count_status(a, "ok"), count_status(a, "failed"),
          count_status(a, "refused"), count_status(a, "not run"));
  for (size_t c = 0; c < a->spec.ncases; ++c) {
    fprintf(f, "%s<a href=\"#case-%s\">", c ? " &middot; " : "", a->spec.cases[c].name);
    text(f, a->spec.cases[c].name);
    fputs("</a>", f);
  }
  fputs("</p>\n", f);
  summary_table(f, a);
  orders_table(f, a);
  for (size_t c = 0; c < a->spec.ncases; ++c) case_section(f, a, c);
  fputs("</body>\n</html>\n", f);
  return vbc_file_commit(&out, err);
}
