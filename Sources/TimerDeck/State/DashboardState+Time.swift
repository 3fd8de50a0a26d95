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
}
