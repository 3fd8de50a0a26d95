import ArgumentParser
import Glibc
import RunLoopKit
import TimerDeck

/// `timerdeck`: the dashboard of live timers.
@main
struct TimerDeckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerdeck",
        abstract: "A terminal dashboard of live run loop, display link and dispatch timers.",
        discussion:
            "Scroll the fire log to put the run loop into the tracking mode and watch default-mode timers pause. Press ? in the dashboard for the keys.",
        version: "timerdeck 0.1.0", subcommands: [PlotCommand.self])

    @Option(help: "A config file (TOML); Resources/timerdeck.toml documents every field.")
    var config: String?

    // Taken as text and checked by `Config.validateFPS`, so `--fps -1` is reported as out of range
    // (not as a missing value) and every bad value names the accepted range.
    @Option(parsing: .unconditional, help: "Refresh rate of the ticker's display link in Hz (1…240).")
    var fps: String?

    @Flag(name: .customLong("no-mouse"), help: "Do not capture the mouse (wheel scrolling and drags).")
    var noMouse = false

    @Flag(help: "Run on a virtual clock and an in-memory screen, driven by --script; no terminal needed.")
    var headless = false

    @Option(help: "The headless script: size WxH, key NAME, wait DURATION, snapshot, quit (one per line).")
    var script: String?

    @Flag(help: "Headless: print each snapshot as one JSON line of the dashboard's state instead of the screen.")
    var json = false

    @Option(
        name: .customLong("upload-url"),
        help: "POST sample batches to this http(s) URL instead of writing them to ~/.local/state/timerdeck/uploads.")
    var uploadURL: String?

    @Option(help: "The outbox database (default: ~/.local/state/timerdeck/outbox.sqlite; headless: a temporary one).")
    var outbox: String?

    @Option(help: "Write every fire and nested run to this file as JSON Lines (the README lists the fields).")
    var trace: String?

    @Option(
        help: "Record the live session's input with its times as a headless script (replay: --headless --script FILE).")
    var record: String?

    /// The signals that end a headless run.
    static let headlessSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Parses the command line; usage errors exit with status 2 (not ArgumentParser's 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let status = exitStatus(for: error)
            let message = fullMessage(for: error)
            if status == 0 {
                print(message)
            } else if !message.isEmpty {
                printError(message)
            }
            Glibc.exit(status)
        }
    }

    /// The exit status for an error from parsing or running: 0 for `--help` and `--version`, 2 for
    /// every usage or input error (ArgumentParser's validation status 64 included).
    static func exitStatus(for error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if code == .success { return 0 }
        return code == ExitCode(2) || code == .validationFailure ? 2 : code.rawValue
    }

    /// The settings from the config file and the options, checked; reads the config file only.
    func settings() throws(ConfigError) -> Config {
        var settings = Config()
        if let config { settings = try Config.load(from: config) }
        if let fps { settings.setRippleRefreshRate(try Config.validateFPS(fps)) }
        if noMouse { settings.mouse = false }
        return settings
    }

    func run() throws {
        let settings: Config
        do {
            settings = try self.settings()
        } catch {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        // Before anything can start a thread (opening the outbox does): every thread inherits the
        // mask, so the signals reach only the run loop's signalfd. Headless, a terminating signal
        // first removes the temporary outbox; in a terminal, Ctrl-Z and resizes must not land on
        // another thread (where ncurses' own handler would take them).
        SignalSource.block(headless ? Self.headlessSignals : TerminalSession.signals)
        // A config whose timers drive no uploads opens no outbox.
        let uploads: UploadsSetup?
        do {
            uploads =
                settings.hasUploads
                ? try UploadsSetup(config: settings, outboxPath: outbox, uploadURL: uploadURL, headless: headless)
                : nil
        } catch {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        let traceFile: TraceFile?
        do {
            traceFile = try trace.map { path throws(TraceFileError) in try TraceFile(path: path) }
        } catch {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        defer { reportTrace(traceFile) }
        if headless && record != nil {
            printError(
                "timerdeck: --record records a live session; a headless run replays one (--headless --script FILE)")
            throw ExitCode(2)
        }
        if headless {
            uploads?.removeTemporaryDirectory(on: Self.headlessSignals)
            try runHeadless(settings, uploads: uploads, trace: traceFile)
            return
        }
        if script != nil || json {
            printError(
                "timerdeck: \(json ? "--json" : "--script") is only used with --headless "
                    + "(e.g. timerdeck --headless --script FILE\(json ? " --json" : ""))")
            throw ExitCode(2)
        }
        let recorder: SessionRecorder?
        do {
            recorder = try record.map { path throws(TraceFileError) in try SessionRecorder(path: path) }
        } catch {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        defer {
            if let failure = recorder?.failure { printError("timerdeck: \(failure); the recording stops there") }
        }
        let left: Int
        do {
            left = try TerminalSession.run(config: settings, uploads: uploads, trace: traceFile, recorder: recorder)
        } catch {
            printError("timerdeck: \(error)")
            throw ExitCode(2)
        }
        try reportUploads(left: left, uploads: uploads)
    }

    /// Says what the uploads left behind; a lost sample or a failed outbox exits 1.
    private func reportUploads(left: Int, uploads: UploadsSetup?) throws {
        guard let report = uploads?.exitReport(left: left) else { return }
        for line in report.lines { printError("timerdeck: \(line)") }
        if report.failed { throw ExitCode(1) }
    }

    /// Says when the trace could not be written to the end.
    private func reportTrace(_ trace: TraceFile?) {
        if let failure = trace?.failure { printError("timerdeck: \(failure); the trace stops there") }
    }

    private func runHeadless(_ settings: Config, uploads: UploadsSetup?, trace: TraceFile?) throws {
        guard let script else {
            printError(
                "timerdeck: --headless needs --script FILE (commands: size WxH, key NAME, wait DURATION, snapshot, quit)"
            )
            throw ExitCode(2)
        }
        let steps: HeadlessScript
        do {
            steps = try HeadlessScript(parsing: InputFile.read(script, role: "script"), source: script)
        } catch let error as InputFileError {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        } catch let error as HeadlessScript.ParseError {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        let session = HeadlessSession(config: settings, uploads: uploads, script: steps, trace: trace, json: json) {
            print($0)
        }
        try reportUploads(left: session.run(), uploads: uploads)
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
