import GRDB

extension Outbox {
    /// The outbox's tables, one migration per change so old files upgrade in place.
    ///
    /// `seq` is `AUTOINCREMENT`: SQLite never reuses a value, even after rows are deleted,
    /// so sequence numbers only grow across restarts. Times are milliseconds since the Unix
    /// epoch; batch ids are lowercase UUIDs.
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
        return migrator
    }
}
