import ArgumentParser
import Glibc
import KeptTimers
import RunLoopKit
import TimerDeck

/// `timerdeck status`: the running and held timers the state file keeps, printed for a person, a
/// status bar (tmux, waybar) or a program, with no dashboard running.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the kept countdowns, alarms and stopwatches from the timers file, without a dashboard.",
        usage: "timerdeck status [--format text|tmux|waybar|json] [--state PATH] [--config FILE]",
        discussion: """
            text: a line a timer. tmux: one line, e.g. set -g status-right '#(timerdeck status --format tmux)'. \
            waybar: a custom module's JSON (text, tooltip, class: overtime, running, paused or idle, percentage \
            of the first running countdown). json: every field.
            """)

    @Option(
        help: ArgumentHelp(
            "How to print: \(TimerStatus.Format.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "FORMAT"))
    var format: String = TimerStatus.Format.text.rawValue

    @OptionGroup var stateFile: StateFileOption

    @Option(
        help: ArgumentHelp("The config the dashboard runs with, for the countdowns' lengths.", valueName: "FILE"),
        completion: .file())
    var config: String?

    func run() throws {
        let chosen: TimerStatus.Format = try chosenFormat(format, command: "status")
        let status: TimerStatus
        do {
            let settings = try config.map { path throws(ConfigError) in try Config.load(from: path) } ?? Config()
            status = try TimerStatus(
                statePath: stateFile.path, config: settings, wallNow: TimeSource.system.now(.wall))
        } catch let error as ConfigError {
            printError("timerdeck status: \(error.message)")
            throw ExitCode(2)
        } catch let error as TimerStateFileError {
            printError("timerdeck status: \(error.message)")
            throw ExitCode(2)
        }
        print(status.text(chosen))
    }
}
