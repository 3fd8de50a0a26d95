import RunLoopKit
import TestSupport
import Testing

/// A wall-clock reading is nanoseconds since 1970; the loop's uptime clock counts from the boot.
/// Debug builds (the tests' build) stop with a message when one is given where the other is
/// expected, instead of arming a timer decades away.
@Suite("Instants: a wall-clock reading is refused as an uptime deadline")
struct WallInstantCheckTests {
    @Test("Timer(fireAt:) with a wall-clock reading stops the program")
    func timerFireAtWallReading() async {
        await #expect(processExitsWith: .failure) {
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            _ = Timer(fireAt: loop.timeSource.now(.wall) + .seconds(1), interval: .zero, repeats: false) { _ in }
        }
    }

    @Test("Setting a timer's fireDate to a wall-clock reading stops the program")
    func fireDateWallReading() async {
        await #expect(processExitsWith: .failure) {
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let timer = Timer(fireAt: loop.now + .seconds(1), interval: .zero, repeats: false) { _ in }
            timer.fireDate = loop.timeSource.now(.wall)
        }
    }

    @Test("A run limited by a wall-clock reading stops the program")
    func runUntilWallReading() async {
        await #expect(processExitsWith: .failure) {
            runUntilAWallReading()
        }
    }

    @Test("A timeout set scheduled at a wall-clock reading stops the program")
    func timeoutSetWallReading() async {
        await #expect(processExitsWith: .failure) {
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let timeouts = TimeoutSet(on: loop, handler: NoTimeouts())
            timeouts.schedule(at: loop.timeSource.now(.wall))
        }
    }

    @Test(
        "An instant made from a wall-clock number (not read from a clock) stops the program: the check of every build")
    func wallNumberIsRefusedInEveryBuild() async {
        await #expect(processExitsWith: .failure) {
            // 2025-11-30T00:00:00Z in nanoseconds since 1970, carrying no record of a wall read.
            _ = Timer(fireAt: Instant(nanoseconds: 1_764_460_800_000_000_000), interval: .zero, repeats: false) { _ in }
        }
    }

    @Test("Uptime and continuous readings, and instants made from numbers, are taken as deadlines")
    func otherReadingsAreTaken() {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        var fired: [String] = []
        for (name, deadline) in [
            ("uptime", loop.timeSource.now(.uptime) + .seconds(1)),
            ("continuous", loop.timeSource.now(.continuous) + .seconds(2)),
            ("number", Instant(nanoseconds: 3_000_000_000)),
        ] {
            loop.add(
                Timer(fireAt: deadline, interval: .zero, repeats: false) { _ in fired.append(name) }, forMode: .default)
        }
        loop.run(until: Instant(nanoseconds: 4_000_000_000))
        #expect(fired == ["uptime", "continuous", "number"])
    }

    @Test("A wall-clock reading still equals and hashes as the same nanoseconds")
    func equalityIgnoresTheClock() {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let wall = loop.timeSource.now(.wall)
        let same = Instant(nanoseconds: wall.nanoseconds)
        #expect(wall == same)
        #expect(Set([wall, same]).count == 1)
    }
}

/// A handler for timeouts that must never fire.
private final class NoTimeouts: TimeoutHandler {
    func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {}
}

/// Runs a loop until a wall-clock reading (kept out of the exit test's asynchronous closure, where
/// a run is unavailable).
private func runUntilAWallReading() {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    loop.run(until: loop.timeSource.now(.wall))
}
