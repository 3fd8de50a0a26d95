import AppPlatform
import Foundation
import GRDB
import Synchronization

/// The durable queue of samples waiting to be uploaded: an SQLite file in WAL mode.
///
/// A sample counts once ``append(_:)`` returns: it is committed (with `synchronous = FULL`,
/// so it survives a SIGKILL or a power cut at any point) and has a `seq` that increases
/// across restarts. The upload side cuts what is unbatched into a ``Batch``, hands it to a
/// ``BatchSink`` and calls ``markSent(_:at:)`` only once the sink acknowledged it. Pending
/// samples are never deleted, so a crash or a server that is down loses nothing; acknowledged
/// ones go after the ``OutboxRetention`` (default: seven days), so the file stops growing. With a
/// ``sizeCap`` the database never holds more than that many bytes: acknowledged samples go first,
/// then pending ones, oldest first, each counted (``OutboxCounters/droppedSamples``), except those
/// of a batch handed out for delivery and not yet answered.
///
/// One process writes an outbox at a time: opening it takes an advisory lock on
/// `<file>.lock`, and a second open fails with ``OutboxError/inUse(path:holder:)``.
///
/// Every call is synchronous and short (a local transaction whose cost depends on the pending
/// rows, not on the history), meant to be made from one thread at a time; the type is
/// `Sendable` and calls from several threads are serialized. Failures are ``OutboxError``s
/// that name the file and the reason.
///
/// ```swift
/// let outbox = try Outbox()                        // $XDG_STATE_HOME/timerdeck/outbox.sqlite
/// try outbox.append(Sample(takenAt: Date(), fields: .position(latitude: 48.85, longitude: 2.35, elevation: nil)))
/// if let batch = try outbox.cutBatch(at: Date()).value {
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
    /// How long acknowledged samples are kept.
    public let retention: OutboxRetention
    /// The most the database may hold, in bytes (its pages in use); nil for no cap.
    public let sizeCap: Int64?
    /// The batches ``cutBatch(at:)`` and ``nextPendingBatch(skipping:)`` handed out and no
    /// ``markSent(_:at:)`` or ``recordFailure(_:error:at:)`` answered yet: a sink may be sending
    /// them, so the size cap never drops their samples.
    private let handedOut = Mutex<Set<String>>([])
    /// The SQLite connection (internal: tests read its settings).
    let database: DatabaseQueue
    private let lock: FileLock

    /// `$XDG_STATE_HOME/timerdeck/outbox.sqlite`, or `~/.local/state/timerdeck/outbox.sqlite`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateDirectory.url(environment: environment).appendingPathComponent("outbox.sqlite")
    }

    /// Opens the outbox at `url`, creating its directory (mode 0700) and file as needed;
    /// `retention` applies from the next acknowledgement on, `sizeCap` (bytes) from the next append.
    ///
    /// - Throws: ``OutboxError/directoryUnavailable(path:reason:)`` when the directory cannot
    ///   be created or written, ``OutboxError/inUse(path:holder:)`` when another process has it
    ///   open, ``OutboxError/corrupt(path:reason:)`` when the file is not an SQLite database (it
    ///   is left untouched), ``OutboxError/cannotWrite(path:reason:)`` (a read-only file, too)
    ///   or ``OutboxError/diskFull(path:)`` when the file cannot be written.
    public convenience init(
        url: URL = Outbox.defaultURL(), retention: OutboxRetention = .sevenDays, sizeCap: Int64? = nil
    ) throws(OutboxError) {
        try self.init(url: url, retention: retention, sizeCap: sizeCap, pageLimit: nil)
    }

    /// Opens the outbox with SQLite's `max_page_count` set to `pageLimit`, so tests can make
    /// writes fail with `SQLITE_FULL` without filling a disk.
    init(url: URL, retention: OutboxRetention = .sevenDays, sizeCap: Int64? = nil, pageLimit: Int?)
        throws(OutboxError)
    {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        do {
            try FileIO.createDirectory(atPath: directory)
        } catch {
            throw .directoryUnavailable(path: error.path, reason: "cannot \(error.operation): \(error.reason)")
        }
        do {
            lock = try FileLock(guarding: path)
        } catch {
            switch error {
            case .inUse(let holder): throw .inUse(path: path, holder: holder)
            case .cannotLock(let reason): throw .cannotWrite(path: path + ".lock", reason: reason)
            }
        }

        var configuration = Configuration()
        configuration.label = "timerdeck.outbox"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // Before any table exists (a new file): freed pages can be handed back (retention).
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            // WAL: readers never block the writer, and a commit is one append to the log.
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw DatabaseError(message: "SQLite refused WAL mode (journal mode is \(mode ?? "unknown"))")
            }
            // FULL: a commit is on disk when it returns, so an appended sample survives power loss.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The log is cut back to this size after each checkpoint, so it does not keep its peak.
            try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
            if let pageLimit {
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pageLimit)")
            }
        }
        self.url = url
        self.retention = retention
        self.sizeCap = sizeCap
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
            try database.writeWithoutTransaction { db in
                // A file from before retention: one VACUUM turns incremental auto-vacuum on.
                if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 {
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
                }
            }
            // A write at once, so a file this process cannot write is refused now, not sample by sample.
            try database.write { db in try TallyRecord.fetch(db).update(db) }
        } catch {
            throw OutboxError(error, path: path)
        }
    }

    /// Commits `sample` and returns it with its new `seq`, and the totals after it; over the
    /// ``sizeCap``, the oldest samples are dropped in the same transaction.
    ///
    /// When this throws, nothing was committed and the caller still holds the sample.
    @discardableResult
    public func append(_ sample: Sample) throws(OutboxError) -> OutboxWrite<StoredSample> {
        let sizeCap = sizeCap
        let sparing = handedOut.withLock { $0 }
        let written = try write { db in
            var record = SampleRecord(sample)
            try record.insert(db)
            if let sizeCap { try Self.enforce(sizeCap, sparing: sparing, db) }
            return record.seq
        }
        guard let seq = written.value else {
            throw .database(path: url.path, reason: "SQLite gave the new sample no seq")
        }
        return OutboxWrite(value: StoredSample(seq: seq, sample: sample), counters: written.counters)
    }

    /// Groups every unbatched sample into a new batch, or returns nil when there are none, with
    /// the totals after it.
    ///
    /// The batch is committed before this returns: if the process dies before the batch is
    /// delivered, ``pendingBatches()`` returns it after the restart.
    @discardableResult
    public func cutBatch(at time: Date) throws(OutboxError) -> OutboxWrite<Batch?> {
        let id = UUID()
        let key = id.uuidString.lowercased()
        let createdAt = Self.milliseconds(time)
        return try write { db -> Batch? in
            let unbatched = SampleRecord.filter(SampleRecord.CodingKeys.batchId == nil)
            let count = try unbatched.fetchCount(db)
            guard count > 0 else { return nil }
            try BatchRecord(
                id: key, createdAtMs: createdAt, sentAtMs: nil, attempts: 0, failureMessage: nil,
                failureAtMs: nil, failurePermanent: false, sampleCount: count
            ).insert(db)
            try unbatched.updateAll(db, SampleRecord.CodingKeys.batchId.set(to: key))
            handedOut.withLock { _ = $0.insert(key) }
            return Batch(id: id, createdAt: Self.date(createdAt), samples: try Self.samples(inBatch: key, db))
        }
    }

    /// Every batch not yet acknowledged, oldest first, with its samples and last failure.
    ///
    /// Batches the server rejected permanently are included (see ``BatchFailure/isPermanent``);
    /// they stay until delivered.
    public func pendingBatches() throws(OutboxError) -> [Batch] {
        try read { db in
            try Self.unsent.fetchAll(db).map { try Self.batch($0, db) }
        }
    }

    /// The oldest batch not yet acknowledged whose id is not in `skipped`, or nil.
    ///
    /// Reads only that batch's rows, however many batches are pending.
    public func nextPendingBatch(skipping skipped: Set<UUID> = []) throws(OutboxError) -> Batch? {
        let keys = skipped.map { $0.uuidString.lowercased() }
        let next = try read { db in
            try Self.unsent.filter(!keys.contains(BatchRecord.CodingKeys.id)).fetchOne(db).map {
                try Self.batch($0, db)
            }
        }
        if let next { handedOut.withLock { _ = $0.insert(next.id.uuidString.lowercased()) } }
        return next
    }

    /// Records that a sink acknowledged the batch, counts its samples delivered and applies the
    /// retention, in one transaction that also returns the totals after it. Call it only after the
    /// acknowledgement.
    ///
    /// Marking a batch that is already sent changes nothing (the first time is kept).
    /// - Throws: ``OutboxError/unknownBatch(_:path:)`` when the outbox has no such batch.
    @discardableResult
    public func markSent(_ batchID: UUID, at time: Date) throws(OutboxError) -> OutboxWrite<Void> {
        let key = batchID.uuidString.lowercased()
        let sentAt = Self.milliseconds(time)
        let retention = retention
        handedOut.withLock { _ = $0.remove(key) }
        let found = try write { db in
            guard var batch = try BatchRecord.fetchOne(db, key: key) else { return false }
            guard batch.sentAtMs == nil else { return true }
            batch.sentAtMs = sentAt
            try batch.update(db)
            var tally = try TallyRecord.fetch(db)
            tally.deliveredSamples += batch.sampleCount
            tally.keptSamples += batch.sampleCount
            try tally.update(db)
            try Self.applyRetention(retention, now: sentAt, db)
            return true
        }
        guard found.value else { throw .unknownBatch(batchID, path: url.path) }
        return OutboxWrite(value: (), counters: found.counters)
    }

    /// Records a failed delivery: counts the attempt and keeps the error for the user; returns the
    /// totals after it.
    ///
    /// The batch stays pending whatever the error; a permanent one is flagged so the upload
    /// side can stop retrying it and show why.
    /// - Throws: ``OutboxError/unknownBatch(_:path:)`` when the outbox has no such batch.
    @discardableResult
    public func recordFailure(
        _ batchID: UUID, error: UploadError, at time: Date
    ) throws(OutboxError) -> OutboxWrite<Void> {
        let key = batchID.uuidString.lowercased()
        let failedAt = Self.milliseconds(time)
        handedOut.withLock { _ = $0.remove(key) }
        let found = try write { db in
            guard var batch = try BatchRecord.fetchOne(db, key: key) else { return false }
            batch.attempts += 1
            batch.failureMessage = error.description
            batch.failureAtMs = failedAt
            batch.failurePermanent = !error.isRetryable
            try batch.update(db)
            return true
        }
        guard found.value else { throw .unknownBatch(batchID, path: url.path) }
        return OutboxWrite(value: (), counters: found.counters)
    }

    /// Sets SQLite's `max_page_count`, so a test can end the full disk that ``init(url:retention:pageLimit:)`` made.
    func setPageLimit(_ pageLimit: Int) throws(OutboxError) {
        _ = try write { db in _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pageLimit)") }
    }

    /// Current totals: pending and delivered samples, pending batches, the last sample. Every
    /// write returns them too, read in its own transaction.
    ///
    /// Reads the pending rows and the kept totals only (indexed), never the whole history.
    public func counters() throws(OutboxError) -> OutboxCounters {
        try read(Self.counters)
    }

    /// The sizes of the outbox file and of its write-ahead log, in bytes (0 for a missing file).
    public func fileSizes() -> (database: Int64, log: Int64) {
        func size(_ path: String) -> Int64 {
            var info = stat()
            return stat(path, &info) == 0 ? Int64(info.st_size) : 0
        }
        return (size(url.path), size(url.path + "-wal"))
    }

    /// The size of the database as SQLite sees it (pages in use, including those still in the
    /// write-ahead log), in bytes: what retention keeps bounded, whatever the checkpoints did.
    public func databaseSize() throws(OutboxError) -> Int64 {
        try read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pages * pageSize
        }
    }

    // MARK: - Rows

    private static func counters(_ db: Database) throws -> OutboxCounters {
        let unbatched = try SampleRecord.filter(SampleRecord.CodingKeys.batchId == nil).fetchCount(db)
        let unsent = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*), COALESCE(SUM(sample_count), 0), COUNT(*) FILTER (WHERE failure_permanent),
                    COALESCE(SUM(sample_count) FILTER (WHERE failure_permanent), 0)
                FROM batch WHERE sent_at_ms IS NULL
                """)
        let tally = try TallyRecord.fetch(db)
        let last = try SampleRecord.order(SampleRecord.CodingKeys.seq.desc).fetchOne(db)
        let batchedPending: Int = unsent?[1] ?? 0
        return OutboxCounters(
            pendingSamples: unbatched + batchedPending,
            unbatchedSamples: unbatched,
            pendingBatches: unsent?[0] ?? 0,
            rejectedBatches: unsent?[2] ?? 0,
            parkedSamples: unsent?[3] ?? 0,
            deliveredSamples: tally.deliveredSamples,
            lastSample: try last?.stored(),
            droppedSamples: tally.droppedSamples,
            droppedTakenAt: tally.droppedFirstTakenMs.flatMap { first in
                tally.droppedLastTakenMs.map { date(first)...date($0) }
            })
    }

    /// Unsent batches, oldest first.
    private static let unsent = BatchRecord.filter(BatchRecord.CodingKeys.sentAtMs == nil).order(Column.rowID)

    private static func batch(_ record: BatchRecord, _ db: Database) throws -> Batch {
        guard let id = UUID(uuidString: record.id) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "batch id \"\(record.id)\" is not a UUID")
        }
        var failure: BatchFailure?
        if let message = record.failureMessage, let at = record.failureAtMs {
            failure = BatchFailure(message: message, at: date(at), isPermanent: record.failurePermanent)
        }
        return Batch(
            id: id, createdAt: date(record.createdAtMs), samples: try samples(inBatch: record.id, db),
            failedAttempts: record.attempts, lastFailure: failure)
    }

    private static func samples(inBatch key: String, _ db: Database) throws -> [StoredSample] {
        try SampleRecord.filter(SampleRecord.CodingKeys.batchId == key).order(SampleRecord.CodingKeys.seq)
            .fetchAll(db).map { try $0.stored() }
    }

    /// Deletes the acknowledged batches `retention` no longer keeps, oldest first and whole,
    /// and hands their pages back to the file system. Pending batches are never touched.
    private static func applyRetention(_ retention: OutboxRetention, now: Int64, _ db: Database) throws {
        let sentAt = BatchRecord.CodingKeys.sentAtMs
        var doomed: [BatchRecord] = []
        let cutoff = retention.cutoff(acknowledgedAt: now)
        if let cutoff {
            doomed = try BatchRecord.filter(sentAt < cutoff).fetchAll(db)
        }
        var tally = try TallyRecord.fetch(db)
        var kept = tally.keptSamples - doomed.reduce(0) { $0 + $1.sampleCount }
        if let count = retention.count, kept > count {
            let younger = cutoff.map { sentAt >= $0 } ?? (sentAt != nil)
            let oldestFirst = try BatchRecord.filter(younger).order(sentAt, Column.rowID).fetchCursor(db)
            while kept > count, let batch = try oldestFirst.next() {
                doomed.append(batch)
                kept -= batch.sampleCount
            }
        }
        guard !doomed.isEmpty else { return }
        try deleteAcknowledged(doomed, from: &tally, db)
        try tally.update(db)
        try db.execute(sql: "PRAGMA incremental_vacuum")
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction (GRDB's writes are `IMMEDIATE`, so a second connection never
    /// deadlocks upgrading a lock) and reads the totals it leaves in the same transaction.
    private func write<T>(_ body: (Database) throws -> T) throws(OutboxError) -> OutboxWrite<T> {
        do {
            return try database.write { db in
                let value = try body(db)
                return OutboxWrite(value: value, counters: try Self.counters(db))
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
