import RunLoopKit

/// An SMS resend button driven by a repeating run loop timer that counts down once per fire, as the
/// seed's code does — so a timer paused by the tracking mode visibly delays the countdown (S1, M2).
public final class LoopCountdown: SlotTimer {
    public let name: String
    /// The button.
    public private(set) var countdown: Countdown
    let slot: TimerSlot
    private let changed: () -> Void

    /// Creates an idle button whose timer will live in `mode` of `loop`.
    init(name: String, seconds: Int, mode: RunLoop.Mode, loop: RunLoop,
         record: @escaping (FireRecord) -> Void, changed: @escaping () -> Void) {
        self.name = name
        countdown = Countdown(seconds: seconds)
        self.changed = changed
        slot = TimerSlot(interval: .seconds(1), mode: mode, loop: loop)
        slot.onFire = { [unowned self] fire in
            record(FireRecord(fire, timer: name))
            tick()
        }
    }

    public var mechanism: String { "RunLoop Timer 1s" }

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

    func slotChanged() {
        changed()
    }

    private func tick() {
        countdown.tick()
        if countdown.state == .idle { slot.stop() }
        changed()
    }
}
