/* test_bodies_input.c — the `bodies` key of scenes (scene/scene.c, scene/body_shape.c,
 * scene/generate.c, docs/scene-format.md#bodies): particle counts of every shape on hand-counted
 * lattices, the boundary rule, fluid displacement, particle order and initial velocities,
 * resolved defaults and `--set`; then bad input through `vbc validate` and `vbc run`: exit 2 with
 * one line naming the file and the JSON path. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/body_shape.h"
#include "scene/generate.h"
#include "scene/scene.h"
#include "tests/support.h"

/* ---- generation ---- */

/* Load scene_text (with the --set assignments) and generate its particles. */
static void generate(const char *scene_text, const char *const *sets, int nsets, vbc_scene *sc,
                     vbc_particles *p) {
  const char *path = write_text(test_dir("gen"), "scene.json", scene_text);
  vbc_error err = {0};
  cr_assert_eq(vbc_scene_load(sc, path, sets, nsets, test_registry(), &err), 0, "%s", err.message);
  memset(p, 0, sizeof *p);
  cr_assert_eq(vbc_generate(sc, p, &err), 0, "%s", err.message);
}

static void release(vbc_scene *sc, vbc_particles *p) {
  vbc_particles_free(p);
  vbc_scene_free(sc);
}

/* A 2D scene at spacing l with the given geometry and bodies (JSON array texts). */
static const char *scene_2d(double l, const char *geometry, const char *bodies) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "{\"dim\": 2, \"spacing\": %.17g, \"time\": {\"dt\": 0.01, \"end\": 0.1},\n"
           " \"geometry\": %s,\n \"bodies\": %s}\n",
           l, geometry, bodies);
  return buf;
}

/* Number of rigid particles of body k. */
static size_t rigid_count(const vbc_particles *p, int k) {
  size_t n = 0;
  for (size_t i = 0; i < p->n; ++i) n += p->kind[i] == VBC_RIGID && p->body[i] == k;
  return n;
}

static size_t count_of(const char *shape, int dim) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"dim\": %d, \"spacing\": 0.1, \"time\": {\"dt\": 0.01, \"end\": 0.1},\n"
           " \"geometry\": [], \"bodies\": [{\"shape\": %s, \"motion\": \"fixed\"}]}\n",
           dim, shape);
  vbc_scene sc;
  vbc_particles p;
  generate(text, NULL, 0, &sc, &p);
  size_t n = p.n;
  cr_assert_eq(rigid_count(&p, 0), n);
  release(&sc, &p);
  return n;
}

Test(body_generation, a_box_of_0_6_at_l_0_1_holds_36_rigid_particles_of_body_0) {
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.1, "[]",
                    "[{\"shape\": {\"type\": \"box\", \"min\": [0.2, 0.2], \"max\": [0.8, 0.8]}, "
                    "\"density_ratio\": 0.5}]"),
           NULL, 0, &sc, &p);
  cr_assert_eq(p.n, 36);
  for (size_t i = 0; i < p.n; ++i) {
    cr_assert_eq(p.kind[i], VBC_RIGID);
    cr_assert_eq(p.body[i], 0);
    cr_assert(p.pos[i].x > 0.2 && p.pos[i].x < 0.8 && p.pos[i].y > 0.2 && p.pos[i].y < 0.8);
    cr_assert_eq(p.pos[i].z, 0.0);
    cr_assert_eq(vbc_vec_norm(p.vel[i]), 0.0);
  }
  /* on the global lattice: (i + 1/2) l, x fastest */
  cr_assert_float_eq(p.pos[0].x, 0.25, 1e-12);
  cr_assert_float_eq(p.pos[1].x, 0.35, 1e-12);
  cr_assert_float_eq(p.pos[6].y, 0.35, 1e-12);
  cr_assert_float_eq(sc.bodies[0].density, 500.0, 1e-9);
  release(&sc, &p);
}

Test(body_generation, lattice_points_on_the_boundary_are_outside) {
  /* faces at 0.25 and 0.85 pass through lattice points: 0.35 .. 0.75 remain, 5 per axis */
  cr_assert_eq(count_of("{\"type\": \"box\", \"min\": [0.25, 0.25], \"max\": [0.85, 0.85]}", 2),
               25);
  /* a width-l bar centred between lattice rows has both rows on its faces: only the disk holds
   * points here */
  cr_assert_eq(count_of("{\"type\": \"union\", \"parts\": [{\"type\": \"cross\", \"center\": "
                        "[0.1, 0.1], \"length\": 0.5, \"width\": 0.1}, {\"type\": \"disk\", "
                        "\"center\": [1.05, 1.05], \"radius\": 0.06}]}",
                        2),
               1);
}

Test(body_generation, a_disk_of_radius_0_5_at_l_0_01_holds_pi_r2_over_l2_within_1_percent) {
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.01, "[]",
                    "[{\"shape\": {\"type\": \"disk\", \"center\": [0, 0], \"radius\": 0.5}, "
                    "\"mass\": 1}]"),
           NULL, 0, &sc, &p);
  const double expected = M_PI * 0.25 / 1e-4;
  cr_assert(fabs((double)p.n - expected) < 0.01 * expected, "%zu vs %g", p.n, expected);
  for (size_t i = 0; i < p.n; ++i) cr_assert(vbc_vec_norm(p.pos[i]) < 0.5);
  release(&sc, &p);
}

Test(body_generation, a_body_displaces_exactly_its_particles_from_an_aligned_fluid_box) {
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.1, "[{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [1, 1]}]",
                    "[{\"shape\": {\"type\": \"box\", \"min\": [0.2, 0.2], \"max\": [0.6, 0.6]}, "
                    "\"density\": 800}]"),
           NULL, 0, &sc, &p);
  cr_assert_eq(vbc_particles_count(&p, VBC_FLUID), 84);
  cr_assert_eq(rigid_count(&p, 0), 16);
  cr_assert_eq(p.n, 100);
  for (size_t i = 0; i < 84; ++i) {
    cr_assert_eq(p.kind[i], VBC_FLUID, "fluid comes first");
    for (size_t j = 84; j < 100; ++j)
      cr_assert(vbc_vec_norm(vbc_vec_sub(p.pos[i], p.pos[j])) > 0.1 - 1e-9);
  }
  release(&sc, &p);
}

Test(body_generation, an_offset_fluid_lattice_loses_every_particle_closer_than_l) {
  /* fluid at (i + 1/2) l + l/2 = i l: each body point (k + 1/2) l has 4 fluid points l/sqrt2
   * away; the body box [0.2, 0.6]^2 (16 points) removes the 5 x 5 fluid points 0.2 .. 0.6 */
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.1, "[{\"type\": \"fluid_box\", \"min\": [-0.05, -0.05], \"max\": [0.95, "
                         "0.95]}]",
                    "[{\"shape\": {\"type\": \"box\", \"min\": [0.2, 0.2], \"max\": [0.6, 0.6]}, "
                    "\"density\": 800}]"),
           NULL, 0, &sc, &p);
  cr_assert_eq(vbc_particles_count(&p, VBC_FLUID), 100 - 25);
  release(&sc, &p);
}

Test(body_generation, a_cross_holds_two_bars_minus_their_shared_square) {
  /* centre on a lattice point, l = 0.1: a bar 0.7 x 0.3 holds 7 x 3 points; two bars share
   * 3 x 3: 21 + 21 - 9 = 33, also turned by 90 degrees; in 3D three layers: 99 */
  const char *cross2 = "{\"type\": \"cross\", \"center\": [0.05, 0.05], \"length\": 0.7, "
                       "\"width\": 0.3}";
  cr_assert_eq(count_of(cross2, 2), 33);
  cr_assert_eq(count_of("{\"type\": \"cross\", \"center\": [0.05, 0.05], \"length\": 0.7, "
                        "\"width\": 0.3, \"angle\": 1.5707963267948966}",
                        2),
               33);
  /* turned by 45 degrees, length 0.3 and width 0.1: the centre and its 4 diagonal neighbours
   * (0.1 sqrt2 = 0.141 < 0.15 along a bar) */
  cr_assert_eq(count_of("{\"type\": \"cross\", \"center\": [0.05, 0.05], \"length\": 0.3, "
                        "\"width\": 0.1, \"angle\": 0.7853981633974483}",
                        2),
               5);
  cr_assert_eq(count_of("{\"type\": \"cross\", \"center\": [0.05, 0.05, 0.05], \"length\": 0.7, "
                        "\"width\": 0.3}",
                        3),
               99);
}

Test(body_generation, a_triangle_holds_the_points_strictly_below_its_hypotenuse) {
  /* (0,0), (1,0), (0,1) at l = 0.1: (i + j + 1) l < 1, i.e. i + j <= 8: 1 + 2 + ... + 9 = 45;
   * the 10 points with i + j = 9 lie on the hypotenuse and are outside; either orientation */
  cr_assert_eq(count_of("{\"type\": \"polygon\", \"vertices\": [[0, 0], [1, 0], [0, 1]]}", 2),
               45);
  cr_assert_eq(count_of("{\"type\": \"polygon\", \"vertices\": [[0, 1], [1, 0], [0, 0]]}", 2),
               45);
  /* a square as a convex polygon with a collinear extra vertex: 4 x 4 */
  cr_assert_eq(count_of("{\"type\": \"polygon\", \"vertices\": [[0, 0], [0.2, 0], [0.4, 0], "
                        "[0.4, 0.4], [0, 0.4]]}",
                        2),
               16);
}

Test(body_generation, a_union_counts_shared_points_once) {
  cr_assert_eq(count_of("{\"type\": \"union\", \"parts\": ["
                        "{\"type\": \"box\", \"min\": [0, 0], \"max\": [0.4, 0.2]},"
                        "{\"type\": \"box\", \"min\": [0.2, 0], \"max\": [0.6, 0.2]},"
                        "{\"type\": \"union\", \"parts\": [{\"type\": \"box\", \"min\": [0, 1], "
                        "\"max\": [0.1, 1.1]}]}]}",
                        2),
               12 + 1);
}

Test(body_generation, order_is_fluid_walls_then_bodies_in_spec_order) {
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.1,
                    "[{\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [1, 0.5]},"
                    " {\"type\": \"tank\", \"min\": [0, 0], \"max\": [1, 1], \"layers\": 1}]",
                    "[{\"shape\": {\"type\": \"box\", \"min\": [0.5, 0.6], \"max\": [0.7, 0.8]},"
                    "  \"mass\": 1},"
                    " {\"shape\": {\"type\": \"box\", \"min\": [0.1, 0.6], \"max\": [0.2, 0.9]},"
                    "  \"motion\": \"fixed\"}]"),
           NULL, 0, &sc, &p);
  size_t nf = 50, nw = 1 * 12 + 2 * 10, i = 0;
  cr_assert_eq(p.n, nf + nw + 4 + 3);
  for (; i < nf; ++i) cr_assert_eq(p.kind[i], VBC_FLUID);
  for (; i < nf + nw; ++i) cr_assert_eq(p.kind[i], VBC_WALL);
  for (; i < nf + nw + 4; ++i) cr_assert(p.kind[i] == VBC_RIGID && p.body[i] == 0);
  for (; i < p.n; ++i) cr_assert(p.kind[i] == VBC_RIGID && p.body[i] == 1);
  release(&sc, &p);
}

Test(body_generation, velocities_are_v_plus_w_cross_r_about_the_centroid) {
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.1, "[]",
                    "[{\"shape\": {\"type\": \"box\", \"min\": [0, 0], \"max\": [0.2, 0.2]},"
                    "  \"mass\": 1, \"velocity\": [1, 0], \"angular_velocity\": 2},"
                    " {\"shape\": {\"type\": \"box\", \"min\": [1, 0], \"max\": [1.2, 0.2]},"
                    "  \"motion\": \"scripted\", \"velocity\": [0, -1]},"
                    " {\"shape\": {\"type\": \"box\", \"min\": [2, 0], \"max\": [2.2, 0.2]},"
                    "  \"motion\": \"fixed\"}]"),
           NULL, 0, &sc, &p);
  cr_assert_eq(p.n, 12);
  /* body 0, particle (0.05, 0.05), centroid (0.1, 0.1): w x r = 2 (0.05, -0.05) */
  cr_assert_float_eq(p.vel[0].x, 1.1, 1e-12);
  cr_assert_float_eq(p.vel[0].y, -0.1, 1e-12);
  cr_assert_float_eq(p.vel[3].x, 0.9, 1e-12); /* (0.15, 0.15) */
  cr_assert_float_eq(p.vel[3].y, 0.1, 1e-12);
  for (size_t i = 4; i < 8; ++i) cr_assert(p.vel[i].x == 0.0 && p.vel[i].y == -1.0);
  for (size_t i = 8; i < 12; ++i) cr_assert_eq(vbc_vec_norm(p.vel[i]), 0.0);
  release(&sc, &p);
}

/* ---- parsing: defaults, --set, specs ---- */

static const char *json_text(const cJSON *root, const char *dotted) {
  char key[256];
  snprintf(key, sizeof key, "%s", dotted);
  const cJSON *node = root;
  char *save = NULL;
  for (char *part = strtok_r(key, ".", &save); part && node; part = strtok_r(NULL, ".", &save))
    node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, atoi(part))
                               : cJSON_GetObjectItemCaseSensitive(node, part);
  static char buf[256];
  char *s = node ? cJSON_PrintUnformatted(node) : NULL;
  snprintf(buf, sizeof buf, "%s", s ? s : "(missing)");
  free(s);
  return buf;
}

Test(body_scene, defaults_are_written_into_the_resolved_scene) {
  vbc_scene sc;
  vbc_particles p;
  generate(scene_2d(0.1, "[]",
                    "[{\"shape\": {\"type\": \"cross\", \"center\": [0.05, 0.05], \"length\": "
                    "0.3, \"width\": 0.1}, \"density_ratio\": 0.5},"
                    " {\"name\": \"lid\", \"shape\": {\"type\": \"box\", \"min\": [1, 1], \"max\": "
                    "[1.5, 1.1]}, \"motion\": \"fixed\"},"
                    " {\"shape\": {\"type\": \"disk\", \"center\": [3, 3], \"radius\": 0.2}, "
                    "\"motion\": \"pinned\", \"mass\": 2}]"),
           NULL, 0, &sc, &p);
  const cJSON *r = sc.resolved;
  cr_assert_str_eq(json_text(r, "bodies.0.name"), "\"body0\"");
  cr_assert_str_eq(json_text(r, "bodies.0.motion"), "\"free\"");
  cr_assert_str_eq(json_text(r, "bodies.0.velocity"), "[0,0]");
  cr_assert_str_eq(json_text(r, "bodies.0.angular_velocity"), "0");
  cr_assert_str_eq(json_text(r, "bodies.0.shape.angle"), "0");
  /* a fixed body gets no velocity keys: they are not allowed there */
  cr_assert_str_eq(json_text(r, "bodies.1.name"), "\"lid\"");
  cr_assert_str_eq(json_text(r, "bodies.1.velocity"), "(missing)");
  /* a pinned body without pin: the centre of mass, resolved by the simulation */
  cr_assert_str_eq(json_text(r, "bodies.2.pin"), "(missing)");
  cr_assert_eq(sc.nbodies, 3);
  cr_assert_eq(sc.bodies[1].motion, VBC_MOTION_FIXED);
  cr_assert_eq(sc.bodies[2].motion, VBC_MOTION_PINNED);
  cr_assert_eq(sc.bodies[2].has_pin, 0);
  cr_assert_float_eq(sc.bodies[2].mass, 2.0, 0.0);
  cr_assert_float_eq(sc.bodies[2].density, 0.0, 0.0);
  release(&sc, &p);
}

Test(body_scene, set_reaches_into_the_bodies_array) {
  vbc_scene sc;
  vbc_particles p;
  const char *sets[] = {"bodies.0.density_ratio=0.7", "bodies.0.motion=pinned",
                        "bodies.0.pin=[0.3,0.3]", "bodies.0.angular_velocity=-1.5"};
  generate(scene_2d(0.1, "[]",
                    "[{\"shape\": {\"type\": \"box\", \"min\": [0.2, 0.2], \"max\": [0.8, 0.8]}, "
                    "\"density_ratio\": 0.5}]"),
           sets, 4, &sc, &p);
  cr_assert_float_eq(sc.bodies[0].density, 700.0, 1e-9);
  cr_assert_eq(sc.bodies[0].motion, VBC_MOTION_PINNED);
  cr_assert_eq(sc.bodies[0].has_pin, 1);
  cr_assert_float_eq(sc.bodies[0].pin.x, 0.3, 0.0);
  cr_assert_float_eq(sc.bodies[0].angular_velocity.z, -1.5, 0.0);
  release(&sc, &p);
}

Test(body_shape, cross_bounds_hold_every_inside_point_at_any_angle) {
  vbc_body_shape s = {.type = VBC_BODY_CROSS, .center = {0.3, -0.2, 0.0}, .length = 1.0,
                      .width = 0.2};
  for (int t = 0; t < 12; ++t) {
    s.angle = 0.3 * t;
    vbc_vec lo, hi;
    vbc_body_shape_bounds(&s, 2, &lo, &hi);
    for (double x = -1.0; x <= 1.6; x += 0.01)
      for (double y = -1.5; y <= 1.1; y += 0.01)
        if (vbc_body_shape_contains(&s, 2, vbc_vec_make(x, y, 0.0)))
          cr_assert(x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y);
  }
}

/* ---- bad input ---- */

static const char body_scene_text[] =
    "{\n"
    "  \"dim\": 2, \"spacing\": 0.05,\n"
    "  \"time\": {\"dt\": 0.002, \"end\": 0.01},\n"
    "  \"geometry\": [\n"
    "    {\"type\": \"fluid_box\", \"min\": [0, 0], \"max\": [0.3, 0.3]},\n"
    "    {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.6, 0.6]}\n"
    "  ],\n"
    "  \"bodies\": [\n"
    "    {\"name\": \"a\", \"shape\": {\"type\": \"box\", \"min\": [0.35, 0.1], \"max\": [0.45, "
    "0.2]}, \"density\": 500}\n"
    "  ]\n"
    "}\n";

/* Bad input on the body scene (support.h: expect_bad_input). */
static void expect_bad(const char *const *sets, const char *const *fragments) {
  expect_bad_input("bad_body", body_scene_text, sets, fragments);
}

static int validate_ok(const char *const *sets) {
  const char *scene = write_text(test_dir("good_body"), "scene.json", body_scene_text);
  const char *args[32];
  int n = 0;
  args[n++] = "validate";
  args[n++] = scene;
  for (const char *const *s = sets; *s && n < 28; ++s) args[n++] = "--set", args[n++] = *s;
  args[n] = NULL;
  char *err = NULL;
  int rc = run_vbc(args, &err);
  if (rc != 0) cr_log_error("validate: %s", err ? err : "");
  free(err);
  return rc;
}

Test(bodies_input, a_valid_scene_with_bodies_and_its_overrides_validate) {
  cr_assert_eq(validate_ok(SETS("time.end=0.01")), 0);
  cr_assert_eq(validate_ok(SETS("bodies.0.density=800")), 0);
  cr_assert_eq(validate_ok(SETS("bodies.0.motion=pinned", "bodies.0.pin=[0.45,0.2]")), 0);
  /* a rigid-body-only scene: geometry may be empty or hold only a tank */
  cr_assert_eq(validate_ok(SETS("geometry=[]")), 0);
  cr_assert_eq(validate_ok(SETS("geometry=[{\"type\":\"tank\",\"min\":[0,0],\"max\":[1,1]}]")),
               0);
}

Test(bodies_input, overlapping_bodies_name_both) {
  expect_bad(SETS("bodies.1={\"name\":\"b\",\"shape\":{\"type\":\"disk\",\"center\":[0.4,0.15],"
                  "\"radius\":0.05},\"mass\":1}"),
             FRAGMENTS("bodies.1", "do not overlap", "\"b\"", "bodies.0", "\"a\""));
  /* into the tank's wall (x < 0) */
  expect_bad(SETS("bodies.0.shape.min=[-0.1,0.1]"),
             FRAGMENTS("bodies.0", "do not overlap the walls", "\"a\"", "geometry.1"));
}

Test(bodies_input, a_body_without_lattice_points_at_the_spacing) {
  expect_bad(SETS("bodies.0.shape={\"type\":\"disk\",\"center\":[0.4,0.15],\"radius\":0.03}"),
             FRAGMENTS("bodies.0.shape", "at least one lattice point", "0.05", "got none"));
}

Test(bodies_input, a_pin_outside_its_body) {
  expect_bad(SETS("bodies.0.motion=pinned", "bodies.0.pin=[0.5,0.15]"),
             FRAGMENTS("bodies.0.pin", "inside the body", "(0.5, 0.15)"));
  expect_bad(SETS("bodies.0.pin=[0.4,0.15]"),
             FRAGMENTS("bodies.0.pin", "free body", "pinned"));
}

Test(bodies_input, non_positive_density_ratio_and_mass) {
  expect_bad(SETS("bodies.0.density=0"), FRAGMENTS("bodies.0.density", "> 0", "got 0"));
  expect_bad(SETS("bodies.0.density=-500"), FRAGMENTS("bodies.0.density", "> 0"));
  expect_bad(SETS("bodies.0={\"shape\":{\"type\":\"box\",\"min\":[0.35,0.1],\"max\":[0.45,0.2]},"
                  "\"density_ratio\":-1}"),
             FRAGMENTS("bodies.0.density_ratio", "> 0"));
  expect_bad(SETS("bodies.0={\"shape\":{\"type\":\"box\",\"min\":[0.35,0.1],\"max\":[0.45,0.2]},"
                  "\"mass\":0}"),
             FRAGMENTS("bodies.0.mass", "> 0"));
}

Test(bodies_input, exactly_one_of_density_ratio_density_mass_on_free_and_pinned_bodies) {
  expect_bad(SETS("bodies.0.mass=2"),
             FRAGMENTS("bodies.0.mass", "exactly one of", "density and mass"));
  expect_bad(SETS("bodies.0={\"shape\":{\"type\":\"box\",\"min\":[0.35,0.1],\"max\":[0.45,0.2]},"
                  "\"motion\":\"pinned\"}"),
             FRAGMENTS("bodies.0", "exactly one of", "pinned", "got none"));
}

Test(bodies_input, a_mass_key_on_a_fixed_or_scripted_body) {
  expect_bad(SETS("bodies.0={\"shape\":{\"type\":\"box\",\"min\":[0.35,0.1],\"max\":[0.45,0.2]},"
                  "\"motion\":\"fixed\",\"mass\":2}"),
             FRAGMENTS("bodies.0.mass", "fixed body", "infinite"));
  expect_bad(SETS("bodies.0.motion=scripted"),
             FRAGMENTS("bodies.0.density", "scripted body", "infinite"));
  expect_bad(SETS("bodies.0={\"shape\":{\"type\":\"box\",\"min\":[0.35,0.1],\"max\":[0.45,0.2]},"
                  "\"motion\":\"fixed\",\"velocity\":[1,0]}"),
             FRAGMENTS("bodies.0.velocity", "fixed body"));
}

Test(bodies_input, a_polygon_that_is_not_convex_or_not_2d) {
  expect_bad(SETS("bodies.0.shape={\"type\":\"polygon\",\"vertices\":[[0.35,0.1],[0.45,0.1],"
                  "[0.4,0.12],[0.4,0.2]]}"),
             FRAGMENTS("bodies.0.shape.vertices.2", "convex"));
  /* a bow tie and a pentagram (turns one way, but twice around) */
  expect_bad(SETS("bodies.0.shape={\"type\":\"polygon\",\"vertices\":[[0.35,0.1],[0.45,0.1],"
                  "[0.35,0.2],[0.45,0.2]]}"),
             FRAGMENTS("bodies.0.shape.vertices", "convex"));
  expect_bad(SETS("bodies.0.shape={\"type\":\"polygon\",\"vertices\":[[0.4,0.2],[0.43,0.1],"
                  "[0.35,0.16],[0.45,0.16],[0.37,0.1]]}"),
             FRAGMENTS("bodies.0.shape.vertices", "convex", "edges cross"));
  expect_bad(SETS("bodies.0.shape={\"type\":\"polygon\",\"vertices\":[[0.35,0.1],[0.45,0.1]]}"),
             FRAGMENTS("bodies.0.shape.vertices", "at least 3 points"));
  expect_bad(SETS("dim=3", "geometry=[]",
                  "bodies.0.shape={\"type\":\"polygon\",\"vertices\":[[0,0,0],[1,0,0],[0,1,0]]}"),
             FRAGMENTS("bodies.0.shape.type", "2D only"));
}

Test(bodies_input, unknown_keys_and_types_at_every_level) {
  expect_bad(SETS("bodies.0.colour=1"), FRAGMENTS("bodies.0.colour", "unknown key"));
  expect_bad(SETS("bodies.0.shape.radius=1"), FRAGMENTS("bodies.0.shape.radius", "unknown key"));
  expect_bad(SETS("bodies.0.shape={\"type\":\"union\",\"parts\":[{\"type\":\"disk\","
                  "\"center\":[0.4,0.15],\"radius\":0.1,\"min\":[0,0]}]}"),
             FRAGMENTS("bodies.0.shape.parts.0.min", "unknown key"));
  expect_bad(SETS("bodies.0.shape.type=sphere"),
             FRAGMENTS("bodies.0.shape.type", "\"polygon\"", "sphere"));
  expect_bad(SETS("bodies.0.motion=rolling"), FRAGMENTS("bodies.0.motion", "\"scripted\""));
  expect_bad(SETS("bodies.0.name=.hidden"), FRAGMENTS("bodies.0.name", "letters"));
  expect_bad(SETS("bodies.1={\"name\":\"a\",\"shape\":{\"type\":\"box\",\"min\":[0.35,0.3],"
                  "\"max\":[0.45,0.4]},\"mass\":1}"),
             FRAGMENTS("bodies.1.name", "no other body"));
  expect_bad(SETS("bodies={}"), FRAGMENTS("bodies", "expected an array"));
}

Test(bodies_input, empty_geometry_needs_bodies) {
  expect_bad(SETS("bodies=[]", "geometry=[]"), FRAGMENTS("geometry", "non-empty array"));
  expect_bad(SETS("bodies=[]", "geometry.0={\"type\":\"tank\",\"min\":[0,0],\"max\":[1,1]}",
                  "geometry.1={\"type\":\"tank\",\"min\":[2,0],\"max\":[3,1]}"),
             FRAGMENTS("geometry", "fluid is empty"));
}

/* The body benchmarks' requirements are checked at set-up, before anything runs. */
Test(bodies_input, body_benchmarks_check_their_requirements) {
  expect_bad(SETS("benchmark={\"type\":\"buoyancy\",\"body\":1}"),
             FRAGMENTS("benchmark.body", "free body", "1 entries", "got 1"));
  expect_bad(SETS("benchmark={\"type\":\"buoyancy\"}", "gravity=[1,-9.8]"),
             FRAGMENTS("gravity", "along -y", "buoyancy"));
  expect_bad(SETS("benchmark={\"type\":\"seesaw\"}"),
             FRAGMENTS("benchmark.body", "pinned body", "got 0"));
  expect_bad_input("bad_seesaw_3d",
                   "{\"dim\": 3, \"spacing\": 0.1, \"time\": {\"dt\": 0.01, \"end\": 0.02},\n"
                   " \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0, 0],"
                   " \"max\": [0.3, 0.3, 0.3]}],\n"
                   " \"bodies\": [{\"shape\": {\"type\": \"box\", \"min\": [0.5, 0, 0],"
                   " \"max\": [0.7, 0.2, 0.2]}, \"motion\": \"pinned\", \"density\": 500}],\n"
                   " \"benchmark\": {\"type\": \"seesaw\"}}\n",
                   SETS(NULL), FRAGMENTS("dim", "expected 2", "seesaw", "got 3"));
}
