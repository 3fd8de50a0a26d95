#ifndef CALLOCATIONCOUNTER_H
#define CALLOCATIONCOUNTER_H
// Counts the heap allocations of the calling thread: the executable that links this target
// replaces malloc, calloc, realloc and the aligned allocators with versions that count, then call
// glibc's own (__libc_malloc …). Only timeout-allocation-probe links it: in any other process it
// would count for nothing.

/// Starts counting this thread's allocations from zero.
void ac_start(void);

/// Stops counting and returns how many allocations this thread made since `ac_start`.
long ac_stop(void);

#endif
