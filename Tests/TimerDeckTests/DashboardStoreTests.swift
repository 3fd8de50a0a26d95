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
