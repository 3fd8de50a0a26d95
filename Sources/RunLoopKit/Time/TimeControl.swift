import Synchronization

/// A clock a program can pause, step, slow down, put to sleep and jump, laid over the kernel's
/// clocks or a ``VirtualClock`` (its *base*). A run loop on ``TimeSource/controlled(_:)`` runs
/// every timer, display link and loop-delivered dispatch timer on it, for real deadlines as for
/// virtual ones.
///
/// - **Pause** (``isPaused``): its time stands still; a loop on it sleeps without a deadline (no
///   wake-up at all) until input, a wake-up or the end of the pause.
/// - **Advance** (``advance(to:)``): time jumps to an instant, such as the loop's next fire date
///   (``RunLoop/nextFireDate(forMode:)``), and what is due there fires.
/// - **Rate** (``rate``): time runs at a fraction of the base's, so every timer on it runs
///   that much slower in real terms, consistently.
/// - **Sleep** (``sleepMachine(for:)``, seed G3): continuous and wall time move on by the sleep,
///   uptime does not.
/// - **Wall clock** (``setWall(to:)``): only wall time moves (a clock set by hand or by NTP).
///
/// Its uptime is the base's uptime scaled by the rate since the last change; continuous and wall
/// time keep the base's distance from uptime plus the simulated sleeps and wall-clock changes. Loops and
/// loop-delivered dispatch timers on it are told of every change, so a change from another thread
/// takes effect at once. Safe to use from any thread.
///
/// ```swift
/// let time = TimeControl(base: .system)
/// let loop = RunLoop(timeSource: .controlled(time))
/// time.rate = (1, 4)               // quarter speed
/// time.isPaused = true
/// if let next = loop.nextFireDate(forMode: .default) {
///     time.advance(to: next)       // the next timer fires, then time stands still again
/// }
/// time.sleepMachine(for: .seconds(30))   // a continuous-clock countdown jumps 30 s ahead
/// ```
public final class TimeControl: Sendable {
    private struct State {
        /// Base uptime at the last change.
        var baseAnchor: Int64
        /// Controlled uptime at the last change.
        var anchor: Int64
        /// Controlled time per base time: `numerator / denominator`.
        var numerator: Int64 = 1
        var denominator: Int64 = 1
        var isPaused = false
        /// Simulated machine sleep so far: added to continuous and wall time.
        var slept: Int64 = 0
        /// Wall-clock changes so far.
        var wallShift: Int64 = 0

        /// Controlled uptime when the base reads `base`.
        func uptime(atBase base: Int64) -> Int64 {
            if isPaused { return anchor }
            let elapsed = base - baseAnchor
            let scaled = elapsed.multipliedReportingOverflow(by: numerator)
            return anchor + (scaled.overflow ? Int64.max / 2 : scaled.partialValue / denominator)
        }
    }

    /// The clock this one is laid over: ``TimeSource/system`` or a ``TimeSource/virtual(_:)``.
    public let base: TimeSource
    private let state: Mutex<State>
    private let changeObservers = Mutex<[@Sendable () -> Bool]>([])
    /// The loop whose timers serve the clock's sleeps (``sleep(until:tolerance:)``).
    let servingLoop = ServingLoop()

    /// A running clock at the base's rate whose readings start equal to the base's.
    public init(base: TimeSource) {
        if case .controlled = base { preconditionFailure("TimeControl: the base must be .system or .virtual") }
        self.base = base
        let now = base.now(.uptime).nanoseconds
        state = Mutex(State(baseAnchor: now, anchor: now))
    }

    /// The current reading of `kind`.
    public func now(_ kind: ClockKind = .uptime) -> Instant {
        let baseUptime = base.now(.uptime).nanoseconds
        let (uptime, extra) = state.withLock { state in
            (
                state.uptime(atBase: baseUptime),
                kind == .uptime ? 0 : state.slept + (kind == .wall ? state.wallShift : 0)
            )
        }
        guard kind != .uptime else { return Instant(nanoseconds: uptime) }
        // The base's own distance from uptime: its real sleeps (continuous) or its epoch (wall).
        let baseDistance = base.now(kind).nanoseconds - baseUptime
        return Instant(nanoseconds: uptime + baseDistance + extra).read(from: kind)
    }

    /// Whether time stands still. Set it to stop time (timers on it wait where they are) or to let
    /// it run again from where it stood.
    public var isPaused: Bool {
        get { state.withLock { $0.isPaused } }
        set { change { state in state.isPaused = newValue } }
    }

    /// Controlled time per base time, as `(numerator, denominator)`: `(1, 4)` is quarter speed. Set,
    /// it applies from now on, each part clamped to 1…1000.
    public var rate: (numerator: Int64, denominator: Int64) {
        get { state.withLock { ($0.numerator, $0.denominator) } }
        set {
            change { state in
                state.numerator = min(max(newValue.numerator, 1), 1_000)
                state.denominator = min(max(newValue.denominator, 1), 1_000)
            }
        }
    }

    /// Moves time forward to `instant` (uptime); earlier instants are ignored. Paused time stays
    /// paused there; what falls due fires when the loop next looks.
    public func advance(to instant: Instant) {
        change { state in state.anchor = max(state.anchor, instant.nanoseconds) }
    }

    /// Simulates the machine sleeping for `duration` (seed G3): continuous and wall time move on by
    /// it at once, uptime does not. Negative durations are ignored.
    public func sleepMachine(for duration: Duration) {
        change { state in state.slept += max(duration.nanoseconds, 0) }
    }

    /// Sets wall time to `instant`, earlier or later, as a clock set by hand or stepped by NTP is:
    /// uptime and continuous time do not move.
    public func setWall(to instant: Instant) {
        // The base's own distance from uptime to wall time (its epoch), as ``now(_:)`` adds it.
        let baseDistance = base.now(.wall).nanoseconds - base.now(.uptime).nanoseconds
        change { state in
            let wall = state.anchor + baseDistance + state.slept + state.wallShift
            state.wallShift += instant.nanoseconds - wall
        }
    }

    /// The base uptime at which controlled uptime reaches `deadline`: the base's now for a deadline
    /// already reached (a step), `nil` for a later one while paused (it never comes).
    func baseDeadline(forUptime deadline: Int64) -> Int64? {
        let baseUptime = base.now(.uptime).nanoseconds
        return state.withLock { state -> Int64? in
            let ahead = deadline - state.uptime(atBase: baseUptime)
            guard ahead > 0 else { return baseUptime }
            guard !state.isPaused else { return nil }
            // Round up, so the loop never wakes before the deadline.
            let scaled = ahead.multipliedReportingOverflow(by: state.denominator)
            guard !scaled.overflow else { return Int64.max }
            let baseAhead = (scaled.partialValue + state.numerator - 1) / state.numerator
            let (result, overflow) = baseUptime.addingReportingOverflow(baseAhead)
            return overflow ? Int64.max : result
        }
    }

    /// Calls `observer` after every change (pause, resume, rate, advance, sleep, wall clock) for as long
    /// as it returns `true`: loops on the clock wake up and recompute their deadline, loop-delivered
    /// dispatch timers re-arm.
    func observeChanges(_ observer: @escaping @Sendable () -> Bool) {
        changeObservers.withLock { $0.append(observer) }
    }

    /// Re-anchors at the current base reading, applies `body`, then tells the observers.
    private func change(_ body: (inout State) -> Void) {
        let baseUptime = base.now(.uptime).nanoseconds
        state.withLock { state in
            state.anchor = state.uptime(atBase: baseUptime)
            state.baseAnchor = baseUptime
            body(&state)
        }
        // Observers only post to their loops, so they may run under the lock.
        changeObservers.withLock { observers in observers.removeAll { keep in !keep() } }
    }
}
