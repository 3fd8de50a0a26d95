import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

@Suite("A key a mechanism cannot carry out says why; the state never asks an adapter for what it lacks (T2, G1, D3)")
struct MechanismCapabilityTests {
    /// A state of one timer of `kind`, started, with the inspector focused on it.
    private func state(of kind: TimerDefinition.Kind) -> DashboardState {
        var config = Config()
        config.timers = [timer("one", kind)]
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: Size(width: 80, height: 24))
        _ = state.apply(.launch)
        _ = state.apply(.focus(.inspector))
        return state
    }

    private static let one = RowID(number: 0)

    @Test("D3: f on a display link asks for no fire and says a display link has no fire by hand")
    func displayLinkHasNoFireByHand() {
        var state = state(of: .displayLink)
        #expect(state.apply(.key(.character("f"))) == [.render(.status)])
        #expect(state.hint == "one: a display link has no fire by hand: it calls back only with a frame (D3)")
    }

    @Test("G1: m on a dispatch timer, on a background or the main queue, asks for no move and says it has no mode")
    func dispatchTimerHasNoMode() {
        for kind in [TimerDefinition.Kind.dispatch, .mainQueue] {
            var state = state(of: kind)
            #expect(state.apply(.key(.character("m"))) == [.render(.status)], "\(kind)")
            #expect(
                state.hint == "one: a dispatch timer has no run loop mode: its events reach the loop in any mode (G1)")
            #expect(state[Self.one].mode == nil)
        }
    }

    @Test("T2: f fires a run loop timer, a dispatch timer and a task by hand; m moves all but the dispatch timer")
    func whatEachMechanismCanDo() {
        for kind in [TimerDefinition.Kind.runLoop, .dispatch, .mainQueue, .task] {
            var state = state(of: kind)
            #expect(state.apply(.key(.character("f"))) == [.fire(Self.one)], "\(kind)")
        }
        for kind in [TimerDefinition.Kind.runLoop, .displayLink, .task] {
            var state = state(of: kind)
            #expect(state.apply(.key(.character("m"))).contains(.move(Self.one, to: .tracking)), "\(kind)")
            #expect(state.hint == nil)
        }
    }

    @Test("The ripple's f draws its next frame in the state; an upload job's f runs it now")
    func rippleAndUploadJob() {
        var state = DashboardState(
            scene: .standard(Config(), uploadsLabel: "dir"), size: Size(width: 80, height: 24))
        _ = state.apply(.launch)
        let ticker = RowID(number: 3)
        _ = state.apply(.focus(.ticker))
        let frame = state[ticker].ticker?.frame ?? 0
        #expect(state.apply(.key(.character("f"))) == [.render(.ticker)])
        #expect(state[ticker].ticker?.frame == frame + 1)
        _ = state.apply(.focus(.uploads))
        let sampler = RowID(number: 4)
        #expect(state.selectedRow?.id == sampler)
        #expect(state.apply(.key(.character("f"))) == [.fire(sampler)])
    }

    @Test("Each mechanism's adapter can fire by hand and move between modes exactly when its kind says it can")
    @available(*, noasync)
    func adaptersHaveWhatTheKindsSay() {
        let rig = DefinedTimerRig([timer("one")])
        for kind in TimerDefinition.Kind.allCases {
            let definition = timer("one", kind)
            let mechanism = TimerMechanism(definition)
            let adapter = RunLoop.withCurrent(rig.loop) {
                rig.driver.adapter(of: mechanism, for: definition) { _ in }
            }
            #expect((adapter is any FirableRowTimer) == (mechanism.lackOfFireByHand == nil), "\(kind)")
            #expect((adapter is any MovableRowTimer) == (mechanism.lackOfModes == nil), "\(kind)")
            #expect((mechanism.lackOfModes == nil) == kind.hasModes, "\(kind)")
        }
    }
}
