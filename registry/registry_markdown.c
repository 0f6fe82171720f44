/* registry_markdown.c — `vbc list --format markdown`: the registry's description
 * (registry_describe.c) as a Markdown page; docs/modules.md is this output, kept equal to it by a
 * test. */
#include <math.h>
#include <string.h>

#include "registry/registry.h"

/* Table cells: '|' would end the cell, a newline the row. */
static void cell(FILE *out, const char *s) {
  for (; s && *s; ++s) {
    if (*s == '|') fputs("\\|", out);
    else if (*s == '\n') fputc(' ', out);
    else fputc(*s, out);
  }
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

static void number(FILE *out, double x) {
  if (isinf(x)) fputs(x > 0 ? "inf" : "-inf", out);
  else if (fabs(x) >= 1e300) fputs(x > 0 ? "max" : "-max", out);
  else fprintf(out, "%g", x);
}

static void params_table(FILE *out, const cJSON *params) {
  if (cJSON_GetArraySize(params) == 0) {
    fputs("No parameters.\n\n", out);
    return;
  }
  fputs("| key | type | default | range | meaning |\n|---|---|---|---|---|\n", out);
  const cJSON *p;
  cJSON_ArrayForEach(p, params) {
    fprintf(out, "| `%s` | %s | ", str(p, "key"), str(p, "type"));
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(p, "default");
    if (cJSON_IsBool(def)) fputs(cJSON_IsTrue(def) ? "true" : "false", out);
    else if (cJSON_IsString(def)) fprintf(out, "`%s`", def->valuestring);
    else number(out, def->valuedouble);
    fputs(" | ", out);
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(p, "choices");
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(p, "min");
    if (choices) {
      const cJSON *c;
      int first = 1;
      cJSON_ArrayForEach(c, choices) {
        fprintf(out, "%s`%s`", first ? "" : ", ", c->valuestring);
        first = 0;
      }
    } else if (min) {
      fputs(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "min_open")) ? "(" : "[", out);
      number(out, min->valuedouble);
      fputs(", ", out);
      number(out, cJSON_GetObjectItemCaseSensitive(p, "max")->valuedouble);
      fputs("]", out);
    }
    fputs(" | ", out);
    cell(out, str(p, "doc"));
    fputs(" |\n", out);
  }
  fputc('\n', out);
}

static void names(FILE *out, const cJSON *array, const char *sep) {
  const cJSON *x;
  int first = 1;
  cJSON_ArrayForEach(x, array) {
    fprintf(out, "%s`%s`", first ? "" : sep, x->valuestring);
    first = 0;
  }
}

static void blocks(FILE *out, const cJSON *list) {
  fputs("## Blocks\n\nConstraint blocks, by kind: a coupler's parameter group chooses among the "
        "blocks of one kind (`method.<group>.constraint`); their parameters sit in that group.\n\n",
        out);
  const cJSON *b;
  cJSON_ArrayForEach(b, list) {
    fprintf(out, "### `%s` (%s)\n\n", str(b, "name"), str(b, "kind"));
    cell(out, str(b, "summary"));
    fputs("\n\nOffers: residual, apply", out);
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(b, "offers"))
      fprintf(out, ", %s", o->valuestring);
    fputs(".\n\n", out);
    params_table(out, cJSON_GetObjectItemCaseSensitive(b, "params"));
  }
}

static void solvers(FILE *out, const cJSON *list) {
  fputs("## Solvers\n\nIteration schemes (`method.<group>.solver`); their parameters, stopping "
        "tests included, sit in the group beside the blocks'.\n\n", out);
  const cJSON *s;
  cJSON_ArrayForEach(s, list) {
    fprintf(out, "### `%s`\n\n", str(s, "name"));
    cell(out, str(s, "summary"));
    fputs("\n\n", out);
    if (*str(s, "relaxation_key"))
      fprintf(out, "Relaxed: `%s` is checked against 2 / lambda_max(D^-1 A) of the blocks that "
              "report it, before step 1 (`%s_limit`).\n\n", str(s, "relaxation_key"),
              str(s, "relaxation_key"));
    params_table(out, cJSON_GetObjectItemCaseSensitive(s, "params"));
  }
}

static void coupler(FILE *out, const cJSON *c) {
  fprintf(out, "### `%s`\n\n", str(c, "name"));
  cell(out, str(c, "summary"));
  fputs("\n\n", out);
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "records_fluid_impulse")))
    fputs("Records the fluid's force on every body (benchmark `cylinder_flow`).\n\n", out);
  fputs("| group | chooses | blocks (label: type) | meaning |\n|---|---|---|---|\n", out);
  const cJSON *g;
  cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(c, "groups")) {
    fprintf(out, "| `method.%s` | ", str(g, "key"));
    if (*str(g, "constraint_kind"))
      fprintf(out, "constraint: a %s block (default `%s`)", str(g, "constraint_kind"),
              str(g, "constraint_default"));
    if (*str(g, "solver_default"))
      fprintf(out, "%ssolver (default `%s`)", *str(g, "constraint_kind") ? "; " : "",
              str(g, "solver_default"));
    if (*str(g, "solver_defaults")) {
      fputs("; solver parameters here by default: ", out);
      cell(out, str(g, "solver_defaults"));
    }
    fputs(" | ", out);
    const cJSON *b;
    int first = 1;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(g, "blocks")) {
      fprintf(out, "%s%s: `%s`", first ? "" : ", ", str(b, "label"), str(b, "type"));
      first = 0;
    }
    fputs(" | ", out);
    cell(out, str(g, "doc"));
    fputs(" |\n", out);
  }
  fputs("\n| stage | blocks, in sweep order | solver of | |\n|---|---|---|---|\n", out);
  const cJSON *st;
  int k = 0;
  cJSON_ArrayForEach(st, cJSON_GetObjectItemCaseSensitive(c, "stages")) {
    fprintf(out, "| %d `%s` | ", ++k, str(st, "label"));
    names(out, cJSON_GetObjectItemCaseSensitive(st, "blocks"), " + ");
    fprintf(out, " | `method.%s` | %s%s |\n", str(st, "solver_group"),
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "primary"))
                ? "primary (series.csv, convergence.csv)" : "",
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "skip_without_rows"))
                ? "skipped without rows" : "");
  }
  fputc('\n', out);
  params_table(out, cJSON_GetObjectItemCaseSensitive(c, "params"));
}

static void benchmarks(FILE *out, const cJSON *list) {
  fputs("## Benchmarks\n\nNamed figures of a scene (`benchmark.type`): extra series.csv columns "
        "and summary.json metrics.\n\n", out);
  const cJSON *b;
  cJSON_ArrayForEach(b, list) {
    fprintf(out, "### `%s`\n\n", str(b, "name"));
    cell(out, str(b, "summary"));
    fputs("\n\n", out);
    if (*str(b, "series_columns")) fprintf(out, "series.csv columns: `%s`.\n\n", str(b, "series_columns"));
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(b, "metrics");
    if (cJSON_GetArraySize(m) > 0) {
      fputs("Metrics: ", out);
      names(out, m, ", ");
      fputs(".\n\n", out);
    }
    params_table(out, cJSON_GetObjectItemCaseSensitive(b, "params"));
  }
}

int vbc_registry_print_markdown(const vbc_registry *r, FILE *out, vbc_error *err) {
  cJSON *d = vbc_registry_json(r, err);
  if (d == NULL) return err->code;
  fputs("<!-- modules.md: generated by `vbc list --format markdown`; do not edit (a test "
        "compares it with the binary's output). -->\n# Modules\n\n"
        "Every module vbc ships, as the registry holds it: blocks, solvers, couplers and "
        "benchmarks with their parameters and defaults (docs/scene-format.md says where each "
        "key goes in a scene).\n\n", out);
  blocks(out, cJSON_GetObjectItemCaseSensitive(d, "blocks"));
  solvers(out, cJSON_GetObjectItemCaseSensitive(d, "solvers"));
  fputs("## Couplers\n\nOne time step as a table of stages (`method.coupler`): its parameter "
        "groups, the blocks each group's parameters reach, and the stages in order.\n\n", out);
  const cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(d, "couplers")) coupler(out, c);
  benchmarks(out, cJSON_GetObjectItemCaseSensitive(d, "benchmarks"));
  cJSON_Delete(d);
  return VBC_OK;
}
