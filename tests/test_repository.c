/* test_repository.c — rules the repository keeps about itself: docs/modules.md is what
 * `vbc list --format markdown` prints (the registry is the one source of module lists),
 * docs/compatibility.md what the set-up of every combination decides, every C
 * file's first line names the file it is in, and no code comment cites the design handbook by
 * its file name (it is not part of the repository). */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "tests/support.h"

/* stdout of a command, malloc'd (NULL if it cannot run). */
static char *command_output(const char *cmd) {
  FILE *p = popen(cmd, "r");
  if (p == NULL) return NULL;
  size_t n = 0, cap = 1 << 16;
  char *text = malloc(cap);
  size_t got;
  while (text && (got = fread(text + n, 1, cap - n - 1, p)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *more = realloc(text, cap *= 2);
      if (more == NULL) free(text);
      text = more;
    }
  }
  if (pclose(p) != 0) {
    free(text);
    return NULL;
  }
  if (text) text[n] = '\0';
  return text;
}

Test(repository, modules_page_is_what_the_registry_prints) {
  char *printed = command_output(VBC_BINARY " list --format markdown");
  cr_assert_not_null(printed, "vbc list --format markdown failed");
  char *page = read_text(VBC_SOURCE_DIR "/docs/modules.md");
  cr_assert_not_null(page, "docs/modules.md is missing");
  cr_assert(strcmp(printed, page) == 0,
            "docs/modules.md differs from the registry: regenerate it with\n"
            "  build/vbc list --format markdown > docs/modules.md");
  free(printed);
  free(page);
}

Test(repository, compatibility_page_is_what_the_set_up_decides) {
  char *printed = command_output(VBC_BINARY " list --format compatibility");
  cr_assert_not_null(printed, "vbc list --format compatibility failed");
  char *page = read_text(VBC_SOURCE_DIR "/docs/compatibility.md");
  cr_assert_not_null(page, "docs/compatibility.md is missing");
  cr_assert(strcmp(printed, page) == 0,
            "docs/compatibility.md differs from what vbc sets up: regenerate it with\n"
            "  build/vbc list --format compatibility > docs/compatibility.md");
  free(printed);
  free(page);
}

Test(repository, list_json_holds_every_registered_module) {
  char *printed = command_output(VBC_BINARY " list --format json");
  cr_assert_not_null(printed);
  cJSON *d = cJSON_Parse(printed);
  cr_assert_not_null(d, "vbc list --format json is not JSON");
  const vbc_registry *r = test_registry();
  cr_assert_eq((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(d, "blocks")), r->nblocks);
  cr_assert_eq((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(d, "solvers")), r->nsolvers);
  cr_assert_eq((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(d, "couplers")), r->ncouplers);
  cr_assert_eq((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(d, "benchmarks")), r->nbenchmarks);
  cJSON_Delete(d);
  free(printed);
}

/* Every .c and .h under the source folders, checked by check_file. */
static int nfiles, nbad;
static char bad[4096];

static void note_bad(const char *path, const char *why) {
  ++nbad;
  size_t len = strlen(bad);
  if (len + 200 < sizeof bad) snprintf(bad + len, sizeof bad - len, "\n  %s: %s", path, why);
}

static int check_file(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st;
  const char *name = path + ftw->base;
  const size_t len = strlen(name);
  if (type != FTW_F || len < 3 || (strcmp(name + len - 2, ".c") && strcmp(name + len - 2, ".h")))
    return 0;
  char *text = read_text(path);
  if (text == NULL) return 0;
  ++nfiles;
  /* the first line opens a comment with the file's own name: "/" "* NAME — ..." */
  char expect[300];
  snprintf(expect, sizeof expect, "/* %s ", name);
  if (strncmp(text, expect, strlen(expect)) != 0) note_bad(path, "first line does not name it");
  if (strstr(text, "DESIGN" ".md")) note_bad(path, "cites DESIGN" ".md");
  free(text);
  return 0;
}

Test(repository, every_c_file_names_itself_and_cites_no_outside_handbook) {
  static const char *const folders[] = {"core", "solvers", "couplers", "registry", "scene", "sim",
                                        "io", "lcp", "metrics", "experiments", "cli", "include",
                                        "tests", "fuzz", "bench", "examples"};
  for (size_t k = 0; k < sizeof folders / sizeof *folders; ++k) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", VBC_SOURCE_DIR, folders[k]);
    cr_assert_eq(nftw(dir, check_file, 16, FTW_PHYS), 0, "cannot walk %s", dir);
  }
  cr_assert_gt(nfiles, 200, "only %d files found", nfiles);
  cr_assert_eq(nbad, 0, "%d files break the rule:%s", nbad, bad);
}
