import RunLoopKit

/// The dashboard's settings, read from a TOML file (`Resources/timerdeck.toml` documents every field;
/// ``fields`` lists them with their accepted ranges).
///
/// ```swift
/// var config = try Config.parse(tomlText)
/// config.tickerFPS = 30
/// ```
package struct Config: Equatable, Sendable {
    /// Length of an SMS countdown in seconds (S1).
    package var countdownSeconds = 60
    /// What the SMS rows do when their countdown reaches Send (S1): the bell and/or a hook.
    package var countdownActions: TimerActions = {
        var actions = TimerActions()
        actions.actsOn = .end
        return actions
    }()
    /// The queue of the GCD SMS row's dispatch timer (C-M12, C-G10).
    package var gcdQueue: DispatchQueueChoice = .background
    /// Refresh rate of the ticker's display link in Hz.
    package var tickerFPS = 60
    /// Mode the ticker's display link starts in (M4).
    package var tickerMode: RunLoop.Mode = .default
    /// Quiet period that ends a scroll gesture (decision 7).
    package var gestureQuiet: Duration = .milliseconds(250)
    /// Fire-log entries kept in memory.
    package var logCapacity = 1_000
    /// The machine sleep `z` simulates: continuous and wall clocks move on by it, uptime does not (G3).
    package var simulatedSleep: Duration = .seconds(30)
    /// Whether mouse events are enabled.
    package var mouse = true
    /// The periodic sample-and-upload pipeline (S2).
    package var uploads = UploadsConfig()
    /// The user's own timers, from the `[[timers]]` tables, in the file's order.
    package var timers: [TimerDefinition] = []

    /// The built-in defaults (the same values as the shipped config file).
    package init() {}
}
