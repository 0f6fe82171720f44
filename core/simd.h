/* simd.h — whether a build may carry loops for wider vectors than the baseline.
 *
 * A few hot loops also come in a form for the wider vectors of newer x86-64 processors, chosen
 * at run time where the processor has them, so one binary runs on any x86-64. Each such form does
 * the plain loop's roundings in the plain loop's order (C11 mode: no contraction into FMA), so
 * results are the same bits on any processor. The sanitizer build carries the plain loops only:
 * on a processor with the wide ones the test suite then runs both kinds. */
#ifndef VBC_SIMD_H
#define VBC_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define VBC_X86_SIMD 1
#endif

#endif
