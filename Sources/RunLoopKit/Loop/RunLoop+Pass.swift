internal import CLinuxEvents

/// One pass of the loop, in CF's order (runloop-reference C-R1):
/// BeforeTimers → BeforeSources → blocks → signalled sources (→ blocks) → BeforeWaiting → wait →
/// AfterWaiting → due timers → ready descriptors → blocks → result.
extension RunLoop {
    /// Runs passes of `state`, the run at `depth` in ``runs``, until the run's result is known.
    func runPasses(in state: ModeState, depth: Int, limit: Int64, returnAfterSourceHandled: Bool) -> RunResult {
        // C-R3: a limit at or before now polls — one pass, no sleep, no waiting observers.
        let polling = limit <= now.nanoseconds
        if runs[depth].stopped { return .stopped }
        var ready: [Int32] = []
        while true {
            waiter.settleOutsideWork(clearingWakeUps: true)
            drainInbox()
            let metrics = metrics
            metrics?.passed(in: state.mode)
            notify(.beforeTimers, in: state)
            notify(.beforeSources, in: state)
            doBlocks(in: state)
            var handledSource = doSignalledSources(in: state, stopAfterFirst: returnAfterSourceHandled)
            if handledSource { doBlocks(in: state) }
            // C-B2 under strictCF: a pending block does not keep the loop from sleeping.
            let skipSleep =
                polling || handledSource || (!shared.isStrictCF && hasBlocks(for: state)) || hasJobs(for: state)
            if !skipSleep { notify(.beforeWaiting, in: state) }
            // Most passes have no ready descriptor: an empty list is left as it is, not rebuilt.
            if !ready.isEmpty { ready.removeAll(keepingCapacity: true) }
            let deadline = skipSleep ? nil : min(limit, wakeDeadline(for: state) ?? Int64.max)
            let sleepStart = metrics == nil || skipSleep ? 0 : now.nanoseconds
            waiter.wait(in: state, until: deadline, poll: skipSleep, ready: &ready)
            // C-T7, C-T8 under strictCF: a timer moved or invalidated from another thread re-arms
            // the sleep; the loop does not wake (no observers, no pass) and sleeps on to its new deadline.
            while !skipSleep && waiter.wokeOnlyToRearm {
                drainInbox()
                waiter.wait(
                    in: state, until: min(limit, wakeDeadline(for: state) ?? Int64.max), poll: false, ready: &ready)
            }
            if !skipSleep {
                if state.observerMask.contains(.afterWaiting) { wakeReason = wakeReason(ready: ready, limit: limit) }
                if let metrics {
                    metrics.slept(
                        from: sleepStart, to: now.nanoseconds, reason: wakeReason(ready: ready, limit: limit),
                        in: state.mode)
                    metrics.kernelTimerUsed(
                        settings: waiter.timerSettings, earlyExpiries: waiter.earlyTimerExpiries, in: state.mode)
                }
                notify(.afterWaiting, in: state)
            }
            drainInbox()
            doTimers(in: state)
            if !(handledSource && returnAfterSourceHandled) {
                handledSource = serviceMainQueue(in: state) || handledSource
            }
            runJobs(in: state)
            if !(handledSource && returnAfterSourceHandled) {
                handledSource =
                    handleReadyDescriptors(ready, in: state, stopAfterFirst: returnAfterSourceHandled)
                    || handledSource
            }
            doBlocks(in: state)
            // C-R2: handledSource, then timedOut, then stopped, then finished.
            if handledSource && returnAfterSourceHandled { return .handledSource }
            if polling || now.nanoseconds >= limit { return .timedOut }
            if runs[depth].stopped { return .stopped }
            if isEmpty(state) { return .finished }
        }
    }

    /// Calls the observers of `state` that watch `activity`, in order (C-R8). Inline: most passes
    /// of most modes have no observer to call.
    @inline(__always)
    func notify(_ activity: Activity, in state: ModeState) {
        if state.observerMask.contains(activity) { callObservers(of: state, watching: activity) }
    }

    private func callObservers(of state: ModeState, watching activity: Activity) {
        for observer in state.observers where observer.activities.contains(activity) {
            observer.notify(activity)
        }
    }

    /// Whether `state` has nothing that could make a pass do work (C-M8); a common mode of
    /// ``RunLoop/main`` always may, from the main queue.
    func isEmpty(_ state: ModeState) -> Bool {
        !drainsMainQueue(in: state) && state.timers.isEmpty && !state.hasTimeouts
            && state.sources.isEmpty
            && state.descriptorSources.isEmpty && !hasBlocks(for: state) && !hasJobs(for: state)
    }

    /// Moves messages from other threads into the loop (decisions.md 5). Called several times a
    /// pass: an empty inbox costs one atomic load here, not a call.
    @inline(__always)
    func drainInbox() {
        if shared.mayHaveMail { takeInbox() }
    }

    private func takeInbox() {
        for message in shared.takeMail() {
            switch message {
            case .perform(let modes, let block): enqueue(modes, block)
            case .stop: stop()
            case .execute(let body): body(self)
            }
        }
    }

    // MARK: Blocks (C-B1…C-B3)

    func matches(_ modes: [Mode], _ state: ModeState) -> Bool {
        modes.contains(state.mode) || (modes.contains(.common) && isCommonMode(state.mode))
    }

    /// Whether a block is queued for `state`. Inline, as are the looks of ``doBlocks(in:)``, of
    /// the signalled sources and of the jobs for work: a pass looks at each several times, and
    /// finds most of them empty.
    @inline(__always)
    func hasBlocks(for state: ModeState) -> Bool {
        !blocks.isEmpty && blocks.contains { matches($0.modes, state) }
    }

    /// Runs the queued blocks addressed to `state` in order; blocks queued meanwhile wait for a later call (C-B2).
    @inline(__always)
    private func doBlocks(in state: ModeState) {
        if !blocks.isEmpty { runBlocks(in: state) }
    }

    private func runBlocks(in state: ModeState) {
        let pending = blocks
        blocks = []
        var kept: [(modes: [Mode], block: () -> Void)] = []
        for item in pending {
            if matches(item.modes, state) {
                item.block()
            } else {
                kept.append(item)
            }
        }
        blocks = kept + blocks
    }

    // MARK: Sources

    /// Runs signalled sources by (order, signal time); only the first when `stopAfterFirst` (C-R11).
    @inline(__always)
    private func doSignalledSources(in state: ModeState, stopAfterFirst: Bool) -> Bool {
        !state.sources.isEmpty && runSignalledSources(in: state, stopAfterFirst: stopAfterFirst)
    }

    private func runSignalledSources(in state: ModeState, stopAfterFirst: Bool) -> Bool {
        let signalled = state.sources
            .filter(\.isSignalled)
            .sorted { ($0.order, $0.signalState.signalStamp) < ($1.order, $1.signalState.signalStamp) }
        var handled = false
        for source in signalled where source.isSignalled {
            source.signalState.clear()
            source.handle()
            handled = true
            if stopAfterFirst { break }
        }
        return handled
    }

    private func handleReadyDescriptors(_ ready: [Int32], in state: ModeState, stopAfterFirst: Bool) -> Bool {
        var handled = false
        for descriptor in ready {
            guard let source = state.descriptorSources[descriptor], source.isValid else { continue }
            source.handle()
            handled = true
            if stopAfterFirst { break }
        }
        return handled
    }

    // MARK: Timers (C-T3…C-T6, C-T9)

    /// The time to wake for the timers of `state`: no earlier than the earliest fire time and no later
    /// than any due timer's fire time + tolerance; within that window, as late as possible so that
    /// one wake-up serves every timer whose window it falls in. Firing timers are ignored (C-T4).
    func wakeDeadline(for state: ModeState) -> Int64? {
        var hard = Int64.max
        state.forEachTimeoutSet { hard = min(hard, $0.hardDeadline()) }
        let window = state.timers.wakeWindow(within: hard, skippingFiring: firingTimerCount > 0)
        hard = window.hard
        var wake = window.wake
        state.forEachTimeoutSet { set in
            if let latest = set.latestDeadline(atOrBefore: hard) { wake = max(wake ?? latest, latest) }
        }
        return wake == Int64.max ? nil : wake
    }

    /// Fires every timer of `state` due now, in (fire time, insertion) order, taking each off the
    /// top of the mode's heap (C-T3).
    ///
    /// The timers due are those in the mode with a fire time at or before the pass's start and an
    /// order given before it. A timer inserted or repositioned during the pass (a later order) is
    /// due at a later pass: it is taken off with the others but put back at the end of this one,
    /// like a timer still firing in an enclosing pass (C-T4). The mode's timeout sets take their
    /// turns in the same (fire time, insertion) order.
    private func doTimers(in state: ModeState) {
        let limit = now.nanoseconds
        lastPassTime = limit
        let lastDueOrder = lastInsertionOrder
        let queue = state.timers
        var skipped: [TimerQueue.Entry] = []
        let hasTimeoutSets = !state.timeoutSets.isEmpty
        while true {
            if hasTimeoutSets,
                let set = nextDueTimeoutSet(
                    in: state, by: limit, lastDueOrder: lastDueOrder, before: queue.nextToFire())
            {
                set.fireTop()
                continue
            }
            guard let entry = queue.popFirst(dueBy: limit) else { break }
            // The pass owns the popped entry's reference (TimerQueue invariant 4): the callout
            // needs none of its own, and a fired one-shot timer is released here, once.
            let timer = entry.timer
            if entry.order > lastDueOrder || timer._withUnsafeGuaranteedRef({ $0.isFiring }) {
                skipped.append(entry)
                continue
            }
            timer._withUnsafeGuaranteedRef { fire($0, dueBy: limit) }
            // Fired and invalidated, or repositioned (back into the heap with a reference of its
            // own), or taken out of this mode by its callout: nothing here holds it any longer.
            queue.putBack(entry)
        }
        // A timer moved back in and taken off again was skipped twice: only its live entry goes back.
        for entry in skipped { queue.putBack(entry) }
        if hasTimeoutSets { state.forEachTimeoutSet { $0.endPass() } }
    }

    /// The timeout set of `state` whose next due timeout comes first, if it comes before the timer
    /// entry `timer` (C-T3: by fire time, then insertion order).
    private func nextDueTimeoutSet(
        in state: ModeState, by limit: Int64, lastDueOrder: UInt64, before timer: TimerQueue.Entry?
    ) -> TimeoutSet? {
        var best: TimeoutSet?
        var bestDeadline = timer?.deadline ?? Int64.max
        var bestOrder = timer?.order ?? UInt64.max
        state.forEachTimeoutSet { set in
            guard let entry = set.nextDue(by: limit, lastDueOrder: lastDueOrder) else { return }
            if entry.deadline < bestDeadline || (entry.deadline == bestDeadline && entry.order < bestOrder) {
                best = set
                bestDeadline = entry.deadline
                bestOrder = entry.order
            }
        }
        return best
    }

    private func fire(_ timer: Timer, dueBy limit: Int64) {
        // C-T3: re-check just before the callout.
        guard timer.isValid else {
            timer.invalidate()
            return
        }
        // A timer popped live from this loop's queue is this loop's (TimerQueue invariant 2).
        assert(timer.belongs(to: self), "RunLoop: a timer in this loop's queue belongs to another loop")
        guard !timer.isFiring, timer.fireNanoseconds <= limit else { return }
        let serviced = timer.fireNanoseconds
        if let metrics { metrics.fired(timer, due: serviced, calledAt: now.nanoseconds, in: currentMode ?? .default) }
        // Counted so that the wake-up window reads a timer's firing flag only while one fires (C-T4).
        firingTimerCount += 1
        timer.runCallout()
        firingTimerCount -= 1
        // C-T5: a one-shot timer is invalidated after its callout.
        guard timer.repeats else {
            timer.invalidate()
            return
        }
        guard timer.isValid, timer.belongs(to: self) else { return }
        if !timer.fireDateSetInCallout {
            // C-T6: next fire = first point of the original grid strictly after now; missed ticks are skipped.
            let interval = timer.intervalNanoseconds
            let after = now.nanoseconds
            var next = serviced &+ interval
            if next <= after { next = serviced &+ ((after - serviced) / interval + 1) &* interval }
            timer.fireNanoseconds = next
        }
        // Otherwise the callout set the fire date: keep it, even if it is now (C-T6, C-T7).
        reposition(timer)
    }
}
