/* json_file.h — JSON files: read with messages that point at the line and column of a syntax
 * error, written atomically (io/files.h). */
#ifndef VBC_JSON_FILE_H
#define VBC_JSON_FILE_H

#include <cjson/cJSON.h>

#include "core/error.h"

/* Parse a file; a syntax error is reported with line and column. */
cJSON *vbc_json_load_file(const char *path, vbc_error *err);
/* Write root, pretty-printed, to path atomically (io/files.h); root is deleted. */
int vbc_json_write_file(const char *path, cJSON *root, vbc_error *err);

#endif
