import ArgumentParser
import Glibc
import RunLoopKit
import TerminalUI
import TimerDeck

/// `timerdeck`: the dashboard of live timers.
@main
struct TimerDeckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerdeck",
        abstract: "A terminal dashboard of live run loop, display link and dispatch timers.",
        // Without a subcommand the dashboard runs: the usage says so, where ArgumentParser's would
        // end in a required-looking <subcommand>.
        usage: """
            timerdeck [--config FILE] [--fps N] [--no-mouse] [--color WHEN]
              [--upload-url URL] [--outbox PATH] [--trace FILE] [--laps FILE]
              [--state PATH] [--fresh] [--record FILE]
            timerdeck --plain [--config FILE] [--upload-url URL] [--outbox PATH]
              [--trace FILE] [--laps FILE] [--state PATH] [--fresh] [--record FILE]
            timerdeck --headless --script FILE [--json | --plain] [--config FILE]
              [--fps N] [--upload-url URL] [--outbox PATH] [--trace FILE]
              [--laps FILE] [--state PATH] [--fresh]
            timerdeck plot TRACE --out FILE [--late DURATION]
            timerdeck status [--format text|tmux|waybar|json] [--state PATH] [--config FILE]
            timerdeck history [--since WHEN] [--format csv|json] [--state PATH]
            timerdeck --print-config | --help | --version
            """,
        discussion: CommandHelp.discussion,
        version: "timerdeck 0.1.0",
        subcommands: [PlotCommand.self, StatusCommand.self, HistoryCommand.self, ManualPageCommand.self])

    @Option(
        help: ArgumentHelp(
            "A config file (TOML); `timerdeck --print-config` prints the default one, which documents every field.",
            valueName: "FILE"),
        completion: .file())
    var config: String?

    @Flag(name: .customLong("print-config"), help: "Print the default config, with every field documented, and exit.")
    var printConfig = false

    // Taken as text and checked by `Config.validateFPS`, so `--fps -1` is reported as out of range
    // (not as a missing value) and every bad value names the accepted range.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Refresh rate of the ticker's display link in Hz (1 to 240).", valueName: "N"))
    var fps: String?

    @Flag(name: .customLong("no-mouse"), help: "Do not capture the mouse (wheel scrolling and drags).")
    var noMouse = false

    // Taken as text and checked by `Config.validateColor`, so a bad value names the accepted ones
    // in the project's words; the completions offer them.
    @Option(
        help: ArgumentHelp(
            "Colour: auto (unless NO_COLOR is set and not empty), always or never; [theme] in the config picks the colours.",
            valueName: "WHEN"),
        completion: .list(ColorChoice.allCases.map(\.rawValue)))
    var color: String?

    @Flag(
        help: ArgumentHelp(
            "No screen: one line per event on standard output (a fire, a start, a stop, a paused mode), for a screen reader or a plain terminal.",
            discussion:
                "The keys are the dashboard's, read as they are typed; r prints the state of every timer. With --headless, a snapshot prints that line."
        ))
    var plain = false

    @Flag(help: "Run on a virtual clock and an in-memory screen, driven by --script; no terminal needed.")
    var headless = false

    @Option(
        help: ArgumentHelp(
            "The headless script: size WxH, key NAME, wait DURATION, wall UTC-TIME, snapshot, quit (one per line).",
            valueName: "FILE"),
        completion: .file())
    var script: String?

    @Flag(help: "Headless: print each snapshot as one JSON line of the dashboard's state instead of the screen.")
    var json = false

    @Option(
        name: .customLong("upload-url"),
        help: ArgumentHelp(
            "POST sample batches to this http(s) URL instead of writing them to ~/.local/state/timerdeck/uploads.",
            discussion:
                "prometheus+http(s)://HOST/api/v1/write sends them by Prometheus remote write (uploads.sink in the config).",
            valueName: "URL"))
    var uploadURL: String?

    @Option(
        name: .customLong("upload-confirm-url"),
        help: ArgumentHelp(
            "Read each remote-written batch back from the store at this http(s) URL before it counts (uploads.confirm_url).",
            discussion:
                "For a relay in between: a batch the store does not show within uploads.confirm_within goes again.",
            valueName: "URL"))
    var uploadConfirmURL: String?

    @Option(
        name: .customLong("upload-fallback-url"),
        help: ArgumentHelp(
            "Send a batch here once two deliveries of it have failed: the store past the relay (uploads.fallback_url).",
            valueName: "URL"))
    var uploadFallbackURL: String?

    @OptionGroup(title: "Upload credentials") var uploadAccess: UploadAccessOptions

    @Option(
        help: ArgumentHelp(
            "The outbox database (default: ~/.local/state/timerdeck/outbox.sqlite; headless: a temporary one).",
            valueName: "PATH"),
        completion: .file())
    var outbox: String?

    @Option(
        help: ArgumentHelp(
            "Write every fire and nested run to this file as JSON Lines (its TRACE section lists the fields).",
            valueName: "FILE"),
        completion: .file())
    var trace: String?

    @Option(
        help: ArgumentHelp(
            "Write the laps of every stopwatch to this file as CSV when the session ends; an existing file is "
                + "refused, never overwritten.",
            valueName: "FILE"),
        completion: .file())
    var laps: String?

    @Option(
        help: ArgumentHelp(
            "Keep the running and paused countdowns, alarms and stopwatches in this file across restarts "
                + "(default: ~/.local/state/timerdeck/timers.state; headless: none).",
            valueName: "PATH"),
        completion: .file())
    var state: String?

    @Flag(help: "Start without the timers the state file kept; the file is set aside as <file>.before-fresh.")
    var fresh = false

    @Option(
        help: ArgumentHelp(
            "Record the live session's input with its times as a headless script (replay: --headless --script FILE).",
            valueName: "FILE"),
        completion: .file())
    var record: String?

    @OptionGroup var replacing: ReplaceFlag

    /// The output files that exist and would be overwritten: the laps file always, a trace or a
    /// recording unless `--force`.
    private var existingOutputs: [String] {
        let replaceable = replacing.force ? [] : [("--trace", trace), ("--record", record)]
        return ([("--laps", laps)] + replaceable).compactMap { option, path in
            path.flatMap { OutputPath.existing($0, option: option) }
        }
    }

    /// The signals that end a headless run.
    static let headlessSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Parses the command line; usage errors exit with status 2 (not ArgumentParser's 64).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `status` and `history` are parsed on their own: their --state and --config name the
        // dashboard's files, and the root command's options of the same names would take them.
        let own: [any ParsableCommand.Type] = [StatusCommand.self, HistoryCommand.self]
        let alone = own.first { $0.configuration.commandName == arguments.first }
        do {
            var command = try alone?.parseAsRoot(Array(arguments.dropFirst())) ?? parseAsRoot(arguments)
            try command.run()
        } catch {
            let status = exitStatus(for: error)
            let message = alone?.fullMessage(for: error) ?? fullMessage(for: error)
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
        if let value = getenv(Animations.environmentVariable) {
            settings.animations = try Animations.validate(environmentValue: String(cString: value))
        }
        if let color { settings.color = try Config.validateColor(color) }
        try uploadAccess.apply(to: &settings)
        for case (let key, let value?) in [
            ("uploads.confirm_url", uploadConfirmURL), ("uploads.fallback_url", uploadFallbackURL),
        ] {
            try settings.setUploads(key, fromOption: value)
        }
        return settings
    }

    /// Checks the options against each other and the files to write, before anything is opened or
    /// created: a refused command line leaves no file behind.
    func validate() throws {
        var problem: String?
        if printConfig {
            problem = nil
        } else if script != nil && !headless {
            problem = "--script is only used with --headless (e.g. timerdeck --headless --script FILE)"
        } else if json && !headless {
            problem = "--json is only used with --headless (e.g. timerdeck --headless --script FILE --json)"
        } else if headless && script == nil {
            problem =
                "--headless needs --script FILE (commands: size WxH, key NAME, wait DURATION, wall UTC-TIME, snapshot, quit)"
        } else if json && plain {
            problem = "--json and --plain are two ways to print a headless run; choose one"
        } else if headless && record != nil {
            problem = "--record records a live session; a headless run replays one (--headless --script FILE)"
        } else {
            let outputs = [
                ("--outbox", outbox), ("--trace", trace), ("--laps", laps), ("--state", state), ("--record", record),
            ]
            problem =
                outputs.lazy.compactMap { option, path in
                    path.flatMap { OutputPath.problem($0, option: option) }
                }.first ?? existingOutputs.first
        }
        if let problem {
            printError("timerdeck: \(problem)")
            throw ExitCode(2)
        }
    }

    func run() throws {
        if printConfig {
            print(ShippedFile.config, terminator: "")
            return
        }
        let settings: Config
        do {
            settings = try self.settings()
            try DescriptorReserve.check()
        } catch {
            printError("timerdeck: \(error)")
            throw ExitCode(2)
        }
        // First, while this is the only thread: no child (hook, notification) gets a credential,
        // whether or not a timer drives the uploads.
        settings.uploads.withholdCredentials()
        // Before anything can start a thread (opening the outbox does) and before ncurses is first
        // set up (the terminal check is): every thread inherits the mask, so the signals reach only
        // the run loop's signalfd (live) or the thread that ends a headless run, and a Ctrl-Z at
        // any moment is queued for the signalfd, never run by a handler or dropped.
        SignalSource.block(headless ? Self.headlessSignals : plain ? PlainSession.signals : TerminalSession.signals)
        // The last checks that can refuse the run come before any file is opened or created: the
        // headless script, or a terminal that can show the dashboard.
        let script = try headless ? parsedScript() : nil
        if script == nil && !plain {
            try started { () throws(TerminalError) in try CursesScreen.check() }
        }
        // The live dashboard's loop first: the loop of the main thread, which drains the main
        // queue (C-M12), on a clock the time-control keys steer.
        let session: Session =
            try script.map(Session.headless)
            ?? .live(
                started { () throws(SystemCallError) in
                    try RunLoop.makeMain(timeSource: .controlled(TimeControl(base: .system)))
                })
        // The timers file before any other: a second dashboard on it is refused touching nothing.
        let timers = try started { () throws(TimerStateFileError) in
            try timerStateFile(for: session).map { file throws(TimerStateFileError) in
                try file.claim()
                return file
            }
        }
        // Said before the dashboard takes the terminal, so it is still there after it quits.
        for warning in settings.uploads.exposedSecretWarnings(configPath: config, setByOption: settings.isSetByOption) {
            printError("timerdeck: \(warning)")
        }
        // A config whose timers drive no uploads opens no outbox.
        let uploads = try started { () throws(UploadsSetupError) in
            settings.hasUploads
                ? try UploadsSetup(config: settings, outboxPath: outbox, uploadURL: uploadURL, headless: headless)
                : nil
        }
        let traceFile = try started { () throws(TraceFileError) in
            try trace.map { path throws(TraceFileError) in try TraceFile(path: path, replacing: replacing.force) }
        }
        defer { reportTrace(traceFile) }
        let lapsFile = try started { () throws(TraceFileError) in
            try laps.map { path throws(TraceFileError) in try LapsFile(path: path) }
        }
        defer { if let failure = lapsFile?.failure { printError("timerdeck: \(failure); the laps stop there") } }
        switch session {
        case .headless(let script):
            TerminatingSignals.endProcess(on: Self.headlessSignals, removing: uploads?.temporaryDirectoryPath)
            try runHeadless(
                settings, script: script, uploads: uploads, trace: traceFile, laps: lapsFile,
                timers: timers)
        case .live(let loop):
            let recorder = try started { () throws(TraceFileError) in
                try record.map { path throws(TraceFileError) in
                    try SessionRecorder(path: path, replacing: replacing.force)
                }
            }
            defer {
                if let failure = recorder?.failure { printError("timerdeck: \(failure); the recording stops there") }
            }
            let left = try started { () throws in
                try (plain ? PlainSession.run : TerminalSession.run)(
                    loop,
                    SessionSetup(
                        config: settings, configPath: config, uploads: uploads, trace: traceFile, laps: lapsFile,
                        timers: timers ?? TimerStateFile(path: TimerStateFile.defaultPath), startsFresh: fresh,
                        recorder: recorder))
            }
            try reportUploads(left: left, uploads: uploads)
        }
    }

    /// The timers file of `session`: `--state`, else the default one for the live dashboard; none
    /// for a headless run without `--state`.
    private func timerStateFile(for session: Session) -> TimerStateFile? {
        switch session {
        case .headless: state.map(TimerStateFile.init(path:))
        case .live: TimerStateFile(path: state ?? TimerStateFile.defaultPath)
        }
    }

    /// What a checked run is: a headless script, or the live dashboard on the main thread's loop.
    private enum Session {
        case headless(HeadlessScript)
        case live(RunLoop)
    }

    /// The result of `start`, which opens something timerdeck needs; its failure is said on standard
    /// error (a shortage of descriptors as one, with the fix) and exits 2.
    private func started<Value, Failure: Error>(_ start: () throws(Failure) -> Value) throws -> Value {
        do {
            return try start()
        } catch {
            let shortage = (error as? SystemCallError).flatMap(DescriptorReserve.Shortage.init)
            printError("timerdeck: \(shortage.map(String.init(describing:)) ?? Self.message(for: error))")
            throw ExitCode(2)
        }
    }

    /// What a start-up error says.
    private static func message(for error: any Error) -> String {
        switch error {
        case let error as UploadsSetupError: error.message
        case let error as TraceFileError: error.message
        case let error as TimerStateFileError: error.message
        default: "\(error)"
        }
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

    /// The headless script, read and checked; a script that cannot be read or parsed exits 2.
    private func parsedScript() throws -> HeadlessScript {
        do {
            // validate() refused --headless without --script.
            let script = self.script ?? ""
            return try HeadlessScript(parsing: InputFile.read(script, role: "script"), source: script)
        } catch let error as InputFileError {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        } catch let error as HeadlessScript.ParseError {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
    }

    private func runHeadless(
        _ settings: Config, script steps: HeadlessScript, uploads: UploadsSetup?, trace: TraceFile?, laps: LapsFile?,
        timers: TimerStateFile?
    ) throws {
        let session = try started { () throws(SystemCallError) in
            try HeadlessSession(
                config: settings, configPath: config, uploads: uploads, script: steps, trace: trace, laps: laps,
                timers: timers, startsFresh: fresh, json: json, plain: plain
            ) { print($0) }
        }
        try reportUploads(left: session.run(), uploads: uploads)
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
