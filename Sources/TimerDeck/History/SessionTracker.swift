import RunLoopKit

/// Follows the countdowns, alarms and stopwatches from one applied event to the next and says
/// which of their sessions finished, as the plain mode's narration follows the rows: from the state
/// alone, stamped with the wall clock at each event. A session starts when its row is scheduled
/// (Enter, `s`, a restart that restores it), pauses while it is held, and finishes when the row is
/// no longer scheduled: by its own fire (a countdown back at `Send`, an alarm's ring), by a key, or
/// by `d`.
///
/// ```swift
/// var tracker = SessionTracker()
/// for session in tracker.finished(after: event, state: state, wall: { clock.now(.wall) }) { history.append(session) }
/// ```
struct SessionTracker {
    /// A session under way.
    private struct Open {
        var kind: FinishedSession.Kind
        var name: String
        var start: Instant
        var pauses: [FinishedSession.Pause] = []
        var heldSince: Instant?
    }

    private var open: [RowID: Open] = [:]

    /// The kind of session `row` has, or `nil` for a timer that has none.
    private static func kind(of row: RowState) -> FinishedSession.Kind? {
        if row.button != nil { return .countdown }
        if row.stopwatch != nil { return .stopwatch }
        return row.kind.isAlarm ? .alarm : nil
    }

    /// The sessions `event` finished, read from `state` after it; `wall` reads the wall clock, once
    /// and only when a session starts, pauses, goes on or finishes (not at a display link's frame).
    mutating func finished(after event: Event, state: DashboardState, wall: () -> Instant) -> [FinishedSession] {
        var read: Instant?
        func wallNow() -> Instant {
            if let read { return read }
            let now = wall()
            read = now
            return now
        }
        var done: [FinishedSession] = []
        for row in state.rows {
            guard let kind = Self.kind(of: row) else { continue }
            switch (open[row.id], row.run) {
            case (nil, .running), (nil, .suspended):
                open[row.id] = Open(
                    kind: kind, name: row.name, start: wallNow(), heldSince: row.run == .suspended ? wallNow() : nil)
            case (var session?, .running):
                if let held = session.heldSince {
                    session.pauses.append(FinishedSession.Pause(start: held, end: wallNow()))
                    session.heldSince = nil
                    open[row.id] = session
                }
            case (var session?, .suspended):
                if session.heldSince == nil {
                    session.heldSince = wallNow()
                    open[row.id] = session
                }
            case (let session?, _):
                let byItsFire = event.row == row.id && { if case .fired = event { true } else { false } }()
                let outcome: FinishedSession.Outcome =
                    byItsFire ? (kind == .alarm ? .rang : .ended) : .stopped
                done.append(Self.finish(session, outcome, at: wallNow()))
                open[row.id] = nil
            case (nil, _):
                break
            }
        }
        let ids = Set(state.rows.map(\.id))
        for (id, session) in open where !ids.contains(id) {
            done.append(Self.finish(session, .deleted, at: wallNow()))
            open[id] = nil
        }
        return done.sorted { $0.end == $1.end ? $0.name < $1.name : $0.end < $1.end }
    }

    private static func finish(_ session: Open, _ outcome: FinishedSession.Outcome, at end: Instant) -> FinishedSession
    {
        var pauses = session.pauses
        if let held = session.heldSince { pauses.append(FinishedSession.Pause(start: held, end: end)) }
        return FinishedSession(
            kind: session.kind, name: session.name, outcome: outcome, start: session.start, end: end, pauses: pauses)
    }
}
