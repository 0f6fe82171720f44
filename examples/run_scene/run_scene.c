/* run_scene.c — load a scene, run it, print its metrics: the smallest program on libvbc.
 * usage: run_scene SCENE.json OUT_DIR [KEY=VALUE]... (the assignments are vbc run's --set) */
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>
#include <vbc/vbc.h>

static int fail(const vbc_error *err) {
  fprintf(stderr, "run_scene: %s\n", err->message);
  return err->code;
}

/* Print summary.json's metrics, one "name value" line each. */
static int print_metrics(const char *dir) {
  char path[1100];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 4;
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  cJSON *summary = cJSON_Parse(text);
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(summary, "metrics"), *item;
  cJSON_ArrayForEach(item, m) if (cJSON_IsNumber(item)) printf("%s %.9g\n", item->string,
                                                                 item->valuedouble);
  cJSON_Delete(summary);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: run_scene SCENE.json OUT_DIR [KEY=VALUE]...\n");
    return 2;
  }
  vbc_registry registry;
  vbc_error err = {0};
  vbc_scene scene;
  if (vbc_registry_builtin(&registry, &err) != VBC_OK) return fail(&err);
  if (vbc_scene_load(&scene, argv[1], (const char *const *)argv + 3, argc - 3, &registry, &err) !=
      VBC_OK)
    return fail(&err);
  printf("vbc %s: %s, coupler %s\n", vbc_version(), scene.name, scene.coupler->name);
  vbc_run_options options = {.out_dir = argv[2], .progress = VBC_PROGRESS_OFF};
  int rc = vbc_run(&scene, &options, &err);
  vbc_scene_free(&scene);
  return rc != VBC_OK ? fail(&err) : print_metrics(argv[2]);
}
