import RunLoopKit

/// What the dashboard shows, as data: its timer rows with their mechanisms and modes, and whether
/// it has an upload panel. ``DashboardState`` is built from it and the driver makes its timers.
///
/// ```swift
/// var scene = Scene.standard(Config(), uploadsLabel: nil)
/// scene.rows.append(.init(name: "beat", mechanism: .runLoopTimer(interval: .seconds(2)), mode: .common))
/// ```
struct Scene: Sendable {
    /// One timer row.
    struct Row: Sendable {
        /// Short unique name.
        var name: String
        /// What drives it.
        var mechanism: Mechanism
        /// The mode it starts in (ignored for a dispatch timer, which has none, G1).
        var mode: RunLoop.Mode
        /// The length of its SMS countdown in seconds, if it drives an SMS button (S1).
        var countdownSeconds: Int?
        /// Whether it starts with the dashboard.
        var startsAtLaunch = false
        /// Its bell and hook.
        var actions = TimerActions()

        /// The row's state before anything ran.
        func state(id: RowID) -> RowState {
            var ticker: TickerSettings?
            if case .displayLink = mechanism { ticker = TickerSettings() }
            var row = RowState(
                id: id, name: name, mechanism: mechanism, startsAtLaunch: startsAtLaunch,
                mode: mechanism.hasModes ? mode : nil, button: countdownSeconds.map { Countdown(seconds: $0) },
                ticker: ticker)
            row.actions = actions
            return row
        }
    }

    /// The rows, in the inspector's order.
    var rows: [Row]
    /// The upload panel's sink label; `nil` for a dashboard without an upload pipeline.
    var uploadsLabel: String?
    /// The quiet period that ends a scroll gesture (decision 7).
    var gestureQuiet: Duration
    /// Fire-log entries kept.
    var logCapacity: Int
    /// The machine sleep `z` simulates (G3).
    var simulatedSleep: Duration = .seconds(30)
}
