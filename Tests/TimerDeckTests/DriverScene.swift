import RunLoopKit
import TerminalUI

@testable import TimerDeck

/// The dashboard's real driver on a virtual-clock loop, fed a script of events one per pass of the
/// loop through a source in the input modes, as the terminal's input arrives: an event that enters
/// a nested run takes the next ones inside it, and one that ends a run takes the next in the run
/// around it. No terminal, no SQLite.
final class DriverScene {
    let loop: RunLoop
    let driver: DashboardDriver
    private var script: [Event]
    private var taken = 0
    private var input: RunLoop.Source?
    /// The nested runs as the state keeps them and as the loop is in them, innermost last, each
    /// time the loop is about to take the next event (and once after the last).
    private(set) var observations: [(state: [RunLoop.Mode], loop: [RunLoop.Mode])] = []
    /// Whether the script quit the session (before the scene ends it, if it did not).
    private(set) var quit = false

    init(script: [Event], config: Config = Config(), size: Size = Size(width: 80, height: 24)) throws {
        loop = try RunLoop.make(timeSource: .virtual(VirtualClock()))
        driver = StandardDashboard.make(
            config: config, loop: loop, screen: GridScreen(size: size), pipeline: nil, sinkLabel: "",
            rendersOnChange: false)
        self.script = script
    }

    /// Plays the script in the session's run; then quits, ending the runs the script left open.
    func play() {
        RunLoop.withCurrent(loop) {
            driver.launch()
            let input = RunLoop.Source { [unowned self] in take() }
            for mode in RunLoop.Mode.inputModes { loop.add(input, forMode: mode) }
            self.input = input
            input.signal()
            while !driver.quitRequested {
                loop.run(mode: .default, until: .distantFuture)
            }
            // A quit in the script: the session's run returned without taking another event.
            if observations.count < taken {
                observe()
                quit = true
            }
            input.invalidate()
        }
    }

    /// Takes the script's next event, as a pass of the loop takes one input.
    private func take() {
        observe()
        guard !script.isEmpty else {
            quit = driver.quitRequested
            if !quit { driver.send(.key(.character("q"))) }
            return
        }
        taken += 1
        input?.signal()
        driver.send(script.removeFirst())
    }

    /// Notes the runs after the last event taken.
    private func observe() {
        guard observations.count < taken else { return }
        observations.append((driver.state.runs.map(\.mode), Array(loop.runModes.dropFirst())))
    }
}
