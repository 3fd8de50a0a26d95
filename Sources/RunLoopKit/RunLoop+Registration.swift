extension RunLoop {
    // MARK: Common-mode routing (C-M4, C-M6)

    /// Adds an item to `mode`, or — for the common pseudo-mode — to the common items and every common mode.
    private func route(adding mode: Mode, markCommon: () -> Void, insert: (ModeState) -> Void) {
        guard mode == .common else {
            insert(modeState(for: mode))
            return
        }
        markCommon()
        for common in commonModes { insert(modeState(for: common)) }
    }

    /// Removes an item from `mode`, or — for the common pseudo-mode — from the common items and every common mode.
    private func route(removing mode: Mode, isCommonItem: Bool, unmarkCommon: () -> Void, remove: (ModeState) -> Void) {
        guard mode == .common else {
            if let state = modeStates[mode] { remove(state) }
            return
        }
        guard isCommonItem else { return }
        unmarkCommon()
        for common in commonModes { if let state = modeStates[common] { remove(state) } }
    }

    // MARK: Timers

    /// Adds `timer` to `mode`, or to every common mode when `mode` is ``Mode/common`` (C-M4, seed M1, M3).
    ///
    /// A timer belongs to at most one run loop: adding it to a second loop does nothing (C-T2).
    /// Adding an invalid timer does nothing. A fire date already in the past fires at the next pass.
    public func add(_ timer: Timer, forMode mode: Mode) {
        checkThread("add(_:forMode:)")
        guard timer.isValid else {
            timer.invalidate()
            return
        }
        if let owner = timer.runLoop, owner !== self { return }
        route(
            adding: mode,
            markCommon: {
                commonItems.insert(timer)
                timer.isCommonItem = true
            }, insert: { insert(timer, into: $0) })
    }

    /// Removes `timer` from `mode` (or from the common items and every common mode, C-M6). The
    /// timer leaves the run loop when it is in none of its modes (C-T2); it stays valid.
    public func remove(_ timer: Timer, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        guard timer.runLoop === self else { return }
        route(
            removing: mode, isCommonItem: timer.isCommonItem,
            unmarkCommon: {
                commonItems.remove(timer)
                timer.isCommonItem = false
            }, remove: { $0.timers.remove(timer) })
        releaseIfUnscheduled(timer)
    }

    /// Whether `timer` is in `mode` of this loop.
    public func contains(_ timer: Timer, inMode mode: Mode) -> Bool {
        timer.runLoop === self && (modeStates[mode]?.timers.contains(timer) ?? false)
    }

    func insert(_ timer: Timer, into state: ModeState) {
        guard !state.timers.contains(timer) else { return }
        adopt(timer)
        state.timers.insert(timer, deadline: timer.fireNanoseconds, order: nextInsertionOrder())
    }

    /// Called when the timer's fire date changed: it goes after timers already at that time (C-T7).
    func reposition(_ timer: Timer) {
        timer.forEachQueueID { queueID in
            queue(withID: queueID).update(timer, deadline: timer.fireNanoseconds, order: nextInsertionOrder())
        }
    }

    /// Takes an invalidated timer out of every mode and the common items (C-T8).
    func detach(_ timer: Timer) {
        timer.forEachQueueID { queue(withID: $0).remove(timer) }
        if timer.isCommonItem {
            commonItems.remove(timer)
            timer.isCommonItem = false
        }
        releaseIfUnscheduled(timer)
    }

    /// The modes `timer` is in.
    func modes(containing timer: Timer) -> [Mode] {
        timer.queueIDs.map { statesByQueueID[Int($0) - 1].mode }
    }

    private func queue(withID id: Int32) -> TimerQueue {
        statesByQueueID[Int(id) - 1].timers
    }

    private func adopt(_ timer: Timer) {
        guard timer.runLoop == nil else { return }
        timer.runLoop = self
        timer.ownerChanged()
        // C-T1: a fire date in the past means "now" when the timer joins the loop.
        timer.fireNanoseconds = max(timer.fireNanoseconds, now.nanoseconds)
    }

    private func releaseIfUnscheduled(_ timer: Timer) {
        guard !timer.isQueued, timer.runLoop === self else { return }
        timer.runLoop = nil
        timer.ownerChanged()
    }

    // MARK: Observers

    /// Adds `observer` to `mode` (or every common mode). An observer belongs to one run loop.
    public func add(_ observer: Observer, forMode mode: Mode) {
        checkThread("add(_:forMode:)")
        guard observer.isValid else { return }
        if let owner = observer.runLoop, owner !== self { return }
        route(
            adding: mode,
            markCommon: {
                commonItems.insert(observer)
                observer.isCommonItem = true
            }, insert: { insert(observer, into: $0) })
    }

    /// Removes `observer` from `mode` (or from the common items and every common mode).
    public func remove(_ observer: Observer, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        guard observer.runLoop === self else { return }
        route(
            removing: mode, isCommonItem: observer.isCommonItem,
            unmarkCommon: {
                commonItems.remove(observer)
                observer.isCommonItem = false
            }, remove: { $0.remove(observer) })
        if !statesByQueueID.contains(where: { $0.contains(observer) }) { observer.runLoop = nil }
    }

    func insert(_ observer: Observer, into state: ModeState) {
        guard !state.contains(observer) else { return }
        observer.runLoop = self
        state.insert(observer)
    }

    func detach(_ observer: Observer) {
        for state in statesByQueueID where state.contains(observer) { state.remove(observer) }
        commonItems.remove(observer)
        observer.isCommonItem = false
        observer.runLoop = nil
    }

    // MARK: Signalled sources

    /// Adds `source` to `mode` (or every common mode). A source belongs to one run loop.
    public func add(_ source: Source, forMode mode: Mode) {
        checkThread("add(_:forMode:)")
        guard source.isValid else { return }
        if let owner = source.runLoop, owner !== self { return }
        route(
            adding: mode,
            markCommon: {
                commonItems.insert(source)
                source.isCommonItem = true
            }, insert: { insert(source, into: $0) })
    }

    /// Removes `source` from `mode` (or from the common items and every common mode).
    public func remove(_ source: Source, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        guard source.runLoop === self else { return }
        route(
            removing: mode, isCommonItem: source.isCommonItem,
            unmarkCommon: {
                commonItems.remove(source)
                source.isCommonItem = false
            }, remove: { $0.sources.removeAll { $0 === source } })
        if !statesByQueueID.contains(where: { $0.sources.contains { $0 === source } }) {
            source.runLoop = nil
            source.ownerChanged()
        }
    }

    func insert(_ source: Source, into state: ModeState) {
        guard !state.sources.contains(where: { $0 === source }) else { return }
        if source.runLoop == nil {
            source.runLoop = self
            source.ownerChanged()
        }
        state.sources.append(source)
    }

    func detach(_ source: Source) {
        for state in statesByQueueID { state.sources.removeAll { $0 === source } }
        commonItems.remove(source)
        source.isCommonItem = false
        source.runLoop = nil
        source.ownerChanged()
    }

    // MARK: Descriptor sources

    /// Adds `source` to `mode` (or every common mode); the loop then wakes when its descriptor is
    /// readable while running that mode. One source per descriptor per mode.
    ///
    /// Throws when epoll refuses the descriptor — `EPERM` for a regular file or a directory, which
    /// are always readable and cannot be waited on, `EBADF` for a closed descriptor — and leaves the
    /// source in no mode, instead of keeping a source that would never fire.
    public func watch(_ source: FileDescriptorSource, forMode mode: Mode) throws(SystemCallError) {
        checkThread("watch(_:forMode:)")
        guard source.isValid else { return }
        if let owner = source.runLoop, owner !== self { return }
        let targets = mode == .common ? commonModes : [mode]
        var added: [ModeState] = []
        do {
            for target in targets {
                let state = modeState(for: target)
                if try insert(source, into: state) { added.append(state) }
            }
        } catch {
            for state in added { remove(source, from: state) }
            releaseIfUnwatched(source)
            throw error
        }
        guard mode == .common else { return }
        commonItems.insert(source)
        source.isCommonItem = true
    }

    /// Adds `source` to `mode` like ``watch(_:forMode:)``, for a descriptor known to be pollable (a
    /// pipe, socket, terminal, eventfd …). If epoll refuses it, this stops the program with a message
    /// naming the descriptor and the error; call ``watch(_:forMode:)`` to handle that instead.
    public func add(_ source: FileDescriptorSource, forMode mode: Mode) {
        do {
            try watch(source, forMode: mode)
        } catch {
            fatalError(
                "RunLoop.add: epoll refuses descriptor \(source.fileDescriptor): \(error); use watch(_:forMode:) to handle it"
            )
        }
    }

    /// Removes `source` from `mode` (or from the common items and every common mode).
    public func remove(_ source: FileDescriptorSource, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        guard source.runLoop === self else { return }
        route(
            removing: mode, isCommonItem: source.isCommonItem,
            unmarkCommon: {
                commonItems.remove(source)
                source.isCommonItem = false
            }, remove: { remove(source, from: $0) })
        releaseIfUnwatched(source)
    }

    /// Adds `source` to `state` and its epoll set; returns whether it was not there yet.
    @discardableResult
    func insert(_ source: FileDescriptorSource, into state: ModeState) throws(SystemCallError) -> Bool {
        precondition(
            state.descriptorSources[source.fileDescriptor] == nil
                || state.descriptorSources[source.fileDescriptor] === source,
            "RunLoop: descriptor \(source.fileDescriptor) already has a source in mode \(state.mode)")
        guard state.descriptorSources[source.fileDescriptor] == nil else { return false }
        try waiter.register(source.fileDescriptor, in: state)
        source.runLoop = self
        state.descriptorSources[source.fileDescriptor] = source
        return true
    }

    private func remove(_ source: FileDescriptorSource, from state: ModeState) {
        guard state.descriptorSources[source.fileDescriptor] === source else { return }
        state.descriptorSources[source.fileDescriptor] = nil
        waiter.unregister(source.fileDescriptor, in: state)
    }

    private func releaseIfUnwatched(_ source: FileDescriptorSource) {
        if !statesByQueueID.contains(where: { $0.descriptorSources[source.fileDescriptor] === source }) {
            source.runLoop = nil
        }
    }

    /// The modes `source` is watched in.
    func modes(containing source: FileDescriptorSource) -> [Mode] {
        statesByQueueID.filter { $0.descriptorSources[source.fileDescriptor] === source }.map(\.mode)
    }

    func detach(_ source: FileDescriptorSource) {
        for state in statesByQueueID { remove(source, from: state) }
        commonItems.remove(source)
        source.isCommonItem = false
        source.runLoop = nil
    }
}
