import GRDB

extension OutboxError {
    /// Translates an SQLite failure on the outbox at `path` into the error the user sees.
    init(_ error: any Error, path: String) {
        guard let error = error as? DatabaseError else {
            self = .database(path: path, reason: String(describing: error))
            return
        }
        let detail = error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            self = .corrupt(path: path, reason: detail)
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            self = .cannotWrite(path: path, reason: detail)
        default:
            self = .database(path: path, reason: detail)
        }
    }
}
