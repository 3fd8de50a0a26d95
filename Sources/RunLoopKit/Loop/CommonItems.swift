/// The items added to the common pseudo-mode of a run loop (`_commonModeItems`, C-M2, C-M4).
///
/// Keyed by identity for O(1) removal; the insertion sequence keeps the order in which they are
/// copied into a mode that becomes common (C-M5).
struct CommonItems {
    private var items: [ObjectIdentifier: (sequence: UInt64, item: any RunLoopItem)] = [:]
    private var sequence: UInt64 = 0

    mutating func insert(_ item: some RunLoopItem) {
        let id = ObjectIdentifier(item)
        guard items[id] == nil else { return }
        sequence += 1
        items[id] = (sequence, item)
    }

    mutating func remove(_ item: some RunLoopItem) {
        items[ObjectIdentifier(item)] = nil
    }

    /// Empties the set and clears every item's common flag: its run loop is going away.
    mutating func forgetAll() {
        for (_, item) in items.values { item.isCommonItem = false }
        items = [:]
    }

    /// Adds every common item to `state`, oldest first (C-M5).
    func copy(into state: ModeState, of loop: RunLoop) {
        for (_, item) in items.values.sorted(by: { $0.sequence < $1.sequence }) {
            copy(item, into: state, of: loop)
        }
    }

    private func copy(_ item: some RunLoopItem, into state: ModeState, of loop: RunLoop) {
        do {
            try loop.insert(item, into: state)
        } catch {
            // Only a descriptor source can fail, and epoll accepted its descriptor in the other
            // common modes: only the kernel running out of memory or epoll watches gets here.
            fatalError("RunLoop.addCommonMode(\(state.mode)): adding a common item: \(error)")
        }
    }
}
