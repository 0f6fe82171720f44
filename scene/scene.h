/* scene.h — a validated scene: the JSON file after --set overrides, checked key by key, with
 * every default filled in (`resolved` is what summary.json records). docs/scene-format.md
 * documents every key; unknown keys are errors. */
#ifndef VBC_SCENE_H
#define VBC_SCENE_H

#include <cjson/cJSON.h>

#include "core/body.h"
#include "core/coupler.h"
#include "core/error.h"
#include "core/kernel.h"
#include "core/vec.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vbc_registry;
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

/* Shapes of rigid bodies (scene key `bodies`, docs/scene-format.md). Particles sit on the global
 * lattice (k + 1/2) l inside the shape. */
typedef enum vbc_body_shape_type {
  VBC_BODY_BOX,     /* min, max (axis-aligned) */
  VBC_BODY_DISK,    /* center, radius: a disk in 2D, a ball in 3D */
  VBC_BODY_CROSS,   /* center, length, width, angle: two bars of length x width crossing at the
                       centre (3D: bars of square cross-section width x width) */
  VBC_BODY_POLYGON, /* vertices of a convex polygon (also the shape `wedge`); in 3D (`wedge`
                       only) the polygon extruded along z over [min.z, max.z] */
  VBC_BODY_UNION,   /* parts: a point is inside if it is inside any part */
  VBC_BODY_MESH     /* file (STL), scale, rotate, translate: a closed triangle mesh (3D only) */
} vbc_body_shape_type;

struct vbc_mesh;

typedef struct vbc_body_shape {
  vbc_body_shape_type type;
  vbc_vec min, max;      /* box */
  vbc_vec center;        /* disk, cross */
  double radius;         /* disk */
  double length, width;  /* cross */
  double angle;          /* cross: rotation about z [rad] */
  vbc_vec *vertices;     /* polygon */
  size_t nvertices;
  struct vbc_body_shape *parts; /* union */
  size_t nparts;
  const char *file;      /* mesh: `file` as written (relative to the scene file's directory) */
  double scale;          /* mesh: x -> translate + R(rotate) (scale x) (scene/mesh.h) */
  vbc_vec rotate, translate;
  struct vbc_mesh *mesh; /* mesh: the triangles, checked and placed */
} vbc_body_shape;

/* One entry of `bodies`, validated and resolved. */
typedef struct vbc_body_spec {
  const char *name;
  vbc_body_shape shape;
  vbc_motion motion;
  double density;  /* kg/m^d: `density`, or `density_ratio` times fluid.density; 0 if `mass`
                      is given instead or the body has infinite mass (fixed, scripted) */
  double mass;     /* `mass` (kg, or kg/m in 2D) when given, else 0 */
  int has_pin;
  vbc_vec pin;     /* pinned: world pin point; without `pin`, the centre of mass */
  vbc_vec velocity, angular_velocity; /* initial (free, pinned) or prescribed (scripted) */
  unsigned lock;   /* `lock`: VBC_LOCK_* bits (core/body.h), free bodies only */
} vbc_body_spec;

/* fluid.viscosity_model: the discrete Laplacian of the explicit viscous term. */
typedef enum vbc_viscosity_model {
  VBC_VISCOSITY_MPS, /* Koshizuka & Oka's MPS Laplacian (core/viscosity.h) */
  VBC_VISCOSITY_SPH  /* Morris et al.'s SPH form with the SPH kernel (core/viscosity_sph.h) */
} vbc_viscosity_model;

typedef struct vbc_scene {
  char file[1024];
  char method_preset[128]; /* the --method preset whose method replaced the scene's, or "" */
  const struct vbc_registry *registry; /* where its names were looked up (registry/registry.h) */
  cJSON *resolved;
  const char *name;
  int dim;
  double spacing;
  double dt, t_end, output_interval;
  /* adaptive time steps (sim/time_step.h): time.cfl > 0 turns them on; 0: every step is dt */
  double cfl, dt_max, dt_min;
  vbc_vec gravity;
  double density, viscosity, re_over_l;
  double sph_support_over_l; /* support H / l of the SPH kernel (sph_density, XSPH) */
  vbc_sph_kernel_type sph_kernel;
  double xsph;               /* XSPH factor alpha in [0, 1] (core/viscosity_sph.h); 0: off */
  double agitation;          /* random displacement per step in l (core/agitation.h); 0: off */
  vbc_viscosity_model viscosity_model; /* which Laplacian `viscosity` uses */
  double wall_viscosity; /* factor on the wall and body terms of the viscosity: 1 no-slip, 0 free */
  int wall_viscosity_tangential; /* those terms: tangential relative velocity only (He eq. 24) */
  int has_domain;
  vbc_vec domain_min, domain_max;
  vbc_shape *shapes;
  size_t nshapes;
  vbc_body_spec *bodies;
  size_t nbodies;
  /* method: the coupler, its own parameters (`method`, resolved) and the scene's choice for
   * every parameter group it declares (core/coupler.h), in its order */
  const vbc_coupler_type *coupler;
  const cJSON *method;
  vbc_method_group groups[VBC_MAX_GROUPS];
  size_t ngroups;
  /* output */
  int frames;
  int compress_frames; /* output.compress_frames: zlib-compressed appended data (io/vtu.h) */
  double frame_interval;
  int strict; /* output.strict: a run-time monitor's warning fails the run (sim/monitors.h) */
  long convergence_every; /* steps between solves whose convergence is recorded */
  /* benchmark */
  const struct vbc_benchmark_type *benchmark; /* NULL: none */
  const cJSON *benchmark_params;
  /* resource limit (scene/limits.h): the most particles the scene may create; 0: what fits in
   * physical memory. Not a scene key: `vbc run --max-particles N` sets it
   * (vbc_scene_load_within). */
  double max_particles;
  /* omega_limit "clamp" lowered a relaxed solver's factor at load (scene/relaxation_check.h):
   * the largest factor asked over the factor used; 0 when nothing was lowered. The run carries
   * the warning omega_clamped (sim/monitors.c). */
  double relaxation_clamped;
} vbc_scene;

/* Load, apply the `--set` assignments, validate and resolve; module names are looked up in
 * registry, which must outlive the scene. On failure the scene holds nothing (it need not, but
 * may, be freed). */
int vbc_scene_load(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                   const struct vbc_registry *registry, vbc_error *err);
/* The same with the particle limit (max_particles above; 0: what fits in memory) set before the
 * checks that build the scene's particles: the relaxation check's throw-away simulation
 * (scene/relaxation_check.h) then refuses to build more than the run may, and measures nothing
 * on a scene over the limit, which the run refuses itself. */
int vbc_scene_load_within(vbc_scene *s, const char *path, const char *const *sets, int nsets,
                          const struct vbc_registry *registry, double max_particles,
                          vbc_error *err);
void vbc_scene_free(vbc_scene *s);

#ifdef __cplusplus
}
#endif

#endif
