import RunLoopKit

extension DashboardState {
    /// A fire of row `id`'s timer: the log, the row's lateness and missed ticks, an SMS button's label.
    mutating func fired(_ id: RowID, _ fire: Fire) -> [Effect] {
        let row = self[id]
        switch fire {
        case .timer(let time, let mode, let lateness, let ticks, let isManual):
            if !isManual {
                self[id].lastLateness = lateness
                self[id].missedTicks += ticks - 1
            }
            record(
                FireRecord(
                    time: time, timer: row.name, mode: mode, lateness: isManual ? .zero : lateness,
                    ticks: isManual ? 1 : ticks))
            var effects = redraw(row, also: .log)
            var ends = false
            if row.button != nil {
                // S1: one fire, one second less; the last one ends the countdown and its timer.
                self[id].button?.tick()
                if self[id].button?.isEnabled == true {
                    self[id].run = .idle
                    effects.append(.stop(id))
                    ends = true
                }
            }
            if !isManual, case .defined(let timer) = row.mechanism, !timer.repeats {
                // C-T5: a one-shot timer ends after its fire.
                self[id].run = .idle
                effects.append(.stop(id))
                ends = true
            }
            if !isManual || ends {
                effects += act(row: id, ends: ends, time: time, mode: mode, lateness: lateness, ticks: ticks)
            }
            return effects
        case .dispatch(let time, let mode, let clockNow, let ticks, let isManual):
            return dispatchFired(row, time: time, mode: mode, clockNow: clockNow, ticks: ticks, isManual: isManual)
        case .frame(let time, let mode, let timestamp, let duration, let skippedFrames):
            let lateness = timestamp.duration(to: time)
            self[id].lastLateness = lateness
            self[id].ticker?.frame = Int(timestamp.nanoseconds / max(duration.nanoseconds, 1))
            var parts: ViewParts = .ticker
            // Only frames after a skip go to the log; 60 entries a second would bury every other timer.
            if skippedFrames > row.missedTicks {
                record(
                    FireRecord(
                        time: time, timer: row.name, mode: mode, lateness: lateness,
                        ticks: skippedFrames - row.missedTicks + 1))
                self[id].missedTicks = skippedFrames
                parts.formUnion([.log, .inspector])
            }
            var effects: [Effect] = [.render(parts)]
            if row.ticker?.isSlow == true { effects.append(.work(Self.slowLoad)) }
            return effects
        }
    }

    /// A dispatch-driven SMS button shows the whole seconds left until its deadline, so it is right
    /// after a stall or a sleep (G3, decisions.md 9); the deadline counts from its first event (G2).
    private mutating func dispatchFired(
        _ row: RowState, time: Instant, mode: RunLoop.Mode?, clockNow: Instant,
        ticks: Int, isManual: Bool
    ) -> [Effect] {
        guard let button = row.button else { return [] }
        let id = row.id
        let interval = row.definition.interval
        let step = max(interval.nanoseconds, 1)
        let deadline = row.deadline ?? clockNow + interval * button.seconds
        self[id].deadline = deadline
        var effects = redraw(row)
        // The grid point the event stands for. libdispatch starts its grid when the timer is
        // scheduled, a queue hop before the first event reaches the loop, so later events may come a
        // little before the grid taken from that first one: up to a tenth of the interval (at most
        // 50 ms) early counts as on time.
        let started = deadline.nanoseconds - step * Int64(button.seconds)
        let early = min(step / 10, 50_000_000)
        let offset = clockNow.nanoseconds - started
        let gridIndex = max((offset + early) / step, 0)
        if !isManual {
            let lateness = Duration.nanoseconds(max(offset - gridIndex * step, 0))
            self[id].lastLateness = lateness
            self[id].missedTicks += ticks - 1
            record(FireRecord(time: time, timer: row.name, mode: mode, lateness: lateness, ticks: ticks))
            effects = redraw(row, also: .log)
        }
        self[id].button?.show(remaining: max(button.seconds - Int(gridIndex), 0))
        if self[id].button?.isEnabled == true {
            self[id].run = .idle
            self[id].deadline = nil
            effects.append(.stop(id))
            effects += act(
                row: id, ends: true, time: time, mode: mode, lateness: self[id].lastLateness ?? .zero,
                ticks: ticks)
        }
        return effects
    }
}
