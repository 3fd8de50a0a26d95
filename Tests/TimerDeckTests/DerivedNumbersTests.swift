import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

@Suite("Numbers the state derives from the adapters' facts, once")
struct DerivedNumbersTests {
    private func makeState() -> DashboardState {
        DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: Size(width: 80, height: 24))
    }

    @Test("In slow motion a lateness on the dashboard's clock is that many times longer in real terms")
    func latenessInRealTerms() {
        var state = makeState()
        let id = RowID(number: 0)
        _ = state.apply(.key(.enter))
        let fire = Fire.timer(time: .zero, mode: .default, lateness: .milliseconds(10), ticks: 1, isManual: false)
        _ = state.apply(.fired(id, fire, rate: .quarter))
        #expect(state[id].lastLateness == .milliseconds(40))
        _ = state.apply(.fired(id, fire, rate: .tenth))
        #expect(state[id].lastLateness == .milliseconds(100))
        _ = state.apply(.fired(id, fire))
        #expect(state[id].lastLateness == .milliseconds(10))
    }

    @Test("The 1 s refresh of the times runs while a timer runs and stops with the last one")
    func refreshFollowsTheRunningTimers() {
        var state = makeState()
        let refresh = Effect.refreshTimes(every: .seconds(1), tolerance: .milliseconds(250))
        #expect(state.apply(.key(.enter)).last == refresh)
        let tracked = state.apply(.key(.character("t")))
        #expect(tracked.last == .enterTracking(quiet: nil) && !tracked.contains(refresh), "on already")
        _ = state.apply(.key(.character("t")))
        _ = state.apply(.runEnded(.tracking))
        #expect(state.apply(.key(.character("s"))).last == .stopRefreshingTimes)
        #expect(state.apply(.key(.character("s"))).last == refresh)
    }

    @Test("The phases view redraws on a wake-up at most every 250 ms, and only while shown")
    func phasesThrottle() {
        var state = makeState()
        #expect(state.apply(.woke(at: .zero)).isEmpty)
        _ = state.apply(.key(.character("3")))
        #expect(state.apply(.woke(at: .zero + .milliseconds(10))) == [.render(.all)])
        #expect(state.apply(.woke(at: .zero + .milliseconds(200))).isEmpty)
        #expect(state.apply(.woke(at: .zero + .milliseconds(260))) == [.render(.all)])
    }
}
