/* scene.h — a validated scene: the JSON file after --set overrides, checked key by key, with
 * every default filled in (`resolved` is what summary.json records). docs/scene-format.md
 * documents every key; unknown keys are errors. */
#ifndef VBC_SCENE_H
#define VBC_SCENE_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/vec.h"

struct vbc_block_type;
struct vbc_solver_type;
struct vbc_coupler_type;
struct vbc_benchmark_type;

typedef enum vbc_shape_type {
  VBC_SHAPE_FLUID_BOX,
  VBC_SHAPE_FLUID_DISK, /* a disk in 2D, a ball in 3D */
  VBC_SHAPE_TANK        /* walls around a box interior, open at the top (+y) */
} vbc_shape_type;

typedef struct vbc_shape {
  vbc_shape_type type;
  vbc_vec min, max;      /* box, tank interior */
  vbc_vec center;        /* disk */
  double radius;         /* disk */
  vbc_vec velocity;      /* fluid: uniform initial velocity */
  double strain_rate;    /* fluid, 2D: adds A0 (x - xc, -(y - yc)) about the shape's centre */
  long layers;           /* tank: wall thickness in particles */
} vbc_shape;

typedef struct vbc_scene {
  char file[1024];
  cJSON *resolved;
  const char *name;
  int dim;
  double spacing;
  double dt, t_end, output_interval;
  vbc_vec gravity;
  double density, viscosity, re_over_l;
  int has_domain;
  vbc_vec domain_min, domain_max;
  vbc_shape *shapes;
  size_t nshapes;
  /* method */
  const struct vbc_coupler_type *coupler;
  const struct vbc_block_type *fluid_constraint;
  const struct vbc_solver_type *fluid_solver;
  const cJSON *fluid_params;   /* method.fluid, resolved */
  const cJSON *contact_params; /* method.contact, resolved */
  /* output */
  int frames;
  double frame_interval;
  long convergence_every; /* steps between solves whose convergence is recorded */
  /* benchmark */
  const struct vbc_benchmark_type *benchmark; /* NULL: none */
  const cJSON *benchmark_params;
} vbc_scene;

/* Load, apply the `--set` assignments, validate and resolve. */
int vbc_scene_load(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                   vbc_error *err);
void vbc_scene_free(vbc_scene *s);

#endif
