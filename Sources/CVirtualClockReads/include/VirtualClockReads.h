#ifndef CVIRTUALCLOCKREADS_H
#define CVIRTUALCLOCKREADS_H
// Virtual readings of the Swift runtime's clocks (`ContinuousClock.now`, `SuspendingClock.now`)
// inside a RunLoopKit VirtualTime scope. The executable that links this target defines
// `clock_gettime`: glibc's is called for every caller but one, the runtime's `swift_get_time`
// while a scope is active, which gets the scope's virtual reading. Only RunLoopKitTesting links
// it, so a process that does not link that library reads its clocks as it always does.

#endif
