/* test_mesh.c — mesh bodies (scene/mesh.c, scene/mesh_stl.c, scene/scene_mesh.c): the STL reader in
 * both formats, the mesh's own volume integrals against closed forms, the generalised winding
 * number (inside, outside, on the surface, with a hole), and the mass properties of the
 * particles a mesh body gets (core/body.c, as for every shape) cross-checked against the mesh's
 * volume integrals for a cube (exact), the shipped blob (an icosphere with dents) and the
 * shipped torus. The measured errors are printed (cr_log_info) and asserted. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/generate.h"
#include "scene/mesh.h"
#include "scene/scene.h"
#include "tests/mesh_files.h"
#include "tests/support.h"

static vbc_mesh load_mesh(const char *path, double scale, vbc_vec rotate, vbc_vec translate) {
  vbc_mesh m;
  vbc_error err = {0};
  char why[256] = "";
  cr_assert_eq(vbc_stl_read(path, &m, why, sizeof why, &err), 0, "%s %s", why, err.message);
  cr_assert_eq(vbc_mesh_check(&m, why, sizeof why, &err), 0, "%s", why);
  cr_assert_eq(vbc_mesh_place(&m, scale, rotate, translate, &err), 0);
  return m;
}

static const char *cube_file(const char *name, double a, int binary) {
  const char *path = write_text(test_dir(name), binary ? "cube.stl" : "cube_ascii.stl", "");
  write_cube(path, a, binary, CUBE_WHOLE);
  return path;
}

Test(mesh_stl, ascii_and_binary_cubes_read_as_12_triangles_with_the_same_corners) {
  vbc_mesh a = load_mesh(cube_file("stl_a", 0.5, 0), 1.0, vbc_vec_zero(), vbc_vec_zero());
  vbc_mesh b = load_mesh(cube_file("stl_b", 0.5, 1), 1.0, vbc_vec_zero(), vbc_vec_zero());
  cr_assert_eq(a.ntriangles, 12);
  cr_assert_eq(b.ntriangles, 12);
  for (size_t k = 0; k < 36; ++k) cr_assert_eq(vbc_vec_norm(vbc_vec_sub(a.v[k], b.v[k])), 0.0);
  cr_assert_eq(a.hi.x, 0.5);
  cr_assert_float_eq(a.tol, 0.5e-9, 1e-24);
  vbc_mesh_free(&a);
  vbc_mesh_free(&b);
}

Test(mesh_stl, the_shipped_meshes_are_closed_with_320_and_256_triangles) {
  vbc_mesh blob = load_mesh(source_path("experiments/scenes/meshes/blob.stl"), 1.0,
                            vbc_vec_zero(), vbc_vec_zero());
  vbc_mesh torus = load_mesh(source_path("experiments/scenes/meshes/torus.stl"), 1.0,
                             vbc_vec_zero(), vbc_vec_zero());
  cr_assert_eq(blob.ntriangles, 320);
  cr_assert_eq(torus.ntriangles, 256);
  cr_assert_float_eq(torus.hi.x, 1.4, 1e-9);
  cr_assert_float_eq(torus.hi.y, 0.4, 1e-9);
  vbc_mesh_free(&blob);
  vbc_mesh_free(&torus);
}

/* ---- volume integrals ---- */

Test(mesh_mass, a_cube_of_edge_a_has_volume_a3_centre_a_over_2_and_inertia_a5_over_6) {
  const double a = 0.5;
  const vbc_vec t = vbc_vec_make(1.0, -2.0, 3.0);
  vbc_mesh m = load_mesh(cube_file("mass_cube", a, 0), 1.0, vbc_vec_zero(), t);
  double V;
  vbc_vec c;
  vbc_mat3 I;
  vbc_mesh_mass(&m, &V, &c, &I);
  cr_assert_float_eq(V, a * a * a, 1e-14);
  cr_assert_float_eq(vbc_vec_norm(vbc_vec_sub(c, vbc_vec_add(t, vbc_vec_make(0.25, 0.25, 0.25)))),
                     0.0, 1e-14);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      cr_assert_float_eq(I.a[i][j], i == j ? pow(a, 5) / 6.0 : 0.0, 1e-14, "I[%d][%d] = %g", i,
                         j, I.a[i][j]);
  vbc_mesh_free(&m);
}

/* A rotated torus keeps its volume (the polyhedron's: 16 x 8 quads hold 88 % of 2 pi^2 R r^2) and turns its
 * inertia: I' = R I R^T. */
Test(mesh_mass, rotating_the_torus_turns_its_inertia_and_keeps_its_volume) {
  const char *path = source_path("experiments/scenes/meshes/torus.stl");
  const vbc_vec rot = vbc_vec_make(0.3, -0.5, 0.9), t = vbc_vec_make(0.1, 0.2, 0.3);
  vbc_mesh m0 = load_mesh(path, 2.0, vbc_vec_zero(), vbc_vec_zero());
  vbc_mesh m1 = load_mesh(path, 2.0, rot, t);
  double V0, V1;
  vbc_vec c0, c1;
  vbc_mat3 I0, I1, R;
  vbc_mesh_mass(&m0, &V0, &c0, &I0);
  vbc_mesh_mass(&m1, &V1, &c1, &I1);
  const double exact = 2.0 * M_PI * M_PI * 2.0 * 0.8 * 0.8;
  cr_log_info("torus R = 2, r = 0.8: mesh volume %.6f, smooth torus %.6f", V0, exact);
  cr_assert(V0 < exact && V0 > 0.85 * exact, "V = %g", V0);
  cr_assert_float_eq(V1, V0, 1e-12 * V0);
  cr_assert_float_eq(vbc_vec_norm(vbc_vec_sub(c1, t)), 0.0, 1e-12);
  vbc_quat_to_mat3(vbc_quat_from_rotation(rot), &R);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k)
        for (int n = 0; n < 3; ++n) s += R.a[i][k] * I0.a[k][n] * R.a[j][n];
      cr_assert_float_eq(I1.a[i][j], s, 1e-12 * I0.a[0][0]);
    }
  vbc_mesh_free(&m0);
  vbc_mesh_free(&m1);
}

/* ---- the inside test ---- */

Test(mesh_winding, is_1_inside_0_outside_and_a_surface_point_is_outside) {
  vbc_mesh m = load_mesh(cube_file("wind", 1.0, 0), 1.0, vbc_vec_zero(), vbc_vec_zero());
  cr_assert_float_eq(vbc_mesh_winding(&m, vbc_vec_make(0.5, 0.5, 0.5)), 1.0, 1e-14);
  cr_assert_float_eq(vbc_mesh_winding(&m, vbc_vec_make(0.999, 0.01, 0.3)), 1.0, 1e-12);
  cr_assert_float_eq(vbc_mesh_winding(&m, vbc_vec_make(1.5, 0.5, 0.5)), 0.0, 1e-14);
  cr_assert_float_eq(vbc_mesh_winding(&m, vbc_vec_make(-3.0, 7.0, 0.2)), 0.0, 1e-14);
  cr_assert(vbc_mesh_contains(&m, vbc_vec_make(0.5, 0.5, 0.5)));
  cr_assert(vbc_mesh_contains(&m, vbc_vec_make(1.0 - 1e-6, 0.5, 0.5)));
  cr_assert(!vbc_mesh_contains(&m, vbc_vec_make(1.0, 0.3, 0.6)));         /* on a face */
  cr_assert(!vbc_mesh_contains(&m, vbc_vec_make(1.0 - 1e-11, 0.3, 0.6))); /* within tol */
  cr_assert(!vbc_mesh_contains(&m, vbc_vec_make(0.5, 1.0, 1.0)));         /* on an edge */
  cr_assert(!vbc_mesh_contains(&m, vbc_vec_make(1.0 + 1e-6, 0.5, 0.5)));
  vbc_mesh_free(&m);
}

/* The robustness the winding number is chosen for: with a triangle missing, a point far from
 * the hole still has w near 1 (a ray-parity test would answer by the ray's luck), and the
 * torus's hole (outside, but surrounded) has w = 0. */
Test(mesh_winding, a_missing_triangle_changes_w_only_near_the_hole) {
  vbc_mesh m = load_mesh(source_path("experiments/scenes/meshes/blob.stl"), 1.0, vbc_vec_zero(),
                         vbc_vec_zero());
  const vbc_vec centre = vbc_vec_make(0.0, 0.0, 0.0), out = vbc_vec_make(0.0, 0.0, 3.0);
  m.ntriangles -= 1; /* the last triangle gone: an open mesh, seen by the inside test alone */
  const double w_in = vbc_mesh_winding(&m, centre), w_out = vbc_mesh_winding(&m, out);
  cr_log_info("blob without a triangle: w = %.4f at the centre, %.4f outside", w_in, w_out);
  cr_assert(w_in > 0.98 && w_in < 1.0, "w = %g", w_in);
  cr_assert(fabs(w_out) < 0.01, "w = %g", w_out);
  cr_assert(vbc_mesh_contains(&m, centre));
  m.ntriangles += 1;
  vbc_mesh_free(&m);
  vbc_mesh t = load_mesh(source_path("experiments/scenes/meshes/torus.stl"), 1.0,
                         vbc_vec_zero(), vbc_vec_zero());
  cr_assert_float_eq(vbc_mesh_winding(&t, vbc_vec_zero()), 0.0, 1e-12);
  cr_assert_float_eq(vbc_mesh_winding(&t, vbc_vec_make(1.0, 0.0, 0.0)), 1.0, 1e-12);
  vbc_mesh_free(&t);
}

/* ---- particles of a mesh body against the mesh's integrals ---- */

typedef struct compare {
  size_t count;
  double volume_error;   /* |V_particles - V_mesh| / V_mesh */
  double centre_error;   /* |x_particles - x_mesh| / l */
  double inertia_error;  /* max |I_p - I_m| entry / max |I_m| entry */
} compare;

/* One free body with the given mesh shape (JSON) at spacing l, unit density: its particles'
 * mass properties (core/body.c) against the mesh's volume integrals. */
static compare particles_vs_mesh(const char *shape, double l) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"dim\": 3, \"spacing\": %.17g, \"time\": {\"dt\": 0.01, \"end\": 0.1},\n"
           " \"geometry\": [], \"bodies\": [{\"shape\": %s, \"density\": 1.0}]}\n", l, shape);
  const char *path = write_text(test_dir("pvm"), "scene.json", text);
  vbc_scene sc;
  vbc_particles p;
  vbc_error err = {0};
  memset(&p, 0, sizeof p);
  cr_assert_eq(vbc_scene_load(&sc, path, NULL, 0, test_registry(), &err), 0, "%s", err.message);
  cr_assert_eq(vbc_generate(&sc, &p, &err), 0, "%s", err.message);
  vbc_body b = {.motion = VBC_MOTION_FREE, .first = 0, .count = p.n};
  vbc_vec *offset = calloc(p.n, sizeof *offset);
  cr_assert_eq(vbc_body_init_mass(&b, 3, l, l * l * l, p.pos, offset, &err), 0);
  double V;
  vbc_vec c;
  vbc_mat3 I;
  vbc_mesh_mass(sc.bodies[0].shape.mesh, &V, &c, &I);
  double scale = 0.0, worst = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      scale = fmax(scale, fabs(I.a[i][j]));
      worst = fmax(worst, fabs(b.inertia.a[i][j] - I.a[i][j]));
    }
  compare r = {p.n, fabs(b.mass - V) / V, vbc_vec_norm(vbc_vec_sub(b.x, c)) / l, worst / scale};
  free(offset);
  vbc_particles_free(&p);
  vbc_scene_free(&sc);
  return r;
}

Test(mesh_body, a_cube_mesh_holds_20_cubed_particles_with_the_exact_mass_properties) {
  char shape[1200];
  snprintf(shape, sizeof shape, "{\"type\": \"mesh\", \"file\": \"%s\", \"translate\": "
           "[0.2, 0.4, -0.6]}", cube_file("pvm_cube", 0.4, 0));
  compare r = particles_vs_mesh(shape, 0.02);
  cr_log_info("cube: %zu particles, volume error %.2e, centre error %.2e l, inertia error %.2e",
              r.count, r.volume_error, r.centre_error, r.inertia_error);
  cr_assert_eq(r.count, 8000);
  cr_assert_lt(r.volume_error, 1e-12);
  cr_assert_lt(r.centre_error, 1e-9);
  cr_assert_lt(r.inertia_error, 1e-9);
}

Test(mesh_body, the_blob_sampled_at_about_20_l_matches_its_mesh_within_2_percent) {
  compare r = particles_vs_mesh("{\"type\": \"mesh\", \"file\": \"" VBC_SOURCE_DIR
                                "/experiments/scenes/meshes/blob.stl\", \"scale\": 0.1, "
                                "\"rotate\": [0.2, 0.4, 0.1], \"translate\": [0.5, 0.5, 0.5]}",
                                0.01);
  cr_log_info("blob: %zu particles, volume error %.2e, centre error %.2e l, inertia error %.2e",
              r.count, r.volume_error, r.centre_error, r.inertia_error);
  cr_assert(r.count > 3000 && r.count < 6000, "%zu", r.count);
  cr_assert_lt(r.volume_error, 0.02);
  cr_assert_lt(r.centre_error, 0.1);
  cr_assert_lt(r.inertia_error, 0.03);
}

Test(mesh_body, the_torus_sampled_at_8_l_across_its_tube_matches_its_mesh_within_3_percent) {
  compare r = particles_vs_mesh("{\"type\": \"mesh\", \"file\": \"" VBC_SOURCE_DIR
                                "/experiments/scenes/meshes/torus.stl\", \"scale\": 0.1, "
                                "\"rotate\": [0.5, 0.0, 0.0], \"translate\": [0.3, 0.3, 0.3]}",
                                0.005);
  cr_log_info("torus: %zu particles, volume error %.2e, centre error %.2e l, inertia error %.2e",
              r.count, r.volume_error, r.centre_error, r.inertia_error);
  cr_assert(r.count > 5000, "%zu", r.count);
  cr_assert_lt(r.volume_error, 0.03);
  cr_assert_lt(r.centre_error, 0.1);
  cr_assert_lt(r.inertia_error, 0.03);
}

/* A mesh path is relative to the scene file's directory; defaults are written into the
 * resolved scene (summary.json). */
Test(mesh_body, the_file_is_found_beside_the_scene_and_defaults_are_resolved) {
  const char *dir = test_dir("rel");
  char mesh[1100];
  snprintf(mesh, sizeof mesh, "%s/cube.stl", dir);
  write_cube(mesh, 0.1, 0, CUBE_WHOLE);
  const char *path = write_text(dir, "scene.json",
                                "{\"dim\": 3, \"spacing\": 0.05, \"time\": {\"dt\": 0.01, "
                                "\"end\": 0.1}, \"geometry\": [], \"bodies\": [{\"shape\": "
                                "{\"type\": \"mesh\", \"file\": \"cube.stl\"}, \"motion\": "
                                "\"fixed\"}]}");
  vbc_scene sc;
  vbc_particles p;
  vbc_error err = {0};
  memset(&p, 0, sizeof p);
  cr_assert_eq(vbc_scene_load(&sc, path, NULL, 0, test_registry(), &err), 0, "%s", err.message);
  cr_assert_eq(vbc_generate(&sc, &p, &err), 0, "%s", err.message);
  cr_assert_eq(p.n, 8);
  cr_assert_eq(json_number(sc.resolved, "bodies.0.shape.scale"), 1.0);
  cr_assert_eq(json_number(sc.resolved, "bodies.0.shape.rotate.2"), 0.0);
  cr_assert_eq(json_number(sc.resolved, "bodies.0.shape.translate.0"), 0.0);
  vbc_particles_free(&p);
  vbc_scene_free(&sc);
}

/* The shipped scene sets up and steps under both couplers it names (two steps each: the full
 * run is minutes). */
Test(mesh_scene, mesh_bodies_json_runs_under_lemke_contacts_and_strong) {
  const char *scene = source_path("experiments/scenes/mesh_bodies.json");
  const char *lemke[] = {"time.end=0.008"};
  const char *strong[] = {"time.end=0.008",
                          "method={\"coupler\": \"strong\", \"fluid\": {\"constraint\": \"mps\", "
                          "\"solver\": \"pgs\", \"tolerance\": 0.01, \"max_iterations\": 2000}, "
                          "\"contact\": {\"restitution\": 0.0, \"alpha\": 0.05}}"};
  for (int k = 0; k < 2; ++k) {
    cJSON *s = run_scene(k ? "scene_strong" : "scene_lemke", scene, k ? strong : lemke, k + 1);
    cr_assert_eq(json_number(s, "particles.rigid"), 356.0);
    cr_assert_eq(json_number(s, "particles.fluid"), 6680.0);
    cr_assert_eq(json_number(s, "steps"), 2.0);
    cJSON_Delete(s);
  }
}
