/* lcp_dump.c — `vbc run --dump-lcp STEP DIR`: the LCP of every solve of one step, in the format
 * of `vbc lcp` (see lcp_dump.h for the contract and the choices; docs/lcp.md for the format).
 *
 * The matrix is assembled by vbc_lemke_assemble (solvers/schemes/lemke/lemke_solver.c), the very function
 * the solver type `lemke` runs at the same point of vbc_solve, so the file is the problem Lemke
 * would solve in that step, and for PGS and Jacobi the same rows with the same targets. Entries
 * are printed with 17 significant digits, enough to read back the identical doubles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "lcp/lcp_dump.h"
#include "lcp/lcp_file.h"
#include "solvers/schemes/lemke/lemke.h"

int vbc_lcp_dump_check(const char *scene_file, long step, long first, long last, double dt,
                       const char *dir, vbc_error *err) {
  if (step < first || step > last)
    return vbc_error_set(err, VBC_EXIT_INPUT,
                         "%s: --dump-lcp %ld: expected a step in %ld..%ld (the run makes steps "
                         "%ld..%ld of %g s)", scene_file, step, first, last, first, last, dt);
  vbc_error e;
  vbc_error_clear(&e);
  char probe_path[1100];
  snprintf(probe_path, sizeof probe_path, "%s/.dump_lcp_probe", dir);
  vbc_file probe;
  if (vbc_mkdir_p(dir, &e) != VBC_OK || vbc_file_open(&probe, probe_path, ".tmp", &e) != VBC_OK)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: --dump-lcp: cannot write into directory %s (%s)",
                         scene_file, dir, e.message);
  vbc_file_discard(&probe);
  return VBC_OK;
}

/* One line of the log: "step S solve K: what". */
static void dump_log(vbc_lcp_dump *d, const char *what) {
  if (d->nlog == VBC_LCP_DUMP_LOG) return;
  snprintf(d->log[d->nlog++], sizeof d->log[0], "step %ld solve %d: %s", d->step, d->solves,
           what);
}

/* Per block of the problem: the first LCP row, how many LCP rows, how many of them are the
 * second halves of split bilateral rows. */
typedef struct block_span {
  size_t first, count, split;
} block_span;

static void spans(const vbc_problem *pb, const vbc_lemke_lcp *lcp, block_span *sp) {
  for (size_t b = 0; b < pb->nblocks; ++b) sp[b] = (block_span){0, 0, 0};
  for (size_t i = lcp->n; i-- > 0;) {
    block_span *s = &sp[lcp->block[i]];
    s->first = i;
    s->count++;
    s->split += lcp->sign[i] < 0;
  }
}

/* BLOCKS of the file name: the type names of the blocks with LCP rows, joined by '+'. */
static void blocks_name(const vbc_problem *pb, const block_span *sp, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (size_t b = 0; b < pb->nblocks && len < cap; ++b) {
    if (sp[b].count == 0) continue;
    int w = snprintf(out + len, cap - len, "%s%s", len ? "+" : "", pb->blocks[b]->type->name);
    if (w < 0) break;
    len += (size_t)w;
  }
}

static void write_header(FILE *f, const vbc_lcp_dump *d, const vbc_problem *pb,
                         const vbc_solver *s, const vbc_lemke_lcp *lcp, const block_span *sp) {
  fprintf(f, "# vbc run --dump-lcp: the LCP of one solve, in the format of `vbc lcp` "
             "(docs/lcp.md)\n");
  fprintf(f, "# scene: %s\n", d->scene_file);
  fprintf(f, "# step: %ld (1-based; advances t = %.9g s to %.9g s, dt = %.9g s)\n", d->step,
          d->time, d->time + d->dt, d->dt);
  fprintf(f, "# solve: %d of this step (from 0), run's solver: %s\n", d->solves, s->type->name);
  fprintf(f, "# n = %zu rows, in block order:\n", lcp->n);
  for (size_t b = 0; b < pb->nblocks; ++b) {
    const vbc_block *blk = pb->blocks[b];
    const size_t active = sp[b].count - sp[b].split;
    fprintf(f, "#   block %zu: %s (%s): ", b, blk->type->name, blk->label ? blk->label : "?");
    if (sp[b].count == 0) {
      if (blk->rows.n) fprintf(f, "no LCP rows: its %zu rows are inert (A_kk <= 0)\n", blk->rows.n);
      else fprintf(f, "no rows\n");
      continue;
    }
    fprintf(f, "LCP rows [%zu, %zu); of its %zu rows %zu inert (A_kk <= 0, left out), %zu "
               "bilateral (each two rows: +J_k then -J_k)\n",
            sp[b].first, sp[b].first + sp[b].count, blk->rows.n, blk->rows.n - active,
            sp[b].split);
  }
  fprintf(f, "# sign mapping (solvers/schemes/lemke/lemke.h): z = lambda, the rows' total impulses "
             "(a bilateral row's lambda = z+ - z-);\n"
             "#   M = J W J^T (Kurose & Takahashi eq. 12, W the inverse mass); q = J u* - b, the "
             "rows' J v - b before this\n"
             "#   solve's impulses (q = -r - M lambda0 at the warm-started v); w = M z + q = "
             "J v - b after the solve.\n");
}

static int write_lcp(const char *path, const vbc_lcp_dump *d, const vbc_problem *pb,
                     const vbc_solver *s, const vbc_lemke_lcp *lcp, const block_span *sp,
                     vbc_error *err) {
  vbc_file file;
  if (vbc_file_open(&file, path, ".tmp", err) != VBC_OK) return err->code;
  write_header(file.f, d, pb, s, lcp, sp);
  if (vbc_lcp_file_write(file.f, lcp->n, &lcp->M, lcp->q, err) != VBC_OK) {
    vbc_file_discard(&file);
    return err->code;
  }
  return vbc_file_commit(&file, err);
}

/* The file of one solve whose LCP was assembled. */
static int dump_one(vbc_lcp_dump *d, const vbc_problem *pb, const vbc_solver *s,
                    const vbc_lemke_lcp *lcp, vbc_error *err) {
  block_span sp[VBC_MAX_BLOCKS];
  if (lcp->n == 0) {
    dump_log(d, "no LCP written: no active rows");
    return VBC_OK;
  }
  spans(pb, lcp, sp);
  char names[256], path[1100], msg[1200];
  blocks_name(pb, sp, names, sizeof names);
  snprintf(path, sizeof path, "%s/step%06ld_solve%d_%s.lcp", d->dir, d->step, d->solves, names);
  if (write_lcp(path, d, pb, s, lcp, sp, err) != VBC_OK) return err->code;
  d->written++;
  snprintf(msg, sizeof msg, "wrote %s (n = %zu)", path, lcp->n);
  dump_log(d, msg);
  return VBC_OK;
}

int vbc_lcp_dump_solve(void *ctx, vbc_problem *pb, const vbc_solver *s, vbc_error *err) {
  vbc_lcp_dump *d = ctx;
  vbc_lemke_lcp lcp = {0};
  vbc_error e;
  vbc_error_clear(&e);
  int rc = vbc_lemke_assemble(pb, &lcp, &e);
  if (rc == VBC_EXIT_INPUT) { /* rows Lemke cannot take: say so, the run goes on */
    char msg[1200];
    snprintf(msg, sizeof msg, "no LCP written: %s", e.message);
    dump_log(d, msg);
    rc = VBC_OK;
  } else if (rc != VBC_OK) {
    vbc_error_set(err, rc, "--dump-lcp: %s", e.message);
  } else {
    rc = dump_one(d, pb, s, &lcp, err);
  }
  d->solves++;
  vbc_lemke_lcp_free(&lcp);
  return rc;
}
