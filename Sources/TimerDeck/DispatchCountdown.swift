import RunLoopKit

/// An SMS resend button driven by a dispatch timer on the continuous clock, as the seed's code does
/// (GCD timer started "now", 1 s interval): it shows the time left until its deadline, so it is right
/// after a stall or a machine sleep (G3, decisions.md 9), and no run loop mode pauses it (G1).
public final class DispatchCountdown: CountdownRow {
    public let name: String
    public let kind = "GCD"
    public let mechanism = "DispatchTimer 1s"
    public let modes: [RunLoop.Mode]? = nil
    /// The button.
    public private(set) var countdown: Countdown
    private unowned let loop: RunLoop
    private let record: (FireRecord) -> Void
    private let changed: () -> Void
    private var timer: DispatchTimer?
    private var deadline: Instant?
    private var started: Instant?
    private var wasInvalidated = false
    public private(set) var lastLateness: Duration?
    public private(set) var missedTicks = 0

    init(name: String, seconds: Int, loop: RunLoop, record: @escaping (FireRecord) -> Void, changed: @escaping () -> Void) {
        self.name = name
        countdown = Countdown(seconds: seconds)
        self.loop = loop
        self.record = record
        self.changed = changed
    }

    public var baseState: DeckTimerState {
        if wasInvalidated { return .invalid }
        guard let timer else { return .idle }
        return timer.isSuspended ? .suspended : .running
    }

    public var nextFire: Instant? {
        guard let started, timer != nil else { return nil }
        let elapsed = loop.clock.now(.continuous).nanoseconds - started.nanoseconds
        return loop.now + .nanoseconds(1_000_000_000 - elapsed % 1_000_000_000)
    }

    /// Enter: starts a countdown (the first event comes at once, G2); ignored while counting (S1).
    public func press() {
        guard countdown.press() else { return }
        let now = loop.clock.now(.continuous)
        started = now
        deadline = now + .seconds(countdown.seconds)
        wasInvalidated = false
        let timer = DispatchTimer(clock: .continuous, runLoop: loop) { [weak self] event in self?.tick(event) }
        timer.schedule(deadline: .now, repeating: .seconds(1))
        timer.resume()
        self.timer = timer
        changed()
    }

    public func startOrStop() {
        if timer != nil {
            stop()
            countdown.cancel()
            changed()
        } else {
            countdown.cancel()
            press()
        }
    }

    public func suspendOrResume() {
        guard let timer else { return }
        if timer.isSuspended { timer.resume() } else { timer.suspend() }
        changed()
    }

    public func moveToNextMode() -> Bool { false }

    /// `f`: refreshes the label from the deadline now.
    public func fireNow() {
        guard timer != nil else { return }
        show()
        changed()
    }

    public func invalidate() {
        guard timer != nil else { return }
        stop()
        wasInvalidated = true
        changed()
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        deadline = nil
    }

    private func tick(_ event: DispatchTimer.Event) {
        guard let started else { return }
        let elapsed = loop.clock.now(.continuous).nanoseconds - started.nanoseconds
        let lateness = Duration.nanoseconds(elapsed % 1_000_000_000)
        lastLateness = lateness
        missedTicks += event.ticks - 1
        record(FireRecord(time: loop.now, timer: name, mode: loop.currentMode, lateness: lateness, ticks: event.ticks))
        show()
        changed()
    }

    /// Whole seconds left until the deadline, rounded up; idle at zero.
    private func show() {
        guard let deadline else { return }
        let left = loop.clock.now(.continuous).duration(to: deadline).nanoseconds
        countdown.show(remaining: Int((left + 999_999_999) / 1_000_000_000))
        if countdown.state == .idle { stop() }
    }
}
