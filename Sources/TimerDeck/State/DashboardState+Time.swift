import KeptTimers

extension DashboardState {
    /// The time-control keys: each becomes one change to the dashboard's clock (seed G3 for the
    /// sleep), decided here from where the keys left it (``time``). A rate already at its limit
    /// changes nothing, and the status bar says so.
    mutating func timeAction(_ key: TimeControlKey) -> [Effect] {
        guard var time else {
            hint = "this clock has no time controls"
            return []
        }
        let change: TimeChange
        switch key {
        case .togglePause:
            change = time.isPaused ? .resume : .pause
            time.isPaused.toggle()
        case .step:
            change = .step
            time.isPaused = true
        case .slower, .faster:
            let rate = time.rate.next(slower: key == .slower)
            guard rate != time.rate else {
                hint =
                    key == .faster
                    ? "already at 1×: time runs no faster than real time (< slows it)"
                    : "already at ⅒×, the slowest rate (> speeds it up)"
                return []
            }
            change = .rate(rate)
            time.rate = rate
        case .sleep:
            change = .sleep(simulatedSleep)
            hint =
                "slept \(DurationText.format(simulatedSleep)): continuous and wall clocks moved on, uptime did not (G3)"
        case .jumpWall(let hours):
            change = .jumpWall(.seconds(3_600 * hours))
            hint = "wall clock \(hours < 0 ? "−" : "+")\(abs(hours))h: only wall-clock dispatch timers move"
        }
        self.time = time
        return [.time(change), .render(.all)]
    }
}
