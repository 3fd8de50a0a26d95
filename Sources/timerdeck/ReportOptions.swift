import ArgumentParser
import TimerDeck

/// `--state PATH`, the dashboard's timers file as `status` and `history` read it.
struct StateFileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp("The timers file the dashboard keeps (as its --state).", valueName: "PATH"),
        completion: .file())
    var state: String?

    /// The file named, or the dashboard's default one.
    var path: String { state ?? TimerStateFile.defaultPath }
}

/// The format `text` names among `Format`'s cases; otherwise the command named `command` says
/// which it accepts and exits 2.
func chosenFormat<Format: RawRepresentable & CaseIterable>(_ text: String, command: String) throws -> Format
where Format.RawValue == String {
    if let format = Format(rawValue: text) { return format }
    let accepted = Format.allCases.map(\.rawValue).joined(separator: ", ")
    printError("timerdeck \(command): option --format: \(UserText.quote(text)) is not one of \(accepted)")
    throw ExitCode(2)
}
