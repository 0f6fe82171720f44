/* test_animate.c — `vbc animate DIR` (experiments/runner/animate.c): a tiny 2D scene with water,
 * walls and a body writes 6 frames; the animation of its raw and of its compressed frames is a
 * non-empty MP4 (through ffmpeg) or GIF (gnuplot, when ffmpeg is missing: VBC_FFMPEG names a
 * program that does not exist) with one picture per frame, counted by ffprobe when it is
 * installed and by the PNGs --keep-png keeps. Bad input exits 2 naming the path. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.h"

static const char scene[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.002, \"end\": 0.01, "
    "\"output_interval\": 0.002},\n \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], "
    "\"max\": [0.3, 0.1]}, {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.3, 0.3]}],\n"
    " \"bodies\": [{\"name\": \"box\", \"shape\": {\"type\": \"box\", \"min\": [0.1, 0.12], "
    "\"max\": [0.2, 0.18]}, \"density\": 500}],\n \"output\": {\"frames\": true}}\n";
#define FRAMES 6

/* Run the scene (with the --set assignments) into VBC_TEST_TMP/name.PID/out; its path. */
static const char *run(const char *name, const char *const *sets, int nsets, char *out,
                       size_t size) {
  cJSON *s = run_scene(name, write_text(test_dir("animate_scene"), "scene.json", scene), sets,
                       nsets);
  cJSON_Delete(s);
  snprintf(out, size, "%s/%s.%ld/out", VBC_TEST_TMP, name, (long)getpid());
  return out;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int count_png(const char *dir) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) n += strstr(e->d_name, ".png") != NULL;
  closedir(d);
  return n;
}

/* Frames ffprobe decodes in the video; -1 when ffprobe is not installed. */
static int ffprobe_frames(const char *path) {
  if (system("command -v ffprobe > /dev/null 2>&1") != 0) return -1;
  char cmd[1400];
  snprintf(cmd, sizeof cmd, "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                            "stream=nb_read_frames -of csv=p=0 '%s'", path);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  int n = -2;
  if (fscanf(p, "%d", &n) != 1) n = -2;
  pclose(p);
  return n;
}

static int has_ffmpeg(void) { return system("command -v ffmpeg > /dev/null 2>&1") == 0; }

static void magic(const char *path, long at, const char *bytes) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  char buf[16] = {0};
  cr_assert_eq(fseek(f, at, SEEK_SET), 0);
  cr_assert_eq(fread(buf, 1, strlen(bytes), f), strlen(bytes));
  fclose(f);
  cr_assert_eq(memcmp(buf, bytes, strlen(bytes)), 0, "%s is not what it should be", path);
}

static void animates(const char *dir, const char *out, const char *array, int gif) {
  char *err = NULL;
  int rc = run_vbc(array ? (const char *const[]){"animate", dir, "--out", out, "--keep-png",
                                                 "--array", array, "--fps", "5", NULL}
                         : (const char *const[]){"animate", dir, "--out", out, "--keep-png", NULL},
                   &err);
  cr_assert_eq(rc, 0, "vbc animate %s: exit %d: %s", dir, rc, err ? err : "");
  cr_assert_not_null(strstr(err, out), "%s", err);
  free(err);
  cr_assert_gt(file_size(out), 1000, "%s: %ld bytes", out, file_size(out));
  magic(out, gif ? 0 : 4, gif ? "GIF89a" : "ftyp");
  char pngs[1300];
  snprintf(pngs, sizeof pngs, "%.*s_frames", (int)(strrchr(out, '.') - out), out);
  cr_assert_eq(count_png(pngs), FRAMES);
  int n = ffprobe_frames(out);
  if (n != -1) cr_assert_eq(n, FRAMES, "%s: ffprobe counts %d frames", out, n);
}

Test(animate, raw_and_compressed_frames_make_an_mp4_with_one_picture_per_frame,
     .timeout = 120) {
  if (!has_ffmpeg()) cr_skip_test("ffmpeg is not installed (scripts/install-deps.sh)");
  char raw[1100], z[1100], out[1200];
  run("anim_raw", NULL, 0, raw, sizeof raw);
  snprintf(out, sizeof out, "%s/movie.mp4", raw);
  animates(raw, out, NULL, 0);
  run("anim_zlib", SETS("output.compress_frames=true"), 1, z, sizeof z);
  snprintf(out, sizeof out, "%s/speed.mp4", z);
  animates(z, out, "velocity", 0);
}

Test(animate, without_ffmpeg_a_gif_is_made_by_default, .timeout = 120) {
  setenv("VBC_FFMPEG", "/nonexistent/ffmpeg", 1);
  char dir[1100], out[1200];
  run("anim_gif", SETS("output.compress_frames=true"), 1, dir, sizeof dir);
  char *err = NULL;
  int rc = run_vbc((const char *const[]){"animate", dir, NULL}, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  free(err);
  snprintf(out, sizeof out, "%s/animation.gif", dir);
  cr_assert_gt(file_size(out), 1000);
  magic(out, 0, "GIF89a");
  int n = ffprobe_frames(out);
  if (n != -1) cr_assert_eq(n, FRAMES, "ffprobe counts %d frames", n);
  /* without --keep-png the work directory is gone */
  snprintf(out, sizeof out, "%s/animation_frames", dir);
  cr_assert_eq(file_size(out), -1, "%s left behind", out);
  /* and an MP4 asked for by name is refused, naming ffmpeg */
  snprintf(out, sizeof out, "%s/x.mp4", dir);
  rc = run_vbc((const char *const[]){"animate", dir, "--out", out, NULL}, &err);
  cr_assert_eq(rc, 4);
  cr_assert_not_null(strstr(err, "ffmpeg"), "%s", err);
  free(err);
}

static void bad(const char *const *args, const char *const *fragments) {
  char *err = NULL;
  int rc = run_vbc(args, &err);
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err ? err : "");
  for (const char *const *f = fragments; *f; ++f)
    cr_assert_not_null(strstr(err, *f), "'%s' not in: %s", *f, err);
  free(err);
}

Test(animate, bad_input_exits_2_naming_the_path, .timeout = 120) {
  const char *empty = test_dir("anim_empty");
  char pvd[1100];
  snprintf(pvd, sizeof pvd, "%s/frames.pvd", empty);
  bad((const char *const[]){"animate", empty, NULL}, FRAGMENTS(pvd, "output.frames"));
  char dir[1100], out[1200], frame[1200];
  run("anim_bad", NULL, 0, dir, sizeof dir);
  snprintf(frame, sizeof frame, "%s/frames/frame_000000.vtu", dir);
  bad((const char *const[]){"animate", dir, "--array", "vorticity", NULL},
      FRAGMENTS(frame, "\"vorticity\"", "pressure_smoothed"));
  snprintf(out, sizeof out, "%s/no/such/dir/a.mp4", dir);
  bad((const char *const[]){"animate", dir, "--out", out, NULL}, FRAGMENTS(out));
  bad((const char *const[]){"animate", dir, "--fps", "0", NULL}, FRAGMENTS("--fps"));
  /* a frame that is not a vbc frame */
  write_text(dir, "frames/frame_000003.vtu", "<VTKFile/>\n");
  snprintf(frame, sizeof frame, "%s/frames/frame_000003.vtu", dir);
  bad((const char *const[]){"animate", dir, NULL}, FRAGMENTS(frame, "not a frame written by vbc"));
}
