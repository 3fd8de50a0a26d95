import RunLoopKit
import XCTest

extension XCTestCase {
    /// Runs `body` on virtual time: as a task on a new `RunLoop` on a
    /// `VirtualClock` bound to the calling thread, through
    /// ``VirtualTime/test(on:timeLimit:checkingLeaks:resolution:_:)`` — its tasks run on the loop,
    /// its sleeps take virtual time, and a runaway, a deadlock, a leak or the real-time limit
    /// throws a ``VirtualTimeError`` (a thrown error fails the test). `resolution` rounds the
    /// runtime's sleeps, as there; `runawayLimits` are the loop's.
    ///
    /// XCTest runs one test at a time in a process (and `swift test --parallel` runs workers as
    /// processes), so the process-wide scope needs no child process here. XCTest's own waits
    /// (`wait(for:timeout:)`) spin Foundation's run loop, not RunLoopKit's: inside `body` await
    /// instead (`RunLoop.Handle.sleep(for:tolerance:inModes:file:line:)`, a stream,
    /// `Task.sleep`); the loop runs while the body waits.
    ///
    /// ```swift
    /// final class CountdownTests: XCTestCase {
    ///     func testCountdown() throws {
    ///         let slept = try runWithVirtualTime { loop in
    ///             try await loop.sleep(for: .seconds(600))
    ///             return loop.timeSource.now()
    ///         }
    ///         XCTAssertEqual(slept, Instant.zero + .seconds(600))
    ///     }
    /// }
    /// ```
    @available(*, noasync)
    @discardableResult
    public func runWithVirtualTime<Result: Sendable>(
        timeLimit: Duration = .seconds(60), checkingLeaks: Bool = true, resolution: Duration = .milliseconds(1),
        runawayLimits: RunLoopKit.RunLoop.RunawayLimits = .init(),
        _ body: @escaping @Sendable (RunLoopKit.RunLoop.Handle) async throws -> Result
    ) throws -> Result {
        let loop = RunLoopKit.RunLoop(timeSource: .virtual(VirtualClock()))
        loop.runawayLimits = runawayLimits
        let handle = loop.handle
        return try VirtualTime.test(
            on: loop, timeLimit: timeLimit, checkingLeaks: checkingLeaks, resolution: resolution
        ) {
            try await body(handle)
        }
    }
}

extension XCTestCase {
    /// Lets XCTest's waits (`wait(for:timeout:)`, `waitForExpectations(timeout:)`) run `mode` of
    /// `loop`, the calling thread's RunLoopKit loop by default, until the test ends.
    ///
    /// XCTest's waits on Linux spin Foundation's `RunLoop.current` in its default mode, which knows
    /// nothing of RunLoopKit's loop; Foundation on Linux has no public way to add a source or a
    /// file descriptor to it, but its own timers run there. So a Foundation timer fires every
    /// `interval` while a wait spins and runs one pass of `loop` in `mode` that does not sleep:
    /// RunLoopKit's due timers, sources and jobs run up to `interval` late. Outside XCTest's
    /// waits nothing changes.
    ///
    /// The default mode of the waiting thread's loop needs no call: this library serves it in every
    /// XCTest wait of a process that links it. Call this for another mode or another loop.
    ///
    /// ```swift
    /// func testFiresDuringAWait() {
    ///     let modal = RunLoopKit.RunLoop.Mode("modal")
    ///     pumpRunLoopKitDuringWaits(mode: modal)
    ///     let loop = RunLoopKit.RunLoop.current
    ///     let fired = expectation(description: "fired")
    ///     let timer = RunLoopKit.Timer(fireAt: loop.now + .seconds(1), interval: .zero, repeats: false) { _ in
    ///         fired.fulfill()
    ///     }
    ///     loop.add(timer, forMode: modal)
    ///     XCTAssertEqual(XCTWaiter.wait(for: [fired], timeout: 10), .completed)
    /// }
    /// ```
    @available(*, noasync)
    public func pumpRunLoopKitDuringWaits(
        _ loop: RunLoopKit.RunLoop = .current, mode: RunLoopKit.RunLoop.Mode = .default,
        interval: Duration = .milliseconds(1)
    ) {
        let pumped = UncheckedSendable(loop)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) * 1e-18
        let pump = Foundation.Timer(timeInterval: max(seconds, 0.000_1), repeats: true) { _ in
            // Foundation runs its timers on the thread whose run loop they are in: the loop's.
            pumped.value.run(mode: mode, until: .zero)
        }
        Foundation.RunLoop.current.add(pump, forMode: .default)
        addTeardownBlock { pump.invalidate() }
    }
}
