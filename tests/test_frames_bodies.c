/* test_frames_bodies.c — the bodies' poses in the frames (io/vtu.c, sim/output.c,
 * docs/outputs.md#framesvtu-and-framespvd): FieldData of every particle frame and a
 * bodies_NNNNNN.vtu per frame, listed as part 1 of frames.pvd. A body alone in 2D without
 * gravity moves with v = (0.1, 0) m/s and turns at 2 rad/s, so at t = 0.02 s its pose is known:
 * x = x0 + v t, q = (cos 0.02, 0, 0, sin 0.02). tests/vtk_frames.py reads the same files with
 * VTK's own reader; this test reads the appended data by its offsets. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support.h"

static const char spinning_box[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.002, \"end\": 0.02, "
    "\"output_interval\": 0.01}, \"gravity\": [0, 0], \"geometry\": [],\n"
    " \"bodies\": [{\"name\": \"box\", \"shape\": {\"type\": \"box\", \"min\": [0.1, 0.1], "
    "\"max\": [0.2, 0.16]}, \"density\": 500, \"velocity\": [0.1, 0], "
    "\"angular_velocity\": 2.0}],\n \"output\": {\"frames\": true}}\n";

/* run_scene(name, ...) writes into VBC_TEST_TMP/name.PID/out (tests/support.c). */
static void out_dir(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/%s.%ld/out", VBC_TEST_TMP, name, (long)getpid());
}

typedef struct vtu { char *text; size_t size; const char *data; } vtu;

static vtu read_vtu(const char *dir, const char *rel) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  vtu v = {malloc(1 << 20), 0, NULL};
  v.size = fread(v.text, 1, (1 << 20) - 1, f);
  fclose(f);
  v.text[v.size] = '\0';
  const char *mark = "<AppendedData encoding=\"raw\">\n   _";
  char *at = strstr(v.text, mark);
  cr_assert_not_null(at);
  v.data = at + strlen(mark);
  return v;
}

/* Array `name` (Float64): its values after the UInt64 byte count, copied (the appended data has
 * no alignment) into one of 8 rotating buffers; *count = doubles. */
static const double *float64(const vtu *v, const char *name, size_t *count) {
  static double buf[8][16];
  static int k = 0;
  char key[128];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *at = strstr(v->text, key);
  cr_assert_not_null(at, "no %s", name);
  cr_assert(at < v->data);
  const char *off = strstr(at, "offset=\"");
  cr_assert_not_null(off);
  unsigned long long o = strtoull(off + 8, NULL, 10);
  uint64_t bytes;
  memcpy(&bytes, v->data + o, sizeof bytes);
  *count = bytes / sizeof(double);
  cr_assert(*count <= 16);
  double *out = buf[k++ % 8];
  memcpy(out, v->data + o + sizeof bytes, bytes);
  return out;
}

Test(frames_bodies, a_spinning_box_has_its_pose_in_the_frame_and_in_bodies_vtu) {
  cJSON *s = run_scene("spin", write_text(test_dir("spin_scene"), "scene.json", spinning_box),
                       NULL, 0);
  char out[1100];
  out_dir(out, sizeof out, "spin");
  vtu f = read_vtu(out, "frames/frame_000002.vtu"), b = read_vtu(out, "frames/bodies_000002.vtu");
  cr_assert_not_null(strstr(f.text, "<FieldData>"));
  cr_assert_not_null(strstr(f.text, "Name=\"body_position\" NumberOfComponents=\"3\" "
                                    "NumberOfTuples=\"1\""));
  size_t n;
  const double *x = float64(&f, "body_position", &n);
  cr_assert_eq(n, 3);
  cr_assert_float_eq(x[0], 0.15 + 0.1 * 0.02, 1e-12, "x = %.17g", x[0]);
  cr_assert_float_eq(x[1], 0.13, 1e-12);
  const double *q = float64(&f, "body_orientation", &n);
  cr_assert_eq(n, 4);
  cr_assert_float_eq(q[0], cos(0.02), 1e-12, "w = %.17g", q[0]);
  cr_assert_float_eq(q[3], sin(0.02), 1e-12, "z = %.17g", q[3]);
  cr_assert_eq(q[1], 0.0);
  const double *w = float64(&f, "body_angular_velocity", &n);
  cr_assert_float_eq(w[2], 2.0, 1e-12);
  const double *v = float64(&f, "body_velocity", &n);
  cr_assert_float_eq(v[0], 0.1, 1e-12);
  /* bodies_000002.vtu: one point at the centre, the body's x axis turned by 0.04 rad */
  cr_assert_not_null(strstr(b.text, "NumberOfPoints=\"1\""));
  const double *p = float64(&b, "Points", &n);
  cr_assert_eq(n, 3);
  cr_assert_eq(memcmp(p, x, 3 * sizeof *p), 0);
  const double *ax = float64(&b, "axis_x", &n);
  cr_assert_float_eq(ax[0], cos(0.04), 1e-12);
  cr_assert_float_eq(ax[1], sin(0.04), 1e-12);
  free(f.text);
  free(b.text);
  char *pvd;
  snprintf(out + strlen(out), sizeof out - strlen(out), "/frames.pvd");
  pvd = read_text(out);
  cr_assert_not_null(pvd);
  cr_assert_not_null(strstr(pvd, "timestep=\"0.02\" group=\"\" part=\"1\" "
                                 "file=\"frames/bodies_000002.vtu\""), "%s", pvd);
  free(pvd);
  cJSON_Delete(s);
}

Test(frames_bodies, a_fluid_only_frame_has_no_field_data_and_the_pvd_no_part_1) {
  cJSON *s = run_scene("fluid_only", write_text(test_dir("fluid_scene"), "scene.json", base_scene),
                       (const char *const[]){"output.frames=true"}, 1);
  char out[1100];
  out_dir(out, sizeof out, "fluid_only");
  vtu f = read_vtu(out, "frames/frame_000001.vtu");
  cr_assert_null(strstr(f.text, "FieldData"));
  snprintf(out + strlen(out), sizeof out - strlen(out), "/frames.pvd");
  char *pvd = read_text(out);
  cr_assert_null(strstr(pvd, "part=\"1\""));
  cr_assert_null(strstr(pvd, "bodies_"));
  free(pvd);
  free(f.text);
  cJSON_Delete(s);
}
