// The compare-and-swap on the concurrency runtime's hook variable (`swift_task_enqueueGlobal_hook`),
// a plain pointer that Swift's atomics cannot address.
#include "VirtualClockReads.h"

#include <stdbool.h>

uintptr_t runloopkit_exchange_hook(uintptr_t *variable, uintptr_t expected, uintptr_t desired) {
    __atomic_compare_exchange_n(variable, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected;
}
