/* compatibility.c — which coupler x fluid constraint x fluid solver combinations vbc sets up,
 * decided by the code itself: every combination of the registry's couplers, fluid blocks and
 * solvers is loaded on two tiny scenes (water at rest in a tank; the same with a floating box)
 * and set up exactly as `vbc validate` and `vbc run` do before step 1 (scene checks, the
 * simulation, the coupling and every solver's set-up check). The result is `vbc list --format
 * compatibility`, and docs/compatibility.md is that output (a test keeps them equal), so the
 * table cannot drift from what the binary accepts. "runs" means the set-up accepts it; whether
 * the physics is meaningful is measured elsewhere (docs/notes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules/builtin.h"
#include "sim/run.h"

/* A 0.5 m tank, water 0.3 m deep at l = 0.05 (60 fluid particles), one step; with_body adds a
 * free box of half the fluid's density at the surface. */
static const char scene_head[] =
    "{\"dim\": 2, \"spacing\": 0.05, \"time\": {\"dt\": 0.001, \"end\": 0.001},\n"
    " \"gravity\": [0, -9.81],\n"
    " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.5, 0.3]},\n"
    "              {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.5, 0.6]}],\n";
static const char scene_body[] =
    " \"bodies\": [{\"name\": \"box\", \"shape\": {\"type\": \"box\", \"min\": [0.15, 0.2],"
    " \"max\": [0.35, 0.4]}, \"motion\": \"free\", \"density_ratio\": 0.5}],\n";

typedef struct compat_case {
  char path[64]; /* the scene file, under a temporary directory */
  char dir[48];
} compat_case;

static int write_scene(compat_case *cc, int with_body, vbc_error *err) {
  snprintf(cc->path, sizeof cc->path, "%s/%s", cc->dir, with_body ? "body.json" : "water.json");
  FILE *f = fopen(cc->path, "w");
  if (f == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot write", cc->path);
  fprintf(f, "%s%s \"output\": {\"frames\": false}}\n", scene_head, with_body ? scene_body : "");
  if (fclose(f) != 0) return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot write", cc->path);
  return VBC_OK;
}

/* f with stderr silenced (the set-up's warnings), so the page's generator prints only the
 * page. */
static int quietly(int (*f)(void *), void *arg) {
  fflush(stderr);
  FILE *null = fopen("/dev/null", "w");
  const int saved = null ? dup(2) : -1;
  if (saved < 0 || dup2(fileno(null), 2) < 0) {
    if (saved >= 0) close(saved);
    if (null) fclose(null);
    return f(arg);
  }
  const int rc = f(arg);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(null);
  return rc;
}

typedef struct setup_call {
  const compat_case *cc;
  const vbc_registry *r;
  const char *const *sets;
  vbc_error err;
} setup_call;

static int set_up(void *arg) {
  setup_call *c = arg;
  vbc_scene scene;
  int rc = vbc_scene_load(&scene, c->cc->path, c->sets, 3, c->r, &c->err);
  if (rc == VBC_OK) {
    rc = vbc_check(&scene, &c->err);
    vbc_scene_free(&scene);
  }
  return rc;
}

/* The set-up's verdict: "runs", or the refusal without the temporary file's name. */
static void verdict(const compat_case *cc, const vbc_registry *r, const char *coupler,
                    const char *constraint, const char *solver, char *out, size_t cap) {
  char sets[3][96];
  snprintf(sets[0], sizeof sets[0], "method={\"coupler\": \"%s\"}", coupler);
  snprintf(sets[1], sizeof sets[1], "method.fluid.constraint=%s", constraint);
  snprintf(sets[2], sizeof sets[2], "method.fluid.solver=%s", solver);
  const char *const list[] = {sets[0], sets[1], sets[2]};
  setup_call call = {cc, r, list, {0}};
  const int rc = quietly(set_up, &call);
  const vbc_error err = call.err;
  if (rc == VBC_OK) {
    snprintf(out, cap, "runs");
    return;
  }
  /* "PATH: rest" -> "rest", and the path anywhere else -> "scene.json" */
  const char *msg = err.message;
  const size_t n = strlen(cc->path);
  if (strncmp(msg, cc->path, n) == 0 && msg[n] == ':') msg += n + 1 + (msg[n + 1] == ' ');
  size_t len = 0;
  for (const char *p = msg; *p && len + 12 < cap;) {
    if (strncmp(p, cc->path, n) == 0) {
      len += (size_t)snprintf(out + len, cap - len, "scene.json");
      p += n;
    } else {
      out[len++] = *p == '|' ? '/' : *p; /* a table cell */
      ++p;
    }
  }
  out[len] = '\0';
}

static void table(FILE *out, const vbc_registry *r, const compat_case *water,
                  const compat_case *body) {
  fputs("| coupler | fluid constraint | solver | water in a tank | with a floating box |\n"
        "|---|---|---|---|---|\n", out);
  char a[1024], b[1024];
  for (size_t c = 0; c < r->ncouplers; ++c)
    for (size_t k = 0; k < r->nblocks; ++k) {
      if (r->block[k]->kind != VBC_BLOCK_FLUID) continue;
      for (size_t s = 0; s < r->nsolvers; ++s) {
        const char *cn = r->coupler[c]->name, *kn = r->block[k]->name, *sn = r->solver[s]->name;
        verdict(water, r, cn, kn, sn, a, sizeof a);
        verdict(body, r, cn, kn, sn, b, sizeof b);
        fprintf(out, "| `%s` | `%s` | `%s` | %s | %s |\n", cn, kn, sn, a,
                strcmp(a, b) == 0 ? "the same" : b);
      }
    }
}

int vbc_compatibility_print_markdown(const vbc_registry *r, FILE *out, vbc_error *err) {
  compat_case water, body;
  snprintf(water.dir, sizeof water.dir, "%s", "/tmp/vbc-compat-XXXXXX");
  if (mkdtemp(water.dir) == NULL)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "cannot make a temporary directory in /tmp");
  body = water;
  int rc = write_scene(&water, 0, err);
  if (rc == VBC_OK) rc = write_scene(&body, 1, err);
  if (rc == VBC_OK) {
    fputs("<!-- compatibility.md: generated by `vbc list --format compatibility`; do not edit (a "
          "test compares it with the binary's output). -->\n# Which combinations vbc sets up\n\n"
          "Every coupler × fluid constraint × fluid solver, set up on two tiny 2D scenes exactly "
          "as `vbc validate` and `vbc run` do before the first step: water at rest in a tank, "
          "and the same with a free box of half the water's density. **runs**: the set-up "
          "accepts it; otherwise the refusal (exit 2) as `vbc validate` prints it, after the "
          "scene file's name. A refusal that names `method.uncoupled_bodies` runs under that "
          "opt-in, for an ablation, and the run is then flagged in `summary.json`'s `warnings` "
          "from its first step. Whether a combination that runs gives meaningful physics is a "
          "measurement, not a set-up check: see docs/notes/method-status.md. Contact blocks "
          "take `method.contact.solver` where the coupler has one (`lemke_contacts`: lemke).\n\n",
          out);
    table(out, r, &water, &body);
  }
  unlink(water.path);
  unlink(body.path);
  rmdir(water.dir);
  return rc;
}
