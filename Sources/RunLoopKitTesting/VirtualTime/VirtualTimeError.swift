import RunLoopKit

/// Why a test on virtual time failed instead of hanging: a runaway, a loop that never became idle,
/// a deadlock, things left behind, a real-time watchdog, or a runtime the virtual-time scope cannot
/// take over; the message names what was involved.
///
/// ```swift
/// let beat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true, on: loop) { _ in }
/// do {
///     try loop.runUntilIdle(limit: 100)
/// } catch {
///     print(error)  // mode default was still not idle after 100 deadlines, at 100.000s, then the timer
/// }
/// ```
public struct VirtualTimeError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The loop's clock is not a `VirtualClock`.
        case notVirtual
        /// Pass after pass ran with virtual time standing still (sinon's `loopLimit`): a timer
        /// that re-arms itself at the same instant, or jobs that queue more jobs forever.
        case runaway
        /// `runUntilIdle(inMode:limit:)` reached its limit with things still scheduled.
        case notIdle
        /// Tasks wait, and nothing is scheduled, runnable or able to deliver input: nothing will
        /// ever wake them (Go's `synctest`).
        case deadlock
        /// Timers or sleepers were left scheduled when the test ended (swift-nio's testing loop).
        case leaked
        /// The test ran longer than its real-time limit.
        case watchdog
        /// The concurrency runtime cannot be taken over: the program was built with a Swift
        /// toolchain other than the one the scope was checked on (the message names the version it
        /// needs), or its runtime exports no `swift_task_enqueueGlobal_hook` (a statically linked one).
        case unsupportedRuntime
        /// The runtime's global-executor hook (`swift_task_enqueueGlobal_hook`) did not hold what
        /// the scope expected: another hook was installed before the scope or while it ran.
        case hookInUse
        /// The runtime's clocks could not be made to read virtual time in the scope: the process's
        /// `clock_gettime` could not find the runtime's `swift_get_time`, or `ContinuousClock.now`
        /// still read real time (a runtime built otherwise than the one checked).
        case clockReads
    }

    /// What went wrong.
    public let kind: Kind
    /// The loop's virtual uptime when it happened.
    public let instant: Instant
    /// What happened, in words.
    public let message: String
    /// What was involved: the timers due in a runaway, what is scheduled, what was left, with the
    /// sites they were made at.
    public let registrations: [RunLoop.Registration]
    /// The leak report of a test that failed by deadlock, runaway or watchdog: the timers, sleepers
    /// and timeouts still scheduled after its teardown — its task cancelled and what that made due
    /// run, so its `defer` blocks and cancellation handlers ran. Empty for other errors, and when
    /// leaks are not checked.
    public let leftAfterTeardown: [RunLoop.Registration]

    /// An error of `kind` at `instant`.
    init(
        kind: Kind, instant: Instant, message: String, registrations: [RunLoop.Registration] = [],
        leftAfterTeardown: [RunLoop.Registration] = []
    ) {
        self.kind = kind
        self.instant = instant
        self.message = message
        self.registrations = registrations
        self.leftAfterTeardown = leftAfterTeardown
    }

    /// This error, after the failed test was torn down: whether its task then ended, and what was
    /// still scheduled.
    func tornDown(taskEnded: Bool, left: [RunLoop.Registration]) -> VirtualTimeError {
        let task = taskEnded ? "it ended" : "it still waits"
        let leftover =
            left.isEmpty
            ? "nothing was left scheduled" : "\(left.count) timers, sleepers or timeouts were left scheduled"
        return VirtualTimeError(
            kind: kind, instant: instant,
            message: message + "; torn down: the test's task was cancelled and \(task), and \(leftover)",
            registrations: registrations, leftAfterTeardown: left)
    }

    /// `call` was given `loop`, whose clock is not a `VirtualClock`.
    static func notVirtual(_ call: String, loop: RunLoop) -> VirtualTimeError {
        VirtualTimeError(
            kind: .notVirtual, instant: loop.now,
            message:
                "\(call) needs a loop on a VirtualClock: make it with RunLoop(timeSource: .virtual(VirtualClock()))")
    }

    /// The message, then each registration on a line of its own, then what was left after a teardown.
    public var description: String {
        let left = leftAfterTeardown.isEmpty ? [] : ["left after the teardown:"] + leftAfterTeardown.map { "  \($0)" }
        return ([message] + registrations.map { "  \($0)" } + left).joined(separator: "\n")
    }
}
