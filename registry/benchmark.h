/* benchmark.h — named figures of a benchmark scene: extra series.csv columns and the metrics
 * object of summary.json. A scene selects one by `benchmark.type`. */
#ifndef VBC_BENCHMARK_H
#define VBC_BENCHMARK_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/params.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vbc_sim;
struct vbc_blob;
struct vbc_reader;

typedef struct vbc_benchmark_type {
  const char *name;
  const char *summary;
  const vbc_param_spec *params;
  const char *series_columns; /* comma-separated names appended to series.csv, or NULL */
  const char *const *metric_names; /* NULL-terminated: the keys metrics() adds (vbc sweep checks
                                      a spec's metrics against them before running anything) */
  void *(*alloc)(const struct vbc_sim *sim, const cJSON *params, vbc_error *err);
  void (*free)(void *state);
  /* After every step (and once at t = 0); NULL if the benchmark needs no history. A failure
   * (out of memory) ends the run with its error. */
  int (*observe)(void *state, const struct vbc_sim *sim, vbc_error *err);
  /* Checkpoints (sim/checkpoint.h): save what observe accumulated, and load it into a state that
   * alloc just made for the same scene, with sim already restored to the checkpoint's step.
   * Required with observe; NULL for a benchmark without history. */
  int (*save)(const void *state, struct vbc_blob *out, vbc_error *err);
  int (*load)(void *state, const struct vbc_sim *sim, struct vbc_reader *in, vbc_error *err);
  /* The values of series_columns at an output time, each preceded by a comma. */
  void (*series)(void *state, const struct vbc_sim *sim, FILE *out);
  /* At the end: add the benchmark's figures to `metrics`; may run a neighbour search and write
   * extra files (atomically) into outdir. */
  int (*metrics)(void *state, struct vbc_sim *sim, cJSON *metrics, const char *outdir,
                 vbc_error *err);
} vbc_benchmark_type;

#ifdef __cplusplus
}
#endif

#endif
