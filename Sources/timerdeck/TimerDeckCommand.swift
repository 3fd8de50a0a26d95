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
        discussion: "Scroll the fire log to put the run loop into the tracking mode and watch default-mode timers pause. Press ? in the dashboard for the keys.",
        version: "timerdeck 0.1.0")

    @Option(help: "A config file (TOML); Resources/timerdeck.toml documents every field.")
    var config: String?

    @Option(help: "Refresh rate of the ticker's display link in Hz (1…240).")
    var fps: Int?

    @Flag(name: .customLong("no-mouse"), help: "Do not capture the mouse (wheel scrolling and drags).")
    var noMouse = false

    @Flag(help: "Run on a virtual clock and an in-memory screen, driven by --script; no terminal needed.")
    var headless = false

    @Option(help: "The headless script: size WxH, key NAME, wait DURATION, snapshot, quit (one per line).")
    var script: String?

    @Option(name: .customLong("upload-url"), help: "POST sample batches to this http(s) URL instead of writing them to ~/.local/state/timerdeck/uploads.")
    var uploadURL: String?

    @Option(help: "The outbox database (default: ~/.local/state/timerdeck/outbox.sqlite; headless: a temporary one).")
    var outbox: String?

    /// The signals that end a headless run.
    static let headlessSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Parses the command line; usage errors exit with status 2 (not ArgumentParser's 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { printError(message) }
            Glibc.exit(code == ExitCode(2) || code == .validationFailure ? 2 : code.rawValue)
        }
    }

    func run() throws {
        var settings = Config()
        do {
            if let config { settings = try Config.load(from: config) }
            if let fps { settings.tickerFPS = try Config.validateFPS(fps) }
        } catch {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        if noMouse { settings.mouse = false }
        if headless {
            // Before anything can start a thread: a terminating signal first removes the temporary outbox.
            SignalSource.block(Self.headlessSignals)
        }
        let uploads: UploadsSetup
        do {
            uploads = try UploadsSetup(config: settings.uploads, outboxPath: outbox, uploadURL: uploadURL, headless: headless)
        } catch {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        }
        if headless {
            uploads.removeTemporaryDirectory(on: Self.headlessSignals)
            try runHeadless(settings, uploads: uploads)
            return
        }
        if script != nil {
            printError("timerdeck: --script is only used with --headless (e.g. timerdeck --headless --script FILE)")
            throw ExitCode(2)
        }
        // Before anything can start a thread: the signals go to the run loop through a signalfd.
        SignalSource.block(TerminalSession.signals)
        let left: Int
        do {
            left = try TerminalSession.run(config: settings, uploads: uploads)
        } catch {
            printError("timerdeck: \(error)")
            throw ExitCode(2)
        }
        try reportUploads(left: left, uploads: uploads)
    }

    /// Says what the uploads left behind; a lost sample or a failed outbox exits 1.
    private func reportUploads(left: Int, uploads: UploadsSetup) throws {
        let report = uploads.exitReport(left: left)
        for line in report.lines { printError("timerdeck: \(line)") }
        if report.failed { throw ExitCode(1) }
    }

    private func runHeadless(_ settings: Config, uploads: UploadsSetup) throws {
        guard let script else {
            printError("timerdeck: --headless needs --script FILE (commands: size WxH, key NAME, wait DURATION, snapshot, quit)")
            throw ExitCode(2)
        }
        do {
            let text = try ScriptFile.read(script)
            let session = try HeadlessSession(config: settings, uploads: uploads,
                                              script: HeadlessScript(parsing: text, source: script)) {
                print($0)
            }
            try reportUploads(left: session.run(), uploads: uploads)
        } catch let error as ExitCode {
            throw error
        } catch let error as HeadlessScript.ParseError {
            printError("timerdeck: \(error.message)")
            throw ExitCode(2)
        } catch {
            printError("timerdeck: \(script): \(error)")
            throw ExitCode(2)
        }
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
