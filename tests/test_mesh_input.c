/* test_mesh_input.c — bad meshes and bad `mesh` keys (scene/mesh_stl.c, scene/mesh.c,
 * scene/scene_mesh.c, scene/generate.c, docs/scene-format.md#mesh-bodies): `vbc validate` and
 * `vbc run` exit 2 with one line that names the scene file, the JSON path, the mesh file and
 * what is wrong with it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/mesh_files.h"
#include "tests/support.h"

#define NO_SETS ((const char *const[]){NULL})

/* A 3D scene of water in a tank with one free body of the given shape (JSON). */
static const char *scene_with(const char *shape) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "{\"dim\": 3, \"spacing\": 0.05, \"time\": {\"dt\": 0.01, \"end\": 0.02},\n"
           " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0, 0], \"max\": [0.3, 0.2, "
           "0.3]}, {\"type\": \"tank\", \"min\": [0, 0, 0], \"max\": [0.3, 0.5, 0.3]}],\n"
           " \"bodies\": [{\"shape\": %s, \"density_ratio\": 0.5}]}\n",
           shape);
  return buf;
}

/* A mesh file in its own directory (expect_bad_input empties the scene's): its absolute path. */
static const char *mesh_file(const char *name, const char *text, size_t len) {
  static char path[1100];
  snprintf(path, sizeof path, "%s/m.stl", test_dir(name));
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  fwrite(text, 1, len, f);
  fclose(f);
  return path;
}

static const char *mesh_shape(const char *path, const char *extra) {
  static char buf[1400];
  snprintf(buf, sizeof buf, "{\"type\": \"mesh\", \"file\": \"%s\"%s}", path, extra);
  return buf;
}

static void expect_bad_mesh(const char *path, const char *extra, const char *what) {
  expect_bad_input("bad_mesh", scene_with(mesh_shape(path, extra)), NO_SETS,
                   FRAGMENTS("bodies.0.shape", path, what));
}

Test(mesh_input, a_missing_file_is_named_with_the_reason) {
  expect_bad_mesh("/nonexistent/dir/rabbit.stl", "", "cannot be read (No such file");
}

Test(mesh_input, an_empty_file_and_an_stl_without_triangles_are_rejected) {
  expect_bad_mesh(mesh_file("empty", "", 0), "", "got an empty file");
  const char *none = "solid nothing\nendsolid nothing\n";
  expect_bad_mesh(mesh_file("none", none, strlen(none)), "", "an empty mesh (no triangles)");
}

Test(mesh_input, a_file_that_is_neither_ascii_nor_binary_stl_says_what_sizes_were_expected) {
  char junk[300];
  memset(junk, 'x', sizeof junk);
  junk[80] = 12, junk[81] = junk[82] = junk[83] = 0; /* 12 triangles would need 684 bytes */
  expect_bad_mesh(mesh_file("junk", junk, sizeof junk), "",
                  "nor a binary STL (84 + 50 x 12 = 684 bytes for its 12 triangles; the file "
                  "has 300)");
}

Test(mesh_input, an_ascii_vertex_that_is_not_three_numbers_gives_its_line) {
  const char *bad = "solid s\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 x\n";
  expect_bad_mesh(mesh_file("vertex", bad, strlen(bad)), "",
                  "a vertex that is not 3 finite numbers at line 5");
}

Test(mesh_input, only_degenerate_triangles_are_rejected) {
  const char *flat = "solid s\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n"
                     "  vertex 2 0 0\n endloop\nendfacet\nfacet normal 0 0 1\n outer loop\n"
                     "  vertex 0 0 0\n  vertex 0 0 0\n  vertex 0 1 0\n endloop\nendfacet\n"
                     "endsolid s\n";
  expect_bad_mesh(mesh_file("flat", flat, strlen(flat)), "",
                  "only degenerate triangles (zero area): all 2 of them");
}

Test(mesh_input, an_open_mesh_is_found_by_its_edges) {
  char path[1100];
  snprintf(path, sizeof path, "%s/open.stl", test_dir("open"));
  write_cube(path, 0.1, 0, CUBE_HOLE);
  expect_bad_mesh(path, "", "an open mesh: 3 edges belong to one triangle only");
}

Test(mesh_input, a_triangle_turned_the_wrong_way_is_found_by_its_edges) {
  char path[1100];
  snprintf(path, sizeof path, "%s/flipped.stl", test_dir("flipped"));
  write_cube(path, 0.1, 1, CUBE_FLIPPED);
  expect_bad_mesh(path, "", "not consistently oriented: 3 edges are not used once in each");
}

Test(mesh_input, a_mesh_too_small_for_the_spacing_holds_no_particle) {
  char path[1100];
  snprintf(path, sizeof path, "%s/small.stl", test_dir("small"));
  write_cube(path, 0.1, 0, CUBE_WHOLE);
  expect_bad_mesh(path, ", \"scale\": 0.3, \"translate\": [0.13, 0.33, 0.13]",
                  "expected a shape that holds at least one lattice point");
}

Test(mesh_input, a_mesh_too_large_for_the_spacing_is_refused_before_sampling) {
  char path[1100];
  snprintf(path, sizeof path, "%s/large.stl", test_dir("large"));
  write_cube(path, 1.0, 0, CUBE_WHOLE);
  expect_bad_mesh(path, ", \"scale\": 1e4", "expected a shape whose bounds span at most 1e+09");
}

Test(mesh_input, mesh_keys_are_checked) {
  char path[1100];
  snprintf(path, sizeof path, "%s/ok.stl", test_dir("keys"));
  write_cube(path, 0.1, 0, CUBE_WHOLE);
  expect_bad_input("keys", scene_with(mesh_shape(path, ", \"scale\": 0")), NO_SETS,
                   FRAGMENTS("bodies.0.shape.scale: expected a number > 0"));
  expect_bad_input("keys", scene_with(mesh_shape(path, ", \"rotate\": [1, 2]")), NO_SETS,
                   FRAGMENTS("bodies.0.shape.rotate: expected an array of 3 numbers"));
  expect_bad_input("keys", scene_with(mesh_shape(path, ", \"colour\": 1")), NO_SETS,
                   FRAGMENTS("bodies.0.shape.colour"));
  expect_bad_input("keys", scene_with("{\"type\": \"mesh\"}"), NO_SETS,
                   FRAGMENTS("bodies.0.shape.file: expected a string"));
}

Test(mesh_input, a_mesh_in_a_2d_scene_is_refused) {
  char path[1100];
  snprintf(path, sizeof path, "%s/ok.stl", test_dir("twod"));
  write_cube(path, 0.1, 0, CUBE_WHOLE);
  char scene[2048];
  snprintf(scene, sizeof scene,
           "{\"dim\": 2, \"spacing\": 0.05, \"time\": {\"dt\": 0.01, \"end\": 0.02},\n"
           " \"geometry\": [], \"bodies\": [{\"shape\": %s, \"motion\": \"fixed\"}]}\n",
           mesh_shape(path, ""));
  expect_bad_input("twod", scene, NO_SETS,
                   FRAGMENTS("bodies.0.shape.type: expected", "(mesh is 3D only), got \"mesh\""));
}
