/* test_ellipse_theory.c — the circular-patch theory (Miyamoto eq. 74-77) integrated by GSL
 * against closed forms: exponentials when the strain is frozen, a b = R^2, the energy integral of
 * eq. 76, and the time t(A) by quadrature of that integral. */
#include <criterion/criterion.h>
#include <gsl/gsl_integration.h>
#include <math.h>

#include "metrics/ellipse_theory.h"

Test(ellipse_theory, frozen_strain_gives_exponential_axes) {
  vbc_ellipse_theory th;
  vbc_error err = {0};
  cr_assert_eq(vbc_ellipse_theory_init(&th, 0.5, 1.0, 1, &err), VBC_OK);
  for (double t = 0.25; t <= 2.0; t += 0.25) {
    cr_assert_eq(vbc_ellipse_theory_advance(&th, t, &err), VBC_OK);
    cr_assert_float_eq(th.y[0], 0.5 * exp(-t), 1e-10);
    cr_assert_float_eq(th.y[1], 0.5 * exp(t), 1e-10);
    cr_assert_eq(th.y[2], 1.0);
  }
  vbc_ellipse_theory_free(&th);
}

Test(ellipse_theory, keeps_the_area_and_the_energy_integral) {
  const double R = 0.7, A0 = 1.3;
  vbc_ellipse_theory th;
  vbc_error err = {0};
  cr_assert_eq(vbc_ellipse_theory_init(&th, R, A0, 0, &err), VBC_OK);
  for (double t = 0.1; t <= 3.0; t += 0.1) {
    cr_assert_eq(vbc_ellipse_theory_advance(&th, t, &err), VBC_OK);
    double a = th.y[0], b = th.y[1], A = th.y[2], dA = th.y[3];
    cr_assert_float_eq(a * b, R * R, 1e-10 * R * R, "t = %g", t);
    double invariant = dA * dA - pow(A, 4) * (1.0 - pow(A / A0, 4));
    cr_assert_float_eq(invariant, 0.0, 1e-9, "t = %g: (dA/dt)^2 = A^4 (1 - (A/A0)^4)", t);
    cr_assert_lt(A, A0);
    cr_assert_lt(a, R);
  }
  vbc_ellipse_theory_free(&th);
}

static double inverse_rate(double A, void *params) {
  double A0 = *(double *)params;
  return 1.0 / (A * A * sqrt(1.0 - pow(A / A0, 4)));
}

Test(ellipse_theory, time_of_A_matches_the_quadrature_of_the_energy_integral) {
  const double A0 = 1.0;
  vbc_ellipse_theory th;
  vbc_error err = {0};
  cr_assert_eq(vbc_ellipse_theory_init(&th, 0.5, A0, 0, &err), VBC_OK);
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
  double a0 = A0;
  gsl_function f = {inverse_rate, &a0};
  for (double t = 0.5; t <= 2.0; t += 0.5) {
    cr_assert_eq(vbc_ellipse_theory_advance(&th, t, &err), VBC_OK);
    double tq, abserr;
    /* t(A) = int_A^A0 dA' / (A'^2 sqrt(1 - (A'/A0)^4)); integrable 1/sqrt singularity at A0 */
    cr_assert_eq(gsl_integration_qags(&f, th.y[2], A0, 1e-12, 1e-10, 1000, w, &tq, &abserr), 0);
    cr_assert_float_eq(tq, t, 1e-7, "A(%g) = %g gives t = %g", t, th.y[2], tq);
  }
  gsl_integration_workspace_free(w);
  vbc_ellipse_theory_free(&th);
}

Test(ellipse_theory, reproduces_the_paper_initial_values) {
  vbc_ellipse_theory th;
  vbc_error err = {0};
  cr_assert_eq(vbc_ellipse_theory_init(&th, 0.5, 1.0, 0, &err), VBC_OK);
  cr_assert_eq(vbc_ellipse_theory_advance(&th, 1e-6, &err), VBC_OK);
  cr_assert_float_eq(th.y[0], 0.5, 1e-6);
  cr_assert_float_eq(th.y[1], 0.5, 1e-6);
  cr_assert_float_eq(th.y[3], -2e-6, 1e-9, "dA/dt = -2 A0^3 t near t = 0");
  vbc_ellipse_theory_free(&th);
}
