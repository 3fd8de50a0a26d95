import ArgumentParser
import Foundation
import TimeUnits

/// `timerdeck-soak`: long runs of the upload pipeline on the virtual clock with real SQLite and real
/// HTTP. `days` (the default) soaks one outbox for simulated days against the loopback collector;
/// `fleet` delivers a simulated day of many instances into one real Prometheus.
@main
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerdeck-soak",
        abstract: "Soak the upload pipeline: simulated days of one outbox, or a fleet into Prometheus.",
        subcommands: [DaysCommand.self, FleetCommand.self, RelayCommand.self], defaultSubcommand: DaysCommand.self)
}

/// Writes `line` to standard output at once (unbuffered, so a long run shows its progress).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `duration` in milliseconds.
func milliseconds(_ duration: Duration) -> Double {
    Nanoseconds.milliseconds(duration.nanoseconds)
}
