import CVirtualClockReads
import Glibc
import RunLoopKit
import TestSupport
import Testing

@testable import RunLoopKitTesting

/// A scope that cannot take the runtime over as it was checked throws instead of going on silently:
/// another hook in the runtime's variable, clock reads that cannot be or are not virtual. Each test
/// changes process-wide state, so it runs in a child process (an exit test).
@Suite("VirtualTime: a runtime the scope cannot take over makes it throw")
struct RuntimeTakeoverTests {
    @Test("Another hook in the runtime's variable: run and test throw hookInUse and leave it in place")
    func anotherHookIsReported() async {
        await #expect(processExitsWith: .success) {
            let variable = hookVariable()
            let foreign = foreignHookBits()
            guard runloopkit_exchange_hook(variable, 0, foreign) == 0 else { exit(2) }
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let fromRun = thrownError { try VirtualTime.run(on: loop) {} }
            let fromTest = thrownError { try VirtualTime.test(on: loop) {} }
            let left = runloopkit_exchange_hook(variable, foreign, 0) == foreign
            let reported =
                fromRun?.kind == .hookInUse && fromTest?.kind == .hookInUse
                && fromRun?.message.contains("already holds") == true
            exit(reported && left ? 0 : 1)
        }
    }

    @Test("A hook that replaced the scope's while it ran is reported when the scope ends, and left in place")
    func replacedHookIsReported() async {
        await #expect(processExitsWith: .success) {
            let variable = hookVariable()
            let foreign = foreignHookBits()
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let error = thrownError {
                try VirtualTime.run(on: loop) {
                    let scopes = runloopkit_exchange_hook(variable, 0, 0)
                    _ = runloopkit_exchange_hook(variable, scopes, foreign)
                }
            }
            let left = runloopkit_exchange_hook(variable, foreign, 0) == foreign
            exit(
                error?.kind == .hookInUse && error?.message.contains("instead of the scope's hook") == true && left
                    ? 0 : 1)
        }
    }

    @Test("Clock reads whose swift_get_time was not located make the scope throw clockReads, saying so")
    func clockReadsNotLocated() async {
        await #expect(processExitsWith: .success) {
            attachVirtualClockReads({ _ in }, false)
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let error = thrownError { try VirtualTime.run(on: loop) {} }
            exit(error?.kind == .clockReads && error?.message.contains("found no swift_get_time") == true ? 0 : 1)
        }
    }

    @Test("Clock reads that stay real make the first scope throw clockReads instead of reading real time")
    func clockReadsThatStayReal() async {
        await #expect(processExitsWith: .success) {
            // Located, but never switched on: ContinuousClock.now reads real time in the scope.
            attachVirtualClockReads({ _ in }, true)
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let error = thrownError { try VirtualTime.run(on: loop) {} }
            let installedNothing = runloopkit_exchange_hook(hookVariable(), 0, 0) == 0
            exit(
                error?.kind == .clockReads && error?.message.contains("instead of its virtual") == true
                    && installedNothing ? 0 : 1)
        }
    }
}

/// The runtime's hook variable, `swift_task_enqueueGlobal_hook`.
private func hookVariable() -> UnsafeMutablePointer<UInt> {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { exit(3) }
    return symbol.assumingMemoryBound(to: UInt.self)
}

/// Another library's hook: it hands every job to the runtime's own executor.
private func foreignHookBits() -> UInt {
    let hook: RuntimeHook.Hook = { job, original in original(job) }
    return unsafeBitCast(hook, to: UInt.self)
}

private func thrownError(_ body: () throws -> Void) -> VirtualTimeError? {
    do {
        try body()
        return nil
    } catch {
        return error as? VirtualTimeError
    }
}
