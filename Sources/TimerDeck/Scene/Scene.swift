import RunLoopKit

/// What the dashboard shows, as data: its timers, in the inspector's order, and whether it has an
/// upload panel. ``DashboardState`` is built from it and the driver makes its timers.
///
/// ```swift
/// var scene = Scene.standard(Config(), uploadsLabel: nil)
/// var beat = TimerDefinition()
/// beat.name = "beat"
/// beat.mode = .common
/// scene.timers.append(beat)
/// ```
struct Scene: Sendable {
    /// The timers, one row each, in the inspector's order.
    var timers: [TimerDefinition]
    /// The upload panel's sink label; `nil` for a dashboard without an upload pipeline.
    var uploadsLabel: String?
    /// The quiet period that ends a scroll gesture (decision 7).
    var gestureQuiet: Duration
    /// Fire-log entries kept.
    var logCapacity: Int
    /// The machine sleep `z` simulates (G3).
    var simulatedSleep: Duration = .seconds(30)
    /// The keys the config moved.
    var keys = KeyBindings()
    /// How much the dashboard moves by itself; ``timers`` are already adjusted to it.
    var animations = Animations.full
}
