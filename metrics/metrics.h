/* metrics.h — the benchmark metric modules (selected by `benchmark.type`). */
#ifndef VBC_METRICS_H
#define VBC_METRICS_H

#include "registry/benchmark.h"
#include "io/blob.h"
#include "scene/scene.h"

extern const vbc_benchmark_type vbc_benchmark_hydrostatic;    /* Miyamoto §5.2 */
extern const vbc_benchmark_type vbc_benchmark_circular_patch; /* Miyamoto §5.4 */
extern const vbc_benchmark_type vbc_benchmark_bodies;         /* Miyamoto §5.1, §5.7 */
extern const vbc_benchmark_type vbc_benchmark_buoyancy;       /* Miyamoto §5.5 */
extern const vbc_benchmark_type vbc_benchmark_seesaw;         /* Miyamoto §5.6 */
extern const vbc_benchmark_type vbc_benchmark_dam_break;      /* Koshizuka & Oka 1996 */
extern const vbc_benchmark_type vbc_benchmark_wedge_entry;    /* He et al. 2012 §7.2 */
extern const vbc_benchmark_type vbc_benchmark_cylinder_entry; /* Greenhow & Lin 1983 */
extern const vbc_benchmark_type vbc_benchmark_cylinder_flow;  /* He et al. 2012 Fig. 12 */
extern const vbc_benchmark_type vbc_benchmark_body_height;    /* Qiu et al. 2017 §3.2-3.3 */
extern const vbc_benchmark_type vbc_benchmark_spheric_test2;  /* Kleefsman et al. 2005 */
extern const vbc_benchmark_type vbc_benchmark_canelas_cube;   /* Canelas et al. 2016 */

void vbc_series_value(FILE *out, const char *format, double value); /* ",v"; "," if missing */
/* v at time s of samples (t_k, v_k), k < n (n >= 2, t increasing), linear between samples; s
 * within [t_0, t_{n-1}] (metrics/interpolate.c). */
double vbc_interp_linear(const double *t, const double *v, size_t n, double s);
/* Benchmarks that measure depths and surfaces along y need gravity along -y: VBC_OK, or exit 2
 * "FILE: gravity: expected gravity along -y for the NAME benchmark, got (x, y, z)". */
int vbc_benchmark_gravity_down(const vbc_scene *sc, const char *name, vbc_error *err);

/* `benchmark.body` b names a body of the scene with the given motion (a vbc_motion; -1: any):
 * b, or -1 with exit 2 "FILE: benchmark.body: expected the index of a [free |pinned ]body
 * (bodies has N entries), got b". */
long vbc_benchmark_body(const struct vbc_sim *sim, long b, int motion, vbc_error *err);

/* Penetration over a run (metrics/penetration.c): the deepest overlap l - r of two particles
 * at r < l, between a rigid particle and another body's or a wall's (body), and between a fluid
 * particle and a rigid or wall particle (fluid); pairs without a movable side do not count. */
typedef struct vbc_penetration {
  double body, fluid; /* the deepest overlaps so far [m] */
} vbc_penetration;

/* Every step (and at t = 0): the overlaps in the step's neighbour list. */
void vbc_penetration_observe(vbc_penetration *pen, const struct vbc_sim *sim);
/* The deepest body overlap [m] at the current positions, over the pairs of the current neighbour
 * list (built at the step's start; a pair closer than l now was within the list's reach then): a
 * snapshot's penetration, as the paper judges its figures. */
double vbc_penetration_now(const struct vbc_sim *sim);
/* At the end: a neighbour search at the final positions and their overlaps. */
int vbc_penetration_final(vbc_penetration *pen, struct vbc_sim *sim, vbc_error *err);
/* The tracker's maxima in a checkpoint (io/blob.h). */
int vbc_penetration_save(const vbc_penetration *pen, struct vbc_blob *out, vbc_error *err);
int vbc_penetration_load(vbc_penetration *pen, struct vbc_reader *in, vbc_error *err);
/* metrics.max_penetration and metrics.max_fluid_penetration, divided by l. */
void vbc_penetration_metrics(const vbc_penetration *pen, const struct vbc_sim *sim,
                             cJSON *metrics);

#endif
