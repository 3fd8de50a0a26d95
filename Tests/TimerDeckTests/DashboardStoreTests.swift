import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

@Suite("The store: one way in to the state; events sent during effects wait for them")
struct DashboardStoreTests {
    private static let smsDefault = RowID(number: 0)

    @Test("f fires a timer whose callout sends its fire at once: the fire is applied after the key's effects, in order")
    func calloutsWaitForTheEffects() {
        var state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: Size(width: 80, height: 24))
        _ = state.apply(.key(.enter))
        let loop = ScriptedLoop(state, script: [.key(.character("f"))])
        var logWhileFiring: Int?
        loop.onEffect = { [unowned loop] effect in
            guard effect == .fire(Self.smsDefault) else { return }
            // As `fireNow` does: the timer's callout reports the fire before `perform` returns.
            loop.store.send(
                .fired(Self.smsDefault, .timer(time: .zero, mode: .default, lateness: .zero, ticks: 1, isManual: true)))
            loop.store.send(.notice("after the fire"))
            logWhileFiring = loop.store.state.log.count
        }
        loop.play()
        #expect(logWhileFiring == 0, "the fire waited in the queue")
        #expect(loop.store.state.log.count == 1)
        #expect(loop.applied.map(\.label) == ["key", "fired", "notice"])
        #expect(loop.performed.first == .fire(Self.smsDefault))
        #expect(loop.performed.last == .render(.status), "the notice's effects come last")
    }

    @Test("Keys read together: those after t are applied inside its tracking run; those after q do nothing")
    func keysAfterANestedRunAndAfterQuit() {
        let state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: Size(width: 80, height: 24))
        let loop = ScriptedLoop(state, script: [])
        let keys: [Character] = ["t", "j", "t", "q", "s"]
        loop.store.send(keys.map { .key(.character($0)) })
        #expect(loop.applied.map(\.label) == ["key", "key", "key", "key", "key", "other"], "then the run's end")
        #expect(loop.depths == [0, 1, 1, 1, 1, 0])
        #expect(!loop.performed.contains(.start(Self.smsDefault)), "s after q did nothing")
        #expect(loop.quit && loop.modes.isEmpty)
    }
}

extension Event {
    /// The case's name, for comparing orders.
    fileprivate var label: String {
        switch self {
        case .key: "key"
        case .fired: "fired"
        case .notice: "notice"
        default: "other"
        }
    }
}

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
