import RunLoopKit

extension DashboardState {
    /// The fire actions of row `id` for one scheduled fire (`ends`: the fire that ends it): the bell,
    /// the flash, the notification and the hook, when they act at every fire or this one ends the
    /// timer. An alarm's ring or a countdown's end that flashes also leaves an alert in the status
    /// bar until a key, and its notification says the same. A hook still running from an earlier
    /// fire is not started again; the log says so.
    mutating func fireActions(
        row id: RowID, ends: Bool, time: Instant, mode: RunLoop.Mode?, lateness: Duration, ticks: Int
    ) -> [Effect] {
        let row = self[id]
        let actions = row.actions
        var alerted: [Effect] = []
        let end = ends ? Self.endText(of: row) : nil
        if let end, actions.flash {
            alert = "\(end) — any key dismisses this"
            alerted.append(.render(.status))
        }
        guard actions.actsOn == .fire || ends else { return alerted }
        var effects: [Effect] = alerted + (actions.bell ? [.ring] : [])
        if actions.flash && animations != .none {
            self[id].isFlashing = true
            effects += redraw(row) + [.endFlash(id, after: TimerActions.flashLength)]
        }
        if actions.notify {
            let at = PanelText.logTime(startTime.duration(to: time))
            let what = ends ? "ended" : "fired"
            let body = end ?? "\(row.name) \(what) at \(at) (\(row.mechanismName), \(mode?.rawValue ?? "no mode"))"
            effects.append(.notify(id, DesktopNotification(title: row.name, body: body)))
        }
        if actions.sound { effects.append(.playSound(id)) }
        guard let command = actions.hook else { return effects }
        guard !row.isHookRunning else {
            record(
                FireRecord(
                    time: time, row: row.id, timer: row.name, mode: mode, lateness: lateness, ticks: ticks,
                    note: "hook still running; not started again"))
            return effects + [.render(.log)]
        }
        self[id].runningHookMode = .some(mode)
        // The trace's clock: nanoseconds since the dashboard started, so a run matches its trace line.
        let fired = startTime.duration(to: time).nanoseconds
        let environment = [
            "TIMERDECK_TIMER": row.name,
            "TIMERDECK_MECHANISM": row.mechanismName,
            "TIMERDECK_MODE": mode?.rawValue ?? "",
            "TIMERDECK_SCHEDULED_NS": String(fired - lateness.nanoseconds),
            "TIMERDECK_FIRED_NS": String(fired),
            "TIMERDECK_LATENESS_NS": String(lateness.nanoseconds),
            "TIMERDECK_TICKS": String(ticks),
        ]
        effects.append(.runHook(id, Hook(command: command, timeLimit: actions.hookLimit), environment: environment))
        return effects
    }

    /// An alarm's ring or a countdown's end in words, for its alert and its notification: `lunch
    /// rang: alarm at 12:30`, `tea ended`; `nil` for a row that is neither.
    private static func endText(of row: RowState) -> String? {
        if row.kind.isAlarm { return "\(row.name) rang: alarm at \(row.alarmTime.text)" }
        guard let button = row.button else { return nil }
        return button.overtime ? "\(row.name) reached its end: counting on" : "\(row.name) ended"
    }

    /// The program showing row `id`'s desktop notification ended: a failure is said in the status
    /// bar, a missing program once a session; a notification shown says nothing.
    mutating func notified(_ id: RowID, _ result: Hook.Result) -> [Effect] {
        let name = self[id].name
        switch result {
        case .exited(status: 0, _): return []
        case .exited(status: DesktopNotification.notFound, _):
            guard !toldNotifierMissing else { return [] }
            toldNotifierMissing = true
            // Once, naming no timer: which end's notification fails first is up to the processes.
            hint = "no desktop notifications — \(DesktopNotification.missingHint)"
        default: hint = "\(name): the desktop notification failed: \(result.summary)"
        }
        return [.render(.status)]
    }

    /// The audio player of row `id`'s sound ended: the first sound says which player played it, or
    /// that none is installed (once a session); a player that failed is said each time.
    mutating func soundPlayed(_ id: RowID, _ result: Hook.Result) -> [Effect] {
        switch result {
        case .exited(status: 0, let player):
            guard !toldSoundPlayer else { return [] }
            toldSoundPlayer = true
            hint = "sounds play through \(player)"
        case .exited(status: EndSound.notFound, _):
            guard !toldSoundPlayer else { return [] }
            toldSoundPlayer = true
            hint = "no sound — \(EndSound.missingHint)"
        default: hint = "\(self[id].name): the sound failed: \(result.summary)"
        }
        return [.render(.status)]
    }

    /// A hook ended at `time`: its exit status and first line go into the log, in the mode of the
    /// fire that started it.
    mutating func hookFinished(_ id: RowID, _ result: Hook.Result, at time: Instant) -> [Effect] {
        let mode = self[id].runningHookMode ?? nil
        self[id].runningHookMode = nil
        let row = self[id]
        record(
            FireRecord(
                time: time, row: row.id, timer: row.name, mode: mode, lateness: .zero, ticks: 1,
                note: "hook " + result.summary,
                isHookEnd: true))
        return [.render(.log)]
    }
}
