import RunLoopKit

@testable import TimerDeck

/// A run loop played by a script, for ``DashboardStore`` tests: a nested run takes the script's
/// next events until ``Effect/endRun(_:)`` names it (or a run around it), then reports its return,
/// as the driver does; the other effects are recorded. No terminal, no run loop, no SQLite.
final class ScriptedLoop: EffectPerformer {
    let store: DashboardStore
    private var script: [Event]
    /// The nested runs it is inside, innermost last, with whether each was told to end.
    private(set) var nested: [(mode: RunLoop.Mode, ends: Bool)] = []
    private var sessionEnds = false
    private var later: [() -> Void] = []
    private var consumed = 0
    /// The runs as the state keeps them and as the loop is in them, innermost last, each time the
    /// loop is about to read the next input (and once after the last).
    private(set) var observations: [(state: [RunLoop.Mode], loop: [RunLoop.Mode])] = []
    /// Every effect performed, in order.
    private(set) var performed: [Effect] = []
    /// Every event applied, in order.
    private(set) var applied: [Event] = []
    /// How many nested runs the loop was inside as each event was applied.
    private(set) var depths: [Int] = []
    /// What each effect does besides being recorded (a callout that sends an event, say).
    var onEffect: (Effect) -> Void = { _ in }

    init(_ state: DashboardState, script: [Event]) {
        store = DashboardStore(state)
        self.script = script
        store.performer = self
    }

    /// The modes of the nested runs it is inside, innermost last.
    var modes: [RunLoop.Mode] { nested.map(\.mode) }
    /// Whether the session's own run was told to end.
    var quit: Bool { sessionEnds }

    /// Plays the script in the session's run until it ends or the session is told to end.
    func play() {
        while !sessionEnds, step() {}
        observe()
    }

    private func observe() {
        if observations.count < consumed { observations.append((store.state.runs.map(\.mode), modes)) }
    }

    /// Sends the script's next event, if any: what a pass of the loop does with one input.
    private func step() -> Bool {
        let pending = later
        later = []
        for body in pending { body() }
        observe()
        guard !script.isEmpty else { return false }
        consumed += 1
        store.send(script.removeFirst())
        return true
    }

    func perform(_ effect: Effect) {
        performed.append(effect)
        switch effect {
        case .enterTracking: run(.tracking)
        case .enterModal: run(.modal)
        case .endRun(let mode):
            if let index = nested.lastIndex(where: { $0.mode == mode }) { nested[index].ends = true }
        case .quit: sessionEnds = true
        default: onEffect(effect)
        }
    }

    func soon(_ body: @escaping () -> Void) { later.append(body) }

    func applied(_ event: Event, firstNewEntry: Int) {
        applied.append(event)
        depths.append(nested.count)
    }

    private func run(_ mode: RunLoop.Mode) {
        nested.append((mode, false))
        while nested.last?.ends == false, step() {}
        nested.removeLast()
        store.send(.runEnded(mode))
    }
}
