/* atlas_small.c — see atlas_small.h. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/atlas_small.h"
#include "tests/support.h"

static const char tank_case[] =
    "{\"name\": \"tank\", \"title\": \"Still tank\", \"dim\": 2,\n"
    " \"scene\": \"" VBC_SOURCE_DIR "/experiments/scenes/hydrostatic.json\",\n"
    " \"set\": {\"time.end\": 0.03, \"time.output_interval\": 0.01},\n"
    " \"levels\": [{\"spacing\": 0.1}, {\"spacing\": 0.05}],\n"
    " \"error\": {\"metric\": \"pressure_error_smoothed\", \"label\": \"pressure error\"},\n"
    " \"errors\": [{\"metric\": \"max_density_deviation\", \"label\": \"largest deviation\"}],\n"
    " \"observable\": {\"file\": \"series.csv\", \"x\": \"time\", \"y\": \"surface_height\",\n"
    "                \"xlabel\": \"t [s]\", \"ylabel\": \"surface height [m]\"},\n"
    " \"references\": [{\"file\": \"../reference/rest.dat\", \"x\": \"t\", \"y\": \"h\",\n"
    "                   \"title\": \"rest height\", \"style\": \"lines\"}],\n"
    " \"about\": {\"reference\": \"rho g depth\", \"error\": \"smoothed\", \"reading\": \"flat\"}}\n";

static const char box_case[] =
    "{\"name\": \"box\", \"title\": \"Floating box\", \"dim\": 2,\n"
    " \"scene\": \"" VBC_SOURCE_DIR "/experiments/scenes/buoyancy.json\",\n"
    " \"set\": {\"time.end\": 0.03, \"time.output_interval\": 0.01},\n"
    " \"levels\": [{\"spacing\": 0.1}, {\"spacing\": 0.05}],\n"
    " \"error\": {\"metric\": \"submerged_error\", \"label\": \"|submerged - Archimedes|\"},\n"
    " \"observable\": {\"file\": \"series.csv\", \"x\": \"time\", \"y\": \"submerged_ratio\"},\n"
    " \"about\": {\"reference\": \"Archimedes\", \"error\": \"at the end\", \"reading\": \"0.5\"}}\n";

const char *atlas_small_spec(const char *name) {
  static char spec[1100];
  const char *dir = test_dir(name);
  char sub[1100];
  snprintf(sub, sizeof sub, "%s/cases", dir);
  mkdir(sub, 0755);
  write_text(sub, "tank.json", tank_case);
  write_text(sub, "box.json", box_case);
  snprintf(sub, sizeof sub, "%s/reference", dir);
  mkdir(sub, 0755);
  write_text(sub, "rest.dat", "# the tank's rest height\nt h\n0 0.6\n0.03 0.6\n");
  snprintf(spec, sizeof spec, "%s",
           write_text(dir, "atlas.json",
                      "{\"name\": \"small\", \"description\": \"two cases, two presets\",\n"
                      " \"methods\": [\"mps_lcp\", \"pms\"],\n"
                      " \"cases\": [\"cases/tank.json\", \"cases/box.json\"]}\n"));
  return spec;
}

int atlas_small_run(const char *spec, const char *out, const char *const *extra,
                    char **err_text) {
  const char *args[16] = {"atlas", spec, "--out", out, "-j", "2", "--quiet"};
  int n = 7;
  for (int i = 0; extra && extra[i] && n < 15; ++i) args[n++] = extra[i];
  args[n] = NULL;
  return run_vbc(args, err_text);
}
