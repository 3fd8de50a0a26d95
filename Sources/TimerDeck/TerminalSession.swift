import Glibc
import RunLoopKit
import TerminalUI

/// The dashboard in a real terminal, on the current thread's run loop with the system clock.
public enum TerminalSession {
    /// The signals the session handles; block them with ``SignalSource/block(_:)`` first thing in `main`.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// Runs until `q` or a terminating signal, and restores the terminal in every case.
    ///
    /// On the way out the upload pipeline gets its bounded final flush; the result says how many
    /// samples stay in the outbox for the next start.
    @available(*, noasync)
    public static func run(config: Config, uploads: UploadsSetup) throws(TerminalError) -> Int {
        let screen = try CursesScreen.start(mouse: config.mouse)
        defer { screen.stop() }
        let loop = RunLoop.current
        let pipeline = uploads.makePipeline(on: loop)
        let dashboard = Dashboard(loop: loop, config: config, uploads: pipeline, sinkLabel: uploads.sinkLabel)
        let view = DashboardView(dashboard: dashboard, screen: screen)
        dashboard.onChange = { view.render() }

        let input = RunLoop.FileDescriptorSource(fileDescriptor: screen.inputDescriptor) {
            let keys = screen.readKeys()
            if keys.contains(.resize) { dashboard.changed(.all) }
            dashboard.receive(keys.filter { $0 != .resize }, logPage: view.logPage)
        }
        loop.add(input, forMode: .common)
        let signalSource = SignalSource(signals: signals) { signal in
            switch signal {
            case SIGWINCH:
                if screen.handleResize() { dashboard.changed(.all) }
            case SIGTSTP:
                // Ctrl-Z: give the terminal back, stop; `fg` continues here and repaints.
                screen.suspend()
                kill(getpid(), SIGSTOP)
                screen.resume()
                dashboard.changed(.all)
            case SIGCONT:
                screen.resume()
            default:
                dashboard.quit()
            }
        }
        loop.add(signalSource.source, forMode: .common)

        dashboard.start()
        view.render()
        while !dashboard.quitRequested {
            loop.run(mode: .default, until: .distantFuture)
        }
        input.invalidate()
        dashboard.show(hint: "quitting: sending pending uploads (at most \(DurationText.setting(config.uploads.pipeline.flushTimeout)))…")
        view.render()
        return pipeline.flush()
    }
}
