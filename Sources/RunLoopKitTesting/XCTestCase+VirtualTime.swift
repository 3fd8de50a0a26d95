import RunLoopKit
import XCTest

extension XCTestCase {
    /// Runs `body` on virtual time: as a task on a new ``RunLoopKit/RunLoop`` on a
    /// ``RunLoopKit/VirtualClock`` bound to the calling thread, through
    /// ``RunLoopKit/VirtualTime/test(on:timeLimit:checkingLeaks:_:)`` — its tasks run on the loop,
    /// its sleeps take virtual time, and a runaway, a deadlock, a leak or the real-time limit
    /// throws a ``RunLoopKit/VirtualTimeError`` (a thrown error fails the test).
    ///
    /// XCTest runs one test at a time in a process (and `swift test --parallel` runs workers as
    /// processes), so the process-wide scope needs no child process here. XCTest's own waits
    /// (`wait(for:timeout:)`) spin Foundation's run loop, not RunLoopKit's: inside `body` await
    /// instead (``RunLoopKit/RunLoop/Handle/sleep(for:tolerance:inModes:file:line:)``, a stream,
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
        timeLimit: Duration = .seconds(60), checkingLeaks: Bool = true,
        _ body: @escaping @Sendable (RunLoopKit.RunLoop.Handle) async throws -> Result
    ) throws -> Result {
        let loop = RunLoopKit.RunLoop(clock: .virtual(VirtualClock()))
        let handle = loop.handle
        return try VirtualTime.test(on: loop, timeLimit: timeLimit, checkingLeaks: checkingLeaks) {
            try await body(handle)
        }
    }
}
