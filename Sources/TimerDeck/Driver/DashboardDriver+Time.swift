import RunLoopKit

extension DashboardDriver {
    /// Applies a time-control key to the loop's clock. A loop without a controllable clock (a test
    /// rig on a plain virtual clock) has nothing to change.
    func changeTime(_ change: TimeChange) {
        guard let control = loop.clock.timeControl else { return }
        switch change {
        case .togglePause:
            if control.isPaused { control.resume() } else { control.pause() }
        case .step:
            control.pause()
            control.step(loop)
        case .slower, .faster:
            let (numerator, denominator) = control.rate
            let current = TimeRate(numerator: numerator, denominator: denominator) ?? .normal
            let next = current.next(slower: change == .slower).fraction
            control.setRate(next.numerator, per: next.denominator)
        case .sleep(let duration): control.sleep(duration)
        case .jumpWall(let offset): control.jumpWall(by: offset)
        }
    }

    /// The clock as the title bar shows it: paused or not, and the rate.
    var timeStatus: TimeStatus {
        guard let control = loop.clock.timeControl else { return TimeStatus(isPaused: false, rate: .normal) }
        let (numerator, denominator) = control.rate
        return TimeStatus(
            isPaused: control.isPaused, rate: TimeRate(numerator: numerator, denominator: denominator) ?? .normal)
    }
}
