/// What one throughput run of one peer measured.
struct ThroughputResult: Codable {
    var peer: String
    var timers: Int
    /// Nanoseconds per timer to schedule (`nil` when not run).
    var scheduleNanoseconds: Double?
    /// Nanoseconds per timer to cancel all N scheduled ones (`nil` when not run, see `note`).
    var cancelNanoseconds: Double?
    /// Process CPU per timer for schedule + run until every one fired.
    var cpuPerTimerNanoseconds: Double?
    /// From the end of scheduling to the last callback (deadlines spread over 1 s).
    var lastCallbackSeconds: Double?
    /// RSS growth per scheduled timer.
    var bytesPerTimer: Double?
    /// Callbacks delivered.
    var fired: Int?
    var note: String?
}

/// Lateness of a repeating timer against its grid.
struct LatenessResult: Codable {
    var peer: String
    var intervalMicroseconds: Double
    var p50Microseconds: Double
    var p99Microseconds: Double
    var maxMicroseconds: Double
    var delivered: Int
    var gridSlots: Int
}

/// Cost of an idle 1 Hz countdown.
struct IdleResult: Codable {
    var peer: String
    var seconds: Double
    var wakeUpsPerSecond: Double
    var cpuMilliseconds: Double
    var threads: Int?
}

/// Which measurement a child process runs.
enum Measurement: String, Codable, CaseIterable {
    case fire, cancel, lateness, idle
}
