import DequeModule

/// The one way in to a ``DashboardState``: ``send(_:)`` applies an event and has its effects
/// performed, in order.
///
/// An event sent while effects are performed (a callout an effect fires, such as `f` firing a
/// timer; a hook that ends meanwhile) waits in a queue and is applied after those effects, in
/// order, as pointfreeco's `Store` buffers actions. A blocking effect — a nested run — is the last
/// of its list (checked); once it starts, the state takes events as they come again, so a key read
/// inside the nested run is applied there, and the events still queued are applied first thing
/// inside it.
final class DashboardStore {
    /// The state; only ``send(_:)`` changes it.
    private(set) var state: DashboardState
    /// Carries out the effects. Weak: the performer owns the store.
    weak var performer: (any EffectPerformer)?
    private var queue: Deque<Event> = []
    /// Whether an event's effects are being performed (its nested run is not: inside it, events
    /// apply as they come).
    private var isApplying = false

    /// A store of `state`; its effects go to ``performer`` once set.
    init(_ state: DashboardState) {
        self.state = state
    }

    /// Applies `event` now, or after the effects being performed.
    func send(_ event: Event) {
        send([event])
    }

    /// Applies `events` in order: the ones after an event that enters a nested run are applied
    /// inside that run.
    func send(_ events: [Event]) {
        queue.append(contentsOf: events)
        applyQueued()
    }

    private func applyQueued() {
        guard !isApplying else { return }
        isApplying = true
        while let event = queue.popFirst() {
            let logged = state.log.totalAppended
            var effects = state.apply(event)
            performer?.applied(event, firstNewEntry: logged)
            let blocking = effects.last?.blocks == true ? effects.removeLast() : nil
            precondition(!effects.contains(where: \.blocks), "a nested run must be the last effect: \(effects)")
            for effect in effects { performer?.perform(effect) }
            guard let blocking else { continue }
            isApplying = false
            if !queue.isEmpty { performer?.soon { [weak self] in self?.applyQueued() } }
            performer?.perform(blocking)
            isApplying = true
        }
        isApplying = false
    }
}
