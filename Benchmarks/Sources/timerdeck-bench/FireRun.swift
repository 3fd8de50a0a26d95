/// The readings of one throughput run: taken at its start, when every timer is scheduled and
/// when the last has fired; ``result(peer:after:lastCallback:deadlines:fired:)`` turns them into its row.
struct FireRun {
    let count: Int
    /// Bytes allocated and kept after each timer (``interleave()``), 0 for none.
    let scatter: Int
    /// What ``interleave()`` allocated, kept until the run ends.
    private var fillers: [[UInt8]] = []
    let before = ResourceUsage.now()
    let start = monotonicNanoseconds()
    private var scheduled: Int64 = 0
    private var memory = 0

    /// Starts the run of `count` timers, with `scatter` bytes of other objects between them: CPU,
    /// memory and the clock are read now.
    init(count: Int, scatter: Int = 0) {
        self.count = count
        self.scatter = scatter
        if scatter > 0 { fillers.reserveCapacity(count) }
    }

    /// After a timer is made: allocates `scatter` bytes that stay alive, so that consecutive timers
    /// lie apart in memory, as in a program that allocates other things between them (Go #53953).
    mutating func interleave() {
        guard scatter > 0 else { return }
        fillers.append([UInt8](repeating: 1, count: scatter))
    }

    /// Every timer is scheduled: the clock and the memory grown since the start.
    mutating func scheduledAll() {
        scheduled = monotonicNanoseconds()
        memory = ResourceUsage.now().residentBytes - before.residentBytes
    }

    /// The row: per-timer schedule time, CPU (until `after`) and bytes, the last callback's time
    /// after scheduling and behind the last of `deadlines`.
    func result(
        peer: String, after: ResourceUsage, lastCallback: Int64, deadlines: DeadlineSpread, fired: Int
    ) -> ThroughputResult {
        ThroughputResult(
            peer: peer, timers: count, scheduleNanoseconds: Double(scheduled - start) / Double(count),
            cpuPerTimerNanoseconds: Double(after.cpuNanoseconds - before.cpuNanoseconds) / Double(count),
            lastCallbackSeconds: Nanoseconds.seconds(lastCallback - scheduled),
            lagMilliseconds: deadlines.lagMilliseconds(origin: start, lastCallback: lastCallback),
            bytesPerTimer: Double(memory) / Double(count), peakMegabytes: Double(after.peakResidentBytes) / 1e6,
            fired: fired, scatterBytes: scatter > 0 ? scatter : nil)
    }
}
