/* custom_solver.c — a solver registered from outside the vbc tree and chosen by name in a scene.
 *
 * damped_jacobi is projected Jacobi whose step shrinks as the iterations go:
 *     lambda'_k = clamp(lambda_k + omega_it r_k / A_kk, lo_k, hi_k),  omega_it = omega / (1 + d it)
 * with omega and d its parameters, written against vbc's constraint interface only: rows
 * (core/constraint.h) and each block's apply pass. The program adds it to a copy of the built-in
 * registry, prints the solvers the registry now lists, and runs a scene with
 * method.fluid.solver=damped_jacobi.
 * usage: custom_solver SCENE.json OUT_DIR [KEY=VALUE]... */
#include <stdio.h>
#include <stdlib.h>

#include <vbc/vbc.h>

typedef struct damped_state {
  double omega, damping;
  long iteration;
} damped_state;

static const vbc_param_spec damped_params[] = {
    {"omega", VBC_PARAM_NUMBER, 0.5, 0.0, 1.0, 1, "relaxation factor of the first iteration"},
    {"damping", VBC_PARAM_NUMBER, 0.01, 0.0, 1.0, 0, "omega shrinks as 1 / (1 + damping it)"},
    VBC_SOLVE_CONTROL_PARAMS(1e-3, 1000, 1e-3, 2),
    {NULL, 0, 0, 0, 0, 0, NULL}};

static void *damped_alloc(const cJSON *params, vbc_error *err) {
  damped_state *s = vbc_calloc(1, sizeof *s, err);
  if (s == NULL) return NULL;
  s->omega = vbc_param_number(params, damped_params, "omega");
  s->damping = vbc_param_number(params, damped_params, "damping");
  return s;
}

static void damped_free(void *state) { free(state); }

static int damped_begin(void *state, vbc_problem *pb, vbc_error *err) {
  (void)pb, (void)err;
  ((damped_state *)state)->iteration = 0;
  return VBC_OK;
}

static int damped_iterate(void *state, vbc_problem *pb, vbc_error *err) {
  (void)err;
  damped_state *s = state;
  const double omega = s->omega / (1.0 + s->damping * (double)s->iteration++);
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_rows *r = &pb->blocks[b]->rows;
    for (size_t k = 0; k < r->n; ++k) {
      const double lam = r->impulse[k], a = r->diag[k];
      const double next = a > 0.0 ? vbc_clamp(lam + omega * r->residual[k] / a, r->lo[k], r->hi[k])
                                  : lam;
      r->scratch[k] = next - lam;
      r->impulse[k] = next;
    }
  }
  for (size_t b = 0; b < pb->nblocks; ++b) {
    vbc_block *blk = pb->blocks[b];
    if (blk->rows.n) blk->type->apply(blk->state, pb->sys, &blk->rows, blk->rows.scratch);
  }
  return VBC_OK;
}

static const vbc_solver_type damped_jacobi = {
    .name = "damped_jacobi",
    .summary = "projected Jacobi with a step that shrinks over the iterations (a user's solver)",
    .params = damped_params,
    .alloc = damped_alloc,
    .free = damped_free,
    .begin = damped_begin,
    .iterate = damped_iterate,
};

static int fail(const vbc_error *err) {
  fprintf(stderr, "custom_solver: %s\n", err->message);
  return err->code;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: custom_solver SCENE.json OUT_DIR [KEY=VALUE]...\n");
    return 2;
  }
  vbc_registry registry;
  vbc_error err = {0};
  if (vbc_registry_builtin(&registry, &err) != VBC_OK ||
      vbc_registry_add_solver(&registry, &damped_jacobi, &err) != VBC_OK)
    return fail(&err);
  char names[512];
  vbc_registry_solver_names(&registry, names, sizeof names);
  printf("solvers: %s\n", names);
  const char *sets[64] = {"method.fluid.solver=damped_jacobi"};
  int nsets = 1;
  for (int i = 3; i < argc && nsets < 64; ++i) sets[nsets++] = argv[i];
  vbc_scene scene;
  if (vbc_scene_load(&scene, argv[1], sets, nsets, &registry, &err) != VBC_OK) return fail(&err);
  vbc_run_options options = {.out_dir = argv[2], .progress = VBC_PROGRESS_OFF};
  int rc = vbc_run(&scene, &options, &err);
  vbc_scene_free(&scene);
  if (rc != VBC_OK) return fail(&err);
  printf("ran %s with damped_jacobi: %s/summary.json\n", argv[1], argv[2]);
  return 0;
}
