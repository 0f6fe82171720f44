/* test_frames_compressed.c — output.compress_frames (io/vtu.c, io/vtu_zlib.h): the same run
 * written raw and compressed has frames whose every array, decompressed here with zlib itself,
 * holds the raw frame's bytes, behind VTK's header [blocks, block size, last block size,
 * compressed sizes] at the array's `offset`. tests/vtk_frames.py reads both with VTK's reader. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "io/vtu_zlib.h"
#include "tests/support.h"

/* Gravity-free spinning box in 2D water: particles of all three kinds, a body, FieldData. */
static const char scene[] =
    "{\"dim\": 2, \"spacing\": 0.02, \"time\": {\"dt\": 0.002, \"end\": 0.01, "
    "\"output_interval\": 0.005},\n \"geometry\": [{\"type\": \"fluid_box\", \"min\": [0, 0], "
    "\"max\": [0.3, 0.1]}, {\"type\": \"tank\", \"min\": [0, 0], \"max\": [0.3, 0.3]}],\n"
    " \"bodies\": [{\"name\": \"box\", \"shape\": {\"type\": \"box\", \"min\": [0.1, 0.12], "
    "\"max\": [0.2, 0.18]}, \"density\": 500, \"angular_velocity\": 2.0}],\n"
    " \"output\": {\"frames\": true}}\n";

typedef struct file { unsigned char *bytes; size_t size; const unsigned char *data; } file;

static file slurp(const char *dir, const char *rel) {
  char path[1300];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  fseek(f, 0, SEEK_END);
  file v = {NULL, (size_t)ftell(f), NULL};
  rewind(f);
  v.bytes = malloc(v.size + 1);
  cr_assert_eq(fread(v.bytes, 1, v.size, f), v.size);
  fclose(f);
  v.bytes[v.size] = '\0';
  const char *mark = "<AppendedData encoding=\"raw\">\n   _";
  const char *at = strstr((const char *)v.bytes, mark);
  cr_assert_not_null(at, "%s: no appended data", path);
  v.data = (const unsigned char *)at + strlen(mark);
  return v;
}

static uint64_t u64(const unsigned char *at) {
  uint64_t x;
  memcpy(&x, at, sizeof x);
  return x;
}

/* The offset of the k-th DataArray of the XML head; 0 names and -1 when there is none. */
static long long offset_of(const file *f, int k, char *name, size_t size) {
  const char *at = (const char *)f->bytes;
  for (int i = 0; i <= k; ++i) {
    at = strstr(at, "<DataArray ");
    if (at == NULL || at > (const char *)f->data) return -1;
    at += 11;
  }
  const char *n = strstr(at, "Name=\"") + 6;
  snprintf(name, size, "%.*s", (int)strcspn(n, "\""), n);
  return strtoll(strstr(at, "offset=\"") + 8, NULL, 10);
}

/* Every array of the compressed frame decompresses to the raw frame's bytes. */
static void same_arrays(const char *raw_dir, const char *z_dir, const char *rel) {
  file r = slurp(raw_dir, rel), z = slurp(z_dir, rel);
  cr_assert_null(strstr((const char *)r.bytes, "compressor"), "%s: raw frame changed", rel);
  cr_assert_not_null(strstr((const char *)z.bytes, "header_type=\"UInt64\" "
                                                   "compressor=\"vtkZLibDataCompressor\""));
  int k = 0;
  char name[64], zname[64];
  long long ro, zo;
  for (; (ro = offset_of(&r, k, name, sizeof name)) >= 0; ++k) {
    zo = offset_of(&z, k, zname, sizeof zname);
    cr_assert_str_eq(zname, name);
    const uint64_t bytes = u64(r.data + ro);
    const unsigned char *h = z.data + zo;
    const uint64_t nb = u64(h), block = u64(h + 8), last = u64(h + 16);
    cr_assert_eq(block, 32768, "%s %s: block size %llu", rel, name, (unsigned long long)block);
    cr_assert_eq(nb, (bytes + block - 1) / block, "%s %s: %llu blocks for %llu bytes", rel, name,
                 (unsigned long long)nb, (unsigned long long)bytes);
    cr_assert_eq(last, bytes % block, "%s %s: last block", rel, name);
    unsigned char *out = malloc(bytes + 1);
    const unsigned char *c = h + (3 + nb) * 8;
    size_t done = 0;
    for (uint64_t b = 0; b < nb; ++b) {
      uLongf got = (uLongf)(bytes - done);
      cr_assert_eq(uncompress(out + done, &got, c, (uLong)u64(h + (3 + b) * 8)), Z_OK);
      cr_assert_eq(got, b + 1 < nb || last == 0 ? block : last);
      c += u64(h + (3 + b) * 8);
      done += got;
    }
    cr_assert_eq(done, bytes);
    cr_assert_eq(memcmp(out, r.data + ro + 8, bytes), 0, "%s %s differs", rel, name);
    free(out);
    /* the next array's entry starts where this one's blocks end */
    long long next = offset_of(&z, k + 1, zname, sizeof zname);
    if (next >= 0) cr_assert_eq(z.data + next, c, "%s: offset after %s", rel, name);
  }
  cr_assert_eq(k, 14, "%s: %d arrays", rel, k); /* 4 FieldData, 6 PointData, Points, 3 Cells */
  cr_assert_lt(z.size, r.size);
  free(r.bytes), free(z.bytes);
}

Test(frames_compressed, every_array_decompresses_to_the_uncompressed_runs_bytes) {
  const char *dir = test_dir("compressed_scene");
  const char *path = write_text(dir, "scene.json", scene);
  cJSON *a = run_scene("frames_raw", path, NULL, 0);
  cJSON *b = run_scene("frames_zlib", path, SETS("output.compress_frames=true"), 1);
  cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetObjectItem(b, "scene"), "output"), "compress_frames")));
  char raw[1100], z[1100];
  snprintf(raw, sizeof raw, "%s/frames_raw.%ld/out", VBC_TEST_TMP, (long)getpid());
  snprintf(z, sizeof z, "%s/frames_zlib.%ld/out", VBC_TEST_TMP, (long)getpid());
  for (int k = 0; k < 3; ++k) {
    char rel[64];
    snprintf(rel, sizeof rel, "frames/frame_%06d.vtu", k);
    same_arrays(raw, z, rel);
  }
  /* the bodies' .vtu is compressed too (7 point arrays, Points, 3 Cells) */
  file bz = slurp(z, "frames/bodies_000002.vtu");
  cr_assert_not_null(strstr((const char *)bz.bytes, "vtkZLibDataCompressor"));
  free(bz.bytes);
  char pr[1200], pz[1200];
  snprintf(pr, sizeof pr, "%s/frames.pvd", raw);
  snprintf(pz, sizeof pz, "%s/frames.pvd", z);
  char *tr = read_text(pr), *tz = read_text(pz);
  cr_assert_str_eq(tr, tz, "frames.pvd differs");
  free(tr), free(tz);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

/* Round trips through the library's own pair, across the block boundary: 3 blocks with a
 * partial last one, and 2 full blocks, where VTK writes 0 as the last block's size. */
Test(frames_compressed, deflate_and_inflate_round_trip_at_block_boundaries) {
  const size_t sizes[] = {0, 10, 2 * 32768, 2 * 32768 + 1000};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
    const size_t n = sizes[s];
    unsigned char *data = malloc(n + 1);
    for (size_t i = 0; i < n; ++i) data[i] = (unsigned char)((i * 7919u) >> 5);
    vbc_error err = {0};
    vbc_vtu_zentry e;
    cr_assert_eq(vbc_vtu_deflate(data, n, &e, &err), VBC_OK);
    cr_assert_eq(u64(e.bytes), (n + 32767) / 32768);
    cr_assert_eq(u64(e.bytes + 16), n % 32768);
    void *back;
    size_t m;
    cr_assert_eq(vbc_vtu_inflate(e.bytes, e.size, &back, &m, "test", &err), VBC_OK, "%s",
                 err.message);
    cr_assert_eq(m, n);
    cr_assert_eq(memcmp(back, data, n), 0);
    free(back);
    /* a cut entry is bad input, not a crash */
    if (n > 0) {
      cr_assert_eq(vbc_vtu_inflate(e.bytes, e.size - 1, &back, &m, "cut", &err), VBC_EXIT_INPUT);
      cr_assert_not_null(strstr(err.message, "cut"));
    }
    free(e.bytes);
    free(data);
  }
}

Test(frames_compressed, compress_frames_must_be_a_bool) {
  expect_bad_input("compress_bad", base_scene, SETS("output.compress_frames=\"yes\""),
                   FRAGMENTS("output.compress_frames", "true or false"));
}
