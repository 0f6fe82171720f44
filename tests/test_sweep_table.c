/* test_sweep_table.c — table.json beside table.csv (experiments/runner/sweep_table.c,
 * docs/sweep-format.md#tablecsv-and-tablejson): the same rows, keys in the header's order,
 * numbers as numbers (equal to the CSV's 10 significant digits), a failed case's message and
 * null where a case has no value. Two cases of a coarse hydrostatic tank: relaxed Jacobi with
 * omega = 0.5 diverges (failed), PGS finishes (done). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/runner/sweep_csv.h"
#include "tests/support.h"

Test(sweep_table, table_json_holds_the_rows_of_table_csv_with_numbers_as_numbers) {
  const char *dir = test_dir("sweep_table");
  char text[2048], out_dir[1100], path[1300];
  snprintf(text, sizeof text,
           "{\"scene\": \"%s\", \"set\": {\"spacing\": 0.04, \"time.dt\": 0.002, "
           "\"time.end\": 0.04, \"method.fluid.omega\": 0.5}, "
           "\"zip\": [{\"method.fluid.solver\": [\"jacobi\", \"pgs\"], "
           "\"method.fluid.omega_limit\": [\"off\", null]}], "
           "\"metrics\": [\"max_density_deviation\", \"steps\"]}",
           source_path("experiments/scenes/hydrostatic.json"));
  const char *spec = write_text(dir, "spec.json", text);
  snprintf(out_dir, sizeof out_dir, "%s/out", dir);
  char *err = NULL;
  cr_assert_eq(run_vbc((const char *[]){"sweep", spec, "--out", out_dir, NULL}, &err), 3, "%s",
               err);
  free(err);
  snprintf(path, sizeof path, "%s/table.json", out_dir);
  cJSON *rows = read_json(path);
  cr_assert(cJSON_IsArray(rows));
  cr_assert_eq(cJSON_GetArraySize(rows), 2);
  vbc_table t;
  vbc_error e = {0};
  snprintf(path, sizeof path, "%s/table.csv", out_dir);
  cr_assert_eq(vbc_table_read(&t, path, &e), 0, "%s", e.message);
  cr_assert_eq(t.nrows, 2);
  const char *keys[] = {"id", "state", "method.fluid.solver", "method.fluid.omega_limit",
                        "max_density_deviation", "steps",
                        "iterations_mean", "iterations_max", "wall_seconds",
                        "particle_steps_per_second", "warnings", "message"};
  for (int r = 0; r < 2; ++r) {
    const cJSON *row = cJSON_GetArrayItem(rows, r);
    int k = 0;
    for (const cJSON *v = row->child; v; v = v->next, ++k) {
      cr_assert_str_eq(v->string, keys[k]);
      cr_assert_str_eq(t.names[k], keys[k]);
      if (k == 11) break; /* the message may hold commas: checked below */
      if (cJSON_IsString(v))
        cr_assert_str_eq(v->valuestring, vbc_table_cell(&t, (size_t)r, k));
      else if (cJSON_IsNumber(v))
        cr_assert_float_eq(v->valuedouble, vbc_table_number(&t, (size_t)r, k),
                           1e-9 * fabs(v->valuedouble), "%s", keys[k]);
      else
        cr_assert_str_eq(vbc_table_cell(&t, (size_t)r, k), "", "%s", keys[k]);
    }
    cr_assert_eq(k, 11);
  }
  const cJSON *failed = cJSON_GetArrayItem(rows, 0), *done = cJSON_GetArrayItem(rows, 1);
  cr_assert_str_eq(cJSON_GetObjectItem(failed, "state")->valuestring, "failed");
  cr_assert_str_eq(cJSON_GetObjectItem(failed, "method.fluid.solver")->valuestring, "jacobi");
  cr_assert_not_null(strstr(cJSON_GetObjectItem(failed, "message")->valuestring, "non-finite"));
  cr_assert_str_eq(cJSON_GetObjectItem(done, "state")->valuestring, "done");
  cr_assert(cJSON_IsNull(cJSON_GetObjectItem(done, "message")));
  cr_assert_eq(cJSON_GetObjectItem(done, "steps")->valuedouble, 20.0);
  cr_assert(cJSON_GetObjectItem(done, "iterations_mean")->valuedouble > 1.0);
  vbc_table_free(&t);
  cJSON_Delete(rows);
}
