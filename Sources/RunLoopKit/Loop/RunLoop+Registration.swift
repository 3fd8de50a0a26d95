extension RunLoop {
    // MARK: The one path for every kind of item (C-T2, C-M4…C-M6)

    /// Adds `item` to `mode`, or — for the common pseudo-mode — to the common items and every common
    /// mode (C-M4). An item in another loop stays there (C-T2). If a mode refuses it, the modes it
    /// was added to by this call give it back and the error is thrown.
    func register<Item: RunLoopItem>(_ item: Item, forMode mode: Mode) throws(Item.RegistrationError) {
        if item.isInRunLoop, item.runLoop !== self { return }
        guard mode == .common else {
            try insert(item, into: modeState(for: mode))
            return
        }
        var added: [ModeState] = []
        do {
            for common in commonModes {
                let state = modeState(for: common)
                if try insert(item, into: state) { added.append(state) }
            }
        } catch {
            for state in added { item.unregister(from: state, of: self) }
            releaseIfUnregistered(item)
            throw error
        }
        commonItems.insert(item)
        item.isCommonItem = true
    }

    /// Removes `item` from `mode`, or — for the common pseudo-mode — from the common items and every
    /// common mode (C-M6). The item leaves the loop when it is in none of its modes (C-T2).
    func unregister<Item: RunLoopItem>(_ item: Item, forMode mode: Mode) {
        guard item.runLoop === self else { return }
        if mode != .common {
            if let state = existingModeState(for: mode), item.isRegistered(in: state) {
                item.unregister(from: state, of: self)
            }
        } else if item.isCommonItem {
            commonItems.remove(item)
            item.isCommonItem = false
            for common in commonModes {
                if let state = existingModeState(for: common), item.isRegistered(in: state) {
                    item.unregister(from: state, of: self)
                }
            }
        }
        releaseIfUnregistered(item)
    }

    /// Adds `item` to `state` unless it is there; the loop adopts an item that belongs to none.
    /// Returns whether it was added.
    @discardableResult
    func insert<Item: RunLoopItem>(_ item: Item, into state: ModeState) throws(Item.RegistrationError) -> Bool {
        guard !item.isRegistered(in: state) else { return false }
        if !item.isInRunLoop {
            item.runLoop = self
            item.didJoin(self)
        }
        do {
            try item.register(in: state, of: self)
        } catch {
            releaseIfUnregistered(item)
            throw error
        }
        return true
    }

    /// Takes an invalidated item out of every mode and the common items (C-T8).
    ///
    /// Called on the item's own loop (every caller reaches it through `item.runLoop`), so the loop
    /// lets go of it without loading that weak reference again: a fired one-shot timer pays one load less.
    func detach<Item: RunLoopItem>(_ item: Item) {
        assert(item.runLoop === self, "RunLoop.detach: \(Item.self) belongs to another loop")
        item.unregisterEverywhere(of: self)
        if item.isCommonItem {
            commonItems.remove(item)
            item.isCommonItem = false
        }
        release(item)
    }

    private func releaseIfUnregistered<Item: RunLoopItem>(_ item: Item) {
        guard item.runLoop === self else { return }
        release(item)
    }

    /// The loop lets go of `item`, which belongs to it, once it is in none of its modes (C-T2).
    private func release<Item: RunLoopItem>(_ item: Item) {
        guard !item.isRegistered(anywhereIn: self) else { return }
        item.runLoop = nil
        item.didLeave()
    }

    /// The modes `item` is in.
    func modes(containing item: some RunLoopItem) -> [Mode] {
        statesByQueueID.filter { item.isRegistered(in: $0) }.map(\.mode)
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
        register(timer, forMode: mode)
    }

    /// Removes `timer` from `mode` (or from the common items and every common mode, C-M6). The
    /// timer leaves the run loop when it is in none of its modes (C-T2); it stays valid.
    public func remove(_ timer: Timer, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        unregister(timer, forMode: mode)
    }

    /// Moves `timer` from `old` to `new`, keeping its fire date: out of the old mode, then into
    /// the new one (removing from ``Mode/common`` takes it out of every common mode, C-M6). Nothing
    /// when the modes are the same.
    ///
    /// ```swift
    /// let loop = RunLoop.current
    /// let timer = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { _ in print("tick") }
    /// loop.add(timer, forMode: .common)
    /// loop.move(timer, from: .common, to: .default)   // now it pauses while tracking (M2)
    /// ```
    public func move(_ timer: Timer, from old: Mode, to new: Mode) {
        guard old != new else { return }
        remove(timer, forMode: old)
        add(timer, forMode: new)
    }

    /// Whether `timer` is in `mode` of this loop.
    public func contains(_ timer: Timer, inMode mode: Mode) -> Bool {
        timer.runLoop === self && (existingModeState(for: mode)?.timers.contains(timer) ?? false)
    }

    /// Called when the timer's fire date changed: it goes after timers already at that time (C-T7).
    func reposition(_ timer: Timer) {
        timer.forEachQueueID { queueID in
            withQueue(withID: queueID) { queue in
                queue.update(timer, deadline: timer.fireNanoseconds, order: nextInsertionOrder())
            }
        }
    }

    /// `deadline`, or now when it is in the past: a timer's fire date as it joins the loop (C-T1)
    /// or is set (C-T7).
    ///
    /// On the system clock, a deadline at or after the start of the latest timer pass
    /// (``lastPassTime``) is kept without reading the clock: it is at most as far in the past as
    /// the pass is long, due at the next pass either way, as if it had been set when the pass
    /// began. That spares a `clock_gettime` per timer added (4–5 % of the profile of scheduling
    /// and cancelling 1M timers). An earlier deadline, and any on a virtual or controlled clock, whose
    /// exact time the tests check, is raised to the clock's reading.
    @inline(__always)
    func notBeforeNow(_ deadline: Int64) -> Int64 {
        if case .system = timeSource, deadline >= lastPassTime { return deadline }
        return max(deadline, now.nanoseconds)
    }

    /// Calls `body` with the timer queue whose id is `id` (a timer's ``Timer/forEachQueueID(_:)``),
    /// not retained: a mode's state and its queue stay the loop's as long as the loop lives
    /// (``statesByQueueID`` only grows), and `body` runs on the loop. Every repeating timer's fire
    /// reaches its queue this way, a retain and a release fewer than through a reference.
    @inline(__always)
    func withQueue<Result>(withID id: Int32, _ body: (TimerQueue) -> Result) -> Result {
        Unmanaged.passUnretained(state(withQueueID: id).timers)._withUnsafeGuaranteedRef(body)
    }

    /// The mode state whose timer queue has `id` (ids count from 1, in the order states were made).
    func state(withQueueID id: Int32) -> ModeState {
        statesByQueueID[Int(id) - 1]
    }

    // MARK: Observers and signalled sources

    /// Adds `observer` to `mode` (or every common mode). An observer belongs to one run loop.
    public func add(_ observer: Observer, forMode mode: Mode) {
        checkThread("add(_:forMode:)")
        guard observer.isValid else { return }
        register(observer, forMode: mode)
    }

    /// Removes `observer` from `mode` (or from the common items and every common mode).
    public func remove(_ observer: Observer, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        unregister(observer, forMode: mode)
    }

    /// Adds `source` to `mode` (or every common mode). A source belongs to one run loop.
    public func add(_ source: Source, forMode mode: Mode) {
        checkThread("add(_:forMode:)")
        guard source.isValid else { return }
        register(source, forMode: mode)
    }

    /// Removes `source` from `mode` (or from the common items and every common mode).
    public func remove(_ source: Source, forMode mode: Mode) {
        checkThread("remove(_:forMode:)")
        unregister(source, forMode: mode)
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
        try register(source, forMode: mode)
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
        unregister(source, forMode: mode)
    }
}
