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
        let performer = RecordingPerformer(state)
        var logWhileFiring: Int?
        performer.onEffect = { [unowned performer] effect in
            guard effect == .fire(Self.smsDefault) else { return }
            // As `fireNow` does: the timer's callout reports the fire before `perform` returns.
            performer.store.send(
                .fired(Self.smsDefault, .timer(time: .zero, mode: .default, lateness: .zero, ticks: 1, isManual: true)))
            performer.store.send(.notice("after the fire"))
            logWhileFiring = performer.store.state.log.count
        }
        performer.store.send(.key(.character("f")))
        #expect(logWhileFiring == 0, "the fire waited in the queue")
        #expect(performer.store.state.log.count == 1)
        #expect(performer.applied.map(\.label) == ["key", "fired", "notice"])
        #expect(performer.performed.first == .fire(Self.smsDefault))
        #expect(performer.performed.last == .render(.status), "the notice's effects come last")
    }

    @Test(
        "Keys read together: those after t are applied inside its tracking run, so t ends it; those after q do nothing")
    func keysAfterANestedRunAndAfterQuit() throws {
        let scene = try DriverScene(script: [])
        let keys: [Character] = ["t", "j", "t", "q", "s"]
        var runsAfterTheKeys: [RunLoop.Mode]?
        scene.driver.soon { [unowned scene] in
            scene.driver.receive(keys.map { .character($0) })
            runsAfterTheKeys = scene.loop.runModes
        }
        scene.play()
        #expect(runsAfterTheKeys == [.default], "the tracking run t entered ended inside the same read")
        #expect(scene.driver.state[Self.smsDefault].run == .idle, "s after q did nothing")
        #expect(scene.driver.quitRequested && scene.loop.nestingDepth == 0)
    }
}

/// Records what the store asks of its performer, and lets a test play a timer's callout: it runs
/// no loop, so a test of the store alone uses no effect that enters a nested run.
private final class RecordingPerformer: EffectPerformer {
    let store: DashboardStore
    /// Every effect performed, in order.
    private(set) var performed: [Effect] = []
    /// Every event applied, in order.
    private(set) var applied: [Event] = []
    /// What each effect does besides being recorded (a callout that sends an event, say).
    var onEffect: (Effect) -> Void = { _ in }

    init(_ state: DashboardState) {
        store = DashboardStore(state)
        store.performer = self
    }

    func perform(_ effect: Effect) {
        precondition(!effect.blocks, "a nested run needs the driver: \(effect)")
        performed.append(effect)
        onEffect(effect)
    }

    func soon(_ body: @escaping () -> Void) { body() }

    func applied(_ event: Event, firstNewEntry: Int) { applied.append(event) }
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
