/* solve_params.h — the stopping-test parameters every iterative solver declares, so that
 * `method.<group>.tolerance` and `max_iterations` mean the same under every scheme. */
#ifndef VBC_SOLVE_PARAMS_H
#define VBC_SOLVE_PARAMS_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VBC_SOLVE_CONTROL_PARAMS(tol_default, max_default, err_default, min_default)          \
  {"tolerance", VBC_PARAM_NUMBER, (tol_default), 0.0, 1.0, 1,                                 \
   "stop when the residual (energy norm of the natural LCP residual) falls to this fraction " \
   "of its value with zero impulses"},                                                \
      {"max_iterations", VBC_PARAM_INTEGER, (max_default), 1.0, 1e9, 0,                       \
       "stop after this many iterations"},                                                    \
      {"error_tolerance", VBC_PARAM_NUMBER, (err_default), 0.0, 1.0, 0,                       \
       "> 0: blocks with an error measure (density rows) stop when their mean constraint "    \
       "error (IISPH's average density error) is at most this; tolerance then judges only "  \
       "the other blocks (contacts); 0: off"},                                                \
      {"min_iterations", VBC_PARAM_INTEGER, (min_default), 0.0, 1e9, 0,                       \
       "never stop for tolerance before this many iterations"}

#ifdef __cplusplus
}
#endif

#endif
