/// The items added to the common pseudo-mode of a run loop (`_commonModeItems`, C-M2, C-M4).
///
/// Keyed by identity for O(1) removal; the insertion sequence keeps the order in which they are
/// copied into a mode that becomes common (C-M5).
struct CommonItems {
    private enum Item {
        case timer(Timer)
        case observer(RunLoop.Observer)
        case source(RunLoop.Source)
        case descriptorSource(RunLoop.FileDescriptorSource)
    }

    private var items: [ObjectIdentifier: (sequence: UInt64, item: Item)] = [:]
    private var sequence: UInt64 = 0

    mutating func insert(_ timer: Timer) { insert(.timer(timer), id: ObjectIdentifier(timer)) }
    mutating func insert(_ observer: RunLoop.Observer) { insert(.observer(observer), id: ObjectIdentifier(observer)) }
    mutating func insert(_ source: RunLoop.Source) { insert(.source(source), id: ObjectIdentifier(source)) }
    mutating func insert(_ source: RunLoop.FileDescriptorSource) {
        insert(.descriptorSource(source), id: ObjectIdentifier(source))
    }

    /// Empties the set and clears every item's common flag: its run loop is going away.
    mutating func forgetAll() {
        for (_, item) in items.values {
            switch item {
            case .timer(let timer): timer.isCommonItem = false
            case .observer(let observer): observer.isCommonItem = false
            case .source(let source): source.isCommonItem = false
            case .descriptorSource(let source): source.isCommonItem = false
            }
        }
        items = [:]
    }

    mutating func remove(_ object: AnyObject) {
        items[ObjectIdentifier(object)] = nil
    }

    /// Adds every common item to `state`, oldest first (C-M5).
    func copy(into state: ModeState, of loop: RunLoop) {
        for (_, item) in items.values.sorted(by: { $0.sequence < $1.sequence }) {
            switch item {
            case .timer(let timer): loop.insert(timer, into: state)
            case .observer(let observer): loop.insert(observer, into: state)
            case .source(let source): loop.insert(source, into: state)
            case .descriptorSource(let source):
                do {
                    try loop.insert(source, into: state)
                } catch {
                    // epoll accepted this descriptor in the other common modes, so only the kernel
                    // running out of memory or of epoll watches (ENOMEM, ENOSPC) gets here.
                    fatalError(
                        "RunLoop.addCommonMode(\(state.mode)): watching descriptor \(source.fileDescriptor): \(error)")
                }
            }
        }
    }

    private mutating func insert(_ item: Item, id: ObjectIdentifier) {
        guard items[id] == nil else { return }
        sequence += 1
        items[id] = (sequence, item)
    }
}
