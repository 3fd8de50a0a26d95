extension DashboardState {
    /// The time-control keys: each becomes one change to the dashboard's clock (seed G3 for the sleep).
    mutating func timeAction(_ key: TimeControlKey) -> [Effect] {
        let change: TimeChange
        switch key {
        case .togglePause: change = .togglePause
        case .step: change = .step
        case .slower: change = .slower
        case .faster: change = .faster
        case .sleep:
            change = .sleep(simulatedSleep)
            hint =
                "slept \(DurationText.format(simulatedSleep)): continuous and wall clocks moved on, uptime did not (G3)"
        case .jumpWall(let hours):
            change = .jumpWall(.seconds(3_600 * hours))
            hint = "wall clock \(hours < 0 ? "−" : "+")\(abs(hours))h: only wall-clock dispatch timers move"
        }
        return [.time(change), .render(.all)]
    }

    /// After `<` or `>`: a rate that did not change is at its limit, which the status bar says.
    mutating func rateChanged(_ change: TimeChange, now rate: TimeRate) -> [Effect] {
        switch (change, rate) {
        case (.faster, .normal): hint = "already at 1×: time runs no faster than real time (< slows it)"
        case (.slower, .tenth): hint = "already at ⅒×, the slowest rate (> speeds it up)"
        default: return []
        }
        return [.render(.status)]
    }
}
