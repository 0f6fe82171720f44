/* output.h — the files of a run directory (docs/outputs.md): series.csv, convergence.csv,
 * frames/frame_NNNNNN.vtu + frames.pvd. summary.json is written last by sim/summary.c and is the mark of a
 * complete run. Streams are written as NAME.part and renamed on close. */
#ifndef VBC_OUTPUT_H
#define VBC_OUTPUT_H

#include "core/constraint.h"
#include "io/blob.h"
#include "io/files.h"
#include "sim/sim.h"

typedef struct vbc_output {
  char dir[1024];
  vbc_file series, convergence;
  char **frame_files;
  double *frame_times;
  size_t nframes, cap_frames;
  int compress_frames; /* the scene's output.compress_frames (io/vtu.h); set after open */
} vbc_output;

/* Create dir, remove what an earlier run left there, open the streams and write headers
 * (series.csv with bench's columns, then the nextra names in extra; bench may be NULL). */
int vbc_output_open(vbc_output *o, const char *dir, const struct vbc_benchmark_type *bench,
                    const char *const *extra, size_t nextra, vbc_error *err);
/* One series.csv row: generic columns, the benchmark's (bench may be NULL), then the nextra
 * values in extra (a run observer's, sim/sim_api.h). Both writers flush and return
 * VBC_EXIT_SYSTEM naming the stream when a write failed (vbc_file_check). */
int vbc_output_series(vbc_output *o, const vbc_sim *sim, double mean_iterations,
                      int max_iterations, double relative_residual,
                      const struct vbc_benchmark_type *bench, void *bench_state,
                      const double *extra, size_t nextra, vbc_error *err);
int vbc_output_convergence(vbc_output *o, const vbc_sim *sim, const vbc_solve_trace *t,
                           const vbc_problem *pb, vbc_error *err);
/* One frame: frames/frame_NNNNNN.vtu (with the bodies' poses as FieldData) and, with bodies,
 * frames/bodies_NNNNNN.vtu; then frames.pvd anew (io/vtu.h). */
int vbc_output_frame(vbc_output *o, const vbc_particles *p, const vbc_body *bodies,
                     size_t nbodies, double time, vbc_error *err);
/* Checkpoints (sim/checkpoint.c): the streams' lengths and the frames written so far; resume
 * reopens dir's streams (NAME.part) at those lengths, cutting what came after, and restores the
 * frame list, instead of vbc_output_open. */
int vbc_output_save(vbc_output *o, struct vbc_blob *out, vbc_error *err);
int vbc_output_resume(vbc_output *o, const char *dir, struct vbc_reader *in, vbc_error *err);
int vbc_output_close(vbc_output *o, vbc_error *err);

#endif
