import AppPlatform
import Glibc
import RunLoopKit
import TerminalUI
import TimerDeck

/// The dashboard without a screen (`--plain`), for a screen reader or a terminal that cannot move
/// the cursor: no alternate screen and no drawing, one line on standard output per thing that
/// happens (``DashboardDriver/plainOutput``), and the dashboard's keys read from standard input
/// as they are typed — raw, without echo, when it is a terminal, whose screen is left alone.
enum PlainSession {
    /// The signals the session handles; block them with ``SignalSource/block(_:)`` first thing in
    /// `main`. `SIGPIPE` is blocked only, so a write to a reader that went away fails with `EPIPE`.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGPIPE]

    /// Runs on `loop`, the main thread's loop, until `q`, the end of the output's reader or a
    /// terminating signal; the terminal's modes are restored in every case. Returns the samples
    /// left in the outbox, as ``TerminalSession/run(on:_:)``.
    @available(*, noasync)
    static func run(on loop: RunLoop, _ setup: SessionSetup) throws -> Int {
        let keyboard = RawKeyboard()
        defer { keyboard.restore() }
        let screen = GridScreen(size: Size(width: 80, height: 24))
        let (driver, pipeline) = setup.makeDriver(on: loop, screen: screen, rendersOnChange: false)
        driver.plainOutput = { line in
            if !write(line + "\n") { driver.terminate() }
        }
        screen.onRing = { _ = write("\u{7}") }

        var input: RunLoop.FileDescriptorSource?
        input = RunLoop.FileDescriptorSource(fileDescriptor: STDIN_FILENO) {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else {
                // The end of the input (a file or a pipe that closed) or its failure: the timers go on.
                if count == 0 || (errno != EAGAIN && errno != EINTR) { input?.invalidate() }
                return
            }
            driver.receive(KeyDecoder.decode(bytes: Array(buffer.prefix(count))))
        }
        if let input, !watch(input, on: loop) {
            // A file (or /dev/null) on standard input cannot be waited on: its keys are all there,
            // so they come at once, as a pipe's would; with none the session narrates until a signal.
            input.invalidate()
            do {
                let keys = try FileIO.readAll(STDIN_FILENO, path: "standard input", maximum: 1 << 20)
                if !keys.isEmpty { loop.perform(inModes: [.common]) { driver.receive(KeyDecoder.decode(bytes: keys)) } }
            } catch {
                _ = write("no keys: \(error); the timers go on until a signal ends the session\n")
            }
        }
        let signalSource = try SignalSource(signals: signals.filter { $0 != SIGPIPE }) { signal in
            switch signal {
            case SIGTSTP:
                // Ctrl-Z: the terminal's modes back for the shell, stop; `fg` continues here.
                keyboard.restore()
                kill(getpid(), SIGSTOP)
                keyboard.enter()
            case SIGCONT:
                keyboard.enter()
            default:
                driver.terminate()
            }
        }
        for mode in RunLoop.Mode.inputModes { loop.add(signalSource.source, forMode: mode) }

        return setup.run(driver, on: loop, pipeline: pipeline, input: input)
    }

    /// Watches `input` in every input mode of `loop`; `false`, leaving it in none, when epoll refuses
    /// its descriptor (a regular file or a character device such as /dev/null; a closed descriptor).
    private static func watch(_ input: RunLoop.FileDescriptorSource, on loop: RunLoop) -> Bool {
        do {
            for mode in RunLoop.Mode.inputModes { try loop.watch(input, forMode: mode) }
            return true
        } catch {
            for mode in RunLoop.Mode.inputModes { loop.remove(input, forMode: mode) }
            return false
        }
    }

    /// Writes `text` to standard output whole; `false` when it cannot (the reader went away).
    private static func write(_ text: String) -> Bool {
        (try? FileIO.writeAll(Array(text.utf8), to: STDOUT_FILENO, path: "standard output")) != nil
    }
}

/// Standard input as a keyboard of single key presses: when it is a terminal, its line editing and
/// echo are off (signals such as Ctrl-C still work) until ``restore()``; otherwise it is read as it is.
final class RawKeyboard {
    private let saved: termios?

    /// Turns line editing and echo off, if standard input is a terminal.
    init() {
        var settings = termios()
        saved = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &settings) == 0 ? settings : nil
        enter()
    }

    /// Line editing and echo off (again, after a stop).
    func enter() {
        guard var raw = saved else { return }
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 1  // VMIN: a read returns each key as it comes
        raw.c_cc.5 = 0  // VTIME
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// The terminal's modes as they were; idempotent.
    func restore() {
        guard var settings = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
