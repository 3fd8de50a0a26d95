/// A small reference model of a run loop on a virtual clock, written from runloop-reference 1.1–1.4
/// with plain arrays and no cleverness: modes and common modes (C-M2…C-M10), passes and results
/// (C-R1…C-R3), perform blocks (C-B1…C-B3), timers (C-T1…C-T8), and sleeps on the loop's clock:
/// a sleep is a one-shot timer in its modes (C-X2), added and resumed by executor jobs, which run
/// after the due timers of passes of common modes (C-X1). Only what the random-operation test drives
/// is modelled: no sources, observers, stops or tolerance.
final class ReferenceModel {
    struct ModelTimer {
        var fire: Int64
        let interval: Int64
        /// Busy time inside the callout, in ns.
        let work: Int64
        /// A nested run made by the callout: mode and duration (ns).
        let nested: (mode: String, duration: Int64)?
        var valid = true
        var firing = false
        var isCommonItem = false
        /// Mode → tie-break order (ties go after existing equal fire times, C-T3).
        var modes: [String: UInt64] = [:]
        var lastFire: Int64?
    }

    private(set) var now: Int64 = 0
    private(set) var log: [String] = []
    var timers: [ModelTimer] = []
    private var commonModes: [String] = ["default"]
    private var commonItems: [Int] = []
    private var blocks: [(id: Int, modes: [String])] = []
    private var counter: UInt64 = 0
    /// The sleeps' one-shot timers, by sleep id; in no mode until their start job ran.
    private var sleepers: [ModelTimer] = []
    /// The sleeps whose timers are in a mode, so that a run looks at those only.
    private var scheduledSleepers: Set<Int> = []
    /// Executor jobs waiting for a pass of a common mode: a sleep to start (its modes), or to resume.
    private var jobs: [(sleeper: Int, start: [String]?)] = []

    /// Forgets the events logged so far (after they were compared).
    func resetLog() {
        log.removeAll()
    }

    private func nextOrder() -> UInt64 {
        counter += 1
        return counter
    }

    // MARK: Operations

    func addTimer(fire: Int64, interval: Int64, work: Int64, nested: (String, Int64)?) -> Int {
        timers.append(
            ModelTimer(fire: fire, interval: interval, work: work, nested: nested.map { (mode: $0.0, duration: $0.1) }))
        return timers.count - 1
    }

    func add(_ id: Int, mode: String) {
        guard timers[id].valid else { return }
        if mode == "common" {
            if !timers[id].isCommonItem {
                timers[id].isCommonItem = true
                commonItems.append(id)
            }
            for common in commonModes { insert(id, into: common) }
        } else {
            insert(id, into: mode)
        }
    }

    private func insert(_ id: Int, into mode: String) {
        guard timers[id].modes[mode] == nil else { return }
        // C-T1: a timer joining the loop with a past fire date fires "now".
        if timers[id].modes.isEmpty { timers[id].fire = max(timers[id].fire, now) }
        timers[id].modes[mode] = nextOrder()
    }

    func remove(_ id: Int, mode: String) {
        guard !timers[id].modes.isEmpty else { return }
        if mode == "common" {
            guard timers[id].isCommonItem else { return }
            timers[id].isCommonItem = false
            commonItems.removeAll { $0 == id }
            for common in commonModes { timers[id].modes[common] = nil }
        } else {
            timers[id].modes[mode] = nil
        }
    }

    func addCommonMode(_ mode: String) {
        guard !commonModes.contains(mode) else { return }
        commonModes.append(mode)
        for id in commonItems { insert(id, into: mode) }
    }

    func setFireDate(_ id: Int, _ date: Int64) {
        guard timers[id].valid else { return }
        if timers[id].modes.isEmpty {
            timers[id].fire = date
            return
        }
        timers[id].fire = max(date, now)  // C-T7: a past date means now
        guard !timers[id].firing else { return }
        for mode in timers[id].modes.keys.sorted() { timers[id].modes[mode] = nextOrder() }
    }

    func invalidate(_ id: Int) {
        guard timers[id].valid else { return }
        timers[id].valid = false
        if let last = timers[id].lastFire { timers[id].fire = last }  // C-T8
        timers[id].modes = [:]
        if timers[id].isCommonItem {
            timers[id].isCommonItem = false
            commonItems.removeAll { $0 == id }
        }
    }

    func perform(_ id: Int, modes: [String]) {
        blocks.append((id, modes))
    }

    /// Sleeps so far: the id of the next one.
    var sleeperCount: Int { sleepers.count }

    /// A task that sleeps until `deadline` in `modes` (named modes only), then logs `s<id>`.
    func sleep(_ id: Int, until deadline: Int64, modes: [String]) {
        sleepers.append(ModelTimer(fire: deadline, interval: 0, work: 0, nested: nil))
        jobs.append((id, modes))
    }

    // MARK: Running (C-R1…C-R3)

    /// `run(mode:until:)`: the result's name.
    func run(mode: String, until limit: Int64) -> String {
        guard mode != "common", !isEmpty(mode) else { return "finished" }
        let polling = limit <= now
        while true {
            doBlocks(mode)
            let skipSleep = polling || hasBlocks(mode) || hasJobs(mode)
            if !skipSleep {
                let wake =
                    (timers.filter { $0.modes[mode] != nil && !$0.firing }
                    + scheduledSleepers.map { sleepers[$0] }
                    .filter { $0.modes[mode] != nil })
                    .map(\.fire).min() ?? Int64.max
                now = max(now, min(limit, wake))
            }
            doTimers(mode)
            runJobs(mode)
            doBlocks(mode)
            if polling || now >= limit { return "timedOut" }
            if isEmpty(mode) { return "finished" }
        }
    }

    private func isEmpty(_ mode: String) -> Bool {
        !timers.contains { $0.modes[mode] != nil } && !scheduledSleepers.contains { sleepers[$0].modes[mode] != nil }
            && !hasBlocks(mode) && !hasJobs(mode)
    }

    /// C-X1: jobs run in passes of common modes (the default executor modes).
    private func hasJobs(_ mode: String) -> Bool {
        !jobs.isEmpty && commonModes.contains(mode)
    }

    /// C-X1: runs the jobs waiting when it starts: a sleep joins its modes (C-T1), or logs its wake-up.
    private func runJobs(_ mode: String) {
        guard hasJobs(mode) else { return }
        let pending = jobs
        jobs = []
        for (id, start) in pending {
            guard let modes = start else {
                log.append("s\(id)@\(now)")
                continue
            }
            sleepers[id].fire = max(sleepers[id].fire, now)
            if !modes.isEmpty { scheduledSleepers.insert(id) }
            for mode in modes where sleepers[id].modes[mode] == nil { sleepers[id].modes[mode] = nextOrder() }
        }
    }

    private func matches(_ modes: [String], _ mode: String) -> Bool {
        modes.contains(mode) || (modes.contains("common") && commonModes.contains(mode))
    }

    private func hasBlocks(_ mode: String) -> Bool {
        blocks.contains { matches($0.modes, mode) }
    }

    /// C-B2: runs the blocks for `mode` in order, keeps the others.
    private func doBlocks(_ mode: String) {
        let pending = blocks
        blocks = []
        var kept: [(id: Int, modes: [String])] = []
        for block in pending {
            if matches(block.modes, mode) {
                log.append("b\(block.id)@\(now)")
            } else {
                kept.append(block)
            }
        }
        blocks = kept + blocks
    }

    /// C-T3…C-T6: fires the timers of `mode` due now, in (fire time, order) order.
    private func doTimers(_ mode: String) {
        let limit = now
        let dueTimers = timers.indices
            .filter { timers[$0].modes[mode] != nil && timers[$0].fire <= limit }
            .map { (fire: timers[$0].fire, order: timers[$0].modes[mode]!, sleeper: false, id: $0) }
        let dueSleepers =
            scheduledSleepers
            .filter { sleepers[$0].modes[mode] != nil && sleepers[$0].fire <= limit }
            .map { (fire: sleepers[$0].fire, order: sleepers[$0].modes[mode]!, sleeper: true, id: $0) }
        let due = (dueTimers + dueSleepers).sorted { ($0.fire, $0.order) < ($1.fire, $1.order) }
        for (_, _, sleeper, id) in due {
            if sleeper {
                // C-X2: a one-shot timer whose callout resumes the task: a job.
                guard sleepers[id].modes[mode] != nil else { continue }
                sleepers[id].modes = [:]
                scheduledSleepers.remove(id)
                jobs.append((id, nil))
                continue
            }
            guard timers[id].valid, !timers[id].firing, timers[id].fire <= limit, !timers[id].modes.isEmpty else {
                continue
            }
            let serviced = timers[id].fire
            timers[id].firing = true
            if timers[id].interval > 0 { timers[id].lastFire = serviced }
            log.append("t\(id)@\(now)")
            now += timers[id].work
            if let nested = timers[id].nested {
                log.append("n\(id):\(run(mode: nested.mode, until: now + nested.duration))@\(now)")
            }
            timers[id].firing = false
            guard timers[id].interval > 0 else {
                invalidate(id)  // C-T5
                continue
            }
            guard timers[id].valid, !timers[id].modes.isEmpty else { continue }
            let interval = timers[id].interval
            var next = serviced + interval
            if next <= now { next = serviced + ((now - serviced) / interval + 1) * interval }  // C-T6
            timers[id].fire = next
            for mode in timers[id].modes.keys.sorted() { timers[id].modes[mode] = nextOrder() }
        }
    }
}
