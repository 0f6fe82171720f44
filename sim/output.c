/* output.c — see output.h. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "registry/benchmark.h"
#include "sim/output.h"
#include "io/vtu.h"

static const char *const stale_files[] = {"summary.json",  "series.csv",
                                          "convergence.csv", "frames.pvd",
                                          "hydrostatic_profile.csv", "snapshots.csv",
                                          "first_step.csv", "checkpoint.vbc", NULL};

static void remove_stale(const char *dir) {
  char path[1200];
  for (const char *const *f = stale_files; *f; ++f) {
    snprintf(path, sizeof path, "%s/%s", dir, *f);
    remove(path);
  }
  snprintf(path, sizeof path, "%s/frames", dir);
  DIR *d = opendir(path);
  if (d == NULL) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".vtu") == 0) {
      char file[1500];
      snprintf(file, sizeof file, "%s/%s", path, e->d_name);
      remove(file);
    }
  }
  closedir(d);
}

int vbc_output_open(vbc_output *o, const char *dir, const struct vbc_benchmark_type *b,
                    const char *const *extra, size_t nextra, vbc_error *err) {
  memset(o, 0, sizeof *o);
  snprintf(o->dir, sizeof o->dir, "%s", dir);
  if (vbc_mkdir_p(dir, err) != VBC_OK) return err->code;
  remove_stale(dir);
  char path[1200];
  snprintf(path, sizeof path, "%s/series.csv", dir);
  if (vbc_file_open(&o->series, path, ".part", err) != VBC_OK) return err->code;
  snprintf(path, sizeof path, "%s/convergence.csv", dir);
  if (vbc_file_open(&o->convergence, path, ".part", err) != VBC_OK) return err->code;
  fprintf(o->series.f, "time,step,iterations_mean,iterations_max,relative_residual,"
                       "kinetic_energy,max_speed%s%s",
          b && b->series_columns ? "," : "", b && b->series_columns ? b->series_columns : "");
  for (size_t k = 0; k < nextra; ++k) fprintf(o->series.f, ",%s", extra[k]);
  fputc('\n', o->series.f);
  fprintf(o->convergence.f,
          "step,time,block,iteration,residual,relative_residual,mean_error,reference_error,"
          "reference_w_error,seconds\n");
  return VBC_OK;
}

int vbc_output_series(vbc_output *o, const vbc_sim *sim, double mean_iterations,
                      int max_iterations, double relative_residual,
                      const struct vbc_benchmark_type *bench, void *bench_state,
                      const double *extra, size_t nextra, vbc_error *err) {
  double ke, pe, vmax;
  vbc_sim_fluid_energy(sim, &ke, &pe, &vmax);
  fprintf(o->series.f, "%.9g,%ld,%.6g,%d,%.6g,%.9g,%.9g", sim->time, sim->step, mean_iterations,
          max_iterations, relative_residual, ke, sqrt(vmax));
  if (bench && bench->series) bench->series(bench_state, sim, o->series.f);
  for (size_t k = 0; k < nextra; ++k) fprintf(o->series.f, ",%.9g", extra[k]);
  fputc('\n', o->series.f);
  return vbc_file_check(&o->series, err);
}

/* mean_error: the block's mean constraint error (vbc_problem_mean_error), empty for a block
 * without an error measure. */
static void print_error(FILE *f, double e) {
  if (!isnan(e)) fprintf(f, "%.9g", e);
}

/* reference_error, reference_w_error (vbc run --exact-reference, lcp/exact_reference.h): the
 * solve's, over all its blocks, so every row of the iteration carries the same pair; empty
 * without a reference. Then seconds. */
static void print_tail(FILE *f, const vbc_solve_trace *t, size_t it) {
  fputc(',', f);
  if (t->reference_error) print_error(f, t->reference_error[it]);
  fputc(',', f);
  if (t->reference_w_error) print_error(f, t->reference_w_error[it]);
  fprintf(f, ",%.6g\n", t->seconds[it]);
}

/* The total row's mean error: the largest of the blocks' (a row-weighted mean would need the
 * row counts; one fluid block is the common case, where both agree). */
static double total_error(const vbc_solve_trace *t, size_t it) {
  double e = NAN;
  for (size_t b = 0; b < t->nblocks; ++b) {
    double x = t->error[it * t->nblocks + b];
    if (!isnan(x) && (isnan(e) || x > e)) e = x;
  }
  return e;
}

/* Blocks without rows to satisfy in this solve (reference residual 0) are left out. seconds is
 * the last column: it is the one that differs between two runs of the same problem. */
int vbc_output_convergence(vbc_output *o, const vbc_sim *sim, const vbc_solve_trace *t,
                           const vbc_problem *pb, vbc_error *err) {
  if (t == NULL || t->n == 0) return VBC_OK;
  size_t active = 0;
  for (size_t b = 0; b < t->nblocks; ++b) active += t->ref_per_block[b] > 0.0;
  for (size_t it = 0; it < t->n; ++it) {
    for (size_t b = 0; b < t->nblocks; ++b) {
      double r0 = t->ref_per_block[b];
      if (r0 <= 0.0) continue;
      fprintf(o->convergence.f, "%ld,%.9g,%s,%zu,%.9g,%.9g,", sim->step, sim->time,
              pb->blocks[b]->label, it,
              t->per_block[it * t->nblocks + b], t->per_block[it * t->nblocks + b] / r0);
      print_error(o->convergence.f, t->error[it * t->nblocks + b]);
      print_tail(o->convergence.f, t, it);
    }
    if (active > 1) {
      fprintf(o->convergence.f, "%ld,%.9g,total,%zu,%.9g,%.9g,", sim->step, sim->time, it,
              t->total[it], t->total[it] / t->ref_total);
      print_error(o->convergence.f, total_error(t, it));
      print_tail(o->convergence.f, t, it);
    }
  }
  return vbc_file_check(&o->convergence, err);
}

/* frames/bodies_NNNNNN.vtu beside frames/frame_NNNNNN.vtu. */
static void body_file(char *buf, size_t size, size_t k) {
  snprintf(buf, size, "frames/bodies_%06zu.vtu", k);
}

/* The .pvd: every frame as part 0 and, with bodies, their poses as part 1. */
static int write_pvd(const vbc_output *o, int with_bodies, vbc_error *err) {
  char path[1300];
  snprintf(path, sizeof path, "%s/frames.pvd", o->dir);
  char **names = NULL;
  int rc = VBC_OK;
  if (with_bodies) {
    if ((names = vbc_calloc(o->nframes, sizeof *names, err)) == NULL) return err->code;
    for (size_t k = 0; k < o->nframes && rc == VBC_OK; ++k) {
      char name[64];
      body_file(name, sizeof name, k);
      if ((names[k] = vbc_strdup(name, err)) == NULL) rc = err->code;
    }
  }
  if (rc == VBC_OK)
    rc = vbc_pvd_write(path, (const char *const *)o->frame_files, (const char *const *)names,
                       o->frame_times, o->nframes, err);
  for (size_t k = 0; names && k < o->nframes; ++k) free(names[k]);
  free(names);
  return rc;
}

int vbc_output_frame(vbc_output *o, const vbc_particles *p, const vbc_body *bodies,
                     size_t nbodies, double time, vbc_error *err) {
  char dir[1200], rel[64], path[1300];
  snprintf(dir, sizeof dir, "%s/frames", o->dir);
  if (o->nframes == 0 && vbc_mkdir_p(dir, err) != VBC_OK) return err->code;
  snprintf(rel, sizeof rel, "frames/frame_%06zu.vtu", o->nframes);
  snprintf(path, sizeof path, "%s/%s", o->dir, rel);
  if (vbc_vtu_write(path, p, bodies, nbodies, o->compress_frames, err) != VBC_OK) return err->code;
  if (nbodies > 0) {
    char brel[64];
    body_file(brel, sizeof brel, o->nframes);
    snprintf(path, sizeof path, "%s/%s", o->dir, brel);
    if (vbc_vtu_write_bodies(path, bodies, nbodies, o->compress_frames, err) != VBC_OK) return err->code;
  }
  void *const arrays[] = {&o->frame_files, &o->frame_times};
  const size_t sizes[] = {sizeof *o->frame_files, sizeof *o->frame_times};
  if (vbc_grow(&o->cap_frames, o->nframes + 1, arrays, sizes, 2, err) != VBC_OK ||
      (o->frame_files[o->nframes] = vbc_strdup(rel, err)) == NULL)
    return err->code;
  o->frame_times[o->nframes++] = time;
  return write_pvd(o, nbodies > 0, err);
}

int vbc_output_close(vbc_output *o, vbc_error *err) {
  int rc = vbc_file_commit(&o->series, err);
  if (vbc_file_commit(&o->convergence, err) != VBC_OK) rc = err->code;
  for (size_t i = 0; i < o->nframes; ++i) free(o->frame_files[i]);
  free(o->frame_files);
  free(o->frame_times);
  o->frame_files = NULL;
  o->frame_times = NULL;
  o->nframes = o->cap_frames = 0;
  return rc;
}

int vbc_output_save(vbc_output *o, vbc_blob *out, vbc_error *err) {
  const long bytes[] = {vbc_file_size(&o->series), vbc_file_size(&o->convergence)};
  if (bytes[0] < 0 || bytes[1] < 0)
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot flush the output streams", o->dir);
  if (vbc_blob_put(out, bytes, sizeof bytes, err) != VBC_OK ||
      vbc_blob_put_array(out, o->frame_times, o->nframes, sizeof *o->frame_times, err) != VBC_OK)
    return err->code;
  for (size_t k = 0; k < o->nframes; ++k)
    if (vbc_blob_put_string(out, o->frame_files[k], err) != VBC_OK) return err->code;
  return VBC_OK;
}

int vbc_output_resume(vbc_output *o, const char *dir, vbc_reader *in, vbc_error *err) {
  char d[sizeof o->dir];
  snprintf(d, sizeof d, "%s", dir); /* dir may be o->dir */
  memset(o, 0, sizeof *o);
  snprintf(o->dir, sizeof o->dir, "%s", d);
  dir = o->dir;
  long bytes[2];
  void *times = NULL;
  size_t n = 0;
  if (vbc_reader_get(in, bytes, sizeof bytes, err) != VBC_OK ||
      vbc_reader_get_alloc(in, &times, &n, sizeof *o->frame_times, err) != VBC_OK) {
    free(times);
    return err->code;
  }
  o->frame_times = times;
  o->cap_frames = n;
  o->frame_files = vbc_calloc(n, sizeof *o->frame_files, err);
  if (o->frame_files == NULL) return err->code;
  for (; o->nframes < n; ++o->nframes) {
    char name[64];
    if (vbc_reader_get_string(in, name, sizeof name, err) != VBC_OK ||
        (o->frame_files[o->nframes] = vbc_strdup(name, err)) == NULL)
      return err->code;
  }
  char path[1200];
  snprintf(path, sizeof path, "%s/series.csv", dir);
  if (vbc_file_reopen(&o->series, path, ".part", bytes[0], err) != VBC_OK) return err->code;
  snprintf(path, sizeof path, "%s/convergence.csv", dir);
  return vbc_file_reopen(&o->convergence, path, ".part", bytes[1], err);
}
