import ArgumentParser
import RunLoopKit
import TimerDeck

/// `timerdeck history`: every finished countdown, alarm and stopwatch session the history file
/// beside the timers file keeps, with exact start, end and pauses, as CSV or JSON.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print the finished countdowns, alarms and stopwatches: start, end, time run and pauses.",
        usage: "timerdeck history [--since WHEN] [--format csv|json] [--state PATH]",
        discussion: """
            Kept beside the timers file (timers.history for timers.state), at most 1 MB: past that \
            the oldest half goes. Times are UTC, ISO 8601 with milliseconds.
            """)

    @Option(
        help: ArgumentHelp("Only the sessions that ended since: \(HistoryReport.sinceAccepted).", valueName: "WHEN"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            "How to print: \(HistoryReport.Format.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "FORMAT"))
    var format: String = HistoryReport.Format.csv.rawValue

    @OptionGroup var stateFile: StateFileOption

    func run() throws {
        let chosen: HistoryReport.Format = try chosenFormat(format, command: "history")
        do throws(HistoryError) {
            let report = try HistoryReport(
                statePath: stateFile.path, since: since, wallNow: TimeSource.system.now(.wall))
            print(report.text(chosen))
            if report.unreadable > 0 {
                printError(
                    "timerdeck history: \(report.unreadable) lines of the history were not sessions and are left out")
            }
        } catch {
            printError("timerdeck history: \(error.message)")
            throw ExitCode(2)
        }
    }
}
