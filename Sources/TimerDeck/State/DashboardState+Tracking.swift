import RunLoopKit

extension DashboardState {
    /// The gesture that keeps the tracking run going, while there is one.
    var gesture: Gesture? {
        for case .tracking(let gesture) in runs { return gesture }
        return nil
    }

    /// Whether the loop runs nested in the custom mode ``RunLoop/Mode/modal`` (`M`).
    var isModalRunning: Bool { runs.contains(.modal) }

    /// Scroll input: moves the log view and starts or extends a tracking gesture (M2, decision 7).
    mutating func scroll(by lines: Int) -> [Effect] {
        scrollback = min(max(scrollback - lines, 0), maxScrollback)
        switch gesture {
        case nil: return enter(.tracking(.scrolling))
        case .scrolling: return [.render(.log), .extendGesture(quiet: gestureQuiet)]
        case .held, .dragging: return [.render(.log)]
        }
    }

    /// `t`: holds the tracking mode until `t` again; during a scroll, keeps it past the quiet period.
    mutating func toggleTrackingHold() -> [Effect] {
        switch gesture {
        case nil: return enter(.tracking(.held))
        case .scrolling:
            change(to: .held)
            return [.render(.title), .holdGesture]
        case .dragging:
            change(to: .held)
            return [.render(.title)]
        case .held: return endRun(.tracking)
        }
    }

    /// A mouse button down starts a drag gesture; its release ends that drag. A release ends only
    /// a run the drag started and `t` did not hold since: `t` holds a scroll or a drag until `t`
    /// again, and a scroll ends after its quiet period, whatever the mouse does meanwhile.
    mutating func drag(began: Bool) -> [Effect] {
        if began { return gesture == nil ? enter(.tracking(.dragging)) : [] }
        return gesture == .dragging ? endRun(.tracking) : []
    }

    /// Enters `run`, nested in the innermost one (C-M11, M2); the driver reports its end with
    /// ``Event/runEnded(_:)``. The nested run blocks, so it is the last effect.
    mutating func enter(_ run: NestedRun) -> [Effect] {
        runs.append(run)
        switch run {
        case .tracking(let gesture):
            return [.render(.all), .enterTracking(quiet: gesture == .scrolling ? gestureQuiet : nil)]
        case .modal: return [.render(.all), .enterModal]
        }
    }

    /// Ends the run in `mode` and, first, every run nested inside it, innermost first: a run ends
    /// an outer one only by ending the inner ones, as a modal panel closing under a drag would.
    mutating func endRun(_ mode: RunLoop.Mode) -> [Effect] {
        guard let index = runs.firstIndex(where: { $0.mode == mode }) else { return [] }
        return endRuns(from: index)
    }

    /// Ends every nested run from the one at `index` inwards, innermost first.
    mutating func endRuns(from index: Int) -> [Effect] {
        let ended = runs[index...].reversed().map { Effect.endRun($0.mode) }
        runs.removeSubrange(index...)
        return ended
    }

    /// The nested run in `mode` returned: the screen shows the mode the loop is back in. A run
    /// that returned without being ended (nothing left in its mode) takes those inside it along.
    mutating func runEnded(_ mode: RunLoop.Mode) -> [Effect] {
        if let index = runs.firstIndex(where: { $0.mode == mode }) { runs.removeSubrange(index...) }
        return [.render(.all)]
    }

    private mutating func change(to gesture: Gesture) {
        guard let index = runs.firstIndex(where: { $0.mode == .tracking }) else { return }
        runs[index] = .tracking(gesture)
    }
}
