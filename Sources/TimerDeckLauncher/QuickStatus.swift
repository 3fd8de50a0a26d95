import AppPlatform
import Glibc
import KeptTimers
import RunLoopKit

/// `timerdeck status` answered from the timers file alone: with only `--format` and `--state`
/// given, and a file this timerdeck reads whose countdowns all keep their lengths. Anything else
/// (`--config`, `--help`, a bad option, an unreadable file, one of an older or newer format) is the
/// dashboard program's to answer, with its messages.
///
/// ```swift
/// QuickStatus(arguments: ["status", "--format", "tmux"])?.text()   // "tea 02:41 · run 12:03.4"
/// ```
struct QuickStatus {
    let format: TimerStatus.Format
    let statePath: String

    /// The status `arguments` (the command line after the program's name) ask for, or `nil` when
    /// they ask for something else, or for a status with options this one leaves to the dashboard.
    init?(arguments: [String]) {
        guard arguments.first == "status" else { return nil }
        var format = TimerStatus.Format.text
        var statePath: String?
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            let (name, attached) = Self.split(option)
            guard let value = attached ?? rest.popFirst(), !value.hasPrefix("-") || attached != nil else { return nil }
            switch name {
            case "--format":
                guard let chosen = TimerStatus.Format(rawValue: value) else { return nil }
                format = chosen
            case "--state":
                statePath = value
            default:
                return nil
            }
        }
        // Without --state, XDG_STATE_HOME or an absolute HOME, the dashboard looks the home up.
        let directory = StateDirectoryPath.pathWithoutLookup()
        guard let path = statePath ?? directory.map({ $0 + "/" + TimerFileText.fileName }) else { return nil }
        self.format = format
        self.statePath = path
    }

    /// `--name=value` as its name and value; any other word as itself, with no value.
    private static func split(_ option: String) -> (name: String, value: String?) {
        guard option.hasPrefix("--"), let equals = option.firstIndex(of: "=") else { return (option, nil) }
        return (String(option[..<equals]), String(option[option.index(after: equals)...]))
    }

    /// What `status` prints, without the final line end; `nil` when the file cannot be answered
    /// from alone.
    func text() -> String? {
        guard let contents = TimerFileText.contents(ofFileAt: statePath) else {
            // A missing file keeps no timers; a file that cannot be read is the dashboard's to explain.
            guard access(statePath, F_OK) != 0 else { return nil }
            return TimerStatus([], countdowns: [:], wallNow: Self.wallNow).text(format)
        }
        guard let file = TimerFileText(text: contents),
            file.entries.allSatisfy({ !$0.isCountdown || file.countdownLengths[$0.name] != nil })
        else { return nil }
        return TimerStatus(file.entries, countdowns: file.countdownLengths, wallNow: Self.wallNow).text(format)
    }

    /// The wall clock now.
    private static var wallNow: Instant { TimeSource.system.now(.wall) }
}
