import RunLoopKit

/// An SMS resend button driven by a repeating run loop timer that counts down once per fire, as the
/// seed's code does — so a timer paused by the tracking mode visibly delays the countdown (S1, M2).
public final class LoopCountdown: DeckTimer {
    /// The button.
    public private(set) var countdown: Countdown
    private let slot: LoopTimerSlot
    private let changed: () -> Void

    /// Creates an idle button whose timer will live in `mode` of `loop`.
    init(name: String, seconds: Int, mode: RunLoop.Mode, loop: RunLoop,
         record: @escaping (FireRecord) -> Void, changed: @escaping () -> Void) {
        countdown = Countdown(seconds: seconds)
        self.changed = changed
        slot = LoopTimerSlot(name: name, interval: .seconds(1), mode: mode, loop: loop, record: record)
        slot.onFire = { [unowned self] in self.tick() }
    }

    public var name: String { slot.name }
    public var mechanism: String { "RunLoop Timer 1s" }
    public var modes: [RunLoop.Mode]? { [slot.mode] }
    public var baseState: DeckTimerState { slot.baseState }
    public var nextFire: Instant? { slot.nextFire }
    public var lastLateness: Duration? { slot.lastLateness }
    public var missedTicks: Int { slot.missedTicks }

    /// Enter: starts a countdown; ignored while one is running (S1).
    public func press() {
        guard countdown.press() else { return }
        slot.start()
        changed()
    }

    public func startOrStop() {
        if slot.isRunning {
            slot.stop()
            countdown.cancel()
            changed()
        } else {
            countdown.cancel()
            press()
        }
    }

    public func suspendOrResume() {
        slot.suspendOrResume()
        changed()
    }

    public func moveToNextMode() -> Bool {
        slot.moveToNextMode()
        changed()
        return true
    }

    public func fireNow() {
        slot.fireNow()
    }

    public func invalidate() {
        slot.invalidate()
        changed()
    }

    private func tick() {
        countdown.tick()
        if countdown.state == .idle { slot.stop() }
        changed()
    }
}
