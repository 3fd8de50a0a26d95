import Glibc

/// Process-wide resource readings around a measurement.
struct ResourceUsage {
    /// User + system CPU time of all threads, in nanoseconds.
    var cpuNanoseconds: Int64
    /// Voluntary context switches of all threads (each is a wake-up after a sleep).
    var voluntarySwitches: Int
    /// Resident set size in bytes.
    var residentBytes: Int
    /// The largest resident set size of the process so far, in bytes.
    var peakResidentBytes: Int

    static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * Nanoseconds.perSecond
            + (Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)) * Nanoseconds.perMicrosecond
        return ResourceUsage(
            cpuNanoseconds: cpu, voluntarySwitches: usage.ru_nvcsw, residentBytes: currentResidentBytes(),
            peakResidentBytes: usage.ru_maxrss * 1_024)
    }

    /// Current (not peak) RSS from /proc/self/statm.
    private static func currentResidentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, 128, file) != nil else { return 0 }
        let fields = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Monotonic time in nanoseconds.
@inline(__always)
func monotonicNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Nanoseconds.of(spec)
}

/// Percentiles of a sample of nanosecond values.
struct Distribution {
    let sorted: [Int64]

    init(_ values: [Int64]) {
        sorted = values.sorted()
    }

    func percentile(_ p: Double) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let index = min(Int((Double(sorted.count - 1) * p).rounded()), sorted.count - 1)
        return sorted[index]
    }

    var max: Int64 { sorted.last ?? 0 }
}

/// A deterministic spread of deadlines (SplitMix64), the same for every peer.
struct DeadlineSpread {
    private var state: UInt64 = 0x5EED
    /// The largest offset handed out so far: the last deadline's distance from the origin.
    private(set) var latest: Int64 = 0

    mutating func next(below bound: Int64) -> Int64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let offset = Int64((z ^ (z >> 31)) % UInt64(bound))
        latest = max(latest, offset)
        return offset
    }

    /// Milliseconds from the last deadline (taken from `origin`) to `lastCallback`: how far a peer
    /// fell behind its deadlines. Deadlines already due when scheduling ended make "last callback
    /// after scheduling" look better than it is; this does not.
    func lagMilliseconds(origin: Int64, lastCallback: Int64) -> Double {
        Nanoseconds.milliseconds(lastCallback - (origin + latest))
    }
}
