import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing
import TimeUnits

@testable import RunLoopKit

/// C-T7, C-T8 under ``RunLoop/WakeUpPolicy/strictCF``: a timer invalidated or moved later from
/// another thread re-arms the sleeping loop's wait without waking it, as CF re-arms the mode's timer
/// port from the calling thread. On the real clock, because the subject is a second thread's request
/// reaching a loop asleep in the kernel; every bound below is a wait for a real event.
@Suite("Strict CF: a timer changed from another thread re-arms the wait (C-T7, C-T8)")
struct StrictCFRearmTests {
    /// What a `run(until: start + 600 ms)` saw, in milliseconds since its start.
    struct Run: Sendable {
        var result: RunLoop.RunResult
        var returnedAt: Int64
        var fires: [Int64]
        var wakes: [Int64]
        var requestAt: Int64
    }

    /// Runs a loop with one timer repeating every 100 ms for 600 ms; 250 ms in, another thread
    /// sends `request` through the timer's handle. A run whose request a busy machine delayed past
    /// the 300 ms fire it is about is run again (at most five times): it did not test the rule.
    private func run(
        policy: RunLoop.WakeUpPolicy, request: @escaping @Sendable (Timer.Handle, Instant) -> Void
    ) async -> Run {
        var attempt = await runOnce(policy: policy, request: request)
        for _ in 1..<5 where attempt.requestAt >= 290 {
            attempt = await runOnce(policy: policy, request: request)
        }
        #expect(attempt.requestAt < 290, "the request never came before the 300 ms fire: \(attempt)")
        return attempt
    }

    private func runOnce(
        policy: RunLoop.WakeUpPolicy, request: @escaping @Sendable (Timer.Handle, Instant) -> Void
    ) async -> Run {
        let outcome = Mutex<Run?>(nil)
        await runOnDedicatedThread {
            let loop = RunLoop()
            loop.wakeUpPolicy = policy
            let start = loop.now
            let elapsed = { (loop.now - start).nanoseconds / Nanoseconds.perMillisecond }
            var fires: [Int64] = []
            var wakes: [Int64] = []
            let timer = Timer(fireAt: start + .milliseconds(100), interval: .milliseconds(100), repeats: true) { _ in
                fires.append(elapsed())
            }
            loop.add(timer, forMode: .default)
            let observer = RunLoop.Observer(activities: .afterWaiting) { _, _ in wakes.append(elapsed()) }
            loop.add(observer, forMode: .default)
            let handle = timer.handle
            let requestAt = Mutex<Int64>(.max)
            // A thread of its own: the global queues may be busy with other tests' blocking work.
            spawnThread {
                var pause = timespec(
                    tv_sec: 0, tv_nsec: Int((start + .milliseconds(250) - TimeSource.system.now()).nanoseconds))
                if pause.tv_nsec > 0 { nanosleep(&pause, nil) }
                requestAt.withLock { $0 = (TimeSource.system.now() - start).nanoseconds / Nanoseconds.perMillisecond }
                request(handle, start)
            }
            let result = loop.run(until: start + .milliseconds(600))
            let run = Run(
                result: result, returnedAt: elapsed(), fires: fires, wakes: wakes,
                requestAt: requestAt.withLock { $0 })
            outcome.withLock { $0 = run }
        }
        return outcome.withLock { $0! }
    }

    @Test("C-T8 (strictCF): invalidated at 250 ms, the loop does not wake at 300 ms; it sleeps to 600 ms and times out")
    func strictInvalidationSleepsToTheLimit() async {
        let run = await run(policy: .strictCF) { handle, _ in handle.invalidate() }
        #expect(run.result == .timedOut)
        #expect(run.returnedAt >= 600)
        #expect(run.fires.allSatisfy { $0 <= run.requestAt })
        #expect(run.wakes.filter { $0 > run.requestAt }.allSatisfy { $0 >= 600 }, "\(run)")
    }

    @Test("C-T7 (strictCF): moved from 300 ms to 500 ms at 250 ms, the loop sleeps on to 500 ms")
    func strictLaterFireDateSleepsOn() async {
        let run = await run(policy: .strictCF) { handle, start in handle.setFireDate(start + .milliseconds(500)) }
        #expect(run.result == .timedOut)
        #expect(run.wakes.filter { $0 > run.requestAt }.allSatisfy { $0 >= 500 }, "\(run)")
        #expect(run.fires.filter { $0 > run.requestAt }.first.map { $0 >= 500 } == true, "\(run)")
    }

    @Test("decisions.md 5 (default): the same invalidation wakes the loop, which finds its mode empty and finishes")
    func defaultInvalidationFinishesEarly() async {
        let run = await run(policy: .handedOverWorkWakes) { handle, _ in handle.invalidate() }
        #expect(run.result == .finished, "a timed-out run slept to the limit: \(run)")
        #expect(run.wakes.contains { $0 >= run.requestAt }, "the request woke the loop: \(run)")
    }
}
