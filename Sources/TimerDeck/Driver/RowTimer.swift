import RunLoopKit

/// The real timer behind one dashboard row. The driver calls it to carry out an ``Effect``; it
/// reports each fire through the callback it was made with. It decides nothing on its own.
protocol RowTimer: AnyObject {
    /// Schedules a new timer as `row` says (its mode, its settings).
    func start(for row: RowState)
    /// Unschedules it.
    func stop()
    /// Holds it where it is.
    func suspend()
    /// Lets a held timer go on.
    func resume()
    /// Moves it to `mode`, keeping its fire date.
    func move(to mode: RunLoop.Mode)
    /// Fires it now, outside its schedule (T2).
    func fireNow()
    /// Invalidates it.
    func invalidate()
    /// Sets a display link's frame interval (other timers have none).
    func setFrameInterval(_ interval: Int)
    /// Its next fire on the loop's uptime clock, when scheduled and not held.
    var nextFire: Instant? { get }
    /// Callbacks per second, measured (display links only).
    var framesPerSecond: Double? { get }
}

extension RowTimer {
    func setFrameInterval(_ interval: Int) {}
}
