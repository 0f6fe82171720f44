/* scene_mesh.c — the body shape `mesh` (docs/scene-format.md#mesh-bodies): its keys, the STL
 * file relative to the scene file, the mesh's checks and its placement. Part of the scene
 * loader (scene/scene_bodies.c); the geometry is scene/mesh.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/mesh.h"
#include "scene/scene_parts.h"

/* `file` relative to the scene file's directory (absolute paths as they are). */
static void mesh_path(char *buf, size_t size, const char *scene_file, const char *file) {
  const char *slash = strrchr(scene_file, '/');
  if (file[0] == '/' || slash == NULL) snprintf(buf, size, "%s", file);
  else snprintf(buf, size, "%.*s/%s", (int)(slash - scene_file), scene_file, file);
}

int vbc_scene_load_body_mesh(vbc_jctx *c, const vbc_scene *s, cJSON *item, const char *path,
                             vbc_body_shape *sh) {
  static const char *const keys[] = {"type", "file", "scale", "rotate", "translate", NULL};
  const vbc_vec zero = vbc_vec_zero();
  char p[256], full[2048], why[256];
  if (s->dim != 3)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected \"box\", \"disk\", \"cross\", \"polygon\" or \"union\" "
                         "in 2D (mesh is 3D only), got \"mesh\"",
                         c->file, vbc_path_join(p, sizeof p, path, "type"));
  if (vbc_json_check_keys(c, item, path, keys) ||
      vbc_json_string(c, item, path, "file", NULL, &sh->file) ||
      vbc_json_number(c, item, path, "scale", 1.0, 0.0, 1, INFINITY, &sh->scale) ||
      vbc_json_vec(c, item, path, "rotate", 3, &zero, &sh->rotate) ||
      vbc_json_vec(c, item, path, "translate", 3, &zero, &sh->translate))
    return c->err->code;
  vbc_path_join(p, sizeof p, path, "file");
  if (sh->file[0] == '\0')
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected the name of an STL file, "
                         "got \"\"", c->file, p);
  mesh_path(full, sizeof full, c->file, sh->file);
  if ((sh->mesh = vbc_calloc(1, sizeof *sh->mesh, c->err)) == NULL) return c->err->code;
  int rc = vbc_stl_read(full, sh->mesh, why, sizeof why, c->err);
  if (rc == VBC_OK) rc = vbc_mesh_check(sh->mesh, why, sizeof why, c->err);
  if (rc == VBC_EXIT_INPUT)
    return vbc_error_set(c->err, VBC_EXIT_INPUT,
                         "%s: %s: expected a closed triangle mesh in an STL file, got %s in %s",
                         c->file, p, why, full);
  if (rc != VBC_OK) return rc;
  return vbc_mesh_place(sh->mesh, sh->scale, sh->rotate, sh->translate, c->err);
}

void vbc_scene_free_body_mesh(vbc_body_shape *sh) {
  if (sh->mesh) vbc_mesh_free(sh->mesh);
  free(sh->mesh);
  sh->mesh = NULL;
}
