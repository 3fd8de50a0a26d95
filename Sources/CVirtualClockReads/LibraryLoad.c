// RunLoopKitTesting's registration as the executable starts: from then on XCTest's waits serve
// RunLoopKit's loop (XCTestWaitPump.swift), with nothing added to the tests.

extern void runloopkit_testing_library_did_load(void);

__attribute__((constructor)) static void testing_library_load(void) { runloopkit_testing_library_did_load(); }
