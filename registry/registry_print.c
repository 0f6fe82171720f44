/* registry_print.c — `vbc list`: the registry as a reader wants it (registry.h). */
#include <string.h>

#include "registry/registry.h"

static void print_params(FILE *out, const vbc_param_spec *p) {
  for (; p && p->key; ++p) {
    if (p->kind == VBC_PARAM_BOOL)
      fprintf(out, "      %-20s %-6s (default %s)  %s\n", p->key, "bool",
              p->def != 0.0 ? "true" : "false", p->doc);
    else if (p->kind == VBC_PARAM_CHOICE)
      fprintf(out, "      %-20s %-6s (default \"%s\")  %s\n", p->key, "word",
              p->choices[(int)p->def], p->doc);
    else
      fprintf(out, "      %-20s %-6s (default %g)  %s\n", p->key,
              p->kind == VBC_PARAM_INTEGER ? "int" : "number", p->def, p->doc);
  }
}

static void print_blocks(const vbc_registry *r, FILE *out) {
  fprintf(out, "blocks (kind; a coupler's group chooses among the blocks of one kind):\n");
  for (int k = VBC_BLOCK_FLUID; k < VBC_BLOCK_KINDS; ++k)
    for (size_t i = 0; i < r->nblocks; ++i) {
      const vbc_block_type *b = r->block[i];
      if ((int)b->kind != k) continue;
      fprintf(out, "  %-16s [%s] %s\n", b->name, vbc_block_kind_name(b->kind), b->summary);
      print_params(out, b->params);
    }
}

/* A group: its key, what it chooses (default) and which blocks take their parameters from it. */
static void print_group(const vbc_coupler_type *t, const vbc_group_spec *g, FILE *out) {
  fprintf(out, "      method.%-12s %s\n", g->key, g->doc);
  if (g->constraint_kind != VBC_BLOCK_NONE)
    fprintf(out, "        constraint: a block of kind %s (default \"%s\")\n",
            vbc_block_kind_name(g->constraint_kind), g->constraint_default);
  if (g->solver_default) fprintf(out, "        solver (default \"%s\")\n", g->solver_default);
  if (g->solver_defaults)
    fprintf(out, "        solver parameters here by default: %s\n", g->solver_defaults);
  for (size_t k = 0; k < t->nslots; ++k)
    if (strcmp(t->slots[k].group, g->key) == 0)
      fprintf(out, "        block %-14s %s\n", t->slots[k].label,
              t->slots[k].type ? t->slots[k].type->name : "(the chosen constraint)");
}

static void print_coupler(const vbc_coupler_type *t, FILE *out) {
  fprintf(out, "  %-16s %s\n", t->name, t->summary);
  if (t->records_fluid_impulse)
    fprintf(out, "      records the fluid's force on every body (benchmark cylinder_flow)\n");
  print_params(out, t->params);
  for (size_t g = 0; g < t->ngroups; ++g) print_group(t, &t->groups[g], out);
  for (size_t s = 0; s < t->nstages; ++s) {
    const vbc_stage_spec *st = &t->stages[s];
    fprintf(out, "      stage %zu %-14s blocks", s + 1, st->label);
    for (size_t b = 0; b < st->nslots; ++b)
      fprintf(out, "%s%s", b ? "+" : " ", t->slots[st->slots[b]].label);
    fprintf(out, ", solver of method.%s%s%s\n", st->solver_group,
            st->skip_without_rows ? ", skipped without rows" : "",
            s == t->primary ? " (primary: series.csv, convergence.csv)" : "");
  }
}

void vbc_registry_print(const vbc_registry *r, FILE *out) {
  print_blocks(r, out);
  fprintf(out, "solvers (method.<group>.solver):\n");
  for (size_t i = 0; i < r->nsolvers; ++i) {
    fprintf(out, "  %-16s %s\n", r->solver[i]->name, r->solver[i]->summary);
    print_params(out, r->solver[i]->params);
  }
  fprintf(out, "couplers (method.coupler; their parameter groups and stages):\n");
  for (size_t i = 0; i < r->ncouplers; ++i) print_coupler(r->coupler[i], out);
  fprintf(out, "benchmarks (benchmark.type):\n");
  for (size_t i = 0; i < r->nbenchmarks; ++i) {
    fprintf(out, "  %-16s %s\n", r->benchmark[i]->name, r->benchmark[i]->summary);
    print_params(out, r->benchmark[i]->params);
  }
  fprintf(out,
          "bodies (scene key bodies.N; docs/scene-format.md#bodies):\n"
          "  shape.type       box, disk, cross, polygon (2D), wedge (apex, deadrise_deg, "
          "breadth, height; 3D: length), union, mesh (3D)\n"
          "  motion           free, fixed, pinned, scripted\n"
          "  lock             free bodies: the world axes it cannot move along, an array of "
          "\"x\", \"y\", \"z\" (3D), \"rotation_x\", \"rotation_y\" (3D), \"rotation_z\", "
          "\"rotation\" (all); zero inverse mass / inertia there, so every coupler respects it\n");
}
