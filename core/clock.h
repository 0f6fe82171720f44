/* clock.h — wall and CPU time for the solve loop's statistics and the run's timings. */
#ifndef VBC_CLOCK_H
#define VBC_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

double vbc_now(void);         /* monotonic seconds */
double vbc_cpu_seconds(void); /* CPU seconds of this process so far, all threads */

#ifdef __cplusplus
}
#endif

#endif
