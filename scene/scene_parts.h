/* scene_parts.h — what the files of the scene loader share (scene/scene.c, scene/scene_bodies.c);
 * not an interface for other modules. */
#ifndef VBC_SCENE_PARTS_H
#define VBC_SCENE_PARTS_H

#include <math.h>

#include <cjson/cJSON.h>

#include "core/json_util.h"
#include "registry/registry.h"
#include "scene/scene.h"

#define VBC_SCENE_NO_DEFAULT NAN /* a required number */

/* Names become file names (the scene's: results/<name>; a body's may label output), so both
 * follow one rule: letters, digits, '_', '-', '.', not empty, not starting with '.'. */
int vbc_scene_name_ok(const char *name);
/* Boxes (fluid_box, tank, body boxes) must hold at least one lattice cell per axis. */
int vbc_scene_check_extent(vbc_jctx *c, const vbc_scene *s, const char *path, vbc_vec min,
                           vbc_vec max);
/* An array entry that must be an object with a string `type` (shapes of geometry and bodies). */
int vbc_scene_typed_object(vbc_jctx *c, cJSON *item, const char *path, const char **type);

/* An object of module parameters (a method group, benchmark): its keys must be the `fixed` ones
 * (the module names) or keys of the tables; every table's values are checked and defaulted
 * (scene/scene_method.c). */
int vbc_scene_module_params(vbc_jctx *c, cJSON *obj, const char *path, const char *const *fixed,
                            const vbc_param_spec *const *tables, size_t ntables);
/* `method`: the coupler and its declared parameter groups (scene/scene_method.c). `stated`: the
 * method as the scene states it before the assignments (NULL: none), whose solvers' stopping
 * tests a changed solver keeps. */
int vbc_scene_load_method(vbc_jctx *c, vbc_scene *s, cJSON *root, const cJSON *stated);
/* After the method is loaded: an assignment (--set, a sweep's) of a method key that no module
 * the scene selects reads is bad input naming the modules that would (scene/scene_method.c). */
int vbc_scene_check_sets(vbc_jctx *c, const vbc_scene *s, const char *const *sets, int nsets);
/* An assignment method....KEY=null removes KEY, so that its default applies as if the scene had
 * never written it: a sweep whose cases select different modules leaves a key out of the cases
 * whose modules do not read it (a preconditioner under pgs). */
void vbc_scene_unset_nulls(cJSON *root, const char *const *sets, int nsets);

/* The optional `bodies` array (scene/scene_bodies.c). */
int vbc_scene_load_bodies(vbc_jctx *c, vbc_scene *s, cJSON *root);
void vbc_scene_free_body_shape(vbc_body_shape *sh);
/* The body shape `mesh`: keys, the STL file, its checks and placement (scene/scene_mesh.c). */
int vbc_scene_load_body_mesh(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                             vbc_body_shape *sh);
void vbc_scene_free_body_mesh(vbc_body_shape *sh);
/* The body shape `wedge` (stored as its polygon) and a body's `lock` (scene/scene_wedge_lock.c);
 * the lock is read after the motion and the velocities. */
int vbc_scene_load_body_wedge(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                              vbc_body_shape *sh);
int vbc_scene_load_body_lock(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                             vbc_body_spec *b);

#endif
