import Foundation
import Glibc
import RunLoopKit

/// The dashboard (`timerdeck`) running in an 80×24 pseudo-terminal as `xterm-256color`, on a
/// scratch state directory so that neither its outbox nor its uploads touch the user's.
final class DashboardSession {
    /// A key as the terminal sends it.
    enum Key {
        case tab, enter, up, down
        case character(Character)

        /// The bytes `xterm-256color` sends for the key in keypad-transmit mode (`smkx`, which
        /// ncurses' `keypad` turns on): `kcuu1` = ESC O A, `kcud1` = ESC O B.
        var bytes: [UInt8] {
            switch self {
            case .tab: [9]
            case .enter: [13]
            case .up: [27, 79, 65]
            case .down: [27, 79, 66]
            case .character(let character): Array(String(character).utf8)
            }
        }
    }

    static let rows = 24
    static let columns = 80
    static let terminalType = "xterm-256color"

    /// The terminal the dashboard runs in.
    let terminal: PseudoTerminal
    private let scratch: URL

    /// The configuration this benchmark was built in, which the dashboard it drives is built in too.
    #if DEBUG
    static let configuration = "debug"
    #else
    static let configuration = "release"
    #endif

    /// The `timerdeck` the dashboard's build made: next to this executable, or in the repository's
    /// `.build/<configuration>/`, the current directory being the repository's root or `Benchmarks/`.
    static func binary() -> String? {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("timerdeck").path
        let candidates = [beside, ".build/\(configuration)/timerdeck", "../.build/\(configuration)/timerdeck"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map {
            URL(fileURLWithPath: $0).standardizedFileURL.path
        }
    }

    /// Starts `binary` (with `config` as its config file, if given) and waits (at most
    /// `startTimeout`, generous: a debug build with a thousand timers on a busy machine is slow to start)
    /// for its first screen.
    init(binary: String, config: String? = nil, startTimeout: Duration = .seconds(120)) throws(BenchError) {
        do {
            scratch = URL(
                fileURLWithPath: try FileIO.makeTemporaryDirectory(prefix: "timerdeck-bench"), isDirectory: true)
        } catch {
            throw BenchError("\(error)")
        }
        // The user's environment, but a fixed terminal and locale, no colour or size overrides, and
        // the state directory (uploads) in the scratch directory.
        var environment = ProcessInfo.processInfo.environment
        for name in ["LINES", "COLUMNS", "NO_COLOR"] { environment[name] = nil }
        environment["TERM"] = Self.terminalType
        environment["LC_ALL"] = "C.UTF-8"
        environment["XDG_STATE_HOME"] = scratch.path
        var arguments = ["--outbox", scratch.appendingPathComponent("outbox.sqlite").path, "--no-mouse"]
        if let config {
            let path = scratch.appendingPathComponent("timers.toml").path
            guard FileManager.default.createFile(atPath: path, contents: Data(config.utf8)) else {
                try? FileManager.default.removeItem(at: scratch)
                throw BenchError("cannot write the config \(path)")
            }
            arguments += ["--config", path]
        }
        do {
            terminal = try PseudoTerminal(
                executable: binary,
                arguments: arguments,
                environment: environment.map { "\($0.key)=\($0.value)" }, rows: Self.rows, columns: Self.columns)
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
        guard terminal.waitForOutput(timeout: startTimeout.nanoseconds), terminal.readAvailable() > 0 else {
            throw BenchError("timerdeck drew nothing within \(startTimeout)")
        }
    }

    deinit {
        terminal.close()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The dashboard's process id.
    var pid: Int32 { terminal.pid }

    /// Types `keys`, each followed by `pause` nanoseconds of reading what it drew.
    func press(_ keys: [Key], pause: Int64 = 100_000_000) {
        for key in keys {
            terminal.write(key.bytes)
            terminal.drain(for: pause)
        }
    }

    /// Every timer paused: the ticker (ticker panel, `p`), the sampler and the uploader (uploads
    /// panel, `p`, `↓`, `p`); the SMS countdowns are not started. Ends with the focus on the SMS panel.
    func pauseEveryTimer() {
        // Focus order: SMS, ticker, inspector, log, uploads.
        press([.tab, .character("p"), .tab, .tab, .tab, .character("p"), .down, .character("p"), .tab])
    }

    /// Presses the three SMS buttons (`Enter` on each row); the focus must be on the SMS panel.
    func startCountdowns() {
        press([.up, .up, .enter, .down, .enter, .down, .enter])
    }

    /// `q`, then waits (at most `timeout`) for the dashboard to end; its wait status.
    @discardableResult
    func quit(timeout: Duration) -> Int32 {
        terminal.write(Key.character("q").bytes)
        return terminal.waitForExit(timeout: timeout.nanoseconds)
    }
}
