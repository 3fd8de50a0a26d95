import Dispatch
import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Thread checks and loop-bound values")
struct ThreadCheckTests {
    #if DEBUG
    @Test(
        "Debug builds: a mutating call from a thread that does not own the loop stops with the call and both threads named"
    )
    func foreignThreadIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            callPerformFromAnotherThread()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("RunLoop.perform(inModes:_:) called on thread"))
        #expect(message.contains("belongs to thread"))
    }
    #endif

    @Test("A loop-bound value reaches its loop's thread through a Sendable block")
    func loopBoundValueCrossesThreads() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            final class Counter { var count = 0 }
            let counter = Counter()
            let bound = LoopBound(counter, on: loop)
            let handle = loop.handle
            let entry = RunLoop.Observer(activities: .entry, repeats: false) { _, _ in
                spawnThread {
                    handle.perform {
                        bound.value.count += 1
                        handle.stop()
                    }
                }
            }
            loop.add(entry, forMode: .default)
            loop.add(RunLoop.Source {}, forMode: .default)
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
            #expect(counter.count == 1)
        }
    }

    @Test("A loop-bound value read on another thread stops the program, in every build")
    func loopBoundValueRefusesOtherThreads() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            readLoopBoundFromAnotherThread()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("LoopBound.value used on thread"))
    }
}

/// Calls `perform` on a loop from a thread that does not own it (in a child process of an exit test).
private func callPerformFromAnotherThread() {
    let loop = RunLoop()
    // Deliberately smuggles the non-Sendable loop to another thread: the misuse under test.
    nonisolated(unsafe) let smuggled = loop
    let done = DispatchSemaphore(value: 0)
    spawnThread {
        smuggled.perform {}
        done.signal()
    }
    _ = waitBounded(done)
    exit(0)
}

/// Reads a loop-bound value on a thread other than its loop's (in a child process of an exit test).
private func readLoopBoundFromAnotherThread() {
    let loop = RunLoop()
    let bound = LoopBound(1, on: loop)
    let done = DispatchSemaphore(value: 0)
    spawnThread {
        _ = bound.value
        done.signal()
    }
    _ = waitBounded(done)
    exit(0)
}
