import RunLoopKit

extension DashboardDriver {
    /// Applies a change the state decided to the loop's clock. A loop without a controllable clock
    /// (a test rig on a plain virtual clock) gets none: its state has no ``DashboardState/time``.
    func changeTime(_ change: TimeChange) {
        guard case .controlled(let control) = loop.timeSource else { return }
        switch change {
        case .pause: control.isPaused = true
        case .resume: control.isPaused = false
        case .step:
            control.isPaused = true
            control.step(loop)
        case .rate(let rate):
            let (numerator, denominator) = rate.fraction
            control.rate = (numerator, denominator)
        case .sleep(let duration): control.sleepMachine(for: duration)
        case .jumpWall(let offset): control.setWall(to: control.now(.wall) + offset)
        }
    }

    /// Where `loop`'s clock stands for the time-control keys at the start; `nil` when it has none.
    static func timeStatus(of loop: RunLoop) -> TimeStatus? {
        guard case .controlled(let control) = loop.timeSource else { return nil }
        let (numerator, denominator) = control.rate
        return TimeStatus(
            isPaused: control.isPaused, rate: TimeRate(numerator: numerator, denominator: denominator) ?? .normal)
    }
}
