import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

@Suite("Nested runs: M, t, a drag and q in every order end exactly the runs they name (C-M11, M2)")
struct NestedRunsTests {
    @Test("M, then t inside the modal run, then M: both nested runs end, back to the default mode at depth 1")
    func modalEndsTheTrackingInsideIt() throws {
        let snapshots = try runHeadless(
            """
            key M
            key t
            snapshot
            key M
            wait 100ms
            snapshot
            """)
        try #require(snapshots.count == 2)
        #expect(snapshots[0].screen.contains("mode: tracking  depth: 3"))
        #expect(snapshots[1].screen.contains("mode: default  depth: 1"))
    }

    @Test("q inside a tracking run inside the modal run ends both, then the session; the steps after it are not taken")
    func quitFromTheInnermostRun() throws {
        let snapshots = try runHeadless(
            """
            key M
            key t
            key q
            wait 1s
            snapshot
            """)
        #expect(snapshots.isEmpty)
    }

    /// One input of a table row.
    enum Input: String, CustomStringConvertible {
        /// `t`; a wheel notch up; a mouse button down and up; the scroll's quiet period; `M`; `q`.
        case t, wheel, press, release, quiet, q
        case modal = "M"

        var event: Event {
            switch self {
            case .t: .key(.character("t"))
            case .wheel: .key(.mouse(MouseEvent(kind: .wheelUp, row: 20, column: 10)))
            case .press: .key(.mouse(MouseEvent(kind: .press, row: 20, column: 10)))
            case .release: .key(.mouse(MouseEvent(kind: .release, row: 20, column: 10)))
            case .quiet: .gestureQuiet
            case .modal: .key(.character("M"))
            case .q: .key(.character("q"))
            }
        }

        var description: String { rawValue }
    }

    /// A row: the inputs, and the nested runs (innermost last) after each, as `T` tracking and `M` modal.
    struct Row: CustomTestStringConvertible, Sendable {
        let inputs: [Input]
        let runs: [String]
        var quits = false
        var testDescription: String { inputs.map(\.rawValue).joined(separator: " ") }
    }

    /// Every order of entering and leaving tracking (by key, wheel, drag) and modal, and quitting
    /// from inside each run.
    static let rows: [Row] = {
        var rows: [Row] = []
        // How each kind of tracking starts and ends.
        let kinds: [(enter: Input, leave: Input)] = [(.t, .t), (.wheel, .quiet), (.press, .release)]
        for (enter, leave) in kinds {
            rows += [
                Row(inputs: [enter, leave], runs: ["T", ""]),
                Row(inputs: [.modal, enter, leave, .modal], runs: ["M", "MT", "M", ""]),
                Row(inputs: [.modal, enter, .modal], runs: ["M", "MT", ""]),
                // M is refused while tracking; the tracking then ends as it began.
                Row(inputs: [enter, .modal, leave], runs: ["T", "T", ""]),
                Row(inputs: [enter, .q], runs: ["T", ""], quits: true),
                Row(inputs: [.modal, enter, .q], runs: ["M", "MT", ""], quits: true),
            ]
        }
        rows += [
            Row(inputs: [.modal, .modal], runs: ["M", ""]),
            Row(inputs: [.modal, .q], runs: ["M", ""], quits: true),
            Row(inputs: [.q], runs: [""], quits: true),
            // A wheel during a held or dragged tracking run only scrolls; t holds a scroll or a drag
            // until t again, past a release or a quiet period.
            Row(inputs: [.t, .wheel, .t], runs: ["T", "T", ""]),
            Row(inputs: [.wheel, .t, .quiet, .t], runs: ["T", "T", "T", ""]),
            Row(inputs: [.press, .t, .release, .t], runs: ["T", "T", "T", ""]),
            Row(inputs: [.modal, .press, .wheel, .release, .modal], runs: ["M", "MT", "MT", "M", ""]),
            // A release ends only a run a drag started: a click does not undo t, nor end a scroll.
            Row(inputs: [.t, .press, .release], runs: ["T", "T", "T"]),
            Row(inputs: [.t, .press, .release, .t], runs: ["T", "T", "T", ""]),
            Row(inputs: [.wheel, .press, .release], runs: ["T", "T", "T"]),
            Row(inputs: [.wheel, .press, .release, .quiet], runs: ["T", "T", "T", ""]),
            // The end of a gesture after M already ended the run inside it does nothing.
            Row(inputs: [.modal, .press, .modal, .release], runs: ["M", "MT", "", ""]),
            Row(inputs: [.modal, .wheel, .modal, .quiet], runs: ["M", "MT", "", ""]),
        ]
        return rows
    }()

    private static func letters(_ modes: [RunLoop.Mode]) -> String {
        modes.map { $0 == .tracking ? "T" : "M" }.joined()
    }

    @Test("The runs the state keeps are the runs the driver's loop is in, after each input", arguments: rows)
    func table(_ row: Row) throws {
        let scene = try DriverScene(script: row.inputs.map(\.event))
        scene.play()
        #expect(scene.observations.map { Self.letters($0.state) } == row.runs, "as the state keeps them")
        #expect(scene.observations.map { Self.letters($0.loop) } == row.runs, "as the loop is in them")
        #expect(scene.quit == row.quits)
        #expect(scene.loop.nestingDepth == 0, "every run returned")
    }

    @Test("Every effect list the state returns has its nested run, if any, last")
    func blockingEffectsComeLast() {
        for row in Self.rows {
            var state = DashboardState(
                scene: .standard(Config(), uploadsLabel: nil), size: Size(width: 80, height: 24))
            for input in row.inputs {
                let effects = state.apply(input.event)
                #expect(effects.dropLast().allSatisfy { !$0.blocks }, "\(row.testDescription): \(effects)")
            }
        }
    }
}
