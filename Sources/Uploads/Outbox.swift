import Foundation
import GRDB

/// The durable queue of samples waiting to be uploaded: an SQLite file in WAL mode.
///
/// A sample counts once ``append(_:)`` returns: it is committed (with `synchronous = FULL`,
/// so it survives a SIGKILL or a power cut at any point) and has a `seq` that increases
/// across restarts. The upload side cuts what is unbatched into a ``Batch``, hands it to a
/// ``BatchSink`` and calls ``markSent(_:at:)`` only once the sink acknowledged it. Nothing
/// is ever deleted, so a crash or a server that is down loses nothing.
///
/// Every call is synchronous and short (a local transaction), meant to be made from the
/// run loop thread; the type is `Sendable` and calls from several threads are serialized.
/// Failures are ``OutboxError``s that name the file and the reason.
///
/// ```swift
/// let outbox = try Outbox()                        // $XDG_STATE_HOME/timerdeck/outbox.sqlite
/// try outbox.append(Sample(takenAt: Date(), fields: .position(latitude: 48.85, longitude: 2.35, elevation: nil)))
/// if let batch = try outbox.cutBatch(at: Date()) {
///     sink.deliver(batch) { result in
///         // post back to the loop, then:
///         // success: try outbox.markSent(batch.id, at: Date())
///         // failure: try outbox.recordFailure(batch.id, error: error, at: Date())
///     }
/// }
/// ```
public final class Outbox: Sendable {
    /// The outbox file.
    public let url: URL
    private let database: DatabaseQueue

    /// `$XDG_STATE_HOME/timerdeck/outbox.sqlite`, or `~/.local/state/timerdeck/outbox.sqlite`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateDirectory.url(environment: environment).appendingPathComponent("outbox.sqlite")
    }

    /// Opens the outbox at `url`, creating its directory (mode 0700) and file as needed.
    ///
    /// - Throws: ``OutboxError/directoryUnavailable(path:reason:)`` when the directory cannot
    ///   be created or written, ``OutboxError/corrupt(path:reason:)`` when the file is not an
    ///   SQLite database (it is left untouched), ``OutboxError/cannotWrite(path:reason:)`` or
    ///   ``OutboxError/diskFull(path:)`` when the file cannot be set up.
    public convenience init(url: URL = Outbox.defaultURL()) throws(OutboxError) {
        try self.init(url: url, pageLimit: nil)
    }

    /// Opens the outbox with SQLite's `max_page_count` set to `pageLimit`, so tests can make
    /// writes fail with `SQLITE_FULL` without filling a disk.
    init(url: URL, pageLimit: Int?) throws(OutboxError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        do {
            try DurableFile.createDirectory(atPath: directory)
        } catch {
            throw .directoryUnavailable(path: error.path, reason: "cannot \(error.operation): \(error.reason)")
        }

        var configuration = Configuration()
        configuration.label = "timerdeck.outbox"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // WAL: readers never block the writer, and a commit is one append to the log.
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw DatabaseError(message: "SQLite refused WAL mode (journal mode is \(mode ?? "unknown"))")
            }
            // FULL: a commit is on disk when it returns, so an appended sample survives power loss.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            if let pageLimit {
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pageLimit)")
            }
        }
        self.url = url
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw OutboxError(error, path: path)
        }
    }

    /// Commits `sample` and returns it with its new `seq`.
    ///
    /// When this throws, nothing was committed and the caller still holds the sample.
    @discardableResult
    public func append(_ sample: Sample) throws(OutboxError) -> StoredSample {
        let fields = try encode(FieldValues(sample.fields))
        let seq = try write { db in
            try db.execute(
                sql: "INSERT INTO sample (kind, taken_at_ms, fields) VALUES (?, ?, ?)",
                arguments: [sample.kind.rawValue, sample.takenAtMilliseconds, fields])
            return db.lastInsertedRowID
        }
        return StoredSample(seq: seq, sample: sample)
    }

    /// Groups every unbatched sample into a new batch, or returns nil when there are none.
    ///
    /// The batch is committed before this returns: if the process dies before the batch is
    /// delivered, ``pendingBatches()`` returns it after the restart.
    public func cutBatch(at time: Date) throws(OutboxError) -> Batch? {
        let id = UUID()
        let key = id.uuidString.lowercased()
        let createdAt = Self.milliseconds(time)
        return try write { db -> Batch? in
            let unbatched = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sample WHERE batch_id IS NULL") ?? 0
            guard unbatched > 0 else { return nil }
            try db.execute(sql: "INSERT INTO batch (id, created_at_ms) VALUES (?, ?)", arguments: [key, createdAt])
            try db.execute(sql: "UPDATE sample SET batch_id = ? WHERE batch_id IS NULL", arguments: [key])
            return Batch(id: id, createdAt: Self.date(createdAt), samples: try self.samples(inBatch: key, db))
        }
    }

    /// Every batch not yet acknowledged, oldest first, with its samples and last failure.
    ///
    /// Batches the server rejected permanently are included (see ``BatchFailure/isPermanent``);
    /// they stay until delivered.
    public func pendingBatches() throws(OutboxError) -> [Batch] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, created_at_ms, attempts, failure_message, failure_at_ms, failure_permanent
                    FROM batch WHERE sent_at_ms IS NULL ORDER BY rowid
                    """)
            return try rows.map { row in
                let key: String = row["id"]
                guard let id = UUID(uuidString: key) else {
                    throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "batch id \"\(key)\" is not a UUID")
                }
                var failure: BatchFailure?
                if let message: String = row["failure_message"], let at: Int64 = row["failure_at_ms"] {
                    failure = BatchFailure(message: message, at: Self.date(at), isPermanent: row["failure_permanent"])
                }
                return Batch(
                    id: id, createdAt: Self.date(row["created_at_ms"]), samples: try self.samples(inBatch: key, db),
                    failedAttempts: row["attempts"], lastFailure: failure)
            }
        }
    }

    /// Records that a sink acknowledged the batch. Call it only after the acknowledgement.
    ///
    /// Marking a batch that is already sent changes nothing (the first time is kept).
    /// - Throws: ``OutboxError/unknownBatch(_:path:)`` when the outbox has no such batch.
    public func markSent(_ batchID: UUID, at time: Date) throws(OutboxError) {
        let key = batchID.uuidString.lowercased()
        let sentAt = Self.milliseconds(time)
        let found = try write { db in
            try db.execute(
                sql: "UPDATE batch SET sent_at_ms = COALESCE(sent_at_ms, ?) WHERE id = ?", arguments: [sentAt, key])
            return db.changesCount > 0
        }
        guard found else { throw .unknownBatch(batchID, path: url.path) }
    }

    /// Records a failed delivery: counts the attempt and keeps the error for the user.
    ///
    /// The batch stays pending whatever the error; a permanent one is flagged so the upload
    /// side can stop retrying it and show why.
    /// - Throws: ``OutboxError/unknownBatch(_:path:)`` when the outbox has no such batch.
    public func recordFailure(_ batchID: UUID, error: UploadError, at time: Date) throws(OutboxError) {
        let key = batchID.uuidString.lowercased()
        let failedAt = Self.milliseconds(time)
        let found = try write { db in
            try db.execute(
                sql: """
                    UPDATE batch SET attempts = attempts + 1, failure_message = ?, failure_at_ms = ?, failure_permanent = ?
                    WHERE id = ?
                    """,
                arguments: [error.description, failedAt, !error.isRetryable, key])
            return db.changesCount > 0
        }
        guard found else { throw .unknownBatch(batchID, path: url.path) }
    }

    /// Current totals: pending and delivered samples, pending batches, the last sample.
    public func counters() throws(OutboxError) -> OutboxCounters {
        try read { db in
            let sampleCounts = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                        COUNT(*) FILTER (WHERE sample.batch_id IS NULL),
                        COUNT(*) FILTER (WHERE batch.sent_at_ms IS NULL),
                        COUNT(*) FILTER (WHERE batch.sent_at_ms IS NOT NULL)
                    FROM sample LEFT JOIN batch ON batch.id = sample.batch_id
                    """)
            let batchCounts = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), COUNT(*) FILTER (WHERE failure_permanent)
                    FROM batch WHERE sent_at_ms IS NULL
                    """)
            let last = try Row.fetchOne(db, sql: "SELECT seq, kind, taken_at_ms, fields FROM sample ORDER BY seq DESC LIMIT 1")
            return OutboxCounters(
                pendingSamples: sampleCounts?[1] ?? 0,
                unbatchedSamples: sampleCounts?[0] ?? 0,
                pendingBatches: batchCounts?[0] ?? 0,
                rejectedBatches: batchCounts?[1] ?? 0,
                deliveredSamples: sampleCounts?[2] ?? 0,
                lastSample: try last.map(self.storedSample))
        }
    }

    // MARK: - Rows

    private func samples(inBatch key: String, _ db: Database) throws -> [StoredSample] {
        try Row.fetchAll(
            db, sql: "SELECT seq, kind, taken_at_ms, fields FROM sample WHERE batch_id = ? ORDER BY seq",
            arguments: [key]
        ).map(storedSample)
    }

    /// Decodes a sample row; a row that does not decode is reported, never skipped.
    private func storedSample(_ row: Row) throws -> StoredSample {
        let seq: Int64 = row["seq"]
        let kindName: String = row["kind"]
        let json: String = row["fields"]
        guard let kind = SampleKind(rawValue: kindName),
            let values = try? JSONDecoder().decode(FieldValues.self, from: Data(json.utf8)),
            let fields = values.fields(of: kind)
        else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "sample \(seq) of kind \"\(kindName)\" has unreadable fields \(json)")
        }
        return StoredSample(seq: seq, sample: Sample(takenAtMilliseconds: row["taken_at_ms"], fields: fields))
    }

    private func encode(_ values: FieldValues) throws(OutboxError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return String(decoding: try encoder.encode(values), as: UTF8.self)
        } catch {
            throw .database(path: url.path, reason: "cannot encode the sample's fields: \(error)")
        }
    }

    // MARK: - Transactions

    /// Runs `body` in an immediate transaction, so a second process never deadlocks upgrading a lock.
    private func write<T>(_ body: (Database) throws -> T) throws(OutboxError) -> T {
        do {
            return try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw OutboxError(error, path: url.path)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(OutboxError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw OutboxError(error, path: url.path)
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
