import Foundation
import RunLoopKit
import TerminalUI
import TestSupport
import Testing

@testable import TimerDeck

/// The state file is written when what it keeps changes, renewed once a minute, and at the quit.
@Suite("State file writes")
struct StateFileRenewalTests {
    /// The `saved` line of the file at `path`, in whole seconds of the virtual wall clock from `start`.
    private func savedSeconds(_ path: String, since start: Instant) throws -> Int64 {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("saved\t") })
        let nanoseconds = try #require(Int64(line.dropFirst("saved\t".count)))
        return (nanoseconds - start.nanoseconds) / 1_000_000_000
    }

    @Test("A running countdown's ticks write nothing; the file is renewed after a minute and written at the quit")
    @available(*, noasync)
    func ticksDoNotWriteTheFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("timers.state").path
        let config = try Config.parse("[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 3600\n")
        let clock = VirtualClock()
        let loop = RunLoop(timeSource: .virtual(clock))
        let start = loop.timeSource.now(.wall)
        let driver = DashboardDriver(
            scene: .standard(config, uploadsLabel: nil), loop: loop,
            screen: GridScreen(size: DashboardLayout.minimumSize), pipeline: nil, rendersOnChange: false)
        driver.stateFile = TimerStateFile(path: path)
        var seen: [Int64] = []
        RunLoop.withCurrent(loop) {
            driver.launch()
            for second in [10, 59, 61, 75] {
                loop.run(mode: .default, until: Instant(nanoseconds: Int64(second) * 1_000_000_000 + 500_000_000))
                seen.append((try? savedSeconds(path, since: start)) ?? -1)
            }
            driver.send(.key(.character("q")))
            loop.run(mode: .default, until: Instant(nanoseconds: 80_000_000_000))
        }
        // Written when the countdown started, not at its ticks; renewed at the tick a minute on.
        #expect(seen == [0, 0, 60, 60], "\(seen)")
        #expect(try savedSeconds(path, since: start) == 75, "the quit writes it with its time")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("countdown\ttea\trunning\t"))
    }
}
