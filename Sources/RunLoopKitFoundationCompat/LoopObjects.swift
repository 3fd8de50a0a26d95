import Glibc
import RunLoopKit

/// The ``RunLoop`` objects of the calling thread, one per RunLoopKit loop, so that `RunLoop.current`
/// is identical from call to call.
///
/// Each thread keeps its own table (a pthread key), because a RunLoopKit loop is only used on its
/// own thread. An entry holds its object weakly: an object nobody holds any more cannot be compared
/// with a new one.
final class LoopObjects {
    private final class Entry {
        weak var object: RunLoop?
    }

    private var entries: [ObjectIdentifier: Entry] = [:]

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<LoopObjects>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "RunLoop: pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's object for `base`, made on first use.
    static func object(for base: RunLoopKit.RunLoop) -> RunLoop {
        let table: LoopObjects
        if let pointer = pthread_getspecific(key) {
            table = Unmanaged<LoopObjects>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            table = LoopObjects()
            pthread_setspecific(key, Unmanaged.passRetained(table).toOpaque())
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
