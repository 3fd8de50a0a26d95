import Glibc
import RunLoopKit
import TerminalUI
import TimerDeck

/// The dashboard in a real terminal, on the main run loop, whose clock is a `TimeControl` over the
/// kernel's clocks.
enum TerminalSession {
    /// The signals the session handles; block them with ``SignalSource/block(_:)`` first thing in `main`.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// Runs on `loop`, the main thread's loop, until `q` or a terminating signal, and restores the
    /// terminal in every case. Throws a ``TerminalError`` when the terminal cannot start, and a
    /// `SystemCallError` when the kernel gives no descriptor for the signals.
    ///
    /// On the way out the upload pipeline gets its bounded final flush; the result says how many
    /// samples stay in the outbox for the next start.
    @available(*, noasync)
    static func run(on loop: RunLoop, _ setup: SessionSetup) throws -> Int {
        let config = setup.config
        let screen = try CursesScreen.start(mouse: config.mouse, theme: config.theme, color: config.color)
        defer { screen.stop() }
        let (driver, pipeline) = setup.makeDriver(on: loop, screen: screen, rendersOnChange: true)
        let environment = (TerminalNotification.environmentNames + ["TMUX"]).reduce(into: [String: String]()) {
            if let value = getenv($1) { $0[$1] = String(cString: value) }
        }
        driver.terminalNotification = TerminalNotifier(environment: environment)
        if let query = driver.terminalNotification?.query { screen.emit(query) }

        let input = RunLoop.FileDescriptorSource(fileDescriptor: screen.inputDescriptor) {
            let keys = screen.readKeys()
            if keys.contains(.resize) { driver.screenResized() }
            driver.receive(keys.filter { $0 != .resize })
        }
        for mode in RunLoop.Mode.inputModes { loop.add(input, forMode: mode) }
        // Keys typed while the shell still had the terminal in line mode became readable without a
        // wake-up when it left line mode: read them at once.
        func resume() {
            screen.resume()
            driver.screenResized()
            driver.receive(screen.readKeys().filter { $0 != .resize })
        }
        let signalSource = try SignalSource(signals: signals) { signal in
            switch signal {
            case SIGWINCH:
                if screen.handleResize() { driver.screenResized() }
            case SIGTSTP:
                // Ctrl-Z: give the terminal back, stop; `fg` continues here, takes the terminal's
                // size now (it may have changed while stopped, when the shell had the terminal) and repaints.
                screen.suspend()
                kill(getpid(), SIGSTOP)
                resume()
            case SIGCONT:
                resume()
            default:
                driver.terminate()
            }
        }
        for mode in RunLoop.Mode.inputModes { loop.add(signalSource.source, forMode: mode) }

        return setup.run(driver, on: loop, pipeline: pipeline, input: input)
    }
}
