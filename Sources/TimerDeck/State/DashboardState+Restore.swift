import RunLoopKit

extension DashboardState {
    /// The timers the state file kept, read at the start at wall-clock time `wallNow`: each row of
    /// the same name and kind goes on where it was. An uptime countdown has lost the wall-clock
    /// time that passed, an alarm keeps its instant, a stopwatch counts the time away; a
    /// countdown that ended or an alarm that rang meanwhile says so. `notice` is what reading the
    /// file had to say (a corrupt file kept aside).
    mutating func restore(_ saved: SavedTimers, wallNow: Instant, notice: String?) -> [Effect] {
        var effects: [Effect] = [.render(.all)]
        var told: [String] = notice.map { [$0] } ?? []
        var restored = 0
        for timer in saved.added where !rows.contains(where: { $0.name == timer.name }) {
            // A timer added with `a` before the restart: added again, then restored below.
            let id = RowID(number: rowsMade)
            rowsMade += 1
            append(RowState(timer, id: id))
            effects.append(.addTimer(id))
        }
        for entry in saved.entries {
            guard let row = rows.first(where: { $0.name == entry.name }) else {
                told.append("\(entry.name) was kept but is no longer in the config")
                continue
            }
            let id = row.id
            switch entry {
            case .countdown(_, let endsAt) where row.button != nil:
                // Whole seconds left, rounded up, as the button shows them.
                let left = wallNow.duration(to: endsAt).nanoseconds
                let remaining = Int(left > 0 ? (left + 999_999_999) / 1_000_000_000 : left / 1_000_000_000)
                guard restoreCountdown(id, remaining: remaining, paused: false, effects: &effects, told: &told) else {
                    continue
                }
            case .pausedCountdown(_, let remaining) where row.button != nil:
                guard restoreCountdown(id, remaining: remaining, paused: true, effects: &effects, told: &told) else {
                    continue
                }
            case .alarm(_, let deadline, let paused) where row.kind.isAlarm:
                guard deadline > wallNow else {
                    told.append("\(row.name) rang while timerdeck was away")
                    self[id].run = .idle
                    effects.append(.stop(id))
                    continue
                }
                effects += resumed(id, paused: paused)
            case .stopwatch(_, let startedAt, let splits) where row.stopwatch != nil:
                effects += resumed(id, paused: false)
                effects.append(
                    .stopwatch(id, .restore(elapsed: startedAt.duration(to: wallNow), splits: splits, running: true)))
            case .pausedStopwatch(_, let elapsed, let splits) where row.stopwatch != nil:
                effects += resumed(id, paused: true)
                effects.append(.stopwatch(id, .restore(elapsed: elapsed, splits: splits, running: false)))
            default:
                told.append("\(entry.name) was kept as another kind of timer")
                continue
            }
            restored += 1
        }
        let summary = restored == 0 ? [] : ["restored \(restored) timer\(restored == 1 ? "" : "s")"]
        hint = (summary + told).isEmpty ? hint : (summary + told).joined(separator: "; ")
        return effects
    }

    /// Countdown `id` goes on with `remaining` seconds left (past its end when zero or less): on in
    /// overtime, or at `Send` again, which `told` says; `false` when it ended.
    private mutating func restoreCountdown(
        _ id: RowID, remaining: Int, paused: Bool, effects: inout [Effect], told: inout [String]
    ) -> Bool {
        let name = self[id].name
        self[id].button?.resume(remaining: remaining)
        guard self[id].button?.isEnabled == false else {
            told.append("\(name) ended while timerdeck was away")
            self[id].run = .idle
            effects.append(.stop(id))
            return false
        }
        if remaining <= 0 { told.append("\(name) ended while timerdeck was away: counting on") }
        effects += resumed(id, paused: paused)
        return true
    }

    /// Row `id` runs again (held with `paused`): its timer starts anew.
    private mutating func resumed(_ id: RowID, paused: Bool) -> [Effect] {
        self[id].run = paused ? .suspended : .running
        return [.start(id)] + (paused ? [.suspend(id)] : [])
    }
}

extension SavedTimers.Entry {
    /// Whether it was held.
    var isPaused: Bool {
        switch self {
        case .pausedCountdown, .pausedStopwatch: true
        case .alarm(_, _, let paused): paused
        case .countdown, .stopwatch: false
        }
    }
}
