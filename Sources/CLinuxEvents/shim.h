#ifndef CLINUXEVENTS_SHIM_H
#define CLINUXEVENTS_SHIM_H
// Linux event primitives the run loop waits on: epoll, eventfd, timerfd, timer slack; a prefetch
// hint; and the pseudo-terminal calls the benchmark needs.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/syscall.h>

/// Sets this thread's timer slack so kernel sleeps end on time (default slack is 50 µs).
static inline int cle_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

static inline int cle_errno(void) { return errno; }

/// The kernel's id of the calling thread (what `top -H` and gdb show); glibc declares `gettid` only
/// under _GNU_SOURCE.
static inline int cle_thread_id(void) { return (int)syscall(SYS_gettid); }

/// Asks the CPU to start loading the cache line at `address` (a hint Swift does not expose).
static inline void cle_prefetch(const void *address) { __builtin_prefetch(address); }

// Pseudo-terminals, for the benchmark that runs the dashboard in one. glibc declares these only
// under _XOPEN_SOURCE / _GNU_SOURCE, which Swift's Glibc module is built without; declaring them
// again here (same prototypes as <stdlib.h>) makes them visible.
int posix_openpt(int flags);
int grantpt(int descriptor);
int unlockpt(int descriptor);
int ptsname_r(int descriptor, char *buffer, size_t length);

/// posix_spawn's flag that makes the child a session leader (so the terminal it opens first becomes
/// its controlling terminal). <spawn.h> defines it under _GNU_SOURCE only; 0x80 is glibc's value.
static inline short cle_posix_spawn_setsid(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0x80;
#endif
}

#endif
