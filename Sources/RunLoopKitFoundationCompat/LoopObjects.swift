import Glibc
import RunLoopKit

/// The ``RunLoop`` objects of the calling thread, one per RunLoopKit loop, so that `RunLoop.current`
/// is identical from call to call.
///
/// Each thread keeps its own table (a `ThreadLocal`), because a RunLoopKit loop is only used on its
/// own thread. An entry holds its object weakly (strongly while it has ports): an object nobody holds any more cannot be compared
/// with a new one.
final class LoopObjects {
    private final class Entry {
        weak var object: RunLoop?
        /// The object, held while it has ports, whose modes only it knows.
        var kept: RunLoop?
    }

    private var entries: [ObjectIdentifier: Entry] = [:]

    private static let tables = ThreadLocal<LoopObjects>()

    /// The calling thread's object for `base`, made on first use.
    static func object(for base: RunLoopKit.RunLoop) -> RunLoop {
        let table: LoopObjects
        if let existing = tables.value {
            table = existing
        } else {
            table = LoopObjects()
            tables.set(table)
        }
        let id = ObjectIdentifier(base)
        // An object holds its loop, so a live object's identifier cannot belong to another loop.
        if let object = table.entries[id]?.object { return object }
        let object = RunLoop(base: base)
        let entry = Entry()
        entry.object = object
        table.entries = table.entries.filter { $0.value.object != nil }
        table.entries[id] = entry
        return object
    }

    /// Holds `object` for its thread while `alive`, so that `RunLoop.current` stays that object:
    /// a loop object with ports must be the one a later `remove(_:forMode:)` is called on.
    static func keep(_ object: RunLoop, alive: Bool) {
        tables.value?.entries[ObjectIdentifier(object.base)]?.kept = alive ? object : nil
    }
}
