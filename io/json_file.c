/* json_file.c — see json_file.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "io/json_file.h"

static char *read_text(const char *path, vbc_error *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 0, n = 0;
  char *buf = NULL;
  for (;;) {
    if (vbc_grow(&cap, n + (1 << 16), (void *[]){&buf}, (size_t[]){1}, 1, err) != VBC_OK) {
      free(buf);
      fclose(f);
      return NULL;
    }
    n += fread(buf + n, 1, cap - n - 1, f);
    if (n < cap - 1) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: read error", path);
    return NULL;
  }
  buf[n] = '\0';
  return buf;
}

cJSON *vbc_json_load_file(const char *path, vbc_error *err) {
  char *text = read_text(path, err);
  if (text == NULL) return NULL;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (root == NULL) {
    const char *at = end ? end : cJSON_GetErrorPtr();
    if (at == NULL || at < text) at = text;
    int line = 1, col = 1;
    for (const char *p = text; p < at && *p; ++p) {
      if (*p == '\n') line++, col = 1;
      else col++;
    }
    char near[24] = {0};
    size_t k = 0;
    for (const char *p = at; *p && *p != '\n' && k + 1 < sizeof near; ++p) near[k++] = *p;
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: line %d, column %d: malformed JSON near '%s'", path,
                  line, col, near);
  } else if (!cJSON_IsObject(root)) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: (root): expected a JSON object", path);
    cJSON_Delete(root);
    root = NULL;
  }
  free(text);
  return root;
}

int vbc_json_write_file(const char *path, cJSON *root, vbc_error *err) {
  char *text = root ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (text == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (%s)", path);
  int rc = vbc_write_file_atomic(path, text, err);
  free(text);
  return rc;
}
