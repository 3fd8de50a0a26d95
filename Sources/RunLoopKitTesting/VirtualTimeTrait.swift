import Foundation
import RunLoopKit
import Synchronization
import Testing

/// A swift-testing trait that runs a test on virtual time: `@Test(.virtualTime)`.
///
/// The test's body runs as a task on a new `RunLoop` on a `VirtualClock`,
/// on a thread of its own, as ``VirtualTime/test(on:timeLimit:checkingLeaks:resolution:_:)`` runs
/// one: its tasks (`Task {}` included) run on the loop, its sleeps take virtual time, and a
/// runaway, a deadlock, a leak, the real-time limit or a runtime the scope cannot take over fails
/// it with a ``VirtualTimeError``. `ContinuousClock.now` and `SuspendingClock.now` read the loop's
/// virtual time too: this library's C part defines the process's `clock_gettime`, and gives the
/// runtime's `swift_get_time` the scope's reading (see ``VirtualTime``). The body reaches the loop
/// through ``currentLoop``.
///
/// That scope takes over the runtime's global executor for the whole process, and swift-testing
/// runs tests in parallel in one process: so each test with the trait runs in a child process of
/// its own — the test binary again, filtered to that test — and the parent reports the child's
/// failures. On a suite, the trait applies to each of its tests.
///
/// ```swift
/// @Test(.virtualTime(resolution: .seconds(1))) func anHourAtOnce() async throws {
///     try await Task.sleep(for: .seconds(3_600))
///     #expect(VirtualTimeTrait.currentLoop?.timeSource.now() == Instant.zero + .seconds(3_600))
/// }
/// ```
public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// The real time a test may take before it fails with ``VirtualTimeError/Kind/watchdog``.
    public var timeLimit: Duration
    /// Whether timers and sleepers left when the test ends fail it (``VirtualTimeError/Kind/leaked``).
    public var checkingLeaks: Bool
    /// What the runtime's sleeps (`Task.sleep`, `ContinuousClock`) are rounded up to a multiple of.
    /// Their deadlines are read on the loop's virtual time in a process that links this library,
    /// so a sleep's time left is exact at any resolution.
    public var resolution: Duration
    /// What may run at one virtual instant before the test fails with
    /// ``VirtualTimeError/Kind/runaway`` (the loop's `runawayLimits`).
    public var runawayLimits: RunLoopKit.RunLoop.RunawayLimits

    /// The handle of the loop the current test runs on, inside a test with the trait.
    @TaskLocal public static var currentLoop: RunLoopKit.RunLoop.Handle?

    /// The environment variable that tells a child process which test to run on virtual time.
    static let childVariable = "RUNLOOPKIT_VIRTUAL_TIME_TEST"

    /// Applies to each test of a suite.
    public var isRecursive: Bool { true }

    /// Runs the test in a child process, or — in that child — runs its body on virtual time.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        let id = "\(test.id)"
        // The child is named by the test's whole id, or by its name without the source location.
        if let named = ProcessInfo.processInfo.environment[Self.childVariable], id == named || id.hasPrefix(named + "/")
        {
            try await runOnVirtualTime(function)
        } else {
            try await ChildProcess.run(testID: id, variable: Self.childVariable)
        }
    }

    /// Runs `function` as a task on a new virtual loop on a thread of its own, with the
    /// current task's task-locals (the running test's), and waits for it.
    private func runOnVirtualTime(_ function: @Sendable () async throws -> Void) async throws {
        try await withoutActuallyEscaping(function) { function in
            // The test's body may escape into the task below: the drive waits for it to end.
            let body = UncheckedSendable(function)
            let run = VirtualRun()
            // The loop is made on a thread of its own, which checks that its scope can be installed
            // (if not, the test fails before its task is made), waits for the test's task to be
            // made here (with this task's task-locals: the running test's), then installs the
            // scope and drives it: only from then on do the runtime's jobs run on the loop.
            let go = DispatchSemaphore(value: 0)
            typealias Made = Result<(handle: RunLoopKit.RunLoop.Handle, executor: any TaskExecutor), VirtualTimeError>
            let scope = await withCheckedContinuation { (made: CheckedContinuation<Made, Never>) in
                Thread.detachNewThread { [timeLimit, checkingLeaks, resolution, runawayLimits] in
                    let loop = RunLoopKit.RunLoop(timeSource: .virtual(VirtualClock()))
                    loop.runawayLimits = runawayLimits
                    let executor: any TaskExecutor
                    do throws(VirtualTimeError) {
                        executor = try VirtualTime.scope(for: loop, resolution: resolution)
                    } catch {
                        made.resume(returning: .failure(error))
                        return
                    }
                    made.resume(returning: .success((loop.handle, executor)))
                    go.wait()
                    do {
                        try VirtualTime.drive(
                            on: loop, executor: executor, timeLimit: timeLimit, checkingLeaks: checkingLeaks,
                            cancel: { run.cancelBody() }, succeeded: { run.bodySucceeded })
                        run.finish(nil)
                    } catch {
                        run.finish(error)
                    }
                }
            }
            let (handle, executor) = try scope.get()
            let task = Task(executorPreference: executor) {
                do {
                    try await Self.$currentLoop.withValue(handle) { try await body.value() }
                    run.bodyEnded(nil)
                } catch {
                    run.bodyEnded(error)
                }
                handle.wakeUp()
            }
            run.started(task)
            go.signal()
            if let error = await run.waitForDrive() {
                guard run.bodySucceeded != nil else {
                    // The body's task still waits (a deadlock, the watchdog) and holds the test's
                    // closure, which cannot outlive this call: the child process reports and ends.
                    Issue.record(error)
                    fflush(nil)
                    exit(EXIT_FAILURE)
                }
                throw error
            }
        }
    }
}

extension Trait where Self == VirtualTimeTrait {
    /// Runs the test on virtual time, in a child process, with a minute of real time at most,
    /// leaks checked and the runtime's sleeps rounded to a millisecond; see ``VirtualTimeTrait``.
    public static var virtualTime: Self { virtualTime() }

    /// Runs the test on virtual time with a real-time limit, leaks checked if asked, the
    /// runtime's sleeps rounded up to a multiple of `resolution`, and a runaway at one instant
    /// stopped at `runawayLimits`.
    ///
    /// ```swift
    /// @Test(.virtualTime(runawayLimits: RunLoop.RunawayLimits(jobs: 1_000)))
    /// func spinsBriefly() async {}
    /// ```
    public static func virtualTime(
        timeLimit: Duration = .seconds(60), checkingLeaks: Bool = true, resolution: Duration = .milliseconds(1),
        runawayLimits: RunLoopKit.RunLoop.RunawayLimits = .init()
    ) -> Self {
        VirtualTimeTrait(
            timeLimit: timeLimit, checkingLeaks: checkingLeaks, resolution: resolution, runawayLimits: runawayLimits)
    }
}

/// A value sent across a boundary the compiler cannot check: the drive waits for what it carries.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// One test's run on virtual time: how its body ended, and the drive's end, which the test awaits.
private final class VirtualRun: Sendable {
    private struct State {
        var body: (any Error)??
        var drive: (any Error)??
        var waiter: CheckedContinuation<(any Error)?, Never>?
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// `nil` while the body runs, then whether it succeeded.
    var bodySucceeded: Bool? {
        state.withLock { state in state.body.map { $0 == nil } }
    }

    func bodyEnded(_ error: (any Error)?) {
        state.withLock { $0.body = .some(error) }
    }

    /// The body's task was made.
    func started(_ task: Task<Void, Never>) {
        state.withLock { $0.task = task }
    }

    /// Cancels the body's task: the teardown of a test that failed.
    func cancelBody() {
        state.withLock { $0.task }?.cancel()
    }

    /// The drive ended, with its error if any (the body's error comes first).
    func finish(_ error: (any Error)?) {
        let (waiter, outcome) = state.withLock { state in
            let outcome = error ?? state.body.flatMap { $0 }
            state.drive = .some(outcome)
            defer { state.waiter = nil }
            return (state.waiter, outcome)
        }
        waiter?.resume(returning: outcome)
    }

    /// Waits for the drive to end; returns the drive's error or the body's.
    func waitForDrive() async -> (any Error)? {
        await withCheckedContinuation { (waiter: CheckedContinuation<(any Error)?, Never>) in
            let done = state.withLock { state -> (any Error)?? in
                if let drive = state.drive { return .some(drive) }
                state.waiter = waiter
                return nil
            }
            if let done { waiter.resume(returning: done) }
        }
    }
}
