import KeptTimers
import RunLoopKit

extension DashboardState {
    /// The timers the state file kept, read at the start at wall-clock time `wallNow`: each row of
    /// the same name and kind goes on where it was. An uptime countdown has lost the wall-clock
    /// time that passed, an alarm keeps its instant, a stopwatch counts the time away; a
    /// countdown that ended or an alarm that rang meanwhile says so. `notice` is what reading the
    /// file had to say (a corrupt file kept aside).
    ///
    /// On a wall clock set back since the file was written (it was ahead, and got corrected), no
    /// time counts as away: a running countdown has the time left it had then, a stopwatch the
    /// time it had run, and a message names them; an alarm keeps its instant.
    mutating func restore(_ saved: SavedTimers, wallNow: Instant, notice: String?) -> [Effect] {
        var effects: [Effect] = [.render(.all)]
        var told: [String] = notice.map { [$0] } ?? []
        var restored = 0
        let behind = saved.savedAt.map { wallNow.duration(to: $0) } ?? .zero
        // The wall-clock time the running countdowns and stopwatches go on from.
        let anchor = behind > .zero ? wallNow + behind : wallNow
        let away = Away(wallNow: wallNow, anchor: anchor, since: saved.savedAt, words: "while timerdeck was away")
        var keptFromThen: [String] = []
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
            if behind > .zero, !entry.isPaused, !entry.isAlarm { keptFromThen.append(row.name) }
            if goOn(row.id, as: entry, away: away, effects: &effects, told: &told) { restored += 1 }
        }
        if !keptFromThen.isEmpty {
            told.append(
                "the clock is \(DurationText.abbreviations(behind)[0]) behind the time the timers were kept at: "
                    + "\(keptFromThen.joined(separator: ", ")) went on from where they were then")
        }
        let summary = restored == 0 ? [] : ["restored \(restored) timer\(restored == 1 ? "" : "s")"]
        hint = (summary + told).isEmpty ? hint : (summary + told).joined(separator: "; ")
        return effects
    }

    /// The time a kept timer was away: from `since` (when it was kept; `nil` when not known) to
    /// `wallNow`; countdowns and stopwatches go on from `anchor` (later than `wallNow` on a clock
    /// set back). `words` say when, in a message: `while timerdeck was away`.
    struct Away {
        var wallNow: Instant
        var anchor: Instant
        var since: Instant?
        var words: String
    }

    /// Row `id` goes on as `entry` kept it, after `away`: a countdown with the time left to its
    /// end, an alarm at its instant, a stopwatch counting the time away; `false` (and `told` says
    /// why) when it ended or rang meanwhile, or is another kind of timer now.
    mutating func goOn(
        _ id: RowID, as entry: SavedTimers.Entry, away: Away, effects: inout [Effect], told: inout [String]
    ) -> Bool {
        let row = self[id]
        switch entry {
        case .countdown(_, let endsAt) where row.button != nil:
            // Whole seconds left, rounded up, as the button shows them.
            let left = away.anchor.duration(to: endsAt).nanoseconds
            if let length = row.button?.seconds, left > Int64(length) * 1_000_000_000 {
                told.append("\(row.name) ends later than its length from now by this clock: it went on from its length")
            }
            let remaining = Int(left > 0 ? (left + 999_999_999) / 1_000_000_000 : left / 1_000_000_000)
            // Past its end already when it was kept: counting on in overtime is no news.
            let endedAway = away.since.map { endsAt > $0 } ?? true
            let words = endedAway ? away.words : nil
            guard goOnCounting(id, remaining: remaining, paused: false, away: words, &effects, &told) else {
                return false
            }
            // Its next second where it would have come: the seconds left change on the same grid.
            self[id].keptDeadline = endsAt - .seconds(remaining - 1)
        case .pausedCountdown(_, let remaining) where row.button != nil:
            return goOnCounting(id, remaining: remaining, paused: true, away: away.words, &effects, &told)
        case .alarm(_, let deadline, let paused) where row.kind.isAlarm:
            guard deadline > away.wallNow else {
                told.append("\(row.name) rang \(away.words)")
                self[id].run = .idle
                effects.append(.stop(id))
                return false
            }
            effects += resumed(id, paused: paused)
            self[id].keptDeadline = deadline
        case .stopwatch(_, let startedAt, let splits) where row.stopwatch != nil:
            var elapsed = startedAt.duration(to: away.anchor)
            if elapsed < splits.last ?? .zero {
                // Started after now by this clock, in a file that does not say when it was
                // written: on from its last lap.
                elapsed = splits.last ?? .zero
                let from = splits.isEmpty ? "zero" : "its last lap"
                told.append("\(row.name) started later than now by this clock: it went on from \(from)")
            }
            effects += resumed(id, paused: false)
            effects.append(.stopwatch(id, .restore(elapsed: elapsed, splits: splits, running: true)))
        case .pausedStopwatch(_, let elapsed, let splits) where row.stopwatch != nil:
            effects += resumed(id, paused: true)
            effects.append(.stopwatch(id, .restore(elapsed: elapsed, splits: splits, running: false)))
        default:
            told.append("\(entry.name) was kept as another kind of timer")
            return false
        }
        return true
    }

    /// Countdown `id` goes on with `remaining` seconds left (past its end when zero or less): on in
    /// overtime, or at `Send` again, which `told` says with the words of `away` (`nil`: it had
    /// ended before); `false` when it ended.
    private mutating func goOnCounting(
        _ id: RowID, remaining: Int, paused: Bool, away: String?, _ effects: inout [Effect], _ told: inout [String]
    ) -> Bool {
        let name = self[id].name
        self[id].button?.resume(remaining: remaining)
        guard self[id].button?.isEnabled == false else {
            told.append("\(name) ended \(away ?? "before")")
            self[id].run = .idle
            effects.append(.stop(id))
            return false
        }
        if remaining <= 0, let away { told.append("\(name) ended \(away): counting on") }
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

    /// Whether it is an alarm's.
    var isAlarm: Bool {
        if case .alarm = self { return true }
        return false
    }
}
