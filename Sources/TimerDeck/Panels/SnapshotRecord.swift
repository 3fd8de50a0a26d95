internal import FoundationEssentials
import RunLoopKit
import Uploads

/// A snapshot of the dashboard as one JSON object (`timerdeck --headless --json`): the loop, every
/// row with its mode, state and next fire, and the uploads. Times are nanoseconds since the
/// dashboard started on its clock, as in the trace; `Docs/Manual.md` lists the fields.
struct SnapshotRecord: Encodable, Equatable {
    struct Row: Encodable, Equatable {
        var name: String
        var mechanism: String
        var mode: String?
        var state: String
        var nextFireNs: Int64?
        var latenessNs: Int64?
        var missedTicks: Int
        var button: String?
        /// An alarm's local time or date.
        var alarmAt: String?
        /// A stopwatch's time run and its laps' splits.
        var elapsedNs: Int64?
        var lapSplitsNs: [Int64]?

        enum CodingKeys: String, CodingKey {
            case name, mechanism, mode, state, button
            case alarmAt = "alarm_at"
            case elapsedNs = "elapsed_ns"
            case lapSplitsNs = "lap_splits_ns"
            case nextFireNs = "next_fire_ns"
            case latenessNs = "lateness_ns"
            case missedTicks = "missed_ticks"
        }
    }

    struct Uploads: Encodable, Equatable {
        var sink: String
        var pendingSamples: Int
        var pendingBatches: Int
        var rejectedBatches: Int
        var parkedSamples: Int
        var deliveredThisRun: Int
        var unsavedSamples: Int
        var droppedSamples: Int
        var problem: String?
        var lastStatus: Int?
        var lastError: String?

        enum CodingKeys: String, CodingKey {
            case sink, problem
            case pendingSamples = "pending_samples"
            case pendingBatches = "pending_batches"
            case rejectedBatches = "rejected_batches"
            case parkedSamples = "parked_samples"
            case lastStatus = "last_status"
            case lastError = "last_error"
            case deliveredThisRun = "delivered_this_run"
            case unsavedSamples = "unsaved_samples"
            case droppedSamples = "dropped_samples"
        }
    }

    var time: Int64
    var mode: String?
    var depth: Int
    var commonModes: [String]
    var paused: Bool
    var rate: String
    var fires: Int
    var hint: String?
    var rows: [Row]
    var uploads: Uploads?

    enum CodingKeys: String, CodingKey {
        case mode, depth, paused, rate, fires, hint, rows, uploads
        case time = "t_ns"
        case commonModes = "common_modes"
    }

    /// The record of `snapshot`.
    init(_ snapshot: DashboardSnapshot) {
        let loop = snapshot.loop
        let state = snapshot.state
        let since = { (instant: Instant) in loop.startTime.duration(to: instant).nanoseconds }
        time = since(loop.now)
        mode = loop.mode?.rawValue
        depth = loop.depth
        commonModes = loop.commonModes.map(\.rawValue)
        paused = state.time?.isPaused ?? false
        rate = (state.time?.rate ?? .normal).label
        fires = state.log.totalFires
        hint = state.hint
        rows = state.rows.map { row in
            let display = snapshot.displayState(of: row)
            let scheduled = display == .running || display == .waitingForMode
            let next = scheduled ? snapshot.reading(of: row).nextFire : nil
            return Row(
                name: row.name, mechanism: row.mechanismName, mode: row.mode?.rawValue, state: display.description,
                nextFireNs: next.flatMap { $0 == .distantFuture ? nil : since($0) },
                latenessNs: row.lastLateness?.nanoseconds, missedTicks: row.missedTicks, button: row.button?.label,
                alarmAt: row.kind.isAlarm ? row.alarmTime.text : nil,
                elapsedNs: row.stopwatch?.elapsed(at: loop.now).nanoseconds,
                lapSplitsNs: row.stopwatch?.splits.map(\.nanoseconds))
        }
        uploads = state.uploadsLabel.map { sink in
            let status = state.uploads
            let counters = status?.counters
            return Uploads(
                sink: sink, pendingSamples: counters?.pendingSamples ?? 0,
                pendingBatches: counters?.pendingBatches ?? 0,
                rejectedBatches: counters?.rejectedBatches ?? 0, parkedSamples: counters?.parkedSamples ?? 0,
                deliveredThisRun: status?.deliveredThisRun ?? 0, unsavedSamples: status?.unsaved?.count ?? 0,
                droppedSamples: counters?.droppedSamples ?? 0, problem: status?.problem,
                lastStatus: status?.lastAttempt?.statusCode,
                lastError: status?.lastAttempt?.error?.description)
        }
    }

    /// The record as one line of JSON, its keys sorted.
    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else {
            preconditionFailure("SnapshotRecord: strings, numbers and bools always encode")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
