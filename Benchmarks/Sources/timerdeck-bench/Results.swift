/// What one throughput run of one peer measured.
struct ThroughputResult: Codable {
    var peer: String
    var timers: Int
    /// Nanoseconds per timer to schedule (`nil` when not run).
    var scheduleNanoseconds: Double?
    /// Nanoseconds per timer to cancel all N scheduled ones (`nil` when not run, see `note`).
    var cancelNanoseconds: Double?
    /// Nanoseconds per timer to move each of the N scheduled ones one second later, before the
    /// cancel (`nil` when the peer has no such call or it was not run).
    var rescheduleLaterNanoseconds: Double?
    /// Process CPU per timer for schedule + run until every one fired.
    var cpuPerTimerNanoseconds: Double?
    /// From the end of scheduling to the last callback (deadlines spread over 1 s).
    var lastCallbackSeconds: Double?
    /// From the last deadline to the last callback, in milliseconds: how far the peer fell behind.
    var lagMilliseconds: Double?
    /// RSS growth per scheduled timer.
    var bytesPerTimer: Double?
    /// The child process's peak RSS, in MB (the whole process: runtime, timers, the benchmark's own arrays).
    var peakMegabytes: Double?
    /// Callbacks delivered.
    var fired: Int?
    /// The tolerance (leeway) of every timer, in nanoseconds (`nil`: none).
    var toleranceNanoseconds: Int64?
    /// Whether every deadline was due at once (`nil`: spread over a second).
    var allDue: Bool?
    /// Bytes allocated (and kept) between consecutive timers, scattering them over memory (`nil`: none).
    var scatterBytes: Int?
    /// The median and 99th percentile of each callback's lateness behind its deadline, in
    /// milliseconds (`nil`: not measured; the sleeper rows measure it).
    var latenessP50Milliseconds: Double?
    var latenessP99Milliseconds: Double?
    var note: String?

    /// Sets the lateness percentiles from each callback's lateness in nanoseconds.
    mutating func setLateness(_ lateness: [Int64]) {
        let distribution = Distribution(lateness)
        latenessP50Milliseconds = Double(distribution.percentile(0.5)) / 1e6
        latenessP99Milliseconds = Double(distribution.percentile(0.99)) / 1e6
    }
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
    /// The p99 of each run when the row stands for several (the row is the run with the median p99).
    var runsP99Microseconds: [Double]?
}

/// Cost of an idle 1 Hz countdown.
struct IdleResult: Codable {
    var peer: String
    var seconds: Double
    var wakeUpsPerSecond: Double
    var cpuMilliseconds: Double
    var threads: Int?
}

/// The dashboard idle in a pseudo-terminal: every timer paused, or the three SMS countdowns running.
struct DashboardIdleResult: Codable {
    var peer: String
    /// "paused" or "sms-running".
    var scene: String
    var seconds: Double
    /// Voluntary context switches per second, all threads (each is a sleep, so a wake-up follows),
    /// plus one for each thread that ended in the window.
    var wakeUpsPerSecond: Double
    /// Those of the main (run loop) thread.
    var mainThreadWakeUpsPerSecond: Double
    /// Voluntary + involuntary switches per second (preemptions depend on the machine's load).
    var switchesPerSecond: Double
    var cpuMilliseconds: Double
    var threads: Int
    /// Threads that ended during the window (each counted as one wake-up).
    var threadsEnded: Int
    /// Bytes the dashboard wrote to the terminal during the window.
    var bytesWritten: Int
}

/// The dashboard drawing its ticker (a 60 Hz display link) in a pseudo-terminal.
struct DashboardRenderResult: Codable {
    var peer: String
    var scene: String
    var seconds: Double
    /// The display link's rate.
    var framesPerSecond: Int
    /// Screen updates seen on the terminal (bursts of output at least 4 ms apart).
    var frames: Int
    var bytes: Int
    var bytesPerFrame: Double
    /// write(2) calls of the dashboard per screen update (1 when each frame goes out in one write).
    var writesPerFrame: Double
    /// CPU of all the dashboard's threads, in % of one core.
    var cpuPercent: Double
    var wakeUpsPerSecond: Double
}

/// Time from a key written to the terminal to the first byte of the screen update it causes.
struct InputLatencyResult: Codable {
    var peer: String
    var scene: String
    /// Keys typed and keys that updated the screen.
    var keys: Int
    var answered: Int
    var p50Microseconds: Double
    var p99Microseconds: Double
    var maxMicroseconds: Double
}

/// Every scene of one dashboard run.
struct DashboardResult: Codable {
    var render: DashboardRenderResult
    var paused: DashboardIdleResult
    var input: InputLatencyResult
    var running: DashboardIdleResult
    /// The countdowns' scene with the dashboard's clock paused (`space`).
    var clockPaused: DashboardIdleResult
    /// A dashboard with 1,000 of the user's timers at 1 Hz.
    var userTimers: DashboardIdleResult
    /// Input latency while a timer's hook hangs.
    var inputWithHook: InputLatencyResult
    /// The dashboard's exit status after `q` (0 when it quit cleanly).
    var exitStatus: Int32
}

/// Latency of handing work from another thread to a sleeping loop.
struct HopResult: Codable {
    var peer: String
    var hops: Int
    var p50Microseconds: Double
    var p99Microseconds: Double
    var maxMicroseconds: Double
}

/// An actor's method called in a loop from a task.
struct ActorCallsResult: Codable {
    var peer: String
    var calls: Int
    var seconds: Double
    var callsPerSecond: Double
    var cpuMilliseconds: Double
}

/// Which measurement a child process runs.
enum Measurement: String, Codable, CaseIterable {
    case fire, cancel, lateness, idle
    case displayLink = "displaylink"
    case dashboard
    case hop
    case actorCalls = "actor"
    case virtualDay = "virtualday"
    case callouts
    case tails
    case steadyPairs = "steadypairs"
    case coalescing
}
