import RunLoopKit

/// The real timer behind one dashboard row: an adapter. The driver calls it to carry out an
/// ``Effect``; it reports facts through the callback it was made with (scheduled, fired at a
/// clock reading, ticks) and decides nothing. What every mechanism can do is here; what only some
/// can do is a protocol of its own (``MovableRowTimer``, ``FirableRowTimer``), so a mechanism that
/// lacks it does not have it, rather than doing nothing.
protocol RowTimer: AnyObject {
    /// Schedules a new timer as `row` says (its mode, its settings).
    func start(for row: RowState)
    /// Unschedules it.
    func stop()
    /// Holds it where it is.
    func suspend()
    /// Lets a held timer go on.
    func resume()
    /// Invalidates it.
    func invalidate()
    /// Its next fire on the loop's uptime clock, when scheduled and not held.
    var nextFire: Instant? { get }
}
