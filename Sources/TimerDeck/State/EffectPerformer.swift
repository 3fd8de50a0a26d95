/// What carries out a ``DashboardStore``'s effects on the world: the driver on a run loop, or a
/// test's recorder.
protocol EffectPerformer: AnyObject {
    /// Carries out `effect`. A blocking one (``Effect/blocks``) returns only when its nested run ends.
    func perform(_ effect: Effect)
    /// Runs `body` soon, inside whatever run the loop is in then: the events still queued when a
    /// nested run starts are applied first thing inside it.
    func soon(_ body: @escaping () -> Void)
    /// `event` was applied: the log entries from `firstNewEntry` on are its fires (the trace); a
    /// key goes to the recording (`--record`).
    func applied(_ event: Event, firstNewEntry: Int)
}
