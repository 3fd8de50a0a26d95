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
        _ = state.apply(.key(.character("<")))
        _ = state.apply(.fired(id, fire))
        #expect(state[id].lastLateness == .milliseconds(40))
        _ = state.apply(.key(.character("<")))
        _ = state.apply(.fired(id, fire))
        #expect(state[id].lastLateness == .milliseconds(100))
        _ = state.apply(.key(.character(">")))
        _ = state.apply(.key(.character(">")))
        _ = state.apply(.fired(id, fire))
        #expect(state[id].lastLateness == .milliseconds(10))
    }

    @Test("D3: a display link frame's lateness is in real terms in slow motion too")
    func frameLatenessInRealTerms() {
        var state = makeState()
        let ticker = RowID(number: 3)
        #expect(state[ticker].ticker != nil)
        let frame = Fire.frame(
            time: .zero + .milliseconds(1_010), mode: .default, timestamp: .zero + .seconds(1),
            duration: .milliseconds(16), skippedFrames: 0)
        _ = state.apply(.fired(ticker, frame))
        #expect(state[ticker].lastLateness == .milliseconds(10))
        _ = state.apply(.key(.character("<")))
        _ = state.apply(.fired(ticker, frame))
        #expect(state[ticker].lastLateness == .milliseconds(40))
    }

    @Test("C-X2: a task's wake-up is late by its clock reading past the deadline it slept until, in real terms")
    func taskWakeLateness() {
        var config = Config()
        config.timers = [timer("nap", .task)]
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: Size(width: 80, height: 24))
        let id = RowID(number: 0)
        _ = state.apply(.launch)
        let late = Fire.wake(time: .zero + .milliseconds(1_500), mode: .default, due: .zero + .seconds(1))
        _ = state.apply(.fired(id, late))
        #expect(state[id].lastLateness == .milliseconds(500))
        #expect(state.log[state.log.count - 1].lateness == .milliseconds(500))
        #expect(state.log[state.log.count - 1].ticks == 1, "a task has no grid: one tick however late")
        // A wake-up the executor ran before its deadline (tolerance) is not early: zero.
        _ = state.apply(.fired(id, .wake(time: .zero + .seconds(2), mode: .default, due: .zero + .seconds(3))))
        #expect(state[id].lastLateness == .zero)
        _ = state.apply(.key(.character("<")))
        _ = state.apply(.fired(id, late))
        #expect(state[id].lastLateness == .seconds(2))
        // By hand (T2): logged on time, the row's lateness untouched.
        _ = state.apply(.fired(id, .wake(time: .zero + .seconds(4), mode: .default, due: nil)))
        #expect(state[id].lastLateness == .seconds(2))
        #expect(state.log[state.log.count - 1].lateness == .zero)
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

    @Test("The phases view redraws on a wake-up at most every 250 ms; each wake-up is traced while it is shown only")
    func phasesThrottle() {
        var state = makeState()
        #expect(state.apply(.woke(at: .zero)).isEmpty)
        _ = state.apply(.key(.character("3")))
        #expect(state.apply(.woke(at: .zero + .milliseconds(10))) == [.traceWakeUp, .render(.all)])
        #expect(state.apply(.woke(at: .zero + .milliseconds(200))) == [.traceWakeUp])
        #expect(state.apply(.woke(at: .zero + .milliseconds(260))) == [.traceWakeUp, .render(.all)])
        _ = state.apply(.key(.character("1")))
        #expect(state.apply(.woke(at: .zero + .seconds(1))).isEmpty)
    }
}
