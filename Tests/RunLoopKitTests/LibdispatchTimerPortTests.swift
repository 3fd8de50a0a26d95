import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

/// What swift-corelibs-libdispatch's timer tests (tests/dispatch_*.c) check, in RunLoopKit's words,
/// on real time with the originals' bounds. Timers the originals put on the main queue are
/// DispatchTimers delivered onto RunLoop.main, in a child process (`libdispatch-timer-probe`), because
/// only a process's main thread runs it; the rest are delivered on queues, here. They take as long
/// as the originals (up to 9.5 s, in parallel): `.slow`.
@Suite("libdispatch's timer tests, on DispatchTimer", .tags(.slow))
struct LibdispatchTimerPortTests {
    private func probe(_ scenario: String) throws -> [String] {
        try #require(BuiltProduct.isBuilt("libdispatch-timer-probe"), "build libdispatch-timer-probe first")
        let outcome = try ChildProcess.run(
            BuiltProduct.path("libdispatch-timer-probe"), [scenario], timeout: .seconds(60))
        try #require(outcome.status == 0, "\(outcome)")
        return outcome.output.split(separator: "\n").map(String.init)
    }

    @Test("dispatch_timer.c: a main-loop timer cancels itself at its third tick; only global one-shots due before fire")
    func dispatchTimer() throws {
        #expect(
            try probe("timer") == [
                "main loop: stopped",
                "main timer ticks: 3",
                "global one-shots fired before the end, all numbered below 3: true",
            ])
    }

    @Test("dispatch_timer_set_time.c: rescheduled from 1 s to 100 ms in its first handler, 15 ticks take under 10 s")
    func dispatchTimerSetTime() throws {
        #expect(try probe("set-time") == ["main loop: stopped", "ticks: 15, total duration under 10 s: true"])
    }

    @Test("dispatch_timer_bit31.c: a deadline and interval of 2^31 ns fire after 2.15 s and under 4 s")
    func dispatchTimerBit31() throws {
        #expect(try probe("bit31") == ["main loop: stopped", "finished after 2^31 ns and under 4 s: true"])
    }

    @Test("dispatch_timer_bit63.c: an interval of 2^63 + 1 ns fires once in a second, without overflowing")
    func dispatchTimerBit63() throws {
        #expect(try probe("bit63") == ["main loop: stopped", "ticks in 1 s: 1"])
    }

    @Test("dispatch_suspend_timer.c: a 1 s timer suspended for 3 s has 3 ticks, then 7 events carrying 9 ticks")
    func dispatchSuspendTimer() throws {
        #expect(
            try probe("suspend") == [
                "at resume: ticks 3, with missed ticks 3",
                "at the end: ticks 7, with missed ticks 9",
                "main loop: stopped",
            ])
    }

    @Test(
        "dispatch_after.c: one-shots after 6 s, 2 s and 0 s on the main loop land within ±0.5 s",
        arguments: [
            "after", "after-main-queue",
        ])
    func dispatchAfter(scenario: String) throws {
        #expect(
            try probe(scenario) == [
                "main loop: stopped",
                "after 6.0 s: within ±0.5 s: true",
                "after 2.0 s: within ±0.5 s: true",
                "after 0.0 s: within ±0.5 s: true",
            ])
    }

    @Test("dispatch_timer_timeout.c: a timer whose queue its handler suspends fires once; a global one still fires")
    func dispatchTimerTimeout() {
        let timerQueue = DispatchQueue(label: "timer_queue")
        let miniFires = Atomic<Int>(0)
        let miniTimer = DispatchTimer(queue: timerQueue) { _ in
            miniFires.add(1, ordering: .relaxed)
            timerQueue.suspend()
        }
        miniTimer.schedule(deadline: .now, repeating: .nanoseconds(100))
        let longFired = DispatchSemaphore(value: 0)
        let longTimer = DispatchTimer(queue: .global()) { _ in longFired.signal() }
        longTimer.schedule(deadline: .after(.seconds(1)), repeating: .seconds(2))
        miniTimer.resume()
        longTimer.resume()
        #expect(waitBounded(longFired, seconds: 6))
        longTimer.cancel()
        #expect(miniFires.load(ordering: .relaxed) == 1)
        miniTimer.cancel()
        timerQueue.resume()
    }

    @Test(
        "dispatch_timer_short.c: behind 25 000 timers on a suspended queue, a 5 µs timer is called no more than every 5 µs"
    )
    func dispatchTimerShort() {
        let count = 25_000
        let interval = Duration.microseconds(5)
        let queue = DispatchQueue(label: "q")
        let blocked = (0..<count).map { _ in
            let timer = DispatchTimer(queue: queue) { _ in }
            timer.schedule(deadline: .now, repeating: interval)
            timer.resume()
            timer.suspend()
            return timer
        }
        queue.suspend()
        for timer in blocked { timer.resume() }
        let calls = Atomic<Int>(0)
        let first = DispatchSemaphore(value: 0)
        let measured = DispatchTimer(queue: .global()) { _ in
            if calls.add(1, ordering: .relaxed).oldValue == 0 { first.signal() }
        }
        measured.schedule(deadline: .now, repeating: interval)
        measured.resume()
        // As the original's dispatch_after from the first callback: count for one second after it.
        #expect(waitBounded(first, seconds: 30))
        let done = DispatchSemaphore(value: 0)
        let stopper = DispatchTimer(queue: .global()) { _ in done.signal() }
        stopper.schedule(deadline: .after(.seconds(1)))
        stopper.resume()
        #expect(waitBounded(done, seconds: 30))
        measured.cancel()
        let total = calls.load(ordering: .relaxed)
        // The original: 1 < ceil(1 s / (calls × 5 µs)), so fewer than 200 000 calls in the second.
        #expect(total > 0 && total < 200_000, "\(total) calls")
        for timer in blocked { timer.cancel() }
        queue.resume()
    }
}
