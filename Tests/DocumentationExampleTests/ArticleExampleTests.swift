import RunLoopKit
import Testing
import TimeUnits

/// The DocC articles' examples do what their articles say.
@Suite("Article examples")
struct ArticleExampleTests {
    private func milliseconds(_ instants: [Instant]) -> [Int64] {
        instants.map { $0.nanoseconds / Nanoseconds.perMillisecond }
    }

    @Test("Getting started: the timer ticks three times and the run returns")
    func gettingStartedTimer() {
        #expect(gettingStartedTimerExample() == 3)
    }

    @Test("Getting started: a slow callout makes the repeating timer skip two ticks")
    func gettingStartedVirtualClock() {
        #expect(milliseconds(gettingStartedVirtualClockExample()) == [100, 400, 500, 600])
    }

    @Test("Modes: a tracking run with a common-mode timer times out")
    func modes() {
        #expect(modesExample() == .timedOut)
    }

    @Test("Timers: one wake-up at 140 ms fires both timers")
    func timers() {
        #expect(milliseconds(timersExample()) == [140, 140])
    }

    @Test("Display links: thirty frames, then the link invalidates itself")
    func displayLinks() {
        #expect(displayLinksExample() == 30)
    }

    @Test("Dispatch timers: nested suspensions and a release while suspended are safe")
    func dispatchTimers() {
        dispatchTimersExample()
    }

    @Test("Lifetimes: a ticker with a weakly capturing timer is freed")
    func lifetimes() {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        var ticker: LifetimesExample.Ticker? = LifetimesExample.Ticker(loop: loop)
        weak let weakTicker = ticker
        ticker = nil
        #expect(weakTicker == nil)
        #expect(loop.run(until: loop.now + .seconds(2)) == .finished)
    }
}
