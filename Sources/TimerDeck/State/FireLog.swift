import DequeModule
import RunLoopKit

/// One fire of a dashboard timer (seed M2: watching which timers fire in which mode).
struct FireRecord: Equatable, Sendable {
    /// When it fired, on the dashboard's uptime clock.
    var time: Instant
    /// The row of the timer, which the trace asks its mechanism (it may be deleted since).
    var row: RowID
    /// The timer's name.
    var timer: String
    /// The run loop mode the fire happened in (`nil` outside a run, e.g. a dispatch queue).
    var mode: RunLoop.Mode?
    /// How long after its scheduled time it fired.
    var lateness: Duration
    /// Ticks that this fire stands for: 1, or more when missed ticks were coalesced or skipped.
    var ticks: Int
    /// What a timer's action said (a hook's exit status and first line), shown after the ticks.
    var note: String?
    /// Whether the entry is a hook's end rather than a fire.
    var isHookEnd = false
}

/// The fire log: every fire, newest last, bounded in memory (oldest dropped first).
///
/// ```swift
/// var log = FireLog(capacity: 1_000)
/// log.append(record)
/// ```
struct FireLog: Sendable {
    /// The most records kept.
    let capacity: Int
    private(set) var records: Deque<FireRecord> = []
    /// How many records were ever appended, including dropped ones.
    private(set) var totalAppended = 0
    /// How many of them were fires (not hooks' ends).
    private(set) var totalFires = 0

    /// Creates an empty log keeping at most `capacity` records.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of records kept.
    var count: Int { records.count }

    /// The record at `index`, oldest first.
    subscript(index: Int) -> FireRecord { records[index] }

    /// Appends `record`, dropping the oldest if the log is full.
    mutating func append(_ record: FireRecord) {
        if records.count == capacity { records.removeFirst() }
        records.append(record)
        totalAppended += 1
        if !record.isHookEnd { totalFires += 1 }
    }
}
