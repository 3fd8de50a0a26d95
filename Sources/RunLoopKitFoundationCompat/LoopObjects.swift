import Glibc
import RunLoopKit

/// The ``RunLoop`` objects of the calling thread, one per RunLoopKit loop, so that `RunLoop.current`
/// is identical from call to call.
///
/// Each thread keeps its own table (a `ThreadLocal`), because a RunLoopKit loop is only used on its
/// own thread. An entry holds its object weakly: an object nobody holds any more cannot be compared
/// with a new one.
final class LoopObjects {
    private final class Entry {
        weak var object: RunLoop?
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
}
