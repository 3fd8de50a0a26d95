#ifndef CLINUXEVENTS_SHIM_H
#define CLINUXEVENTS_SHIM_H
// Linux event primitives the run loop waits on: epoll, eventfd, timerfd, timer slack; libdispatch's
// main-queue hooks; a prefetch hint. Only RunLoopKit imports this module.
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

/// Whether the calling thread is the process's main thread (its kernel id is the process id).
static inline int cle_is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

/// libdispatch's hooks for a run loop that drains the main queue, as CoreFoundation uses them on
/// Linux: the main queue's eventfd, written whenever work is queued on it, and the drain, which must
/// be called on the main thread.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *ignored);

/// Asks the CPU to start loading the cache line at `address`, for a loop that will read it a few
/// iterations later; never faults, whatever the address.
static inline void cle_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
