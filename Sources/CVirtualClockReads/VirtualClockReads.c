// The interposed `clock_gettime`: libswift_Concurrency's `swift_get_time` calls glibc's through its
// PLT, and a definition in the executable comes first. `swift_get_time` itself cannot be
// interposed: the runtime's own callers (`ContinuousClock.now` among them) call it directly.
#define _GNU_SOURCE
#include "VirtualClockReads.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

// RunLoopKitTesting's side (RuntimeHook.swift): the active scope's reading of `clock`
// (CLOCK_BOOTTIME or CLOCK_MONOTONIC), false when no scope is active; and, as the executable
// starts, the switch it turns the virtual reads on and off with and whether `swift_get_time` was
// located (without it no read is virtual).
extern bool runloopkit_virtual_clock_read(int clock, struct timespec *time);
extern void runloopkit_virtual_clock_reads_attach(void (*set_active)(bool), bool located);

static _Atomic(bool) active = false;
static _Atomic(clock_gettime_fn) real_clock_gettime = NULL;
// `swift_get_time`'s code: a call returning into it is the runtime reading its clocks. It calls
// glibc's with `call`, not a tail jump (checked on the Swift 6.3 runtime for x86_64); on a runtime
// built otherwise the reads stay real, which the first scope finds and reports.
static uintptr_t swift_get_time_start = 0;
static uintptr_t swift_get_time_end = 0;

static void set_active(bool on) { atomic_store_explicit(&active, on, memory_order_relaxed); }

static clock_gettime_fn real(void) {
    clock_gettime_fn function = atomic_load_explicit(&real_clock_gettime, memory_order_relaxed);
    if (function == NULL) {
        function = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
        atomic_store_explicit(&real_clock_gettime, function, memory_order_relaxed);
    }
    return function;
}

__attribute__((constructor)) static void attach(void) {
    (void)real();
    void *symbol = dlsym(RTLD_DEFAULT, "swift_get_time");
    Dl_info info;
    const ElfW(Sym) *entry = NULL;
    bool located =
        symbol != NULL && dladdr1(symbol, &info, (void **)&entry, RTLD_DL_SYMENT) != 0 && entry != NULL;
    if (located) {
        swift_get_time_start = (uintptr_t)symbol;
        swift_get_time_end = swift_get_time_start + entry->st_size;
    }
    runloopkit_virtual_clock_reads_attach(set_active, located);
}

int clock_gettime(clockid_t clock, struct timespec *time) {
    if (atomic_load_explicit(&active, memory_order_relaxed)) {
        uintptr_t caller = (uintptr_t)__builtin_return_address(0);
        if (caller >= swift_get_time_start && caller < swift_get_time_end
            && runloopkit_virtual_clock_read(clock, time)) {
            return 0;
        }
    }
    return real()(clock, time);
}
