/* atlas_small.h — a small atlas the atlas tests build: 2 cases (a still tank, a floating box) x 2
 * presets (mps_lcp, pms: the tank has no body, so pms is refused there) x 2 spacings, each run
 * a few hundredths of a second. */
#ifndef VBC_TEST_ATLAS_SMALL_H
#define VBC_TEST_ATLAS_SMALL_H

/* Write the spec, case files and a reference into test_dir(name) and return the spec's path. */
const char *atlas_small_spec(const char *name);
/* `vbc atlas SPEC --out DIR -j 2` with extra arguments (NULL-terminated, may be NULL); returns
 * the exit code and the stderr text (malloc'd) in *err_text. */
int atlas_small_run(const char *spec, const char *out, const char *const *extra, char **err_text);

#endif
