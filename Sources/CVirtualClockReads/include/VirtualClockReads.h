#ifndef CVIRTUALCLOCKREADS_H
#define CVIRTUALCLOCKREADS_H
// The C part of RunLoopKitTesting's VirtualTime scope.
//
// Virtual readings of the Swift runtime's clocks (`ContinuousClock.now`, `SuspendingClock.now`)
// inside a scope (VirtualClockReads.c): the executable that links this target defines
// `clock_gettime`: glibc's is called for every caller but one, the runtime's `swift_get_time`
// while a scope is active, which gets the scope's virtual reading. Only RunLoopKitTesting links
// it, so a process that does not link that library reads its clocks as it always does.

#include <stdint.h>

// Swaps the runtime hook variable at `variable` from `expected` to `desired` in one atomic step
// (RuntimeHook.c): returns what the variable held, `expected` when the swap was made.
uintptr_t runloopkit_exchange_hook(uintptr_t *variable, uintptr_t expected, uintptr_t desired);

#endif
