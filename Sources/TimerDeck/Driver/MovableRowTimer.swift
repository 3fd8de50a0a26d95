import RunLoopKit

/// A row timer that lives in run loop modes: a run loop timer or a display link, not a dispatch
/// timer (G1).
protocol MovableRowTimer: RowTimer {
    /// Moves it to `mode`, keeping its fire date.
    func move(to mode: RunLoop.Mode)
}
