import Foundation
import TestSupport
import Testing

/// Runs the built `timerdeck-bench --quick --json` and checks that every peer and every dashboard
/// scene produced numbers. No speed is asserted: the machine is shared and other tests run at the
/// same time; this only proves the benchmark still runs end to end.
///
/// libev and libuv, which the benchmark loads at run time, are in the test requirements list: their
/// rows are real ones, never the "not installed" row of a machine without them.
@Suite("Benchmark smoke run", .tags(.benchmark, .process, .slow))
struct BenchSmokeTests {
    /// A bound for a hung run only; a quick run takes well under a minute.
    static let timeout: Duration = .seconds(240)

    /// Checks that the libraries the benchmark loads (`dlopen`) are listed and installed.
    static func requireTimerLibraries() throws {
        try TestRequirements.library("libev.so.4")
        try TestRequirements.library("libuv.so.1")
    }

    @Test(
        "--quick --json: throughput, callouts, lateness, display link, idle, async and every dashboard scene report results"
    )
    func quickRunReportsEveryPeerAndScene() throws {
        try #require(
            BuiltProduct.isBuilt("timerdeck-bench"),
            "build timerdeck-bench first: \(BuiltProduct.path("timerdeck-bench"))")
        let dashboard = RepositoryFile.path(".build/debug/timerdeck")
        try #require(
            FileManager.default.isExecutableFile(atPath: dashboard),
            "build the dashboard first, at the repository's root: swift build --product timerdeck (\(dashboard))")
        try Self.requireTimerLibraries()

        let rows = try run(BuiltProduct.path("timerdeck-bench"), ["--quick", "--json"])
        let skipped = rows.compactMap { $0["skipped"] as? String }
        #expect(skipped.isEmpty, "sections not run: \(skipped)")
        #expect(rows.contains { $0["machine"] != nil })

        let throughput = rows.filter { $0["timers"] != nil }
        #expect(
            Set(throughput.compactMap { $0["peer"] as? String }) == [
                "RunLoopKit", "RunLoopKit TimeoutSet", "Foundation", "Dispatch", "heap+nanosleep",
                "RunLoopKit DispatchTimer", "libev", "libuv", "kernel floor", "RunLoopKit sleep", "Task.sleep (global)",
            ])
        for row in throughput {
            #expect(int(row["fired"]) == int(row["timers"]) && int(row["timers"]) > 0, "every timer fired: \(row)")
        }
        let withTolerance = throughput.filter { $0["toleranceNanoseconds"] != nil }
        #expect(withTolerance.count == 6, "one run with tolerance per peer and the loop's sleepers: \(withTolerance)")
        #expect(
            throughput.filter { $0["allDue"] != nil && $0["scatterBytes"] == nil }.count == 8,
            "all due: RunLoopKit, TimeoutSet, Dispatch, the floor, libev, libuv; RunLoopKit and the floor again")
        #expect(
            throughput.filter { $0["scatterBytes"] != nil }.count == 2,
            "RunLoopKit and the floor with their timers scattered in memory")
        let atScale = throughput.filter { int($0["timers"]) == 10_000 }
        #expect(atScale.count == 6, "RunLoopKit, TimeoutSet, Dispatch, the floor, libev and libuv at scale: \(atScale)")
        for row in atScale { #expect(double(row["peakMegabytes"]) > 0, "peak memory: \(row)") }

        let sleeperRows = throughput.filter {
            ["RunLoopKit sleep", "Task.sleep (global)"].contains($0["peer"] as? String)
        }
        for row in sleeperRows where row["fired"] != nil {
            #expect(double(row["latenessP50Milliseconds"]) >= 0, "each sleeper's lateness: \(row)")
        }

        // The timer path: every operation's tail at the quick run's one population, and the loop's own counts.
        let tails = rows.filter { $0["emptyReadingNanoseconds"] != nil }
        #expect(tails.count == 2, "TimeoutSet and Timer at 4,096 pending: \(tails)")
        for row in tails {
            for operation in ["schedule", "cancel", "fire"] {
                let tail = row[operation] as? [String: Any] ?? [:]
                #expect(int(tail["count"]) > 0 && int(tail["p50"]) > 0, "\(operation) timed: \(row)")
                #expect(int(tail["p50"]) <= int(tail["p999"]) && int(tail["p999"]) <= int(tail["max"]), "\(row)")
            }
        }
        let counted = rows.filter { $0["timerfdSettings"] != nil }
        #expect(counted.count == 6, "two steady schedule + cancel runs and four of repeating timers: \(counted)")
        for row in counted where (row["workload"] as? String)?.hasPrefix("schedule") == true {
            // Not a speed: the earliest deadline moves later at each of its wake-ups, which re-arms nothing.
            #expect(
                int(row["wakeUps"]) > 0 && int(row["timerfdSettings"]) <= int(row["operations"]) / 1_000,
                "no timerfd_settime per schedule or cancel: \(row)")
        }
        for peer in ["RunLoopKit", "RunLoopKit TimeoutSet"] {
            let repeating = counted.filter { $0["peer"] as? String == peer && $0["workload"] as? String != nil }
                .filter { !(($0["workload"] as? String)?.hasPrefix("schedule") ?? true) }
            let exact = repeating.first { int($0["toleranceNanoseconds"]) == 0 }
            let tolerant = repeating.first { int($0["toleranceNanoseconds"]) > 0 }
            #expect(
                int(tolerant?["wakeUps"]) > 0 && int(tolerant?["wakeUps"]) < int(exact?["wakeUps"]),
                "tolerance lets \(peer)'s loop wake less often: \(repeating)")
        }

        // Each timer kind's callouts on a virtual loop: every one ran.
        let callouts = rows.filter { $0["callouts"] != nil }
        #expect(
            callouts.compactMap { $0["peer"] as? String } == [
                "RunLoopKit Timer", "RunLoopKit TimeoutSet", "RunLoopKit DisplayLink",
                "RunLoopKit DispatchTimer on the loop", "RunLoopKitFoundationCompat Timer", "RunLoopKit sleep",
            ])
        for row in callouts {
            #expect(int(row["fired"]) == int(row["callouts"]) && int(row["callouts"]) > 0, "every callout ran: \(row)")
            #expect(double(row["cpuPerCalloutNanoseconds"]) >= 0, "\(row)")
        }

        let lateness = rows.filter { $0["intervalMicroseconds"] != nil }
        let peers = ["kernel floor", "RunLoopKit", "Foundation", "Dispatch", "heap+nanosleep"]
        let atOneMillisecond = lateness.filter { double($0["intervalMicroseconds"]) == 1_000 }
        let atOneFrame = lateness.filter { abs(double($0["intervalMicroseconds"]) - 16_666.667) < 1 }
        #expect(Set(atOneMillisecond.compactMap { $0["peer"] as? String }) == Set(peers))
        let sleepers = ["RunLoopKit sleep", "Task.sleep (global)"]
        #expect(
            Set(atOneFrame.compactMap { $0["peer"] as? String }) == Set(peers + ["RunLoopKit DisplayLink"] + sleepers))
        for row in lateness {
            #expect(int(row["delivered"]) > 0 && int(row["gridSlots"]) > 0, "fires delivered: \(row)")
        }

        // A virtual hour (a day without --quick): every frame, timer fire and sleeper wake-up, exactly.
        let virtualHour = rows.filter { $0["simulatedSeconds"] != nil }
        #expect(virtualHour.count == 1)
        #expect(int(virtualHour.first?["displayLinkFrames"]) == 216_000, "60 frames a second: \(virtualHour)")
        #expect(int(virtualHour.first?["timerFires"]) == 26_460, "the sum of 3,600 / n for n in 1...1,000")
        #expect(int(virtualHour.first?["sleeperWakes"]) == 1_826, "the sum of 3,600 / 10n for n in 1...100")

        let idle = rows.filter { $0["wakeUpsPerSecond"] != nil && $0["scene"] == nil }
        #expect(
            Set(idle.compactMap { $0["peer"] as? String })
                == Set(peers + sleepers).subtracting(["heap+nanosleep"]))
        for row in idle {
            #expect(double(row["seconds"]) > 0 && double(row["wakeUpsPerSecond"]) > 0, "the countdown ran: \(row)")
        }

        let hops = rows.filter { $0["hops"] != nil }
        #expect(hops.count == 2 && hops.allSatisfy { int($0["hops"]) > 0 }, "job hops beside the main queue: \(hops)")
        let actorCalls = rows.filter { $0["callsPerSecond"] != nil }
        #expect(
            actorCalls.count == 3 && actorCalls.allSatisfy { double($0["callsPerSecond"]) > 0 },
            "actor calls on a loop and on the default executor: \(actorCalls)")

        let scenes = Dictionary(rows.compactMap { row in (row["scene"] as? String).map { ($0, row) } }) { first, _ in
            first
        }
        #expect(
            Set(scenes.keys) == [
                "ticker-60fps", "paused", "input", "sms-running", "clock-paused", "user-timers", "input-hook",
            ])
        if let render = scenes["ticker-60fps"] {
            #expect(int(render["frames"]) > 0 && int(render["bytes"]) > 0, "the ticker drew frames: \(render)")
            // Not a speed: each frame goes out in one write(2), not one per cursor movement (CursesScreen.start).
            #expect(double(render["writesPerFrame"]) < 3, "frames are written at once: \(render)")
        }
        if let paused = scenes["paused"] {
            #expect(double(paused["seconds"]) > 0, "\(paused)")
        }
        if let input = scenes["input"] {
            #expect(
                int(input["keys"]) > 0 && int(input["answered"]) == int(input["keys"]),
                "every key redrew the screen: \(input)")
        }
        if let input = scenes["input-hook"] {
            #expect(
                int(input["keys"]) > 0 && int(input["answered"]) == int(input["keys"]),
                "every key redrew the screen while the hook hung: \(input)")
        }
        if let userTimers = scenes["user-timers"] {
            // Context switches of either kind: on a busy machine, a debug build that has a thousand timers to
            // serve may be preempted all the window long without ever going to sleep.
            #expect(
                double(userTimers["switchesPerSecond"]) > 0 && int(userTimers["bytesWritten"]) > 0,
                "the user's timers ran and redrew: \(userTimers)")
        }
        if let clockPaused = scenes["clock-paused"] {
            #expect(double(clockPaused["seconds"]) > 0, "\(clockPaused)")
        }
        if let running = scenes["sms-running"] {
            #expect(
                int(running["bytesWritten"]) > 0 && double(running["wakeUpsPerSecond"]) > 0,
                "the SMS countdowns ran and redrew: \(running)")
        }
    }

    @Test("--write-performance-page writes the run's tables between the page's markers and keeps the rest")
    func writesThePerformancePage() throws {
        try #require(
            BuiltProduct.isBuilt("timerdeck-bench"),
            "build timerdeck-bench first: \(BuiltProduct.path("timerdeck-bench"))")
        try Self.requireTimerLibraries()
        let scratch = try ScratchDirectory(prefix: "performance-page")
        let page = scratch.path("Performance.md").path
        let before =
            "# Performance\n\nkept above\n<!-- timerdeck-bench: begin -->\nold run\n<!-- timerdeck-bench: end -->\nkept below\n"
        try before.write(toFile: page, atomically: true, encoding: .utf8)
        let arguments = ["--quick", "--throughput-only", "--write-performance-page", "--performance-page", page]
        let outcome = try ChildProcess.run(BuiltProduct.path("timerdeck-bench"), arguments, timeout: Self.timeout)
        try #require(outcome.status == 0, "\(outcome)")
        let written = try String(contentsOfFile: page, encoding: .utf8)
        #expect(written.hasPrefix("# Performance\n\nkept above\n<!-- timerdeck-bench: begin -->\n"))
        #expect(written.hasSuffix("<!-- timerdeck-bench: end -->\nkept below\n") && !written.contains("old run"))
        #expect(written.contains("`timerdeck-bench " + arguments.joined(separator: " ") + "`"), "the command")
        #expect(written.contains("| per timer | libev | libuv | RunLoopKit | RunLoopKit TimeoutSet | heap+nanosleep |"))
        #expect(!written.contains("not installed"), "libev's and libuv's rows are measured: \(written)")
        #expect(written.contains("#### Throughput: 1000 one-shot timers"), "the tables, under the page's headings")
        // The summary's spread rows are those over 1 s (1,000 timers here), not the run at scale (10,000 over 0.1 s).
        #expect(written.contains("| 1k: CPU per timer, schedule + run until all fired, ns |"), "\(written)")
        #expect(written.contains("| 10k: insert all, s |"))

        // A page without the markers is refused before anything is measured, and left as it was.
        let bare = scratch.path("Bare.md").path
        try "# Performance\n".write(toFile: bare, atomically: true, encoding: .utf8)
        let refused = try ChildProcess.run(
            BuiltProduct.path("timerdeck-bench"), ["--quick", "--write-performance-page", "--performance-page", bare],
            timeout: Self.timeout)
        #expect(refused.status != 0 && "\(refused)".contains("<!-- timerdeck-bench: begin -->"), "\(refused)")
        #expect(try String(contentsOfFile: bare, encoding: .utf8) == "# Performance\n")
    }

    /// Runs `executable` (killed after ``timeout``) and returns its JSON lines.
    private func run(_ executable: String, _ arguments: [String]) throws -> [[String: Any]] {
        let outcome = try ChildProcess.run(executable, arguments, timeout: Self.timeout)
        try #require(outcome.status == 0, "timerdeck-bench --quick --json ended: \(outcome)")
        return try outcome.output.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    private func int(_ value: Any?) -> Int {
        (value as? NSNumber)?.intValue ?? -1
    }

    private func double(_ value: Any?) -> Double {
        (value as? NSNumber)?.doubleValue ?? -1
    }
}
