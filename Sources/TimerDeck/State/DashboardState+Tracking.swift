extension DashboardState {
    /// Scroll input: moves the log view and starts or extends a tracking gesture (M2, decision 7).
    mutating func scroll(by lines: Int) -> [Effect] {
        scrollback = min(max(scrollback - lines, 0), maxScrollback)
        switch gesture {
        case .none: return track(.scrolling)
        case .scrolling: return [.render(.log), .extendGesture(quiet: gestureQuiet)]
        case .held, .dragging: return [.render(.log)]
        }
    }

    /// `t`: holds the tracking mode until `t` again; during a scroll, keeps it past the quiet period.
    mutating func toggleTrackingHold() -> [Effect] {
        switch gesture {
        case .none: return track(.held)
        case .scrolling, .dragging:
            let wasScrolling = gesture == .scrolling
            gesture = .held
            return wasScrolling ? [.render(.title), .holdGesture] : [.render(.title)]
        case .held: return [.leaveTracking]
        }
    }

    /// Enters the nested tracking run for `kind` (C-M11, M2); it returns with ``Event/trackingEnded``.
    mutating func track(_ kind: Gesture) -> [Effect] {
        gesture = kind
        return [.render(.all), .enterTracking(quiet: kind == .scrolling ? gestureQuiet : nil)]
    }
}
