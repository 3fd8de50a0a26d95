import RunLoopKit

/// The timer the last `d` deleted, which `u` puts back as it was.
struct DeletedTimer: Sendable {
    var row: RowState
    /// Where it was in ``DashboardState/rows``.
    var position: Int
    /// The panel that had the focus, the row selected in it.
    var panel: Panel
    /// What the state file would keep of it, read as it went (``Event/deleted(_:kept:wallNow:)``):
    /// `nil` for a row neither running nor held, or until the read comes.
    var kept: SavedTimers.Entry?
    /// The wall-clock time it was deleted at, once read.
    var deletedAt: Instant?
}

extension DashboardState {
    /// `d`: deletes the selected timer, which `u` puts back; an upload job stays (the pipeline needs
    /// both: remove its `[[timers]]` table from the config instead). Its row number is not reused,
    /// so nothing that still names it reaches another row.
    mutating func deleteSelectedTimer() -> [Effect] {
        guard let row = selectedRow else {
            hint = "select one of your timers to delete (Tab to the timers panel)"
            return []
        }
        guard row.uploadJob == nil else {
            hint = "\(row.name) drives the uploads: to go without them, remove its [[timers]] table from the config"
            return []
        }
        lastDeleted = DeletedTimer(row: row, position: rows.firstIndex { $0.id == row.id } ?? rows.count, panel: focus)
        remove(row.id)
        hint = "deleted \(row.name): \(KeyAction.name(of: keys.key(of: .undo))) puts it back"
        return [.deleteTimer(row.id), .render(.all)]
    }

    /// `u`: puts back the timer the last `d` deleted, where it was and selected again, as a new row
    /// of its definition that goes on as if it had not gone: a countdown with the time left to its
    /// end, a stopwatch with its time and laps, an alarm at its instant, each held if it was held
    /// (``putBack(_:as:wallNow:)``); another timer that ran runs again.
    mutating func undoDelete() -> [Effect] {
        guard let deleted = lastDeleted else {
            hint = "nothing to put back: \(KeyAction.name(of: keys.key(of: .delete))) deletes the selected timer"
            return []
        }
        guard !rows.contains(where: { $0.name == deleted.row.name }) else {
            hint = "a timer named \(deleted.row.name) was added since: delete it to put the old one back"
            return []
        }
        let id = RowID(number: rowsMade)
        rowsMade += 1
        var row = RowState(deleted.row.definition, id: id)
        let runs = deleted.kept == nil && deleted.row.run.isScheduled && deleted.row.button == nil
        if runs { row.run = .running }
        insert(row, at: deleted.position)
        if panels.contains(deleted.panel), let index = rows(of: deleted.panel).firstIndex(where: { $0.id == id }) {
            (focus, selection[deleted.panel]) = (deleted.panel, index)
        }
        if let kept = deleted.kept {
            // Goes on once the wall clock is read: ``Event/putBack(_:_:wallNow:)``.
            return [.addTimer(id), .putBack(id, kept), .render(.all)]
        }
        lastDeleted = nil
        hint = "put back \(row.name)" + (runs ? ", running" : "")
        return [.addTimer(id)] + (runs ? [.start(id)] : []) + [.render(.all)]
    }

    /// Row `id`, put back by `u` at wall-clock time `wallNow`, goes on as `entry` kept it when it
    /// was deleted.
    mutating func putBack(_ id: RowID, as entry: SavedTimers.Entry, wallNow: Instant) -> [Effect] {
        guard contains(id) else { return [] }
        let away = Away(wallNow: wallNow, anchor: wallNow, since: lastDeleted?.deletedAt, words: "while it was deleted")
        lastDeleted = nil
        var effects: [Effect] = [.render(.all)]
        var told: [String] = []
        let goesOn = goOn(id, as: entry, away: away, effects: &effects, told: &told)
        let row = self[id]
        let how = goesOn ? (row.run == .suspended ? ", held" : ", running") : ""
        hint = (["put back \(row.name) as it was\(how)"] + told).joined(separator: "; ")
        return effects
    }
}
