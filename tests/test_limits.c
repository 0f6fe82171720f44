/* test_limits.c — resource limits (scene/limits.h): a scene whose spacing would create more
 * particles than fit in memory exits 2 before allocating, within a second, naming the count and
 * the memory; --max-particles lowers or raises the limit; the estimate from the shapes agrees
 * with the particles every shipped scene really creates; the limit bounds the relaxation check's
 * throw-away simulation too. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scene/limits.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "tests/support.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

Test(limits, a_micrometre_spacing_is_refused_at_once_with_the_count_and_the_memory) {
  const char *hydro = source_path("experiments/scenes/hydrostatic.json");
  const char *out = test_dir("limits_huge");
  const char *args[] = {"run", hydro, "--set", "spacing=1e-6", "--out", out, "--quiet", NULL};
  char *err = NULL;
  double t0 = now();
  int rc = run_vbc(args, &err);
  double seconds = now() - t0;
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err ? err : "");
  cr_assert_lt(seconds, 1.0, "refusing took %g s", seconds);
  cr_assert_not_null(err);
  /* (0.6/1e-6)^2 fluid particles and the walls: 3.6e11 */
  cr_assert(strstr(err, "hydrostatic.json: spacing:") && strstr(err, "3.6e+11 particles") &&
                strstr(err, "GB"), "%s", err);
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", out);
  cr_assert(!file_exists(path));
  free(err);
}

Test(limits, the_default_limit_is_what_fits_in_memory_and_the_option_raises_it) {
  const char *hydro = source_path("experiments/scenes/hydrostatic.json");
  char *err = NULL;
  /* 900 million particles at 989 bytes: 890 GB, more than any machine this runs on */
  const char *big[] = {"validate", hydro, "--set", "spacing=2e-5", NULL};
  cr_assert_eq(run_vbc(big, &err), 2);
  cr_assert(strstr(err, "what fits in physical memory") && strstr(err, "900300018 particles") &&
                strstr(err, "890 GB") && strstr(err, "--max-particles"), "%s", err);
  free(err), err = NULL;
  /* a lower limit refuses the shipped scene (1218 particles at l = 0.02) ... */
  const char *low[] = {"validate", hydro, "--max-particles", "1000", NULL};
  cr_assert_eq(run_vbc(low, &err), 2);
  cr_assert(strstr(err, "at most 1000 particles (--max-particles)") &&
                strstr(err, "would create 1218 particles"), "%s", err);
  free(err), err = NULL;
  const char *out = test_dir("limits_run");
  const char *run_low[] = {"run", hydro, "--max-particles", "1000", "--out", out, "--quiet", NULL};
  cr_assert_eq(run_vbc(run_low, &err), 2, "%s", err ? err : "");
  free(err), err = NULL;
  /* ... and one just above lets it through */
  const char *ok[] = {"validate", hydro, "--max-particles", "1218", NULL};
  cr_assert_eq(run_vbc(ok, &err), 0, "%s", err ? err : "");
  free(err), err = NULL;
  const char *bad[] = {"validate", hydro, "--max-particles", "lots", NULL};
  cr_assert_eq(run_vbc(bad, &err), 2);
  cr_assert(strstr(err, "--max-particles: expected a positive number, got lots"), "%s", err);
  free(err);
}

/* The relaxation check (scene/relaxation_check.h) steps a throw-away copy of the scene while it
 * loads; the limit bounds that copy too. The still tank under strong/mps/jacobi with omega 0.5
 * is refused by the rows' bound (0.4486) measured on that copy; under a limit below its 1218
 * particles the copy is never built, and the refusal is the limit's. */
Test(limits, the_limit_bounds_the_relaxation_checks_throw_away_simulation) {
  const char *hydro = source_path("experiments/scenes/hydrostatic.json");
  const char *args[] = {"validate", hydro, "--set", "method.coupler=strong", "--set",
                        "method.fluid.constraint=mps", "--set", "method.fluid.solver=jacobi",
                        "--max-particles", "1000", NULL};
  char *err = NULL;
  cr_assert_eq(run_vbc(args, &err), 2);
  cr_assert(strstr(err, "at most 1000 particles (--max-particles)") && !strstr(err, "0.4486"),
            "%s", err);
  free(err), err = NULL;
  args[8] = NULL; /* without the limit: the rows' bound refuses omega 0.5 */
  cr_assert_eq(run_vbc(args, &err), 2);
  cr_assert(strstr(err, "0.4486") && strstr(err, "omega_limit"), "%s", err);
  free(err);
}

/* Boxes and tanks are counted exactly, disks by their area, bodies by their bounding box: within
 * 5 % of what set-up generates, for every shipped scene. */
Test(limits, the_estimate_matches_the_generated_particles_of_every_shipped_scene) {
  static const char *const scenes[] = {
      "buoyancy", "circular_patch", "complex", "dam_break", "dam_break_3d", "hydrostatic",
      "kurose_bodies", "kurose_bodies_3d", "many_contacts", "rigid_pile", "seesaw"};
  for (size_t k = 0; k < sizeof scenes / sizeof *scenes; ++k) {
    char rel[256];
    snprintf(rel, sizeof rel, "experiments/scenes/%s.json", scenes[k]);
    vbc_scene sc;
    vbc_sim sim;
    vbc_error err = {0};
    cr_assert_eq(vbc_scene_load(&sc, source_path(rel), NULL, 0, test_registry(), &err), 0, "%s",
                 err.message);
    cr_assert_eq(vbc_sim_init(&sim, &sc, &err), 0, "%s: %s", rel, err.message);
    const double est = vbc_particle_estimate(&sc), real = (double)sim.particles.n;
    cr_expect_leq(fabs(est - real), 0.05 * real, "%s: estimate %g, generated %g", rel, est, real);
    if (strcmp(scenes[k], "hydrostatic") == 0) cr_expect_eq(est, real);
    vbc_sim_free(&sim);
    vbc_scene_free(&sc);
  }
}
