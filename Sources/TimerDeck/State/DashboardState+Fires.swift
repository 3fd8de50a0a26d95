import RunLoopKit

extension DashboardState {
    /// A fire of row `id`'s timer, reported while the dashboard's clock ran at `rate`: the log, the
    /// row's lateness (in real terms) and missed ticks, an SMS button's label.
    mutating func fired(_ id: RowID, _ fire: Fire, rate: TimeRate) -> [Effect] {
        let row = self[id]
        // A stopwatch's timer only refreshes the time it shows, read from the clock at render time.
        if row.stopwatch != nil { return redraw(row) }
        switch fire {
        case .timer(let time, let mode, let lateness, let ticks, let isManual):
            return scheduledFire(
                row, time: time, mode: mode, lateness: rate.inRealTerms(lateness), ticks: ticks, isManual: isManual)
        case .wake(let time, let mode, let due):
            // C-X2: a task has no grid; each sleep starts when the last wake-up ran, so a late
            // wake-up stands for one tick and shifts the ones after it.
            let lateness = due.map { rate.inRealTerms(max($0.duration(to: time), .zero)) } ?? .zero
            return scheduledFire(row, time: time, mode: mode, lateness: lateness, ticks: 1, isManual: due == nil)
        case .dispatch(let time, let mode, let clockNow, let firstDue, let ticks, let isManual):
            let grid = DispatchGrid(origin: firstDue, interval: row.definition.interval)
            let lateness = rate.inRealTerms(grid.lateness(at: clockNow))
            guard row.button != nil else {
                return scheduledFire(row, time: time, mode: mode, lateness: lateness, ticks: ticks, isManual: isManual)
            }
            return dispatchButtonFired(
                row, time: time, mode: mode, at: grid.index(at: clockNow), lateness: lateness, ticks: ticks,
                isManual: isManual)
        case .frame(let time, let mode, let timestamp, let duration, let skippedFrames):
            let lateness = rate.inRealTerms(timestamp.duration(to: time))
            self[id].lastLateness = lateness
            self[id].ticker?.frame = Int(timestamp.nanoseconds / max(duration.nanoseconds, 1))
            var parts: ViewParts = .ticker
            // Only frames after a skip go to the log; 60 entries a second would bury every other timer.
            if skippedFrames > row.missedTicks {
                record(
                    FireRecord(
                        time: time, row: row.id, timer: row.name, mode: mode, lateness: lateness,
                        ticks: skippedFrames - row.missedTicks + 1))
                self[id].missedTicks = skippedFrames
                parts.formUnion([.log, .inspector])
            }
            var effects: [Effect] = [.render(parts)]
            if row.ticker?.isSlow == true { effects.append(.work(Self.slowLoad)) }
            return effects
        }
    }

    /// A fire standing for `ticks` grid points, `lateness` after the last: an SMS button counts a
    /// second (S1), a one-shot timer ends (C-T5), the actions act. A fire by hand (T2) is logged
    /// on time and changes neither the lateness nor the missed ticks.
    private mutating func scheduledFire(
        _ row: RowState, time: Instant, mode: RunLoop.Mode?, lateness: Duration, ticks: Int, isManual: Bool
    ) -> [Effect] {
        let id = row.id
        if !isManual {
            self[id].lastLateness = lateness
            self[id].missedTicks += ticks - 1
        }
        record(
            FireRecord(
                time: time, row: row.id, timer: row.name, mode: mode, lateness: isManual ? .zero : lateness,
                ticks: isManual ? 1 : ticks))
        var effects = redraw(row, also: .log)
        var ends = false
        if row.button != nil {
            // S1: one fire, one second less; the last one ends the countdown and its timer, or
            // with overtime starts counting up, the timer going on.
            self[id].button?.tick()
            ends = endsCountdown(from: row, effects: &effects)
        }
        if !isManual, row.definition.isOneShot {
            // C-T5: a one-shot timer (an alarm too) ends after its fire.
            self[id].run = .idle
            effects.append(.stop(id))
            ends = true
        }
        if !isManual || ends {
            effects += fireActions(row: id, ends: ends, time: time, mode: mode, lateness: lateness, ticks: ticks)
        }
        return effects
    }

    /// A dispatch-driven SMS button shows the whole seconds left until the end of its grid, so it
    /// is right after a stall or a sleep (G3, decisions.md 9); the grid starts at its first event (G2).
    private mutating func dispatchButtonFired(
        _ row: RowState, time: Instant, mode: RunLoop.Mode?, at point: Int64, lateness: Duration, ticks: Int,
        isManual: Bool
    ) -> [Effect] {
        guard let button = row.button else { return [] }
        let id = row.id
        var effects = redraw(row)
        if !isManual {
            self[id].lastLateness = lateness
            self[id].missedTicks += ticks - 1
            record(FireRecord(time: time, row: row.id, timer: row.name, mode: mode, lateness: lateness, ticks: ticks))
            effects = redraw(row, also: .log)
        }
        self[id].button?.show(remaining: button.seconds - button.counted - Int(point))
        if endsCountdown(from: row, effects: &effects) {
            effects += fireActions(row: id, ends: true, time: time, mode: mode, lateness: lateness, ticks: ticks)
        }
        return effects
    }

    /// Whether the button of `row` (as it was before this fire) reached its end just now: back at
    /// `Send`, its timer stopped, or with overtime at `+00:00` and counting on.
    private mutating func endsCountdown(from row: RowState, effects: inout [Effect]) -> Bool {
        guard let button = self[row.id].button, row.button?.isOvertime == false else { return false }
        if button.isEnabled {
            self[row.id].run = .idle
            effects.append(.stop(row.id))
            return true
        }
        return button.isOvertime
    }
}
