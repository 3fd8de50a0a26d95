/// Whether a row's timer is scheduled: the one place this is decided; the driver makes the real
/// timer follow it.
enum RunState: Equatable, Sendable {
    /// Not scheduled.
    case idle
    /// Scheduled (it fires when the loop runs one of its modes).
    case running
    /// Scheduled but held: it keeps its place and does not fire until resumed.
    case suspended
    /// Invalidated by `x`; it never fires again until started anew.
    case invalid

    /// Whether a timer object is scheduled for the row.
    var isScheduled: Bool { self == .running || self == .suspended }
}
