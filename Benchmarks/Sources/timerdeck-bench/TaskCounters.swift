import Foundation

/// Context switches and CPU time of every thread of another process, read from
/// `/proc/<pid>/task/<tid>/status` and `…/schedstat` (nanosecond CPU time), and its write calls.
///
/// A voluntary switch is the thread going to sleep, so voluntary switches count wake-ups; an
/// involuntary one is a preemption (another task took the CPU), which depends on the machine's load.
/// A thread that ends between two readings takes its last counts with it: the difference is then a
/// lower bound, and ``Difference/threadsEnded`` says so.
struct TaskCounters {
    /// One thread's counters.
    struct Thread {
        var voluntarySwitches = 0
        var involuntarySwitches = 0
        var cpuNanoseconds: Int64 = 0
    }

    /// What happened between two readings.
    struct Difference {
        var voluntarySwitches = 0
        var involuntarySwitches = 0
        var cpuNanoseconds: Int64 = 0
        /// Voluntary switches of the main thread (the run loop's).
        var mainThreadVoluntarySwitches = 0
        /// Threads alive at the second reading.
        var threads = 0
        /// Threads that ended in between (their last switches are not counted).
        var threadsEnded = 0
        /// write(2)-family calls of the whole process.
        var writeCalls = 0

        /// Wake-ups: voluntary switches, plus one for each thread that ended (a thread ends after
        /// waking up, and its last switch went with it).
        var wakeUps: Int { voluntarySwitches + threadsEnded }
    }

    let pid: Int32
    /// By thread id.
    var threads: [Int32: Thread] = [:]
    /// write(2)-family calls of the whole process (`syscw` in `/proc/<pid>/io`, ended threads included).
    var writeCalls = 0

    /// Reads every thread of `pid` now.
    init(pid: Int32) {
        self.pid = pid
        let directory = "/proc/\(pid)/task"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let tid = Int32(name), let status = Self.contents("\(directory)/\(name)/status") else { continue }
            var thread = Thread()
            for line in status.split(separator: "\n") {
                if line.hasPrefix("voluntary_ctxt_switches:") { thread.voluntarySwitches = Self.lastNumber(line) }
                if line.hasPrefix("nonvoluntary_ctxt_switches:") { thread.involuntarySwitches = Self.lastNumber(line) }
            }
            // schedstat: "<ns on the CPU> <ns waiting for it> <time slices>".
            if let schedstat = Self.contents("\(directory)/\(name)/schedstat"),
                let running = schedstat.split(separator: " ").first.flatMap({ Int64($0) })
            {
                thread.cpuNanoseconds = running
            }
            threads[tid] = thread
        }
        if let io = Self.contents("/proc/\(pid)/io"),
            let line = io.split(separator: "\n").first(where: { $0.hasPrefix("syscw:") })
        {
            writeCalls = Self.lastNumber(line)
        }
    }

    /// The counts since `earlier`; a thread started in between counts from zero.
    func since(_ earlier: TaskCounters) -> Difference {
        var difference = Difference(threads: threads.count)
        for (tid, now) in threads {
            let before = earlier.threads[tid] ?? Thread()
            difference.voluntarySwitches += now.voluntarySwitches - before.voluntarySwitches
            difference.involuntarySwitches += now.involuntarySwitches - before.involuntarySwitches
            difference.cpuNanoseconds += now.cpuNanoseconds - before.cpuNanoseconds
            if tid == pid { difference.mainThreadVoluntarySwitches = now.voluntarySwitches - before.voluntarySwitches }
        }
        difference.threadsEnded = earlier.threads.keys.filter { threads[$0] == nil }.count
        difference.writeCalls = writeCalls - earlier.writeCalls
        return difference
    }

    private static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    private static func lastNumber(_ line: Substring) -> Int {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { Int($0) } ?? 0
    }
}
