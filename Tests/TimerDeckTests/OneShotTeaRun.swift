import RunLoopKit
import TerminalUI

@testable import TimerDeck

/// A one-shot 3 s dispatch timer "tea" that acts at its end with the table's `actions` lines
/// (`notify = true`, `sound = true`), run for 10 s on a virtual clock after `configure` sets the
/// driver up. The virtual clock waits for the programs it starts (outside work), so their ends
/// come in before 10 s.
@available(*, noasync)
func runOneShotTea(actions: String, configure: (DashboardDriver) -> Void) throws -> DashboardDriver {
    let config = try Config.parse(
        "[[timers]]\nname = \"tea\"\nmechanism = \"dispatch\"\ninterval = \"3s\"\nrepeats = false\n"
            + actions + "\nact_on = \"end\"")
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let driver = DashboardDriver(
        scene: .standard(config, uploadsLabel: nil), loop: loop,
        screen: GridScreen(size: DashboardLayout.minimumSize), pipeline: nil, rendersOnChange: false)
    configure(driver)
    RunLoop.withCurrent(loop) {
        driver.launch()
        loop.run(mode: .default, until: Instant(nanoseconds: 10_000_000_000))
    }
    return driver
}
