/* test_output_failure.c — output that cannot be written (io/files.h vbc_file_check, sim/run.c):
 * an output directory that cannot be created or a stream that cannot be opened exits 4 naming
 * the path; a write that fails half-way through a run (a file size limit, as a full disk would)
 * exits 4 at once naming the file, leaves the frames written before it intact and nothing
 * half-written under a final name, and after a checkpoint keeps what `--resume` needs. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support.h"

#define HYDRO "experiments/scenes/hydrostatic.json"
#define LIMIT 100000 /* bytes: convergence.csv passes it near step 90, a frame is 29 kB */


/* vbc with args under a file size limit of `bytes` (RLIMIT_FSIZE, what `ulimit -f` sets);
 * stderr into err_path. The exit code, -1 if a signal ended it. */
static int run_limited(const char *const *args, long bytes, const char *err_path) {
  const char *argv[64] = {VBC_BINARY};
  int n = 1;
  for (; args[n - 1]; ++n) argv[n] = args[n - 1];
  argv[n] = NULL;
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    struct rlimit rl = {(rlim_t)bytes, (rlim_t)bytes};
    int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0 || setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(99);
    execv(VBC_BINARY, (char *const *)argv);
    _exit(98);
  }
  int status;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether the (binary) file ends with tail. */
static int ends_with(const char *path, const char *tail) {
  char buf[64] = "";
  const long n = (long)strlen(tail);
  FILE *f = fopen(path, "rb");
  int ok = f && fseek(f, -n, SEEK_END) == 0 && fread(buf, 1, (size_t)n, f) == (size_t)n &&
           memcmp(buf, tail, (size_t)n) == 0;
  if (f) fclose(f);
  return ok;
}

/* No NAME.tmp or NAME.part anywhere under dir (one level of subdirectories). */
static void expect_no_temporaries(const char *dir, int allow_part) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    cr_expect(strstr(e->d_name, ".tmp") == NULL, "%s/%s left", dir, e->d_name);
    if (!allow_part) cr_expect(strstr(e->d_name, ".part") == NULL, "%s/%s left", dir, e->d_name);
    struct stat st;
    if (stat(path_in(dir, e->d_name), &st) == 0 && S_ISDIR(st.st_mode) && strcmp(e->d_name, "frames") == 0)
      expect_no_temporaries(path_in(dir, e->d_name), allow_part);
  }
  closedir(d);
}

Test(output_failure, an_output_directory_that_cannot_be_created_exits_4_naming_it) {
  const char *dir = test_dir("outfail_mkdir");
  const char *file = write_text(dir, "not_a_dir", "x");
  char out[1200];
  snprintf(out, sizeof out, "%s/run", file);
  const char *args[] = {"run", source_path(HYDRO), "--set", "spacing=0.05", "--set",
                        "time.end=0.01", "--out", out, "--quiet", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 4, "%s", err ? err : "");
  cr_assert(err && strstr(err, file) && strstr(err, "cannot create"), "%s", err ? err : "");
  free(err);
}

Test(output_failure, a_stream_that_cannot_be_opened_exits_4_naming_it) {
  const char *dir = test_dir("outfail_open");
  cr_assert_eq(mkdir(path_in(dir, "series.csv.part"), 0755), 0); /* fopen(..., "wb") fails: EISDIR */
  const char *args[] = {"run", source_path(HYDRO), "--set", "spacing=0.05", "--set",
                        "time.end=0.01", "--out", dir, "--quiet", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 4, "%s", err ? err : "");
  cr_assert(err && strstr(err, "series.csv.part: cannot write: Is a directory"), "%s",
            err ? err : "");
  cr_assert(!file_exists(path_in(dir, "summary.json")));
  free(err);
}

Test(output_failure, a_write_that_fails_mid_run_exits_4_and_leaves_earlier_frames_intact) {
  const char *dir = test_dir("outfail_fill");
  const char *args[] = {"run", source_path(HYDRO), "--set", "spacing=0.05", "--set",
                        "time.end=0.5", "--set", "output.frames=true", "--set",
                        "output.frame_interval=0.02", "--out", dir, "--quiet", "--threads", "1",
                        NULL};
  const char *errf = path_in(test_dir("outfail_fill_log"), "stderr.txt");
  cr_assert_eq(run_limited(args, LIMIT, errf), 4);
  char *err = read_text(errf);
  cr_assert(err && strstr(err, "convergence.csv.part: cannot write: File too large"), "%s",
            err ? err : "");
  /* it stopped at the failing write: far from the 25 frames of the whole run */
  free(err);
  cr_assert(!file_exists(path_in(dir, "summary.json")));
  cr_assert(!file_exists(path_in(dir, "series.csv")) && !file_exists(path_in(dir, "convergence.csv")));
  expect_no_temporaries(dir, 0);
  /* every frame frames.pvd lists is there and complete */
  char *pvd = read_text(path_in(dir, "frames.pvd"));
  cr_assert_not_null(pvd);
  int frames = 0;
  for (const char *at = strstr(pvd, "file=\""); at; at = strstr(at + 1, "file=\"")) {
    char rel[256];
    cr_assert_eq(sscanf(at + 6, "%255[^\"]", rel), 1);
    cr_assert(ends_with(path_in(dir, rel), "</VTKFile>\n"), "%s is complete", rel);
    ++frames;
  }
  free(pvd);
  cr_assert(frames >= 2 && frames < 26, "%d frames before the failure", frames);
}

Test(output_failure, a_write_that_fails_after_a_checkpoint_keeps_what_resume_needs) {
  const char *root = test_dir("outfail_ckpt");
  char part[1100], full[1100];
  snprintf(part, sizeof part, "%s/part", root);
  snprintf(full, sizeof full, "%s/full", root);
  const char *args[] = {"run", source_path(HYDRO), "--set", "spacing=0.05", "--set",
                        "time.end=0.3", "--out", part, "--quiet", "--threads", "1",
                        "--checkpoint-every", "20", NULL};
  const char *errf = path_in(root, "stderr.txt");
  cr_assert_eq(run_limited(args, LIMIT, errf), 4);
  char *err = read_text(errf);
  cr_assert(err && strstr(err, "File too large") && strstr(err, "--resume"), "%s", err ? err : "");
  free(err);
  cr_assert(file_exists(path_in(part, "checkpoint.vbc")));
  cr_assert(!file_exists(path_in(part, "summary.json")));
  expect_no_temporaries(part, 1);
  const char *resume[] = {"run", "--resume", part, "--quiet", "--threads", "1", NULL};
  char *e = NULL;
  cr_assert_eq(run_vbc(resume, &e), 0, "%s", e ? e : "");
  free(e);
  const char *fresh[] = {"run", source_path(HYDRO), "--set", "spacing=0.05", "--set",
                         "time.end=0.3", "--out", full, "--quiet", "--threads", "1", NULL};
  cr_assert_eq(run_vbc(fresh, NULL), 0);
  char *a = read_text(path_in(full, "series.csv")), *b = read_text(path_in(part, "series.csv"));
  cr_assert(a && b && strcmp(a, b) == 0, "series.csv differs from the uninterrupted run's");
  free(a), free(b);
}
