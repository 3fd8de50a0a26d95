#ifndef CPSEUDOTERMINAL_SHIM_H
#define CPSEUDOTERMINAL_SHIM_H
// What timerdeck-bench needs to run the dashboard in a pseudo-terminal and to measure the kernel's
// timer floor; only timerdeck-bench imports this module.
#include <sys/timerfd.h>
#include <spawn.h>
#include <stdlib.h>

// glibc declares these only under _XOPEN_SOURCE / _GNU_SOURCE, which Swift's Glibc module is built
// without; declaring them again here (same prototypes as <stdlib.h>) makes them visible.
int posix_openpt(int flags);
int grantpt(int descriptor);
int unlockpt(int descriptor);
int ptsname_r(int descriptor, char *buffer, size_t length);

/// posix_spawn's flag that makes the child a session leader (so the terminal it opens first becomes
/// its controlling terminal). <spawn.h> defines it under _GNU_SOURCE only; 0x80 is glibc's value.
static inline short cpt_posix_spawn_setsid(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0x80;
#endif
}

#endif
