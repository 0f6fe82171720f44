/* test_atlas_browser.c — the atlas page in a real browser: headless Chromium (Debian's
 * `chromium`, installed by scripts/install-deps.sh) opens index.html of a small atlas built here,
 * every image must load (counted by the browser itself on a copy of the page with a probe
 * appended) and the screenshot must not be blank. Removing one figure must make the probe count
 * it as broken, so the check can fail. Skipped only where Chromium is missing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/atlas_small.h"
#include "tests/support.h"

/* The browser: $VBC_CHROMIUM, else chromium in PATH; NULL if missing. */
static const char *find_chromium(char *buf, size_t size) {
  const char *env = getenv("VBC_CHROMIUM");
  if (env && env[0]) return snprintf(buf, size, "%s", env), buf;
  const char *path = getenv("PATH");
  for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(buf, size, "%.*s/chromium", (int)len, p);
    if (file_exists(buf)) return buf;
    p += len + (p[len] == ':');
  }
  return NULL;
}

/* A copy of the page that, once loaded, writes "loaded/total" of its images into the body's
 * data-images attribute (the page itself has no script). */
static void write_probe(const char *out) {
  char path[1200];
  snprintf(path, sizeof path, "%s/index.html", out);
  char *html = read_text(path);
  cr_assert_not_null(html);
  char *end = strstr(html, "</body>");
  cr_assert_not_null(end);
  *end = '\0';
  snprintf(path, sizeof path, "%s/probe.html", out);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fprintf(f, "%s<script>\nwindow.addEventListener('load', function () {\n"
             "  var im = document.images, ok = 0;\n"
             "  for (var i = 0; i < im.length; ++i) if (im[i].complete && im[i].naturalWidth > 0) ++ok;\n"
             "  document.body.setAttribute('data-images', ok + '/' + im.length);\n"
             "});\n</script>\n</body>\n</html>\n",
          html);
  fclose(f);
  free(html);
}

/* chromium --headless with the given action on a page of out; 0 on success. */
static int browse(const char *chromium, const char *out, const char *action, const char *page,
                  const char *stdout_file) {
  char cmd[16384];
  snprintf(cmd, sizeof cmd,
           "'%s' --headless --no-sandbox --disable-gpu --no-first-run "
           "--allow-file-access-from-files --user-data-dir='%s/profile' "
           "--virtual-time-budget=10000 --window-size=1280,1600 %s 'file://%s/%s' >'%s' "
           "2>'%s/browser.log'",
           chromium, out, action, out, page, stdout_file, out);
  return system(cmd);
}

/* The data-images attribute the probe wrote, "" if none. */
static void images_loaded(const char *chromium, const char *out, char *result, size_t size) {
  char dom[1200];
  snprintf(dom, sizeof dom, "%s/probe.dom.html", out);
  cr_assert_eq(browse(chromium, out, "--dump-dom", "probe.html", dom), 0,
               "chromium --dump-dom failed (see %s/browser.log)", out);
  char *text = read_text(dom);
  cr_assert_not_null(text);
  const char *p = strstr(text, "data-images=\"");
  result[0] = '\0';
  if (p) snprintf(result, size, "%.*s", (int)strcspn(p + 13, "\""), p + 13);
  free(text);
}

Test(atlas_browser, page_loads_every_image_and_is_not_blank) {
  char chromium[1024];
  if (find_chromium(chromium, sizeof chromium) == NULL)
    cr_skip_test("SKIPPED: chromium not found (scripts/install-deps.sh installs it)");
  const char *spec = atlas_small_spec("atlas_browser");
  char out[1100], path[4096], result[64];
  snprintf(out, sizeof out, "%s/out", test_dir("atlas_browser_out"));
  char *err = NULL;
  cr_assert_eq(atlas_small_run(spec, out, NULL, &err), 0, "%s", err);
  free(err);

  write_probe(out);
  images_loaded(chromium, out, result, sizeof result);
  cr_expect_str_eq(result, "6/6", "images loaded by the browser: '%s'", result);

  /* the screenshot of the page itself shows tables and figures */
  char shot[1200], fraction[1300];
  snprintf(shot, sizeof shot, "%s/shot.png", out);
  char action[1300];
  snprintf(action, sizeof action, "--screenshot='%s'", shot);
  snprintf(path, sizeof path, "%s/screenshot.out", out);
  cr_assert_eq(browse(chromium, out, action, "index.html", path), 0,
               "chromium --screenshot failed (see %s/browser.log)", out);
  cr_assert(file_exists(shot), "no screenshot at %s", shot);
  snprintf(fraction, sizeof fraction, "%s/ink.txt", out);
  snprintf(path, sizeof path, "/usr/bin/python3 '%s/tests/screenshot_check.py' '%s' >'%s'",
           VBC_SOURCE_DIR, shot, fraction);
  int rc = system(path);
  if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) cr_skip_test("SKIPPED: VTK's PNG reader missing");
  cr_assert_eq(rc, 0);
  char *ink = read_text(fraction);
  cr_assert_not_null(ink);
  cr_expect(atof(ink) > 0.01, "the screenshot is blank: %s of its pixels are not background", ink);
  free(ink);

  /* the probe counts a missing figure as broken */
  snprintf(path, sizeof path, "%s/cases/box/plots/error_vs_cost.png", out);
  cr_assert_eq(remove(path), 0);
  images_loaded(chromium, out, result, sizeof result);
  cr_expect_str_eq(result, "5/6", "a removed image was not reported: '%s'", result);
}
