import ArgumentParser
import Foundation

/// `timerdeck-bench`: RunLoopKit side by side with Foundation, libdispatch and the kernel floors.
///
/// Every measurement of every peer runs in a fresh child process (this executable with `--child`),
/// one after the other, so memory slopes and wake-up counts belong to that peer alone.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerdeck-bench",
        abstract: "Measure RunLoopKit against Foundation, libdispatch and the kernel floors in one run.")

    @Flag(help: "Small sizes and short runs: a smoke test, no thresholds.")
    var quick = false

    @Flag(help: "Print JSON lines instead of tables.")
    var json = false

    @Flag(help: "Only the rows of timers at scale: every deadline due at once, 10M timers, scattered timers.")
    var scaleOnly = false
    @Flag(help: "Only the rows of one-shot timers: fired and cancelled, at scale, and with tolerance.")
    var throughputOnly = false
    @Flag(help: "Only the async section: sleeping tasks, job hops and actor calls.")
    var asyncOnly = false
    @Flag(help: "Only the virtual day: 24 h of a display link, 1,000 timers and 100 sleeping tasks, simulated.")
    var virtualDayOnly = false
    @Flag(help: "Only the CPU per callout of each RunLoopKit timer kind on a virtual loop.")
    var calloutsOnly = false
    @Flag(
        help:
            "Only the timer path: the tails of schedule, cancel and fire at 4k to 1M pending, and the loop's own counts of timerfd settings and wake-ups."
    )
    var timerPathOnly = false
    @Flag(
        help: ArgumentHelp(
            "Write the run's tables into Docs/Performance.md, between its marker lines.",
            discussion:
                "Adds a summary of every timer peer side by side and this command. Run it from the package's root."))
    var writePerformancePage = false
    @Option(help: "The page --write-performance-page writes.")
    var performancePage = PerformancePage.defaultPath

    @Option(help: .hidden)
    var child: String?

    static func peer(named name: String) -> (any Peer.Type)? {
        switch name {
        case RunLoopKitPeer.name: RunLoopKitPeer.self
        case FoundationPeer.name: FoundationPeer.self
        case DispatchPeer.name: DispatchPeer.self
        case KernelFloor.name: KernelFloor.self
        case HeapSleepFloor.name: HeapSleepFloor.self
        case DispatchTimerPeer.name: DispatchTimerPeer.self
        case LoopSleepPeer.name: LoopSleepPeer.self
        case TaskSleepPeer.name: TaskSleepPeer.self
        default: nil
        }
    }

    /// The peer named `name` among those measured in the throughput rows only, or any peer.
    static func throughputPeer(named name: String) -> (any ThroughputPeer.Type)? {
        switch name {
        case TimeoutSetPeer.name: TimeoutSetPeer.self
        case LibevPeer.name: LibevPeer.self
        case LibuvPeer.name: LibuvPeer.self
        default: peer(named: name)
        }
    }

    /// The throughput runs with tolerance: 1 ms and 100 ms (Apple's advice, about a tenth of an
    /// interval) at 100k and 1M timers.
    static let toleranceRuns = [
        (100_000, 1_000_000), (100_000, 100_000_000), (1_000_000, 1_000_000), (1_000_000, 100_000_000),
    ]

    func run() throws {
        if let child {
            try runChild(child)
            return
        }
        if writePerformancePage && json {
            throw ValidationError("--write-performance-page writes the tables: leave out --json")
        }
        // The page is read and checked first: a run of many minutes does not end in a refusal.
        let page =
            writePerformancePage
            ? try PerformancePage(path: performancePage, section: timerPathOnly ? .timerPath : .full) : nil
        let report = Report(json: json)
        try measure(report)
        if let page {
            let command = (["timerdeck-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            try page.write(report.transcript, command: command)
        }
    }

    /// Runs the measurements the flags ask for, printing each table as it is done.
    private func measure(_ report: Report) throws {
        report.machine()
        guard !asyncOnly else { return try runAsync(report) }
        // A virtual day (an hour with --quick): what simulating it costs.
        let virtualDay = { try report.virtualDay(spawn("virtualday", "RunLoopKit", quick ? 1 : 24)) as Void }
        guard !virtualDayOnly else { return try virtualDay() }
        // Each timer kind's callouts on a virtual loop: the work of one callout, with no waiting.
        let callouts = {
            report.callouts(
                try CalloutBench.Kind.allCases.map { try spawn("callouts", $0.rawValue, quick ? 1_000 : 1_000_000) })
        }
        guard !calloutsOnly else { return try callouts() }
        guard !timerPathOnly else { return try timerPath(report) }
        let sizes = quick ? [1_000] : [1_000, 100_000, 1_000_000]
        // RunLoopKit's two timer APIs: Timer objects and the object-free TimeoutSet.
        let peers = [
            RunLoopKitPeer.name, TimeoutSetPeer.name, FoundationPeer.name, DispatchPeer.name, HeapSleepFloor.name,
        ]
        if !scaleOnly {
            for size in sizes {
                // RunLoopKit's DispatchTimer on a queue beside the bare Dispatch it wraps, the C event
                // loops (libev and libuv, when installed) on the same deadlines, and the kernel's own
                // cost of one timerfd wake-up per deadline.
                let rows = try (peers + [DispatchTimerPeer.name, LibevPeer.name, LibuvPeer.name, KernelFloor.name]).map
                {
                    try firedAndCancelled($0, size)
                }
                report.throughput(rows)
            }
        }
        try scaleRows(report, size: sizes.last ?? 1_000)
        guard !scaleOnly else { return }
        // The same runs with tolerance (leeway) on every timer: how well each coalesces wake-ups.
        for (size, tolerance) in quick ? [(1_000, 1_000_000)] : Self.toleranceRuns {
            // Sleeping tasks too: a sleep's tolerance is its timer's.
            let rows: [ThroughputResult] = try (peers + [LoopSleepPeer.name]).map { peer in
                var row: ThroughputResult = try spawn("fire", peer, size, tolerance)
                row.toleranceNanoseconds = Int64(tolerance)
                return row
            }
            report.throughput(rows, tolerance: Int64(tolerance))
        }
        try callouts()
        try timerPath(report)
        guard !throughputOnly else { return }
        let seconds: Int64 = quick ? 500_000_000 : 3_000_000_000
        let runs = quick ? 1 : 3
        for interval: Int64 in [1_000_000, 16_666_667] {
            // Each measurement, then every measurement again: the runs of all peers interleave, so a
            // noisy spell of the machine falls on all of them rather than on one peer's three runs.
            var measurements: [() throws -> LatenessResult] = [
                KernelFloor.name, RunLoopKitPeer.name, FoundationPeer.name, DispatchPeer.name, HeapSleepFloor.name,
            ]
            .map { peer in { try spawn("lateness", peer, Int(interval), Int(seconds)) } }
            if interval == 16_666_667 {
                // The display link at 60 Hz, next to the timerfd floor at the same period.
                measurements.insert({ try spawn("displaylink", RunLoopKitPeer.name, 60, Int(seconds)) }, at: 2)
            }
            var runsByMeasurement = Array(repeating: [LatenessResult](), count: measurements.count)
            for _ in 0..<runs {
                for (index, measure) in measurements.enumerated() { runsByMeasurement[index].append(try measure()) }
            }
            let rows = runsByMeasurement.map(Self.median)
            report.lateness(rows)
        }
        let idleSeconds: Int64 = quick ? 2 : 20
        let idle: [IdleResult] = try [KernelFloor.name, RunLoopKitPeer.name, FoundationPeer.name, DispatchPeer.name]
            .map { try spawn("idle", $0, Int(idleSeconds * Nanoseconds.perSecond)) }
        report.idle(idle)
        try runAsync(report)
        try virtualDay()
        guard DashboardSession.binary() != nil else {
            report.skipped(
                "dashboard in a pseudo-terminal: not run, no timerdeck in .build/\(DashboardSession.configuration)/ "
                    + "(build it first at the repository's root: swift build -c \(DashboardSession.configuration) --product timerdeck)"
            )
            return
        }
        let plan: DashboardPeer.Plan = quick ? .quick : .full
        let dashboard: DashboardResult = try spawn("dashboard", DashboardPeer.name, plan.arguments)
        report.dashboard(dashboard)
    }

    /// The timer path: each operation's tails at four populations, schedule + cancel pairs in
    /// steady state and 100,000 repeating timers with and without tolerance, with the loop's counts.
    private func timerPath(_ report: Report) throws {
        let populations = quick ? [4_096] : TailsBench.populations
        let operations = quick ? 10_000 : 200_000
        let tails: [TailsResult] = try TailsBench.Kind.allCases.flatMap { kind in
            try populations.map { try spawn("tails", kind.rawValue, $0, operations) }
        }
        report.tails(tails)
        let pairs = quick ? 2_000 : 100_000
        var counted: [KernelTimerResult] = try TailsBench.Kind.allCases.map {
            try spawn("steadypairs", $0.rawValue, pairs)
        }
        let (timers, duration) = quick ? (1_000, 300_000_000) : (100_000, 3_000_000_000)
        let interval = 100_000_000
        for kind in TailsBench.Kind.allCases {
            for tolerance in [0, interval / 10] {
                counted.append(try spawn("coalescing", kind.rawValue, timers, interval, tolerance, duration))
            }
        }
        report.kernelTimer(counted)
    }

    /// The rows of timers at scale: the work per timer with every deadline due at once, 10M timers
    /// over 10 s (10 000 over 0.1 s with `--quick`), and timers scattered over memory.
    private func scaleRows(_ report: Report, size: Int) throws {
        // Every deadline due at once: the work per timer with no waiting in it (with deadlines spread
        // over a second, a loop that is awake all second shows the spread, not the work).
        let allDue: [ThroughputResult] = try [
            RunLoopKitPeer.name, TimeoutSetPeer.name, DispatchPeer.name, HeapSleepFloor.name, LibevPeer.name,
            LibuvPeer.name,
        ].map {
            var row: ThroughputResult = try spawn("fire", $0, size, 0, 1)
            row.allDue = true
            return row
        }
        report.throughput(allDue, allDue: true)
        let (scale, spread) = quick ? (10_000, 100_000_000) : (10_000_000, 10_000_000_000)
        let scaled = try [
            RunLoopKitPeer.name, TimeoutSetPeer.name, DispatchPeer.name, HeapSleepFloor.name, LibevPeer.name,
            LibuvPeer.name,
        ].map {
            try firedAndCancelled($0, scale, spread: spread)
        }
        report.throughput(scaled, spread: spread)
        // The same work with 256 bytes of other objects allocated between consecutive timers.
        let scattered: [ThroughputResult] = try [RunLoopKitPeer.name, HeapSleepFloor.name].flatMap { peer in
            try [0, 256].map { scatter in
                var row: ThroughputResult = try spawn("fire", peer, size, 0, 1, scatter)
                row.allDue = true
                return row
            }
        }
        report.throughput(scattered, allDue: true)
    }

    /// The fire run of `peer` with the cancel run's figures merged in.
    private func firedAndCancelled(_ peer: String, _ size: Int, spread: Int = 1_000_000_000) throws
        -> ThroughputResult
    {
        var fired: ThroughputResult = try spawn("fire", peer, size, 0, spread)
        let cancelled: ThroughputResult = try spawn("cancel", peer, size)
        fired.cancelNanoseconds = cancelled.cancelNanoseconds
        fired.rescheduleLaterNanoseconds = cancelled.rescheduleLaterNanoseconds
        fired.note = [fired.note, cancelled.note].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
        return fired
    }

    /// RunLoopKit in async code: tasks sleeping on a loop's clock beside the same number of loop
    /// timers and of `Task.sleep` on the global executor; a repeating sleep's lateness beside the
    /// timerfd floor; job hops beside the main queue; actor calls beside the default executor.
    private func runAsync(_ report: Report) throws {
        let sleepers = [LoopSleepPeer.name, RunLoopKitPeer.name, TaskSleepPeer.name]
        for size in quick ? [1_000] : [1_000, 100_000] {
            let rows: [ThroughputResult] = try sleepers.map { peer in
                var fired: ThroughputResult = try spawn("fire", peer, size)
                let cancelled: ThroughputResult = try spawn("cancel", peer, size)
                fired.cancelNanoseconds = cancelled.cancelNanoseconds
                return fired
            }
            report.throughput(rows)
        }
        let interval = 16_666_667
        let seconds = quick ? 500_000_000 : 3_000_000_000
        let peers = [KernelFloor.name, RunLoopKitPeer.name, LoopSleepPeer.name, TaskSleepPeer.name]
        var runsByPeer = Array(repeating: [LatenessResult](), count: peers.count)
        for _ in 0..<(quick ? 1 : 3) {
            for (index, peer) in peers.enumerated() {
                runsByPeer[index].append(try spawn("lateness", peer, interval, seconds))
            }
        }
        report.lateness(runsByPeer.map(Self.median))
        let idleSeconds = quick ? 2 : 20
        report.idle(
            try [LoopSleepPeer.name, TaskSleepPeer.name].map {
                try spawn("idle", $0, idleSeconds * Int(Nanoseconds.perSecond))
            })
        let hops = quick ? 200 : 5_000
        report.hops([try spawn("hop", "loop", hops), try spawn("hop", "main", hops)])
        let calls = quick ? 10_000 : 1_000_000
        report.actorCalls(
            try ["loop", "loop-actor", "default"].map { try spawn("actor", $0, calls) })
    }

    /// Of several runs of one lateness measurement, the one with the median p99, carrying every run's p99.
    private static func median(_ runs: [LatenessResult]) -> LatenessResult {
        let results = runs.sorted { $0.p99Microseconds < $1.p99Microseconds }
        var middle = results[results.count / 2]
        if results.count > 1 { middle.runsP99Microseconds = results.map(\.p99Microseconds) }
        return middle
    }

    /// Runs one measurement in a child process and decodes its JSON line.
    private func spawn<Result: Decodable>(_ measurement: String, _ peer: String, _ arguments: Int...) throws -> Result {
        try spawn(measurement, peer, arguments)
    }

    private func spawn<Result: Decodable>(_ measurement: String, _ peer: String, _ arguments: [Int]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        }
        let spec = ([measurement, peer] + arguments.map(String.init)).joined(separator: ",")
        process.arguments = ["--child", spec]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("child \(spec) failed with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Result.self, from: data)
    }

    private func runChild(_ spec: String) throws {
        let parts = spec.split(separator: ",").map(String.init)
        guard parts.count >= 3, let measurement = Measurement(rawValue: parts[0]) else {
            throw ValidationError("bad child spec \(spec)")
        }
        let numbers = parts.dropFirst(2).compactMap { Int64($0) }
        let encoder = JSONEncoder()
        let data: Data
        switch (measurement, Self.peer(named: parts[1])) {
        case (.fire, _):
            guard let peer = Self.throughputPeer(named: parts[1]) else {
                throw ValidationError("bad child spec \(spec)")
            }
            data = try encoder.encode(
                peer.fire(
                    count: Int(numbers[0]), spread: numbers.count > 2 ? numbers[2] : 1_000_000_000,
                    tolerance: numbers.count > 1 ? numbers[1] : 0, scatter: numbers.count > 3 ? Int(numbers[3]) : 0))
        case (.cancel, _):
            guard let peer = Self.throughputPeer(named: parts[1]) else {
                throw ValidationError("bad child spec \(spec)")
            }
            data = try encoder.encode(peer.cancel(count: Int(numbers[0])))
        case (.lateness, let peer?):
            data = try encoder.encode(peer.lateness(interval: numbers[0], duration: numbers[1]))
        case (.idle, let peer?): data = try encoder.encode(peer.idle(duration: numbers[0]))
        case (.displayLink, _):
            data = try encoder.encode(RunLoopKitPeer.displayLink(refreshRate: Int(numbers[0]), duration: numbers[1]))
        case (.hop, _):
            let count = Int(numbers[0])
            data = try encoder.encode(
                parts[1] == "loop" ? HopBench.loopJobs(count: count) : HopBench.mainQueueBlocks(count: count))
        case (.actorCalls, _):
            let calls = Int(numbers[0])
            data = try encoder.encode(
                parts[1] == "default"
                    ? ActorBench.defaultExecutor(calls: calls)
                    : ActorBench.loop(calls: calls, fromActor: parts[1] == "loop-actor"))
        case (.callouts, _):
            guard let kind = CalloutBench.Kind(rawValue: parts[1]) else {
                throw ValidationError("bad child spec \(spec)")
            }
            data = try encoder.encode(CalloutBench.run(kind, count: Int(numbers[0])))
        case (.tails, _):
            guard let kind = TailsBench.Kind(rawValue: parts[1]) else {
                throw ValidationError("bad child spec \(spec)")
            }
            data = try encoder.encode(TailsBench.run(kind, population: Int(numbers[0]), operations: Int(numbers[1])))
        case (.steadyPairs, _):
            guard let kind = TailsBench.Kind(rawValue: parts[1]) else {
                throw ValidationError("bad child spec \(spec)")
            }
            data = try encoder.encode(KernelTimerBench.steadyPairs(kind, pairs: Int(numbers[0])))
        case (.coalescing, _):
            guard let kind = TailsBench.Kind(rawValue: parts[1]) else {
                throw ValidationError("bad child spec \(spec)")
            }
            data = try encoder.encode(
                KernelTimerBench.coalescing(
                    kind, timers: Int(numbers[0]), interval: numbers[1], tolerance: numbers[2], duration: numbers[3]))
        case (.virtualDay, _):
            data = try encoder.encode(VirtualDayBench.run(hours: Int(numbers[0])))
        case (.dashboard, _):
            guard let plan = DashboardPeer.Plan(arguments: numbers), let binary = DashboardSession.binary() else {
                throw ValidationError("bad child spec \(spec), or no timerdeck next to this executable")
            }
            data = try encoder.encode(DashboardPeer.measure(binary: binary, plan: plan))
        default: throw ValidationError("bad child spec \(spec)")
        }
        FileHandle.standardOutput.write(data)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
