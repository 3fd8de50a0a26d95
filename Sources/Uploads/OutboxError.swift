import Foundation

/// Why an ``Outbox`` operation failed, naming the file and the reason in words a user can act on.
///
/// Nothing is dropped on an error: a failed ``Outbox/append(_:)`` committed nothing (the
/// caller still holds the sample), and a failed batch operation left every committed
/// sample where it was.
public enum OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory for the outbox file could not be created or is not writable.
    case directoryUnavailable(path: String, reason: String)
    /// The outbox file could not be opened or written (permissions, read-only file system).
    case cannotWrite(path: String, reason: String)
    /// The file exists but is not an SQLite database, or its content is damaged.
    case corrupt(path: String, reason: String)
    /// The disk (or the file system holding the outbox) is full; the write was rolled back.
    case diskFull(path: String)
    /// No batch with this id exists in the outbox.
    case unknownBatch(UUID, path: String)
    /// Another open outbox, in this process or another, holds the file; `holder` is its PID
    /// when known.
    case inUse(path: String, holder: Int32?)
    /// Any other SQLite failure, with SQLite's own message.
    case database(path: String, reason: String)

    /// The path of the file or directory concerned.
    public var path: String {
        switch self {
        case .directoryUnavailable(let path, _), .cannotWrite(let path, _), .corrupt(let path, _),
            .diskFull(let path), .unknownBatch(_, let path), .inUse(let path, _), .database(let path, _):
            path
        }
    }

    /// A sentence for the user: what failed, where, and why.
    public var description: String {
        switch self {
        case .directoryUnavailable(let path, let reason):
            "Cannot use the outbox directory \(path): \(reason)."
        case .cannotWrite(let path, let reason):
            "Cannot write the outbox \(path): \(reason)."
        case .corrupt(let path, let reason):
            "The outbox \(path) is not a usable SQLite database (\(reason)). "
                + "Move the file aside to start an empty outbox; it was left untouched."
        case .diskFull(let path):
            "The disk holding the outbox \(path) is full; the last write was not saved. "
                + "Free some space; samples already saved are kept."
        case .unknownBatch(let id, let path):
            "The outbox \(path) has no batch \(id.uuidString.lowercased())."
        case .inUse(let path, let holder):
            "The outbox \(path) is in use by \(holder.map { "process \($0)" } ?? "another process"); "
                + "only one process may write an outbox. Quit that one first, or use another outbox file."
        case .database(let path, let reason):
            "The outbox \(path) failed: \(reason)."
        }
    }
}
