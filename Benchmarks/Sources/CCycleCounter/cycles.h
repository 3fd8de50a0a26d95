#ifndef CCYCLECOUNTER_CYCLES_H
#define CCYCLECOUNTER_CYCLES_H
// The processor's cycle counter, for timing single operations of tens of nanoseconds: a clock
// read through the vDSO costs about as much as the operation itself. Only timerdeck-bench imports it.
#include <stdint.h>

/// The time-stamp counter (x86-64) or the virtual counter (AArch64); both tick at a constant rate.
/// Fenced on both sides, so that the operation timed neither starts before the reading nor
/// overlaps the next one (an unfenced `rdtsc` let a 30 ns schedule read as 10 ns).
static inline uint64_t ccc_cycles(void) {
#if defined(__x86_64__)
    uint32_t low, high;
    __asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(low), "=d"(high) :: "memory");
    return ((uint64_t)high << 32) | low;
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(value));
    return value;
#else
    return 0;
#endif
}

#endif
