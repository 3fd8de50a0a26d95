import ArgumentParser
import Foundation

/// Writes a run's tables into `Docs/Performance.md` between its two marker lines, under a summary
/// of the timer rows with every peer side by side and the command that made them
/// (`timerdeck-bench --write-performance-page`, run from the package's root).
struct PerformancePage {
    static let defaultPath = "Docs/Performance.md"

    /// The part of the page a run writes: the full run's, or the timer path's alone (`--timer-path-only`).
    enum Section {
        case full
        case timerPath

        var begin: String {
            self == .full ? "<!-- timerdeck-bench: begin -->" : "<!-- timerdeck-bench timer-path: begin -->"
        }
        var end: String { self == .full ? "<!-- timerdeck-bench: end -->" : "<!-- timerdeck-bench timer-path: end -->" }
    }

    /// The page at `path`, read and checked for its markers before anything is measured.
    let path: String
    let section: Section
    private let page: String
    private let start: String.Index
    private let stop: String.Index

    init(path: String, section: Section = .full) throws {
        self.section = section
        guard let page = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError(
                "--write-performance-page: cannot read \(path) under \(FileManager.default.currentDirectoryPath); "
                    + "run the benchmark from the package's root or name the page with --performance-page")
        }
        guard let start = page.range(of: section.begin), let stop = page.range(of: section.end),
            start.upperBound <= stop.lowerBound
        else {
            throw ValidationError(
                "--write-performance-page: \(path) has no line \(section.begin) followed by a line \(section.end); "
                    + "put them around the place the run's tables go")
        }
        self.path = path
        self.page = page
        self.start = start.upperBound
        self.stop = stop.lowerBound
    }

    /// Replaces what lies between the page's markers with `transcript`'s tables.
    func write(_ transcript: Report.Transcript, command: String) throws {
        let date = ISO8601DateFormatter().string(from: Date())
        let block = [
            "Latest run, written by the benchmark on \(date) with `\(command)` (from the repository's root, after "
                + "`swift build -c release --product timerdeck` and `swift build -c release --package-path Benchmarks`). Every peer ran in the same run, each measurement in a child process of "
                + "its own; figures drift between machines and runs, so compare a row only with the peers of the same run.",
            section == .full ? Self.summary(transcript) : nil,
            Self.demoted(transcript.text),
        ].compactMap { $0 }.joined(separator: "\n\n")
        let updated = String(page[..<start]) + "\n" + block + "\n" + String(page[stop...])
        try updated.write(toFile: path, atomically: true, encoding: .utf8)
        print("\nwrote the run's tables into \(path)")
    }

    /// The timer rows with libev, libuv, RunLoopKit's two APIs and the heap floor side by side.
    static func summary(_ transcript: Report.Transcript) -> String {
        let peers = [
            LibevPeer.name, LibuvPeer.name, RunLoopKitPeer.name, TimeoutSetPeer.name, HeapSleepFloor.name,
        ]
        let tables = transcript.throughput
        // The largest run spread over 1 s with the C peers, the all-due run beside it, and the largest run.
        let spread = tables.filter {
            !$0.allDue && $0.tolerance == 0 && $0.spread == 1_000_000_000
                && $0.rows.contains { $0.peer == LibevPeer.name }
        }
        .max { ($0.rows.first?.timers ?? 0) < ($1.rows.first?.timers ?? 0) }
        let allDue = tables.first { $0.allDue && $0.rows.contains { $0.peer == TimeoutSetPeer.name } }
        let largest = tables.filter { !$0.allDue && $0.tolerance == 0 }
            .max { ($0.rows.first?.timers ?? 0) < ($1.rows.first?.timers ?? 0) }
        func count(_ table: (rows: [ThroughputResult], tolerance: Int64, allDue: Bool, spread: Int)?) -> String {
            (table?.rows.first?.timers).map { $0 >= 1_000_000 ? "\($0 / 1_000_000)M" : "\($0 / 1_000)k" } ?? "—"
        }
        typealias Table = (rows: [ThroughputResult], tolerance: Int64, allDue: Bool, spread: Int)
        let lines: [(String, Table?, (ThroughputResult) -> Double?, Int)] = [
            (
                "\(count(spread)): CPU per timer, schedule + run until all fired, ns", spread, \.cpuPerTimerNanoseconds,
                0
            ),
            ("\(count(spread)): schedule, ns", spread, \.scheduleNanoseconds, 0),
            ("\(count(spread)): cancel, ns", spread, \.cancelNanoseconds, 0),
            ("\(count(spread)): reschedule 1 s later, ns", spread, \.rescheduleLaterNanoseconds, 0),
            ("\(count(spread)): bytes per timer (RSS slope)", spread, \.bytesPerTimer, 0),
            ("\(count(spread)): peak RSS, MB", spread, \.peakMegabytes, 0),
            ("\(count(allDue)) all due at once: CPU per timer, ns", allDue, \.cpuPerTimerNanoseconds, 0),
            (
                "\(count(largest)): insert all, s", largest,
                { row in row.scheduleNanoseconds.map { $0 * Double(row.timers) / 1e9 } }, 2
            ),
            ("\(count(largest)): CPU per timer, ns", largest, \.cpuPerTimerNanoseconds, 0),
            ("\(count(largest)): peak RSS, MB", largest, \.peakMegabytes, 0),
        ]
        var text = "#### Timers: every peer in the same run\n"
        text +=
            "| per timer | " + peers.joined(separator: " | ") + " | `Timer` ÷ `TimeoutSet` | `TimeoutSet` ÷ libev |\n"
        text += "|---|" + String(repeating: "---|", count: peers.count + 2) + "\n"
        for (label, table, value, digits) in lines {
            let values = peers.map { peer in table?.rows.first { $0.peer == peer }.flatMap(value) }
            let ratio = { (a: Double?, b: Double?) -> String in
                guard let a, let b, b > 0 else { return "—" }
                return String(format: "%.2f×", a / b)
            }
            text += "| \(label) | "
            text += values.map { $0.map { String(format: "%.\(digits)f", $0) } ?? "—" }.joined(separator: " | ")
            text += " | \(ratio(values[2], values[3])) | \(ratio(values[3], values[0])) |\n"
        }
        if let sleepers = tables.last(where: {
            $0.tolerance == 0 && $0.rows.contains { $0.latenessP50Milliseconds != nil }
        }) {
            let late = sleepers.rows.compactMap { row -> String? in
                guard let p50 = row.latenessP50Milliseconds, let p99 = row.latenessP99Milliseconds else { return nil }
                return "\(row.peer) \(String(format: "%.3f", p50)) / \(String(format: "%.1f", p99)) ms"
            }
            text +=
                "\n\(count(sleepers)) tasks sleeping 0–1 s, lateness p50 / p99: " + late.joined(separator: ", ") + "\n"
            let cpu = { (peer: String) in sleepers.rows.first { $0.peer == peer }?.cpuPerTimerNanoseconds }
            if let sleeper = cpu(LoopSleepPeer.name), let timer = cpu(RunLoopKitPeer.name), timer > 0 {
                text += String(
                    format: "\nCPU per sleeper on the loop %.0f ns, per `Timer` %.0f ns: %.2f×\n", sleeper, timer,
                    sleeper / timer)
            }
        }
        return text
    }

    /// The run's tables with their headings two levels down, under the page's own.
    static func demoted(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("#") else { return String(line) }
            let level = line.prefix { $0 == "#" }.count
            return String(repeating: "#", count: min(level + 2, 6)) + line.dropFirst(level)
        }
        .joined(separator: "\n")
    }
}
