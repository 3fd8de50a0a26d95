import GRDB

extension Outbox {
    /// The outbox's tables, one migration per change so old files upgrade in place.
    ///
    /// `seq` is `AUTOINCREMENT`: SQLite never reuses a value, even after rows are deleted,
    /// so sequence numbers only grow across restarts. Times are milliseconds since the Unix
    /// epoch; batch ids are lowercase UUIDs.
    ///
    /// v2 keeps totals so ``Outbox/counters()`` reads only pending rows: each batch's
    /// `sample_count`, an index on `sent_at_ms` (unsent batches are `NULL`; retention deletes
    /// by age), and the one-row `tally` of acknowledged samples, updated in the transaction
    /// that acknowledges them. v3 counts the pending samples the size cap dropped, and when the
    /// oldest and newest of them were taken.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: samples and batches") { db in
            try db.execute(
                sql: """
                    CREATE TABLE batch (
                        id TEXT PRIMARY KEY NOT NULL,
                        created_at_ms INTEGER NOT NULL,
                        sent_at_ms INTEGER,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        failure_message TEXT,
                        failure_at_ms INTEGER,
                        failure_permanent INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE sample (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        taken_at_ms INTEGER NOT NULL,
                        fields TEXT NOT NULL,
                        batch_id TEXT REFERENCES batch(id)
                    );
                    CREATE INDEX sample_by_batch ON sample(batch_id);
                    """)
        }
        migrator.registerMigration("v2: kept totals, an index of unsent batches") { db in
            try db.execute(
                sql: """
                    ALTER TABLE batch ADD COLUMN sample_count INTEGER NOT NULL DEFAULT 0;
                    UPDATE batch SET sample_count = (SELECT COUNT(*) FROM sample WHERE sample.batch_id = batch.id);
                    CREATE INDEX batch_by_sent_at ON batch(sent_at_ms);
                    CREATE TABLE tally (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        delivered_samples INTEGER NOT NULL,
                        kept_samples INTEGER NOT NULL
                    );
                    INSERT INTO tally (id, delivered_samples, kept_samples)
                        SELECT 1, total, total FROM (SELECT COALESCE(SUM(sample_count), 0) AS total
                                                     FROM batch WHERE sent_at_ms IS NOT NULL);
                    """)
        }
        migrator.registerMigration("v3: samples dropped at the size cap") { db in
            try db.execute(
                sql: """
                    ALTER TABLE tally ADD COLUMN dropped_samples INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE tally ADD COLUMN dropped_first_taken_ms INTEGER;
                    ALTER TABLE tally ADD COLUMN dropped_last_taken_ms INTEGER;
                    """)
        }
        return migrator
    }
}
