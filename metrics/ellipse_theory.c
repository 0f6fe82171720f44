/* ellipse_theory.c — see ellipse_theory.h. */
#include <gsl/gsl_errno.h>
#include <string.h>

#include "metrics/ellipse_theory.h"

static int rhs(double t, const double y[], double f[], void *params) {
  (void)t;
  const vbc_ellipse_theory *th = params;
  double A = y[2], dA = y[3];
  f[0] = -y[0] * A; /* eq. 74 */
  f[1] = y[1] * A;  /* eq. 75 */
  if (th->freeze_strain) {
    f[2] = f[3] = 0.0;
  } else {
    f[2] = dA;
    f[3] = (A != 0.0 ? 4.0 * dA * dA / A : 0.0) - 2.0 * A * A * A; /* eq. 76 */
  }
  return GSL_SUCCESS;
}

int vbc_ellipse_theory_init(vbc_ellipse_theory *th, double radius, double A0, int freeze_strain,
                            vbc_error *err) {
  memset(th, 0, sizeof *th);
  th->freeze_strain = freeze_strain;
  th->sys.function = rhs;
  th->sys.jacobian = NULL;
  th->sys.dimension = 4;
  th->sys.params = th;
  th->driver = gsl_odeiv2_driver_alloc_y_new(&th->sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-13, 1e-12);
  if (th->driver == NULL) return vbc_error_set(err, VBC_EXIT_SYSTEM, "out of memory (GSL ODE)");
  th->y[0] = th->y[1] = radius; /* eq. 77 with the scene's radius */
  th->y[2] = A0;
  th->y[3] = 0.0;
  return VBC_OK;
}

int vbc_ellipse_theory_advance(vbc_ellipse_theory *th, double t, vbc_error *err) {
  if (t <= th->t) return VBC_OK;
  int status = gsl_odeiv2_driver_apply(th->driver, &th->t, t, th->y);
  if (status != GSL_SUCCESS)
    return vbc_error_set(err, VBC_EXIT_FAILED, "ellipse theory: GSL ODE driver failed at t = %g: %s",
                         th->t, gsl_strerror(status));
  return VBC_OK;
}

void vbc_ellipse_theory_free(vbc_ellipse_theory *th) {
  if (th->driver) gsl_odeiv2_driver_free(th->driver);
  memset(th, 0, sizeof *th);
}
