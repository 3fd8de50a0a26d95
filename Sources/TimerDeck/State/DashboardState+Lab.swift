extension DashboardState {
    /// The lab's keys: choose a strategy, open and close its screens, free its leaks (L1–L3).
    mutating func labAction(_ command: Command) -> [Effect] {
        switch command {
        case .selectStrategy(let delta):
            let all = LabStrategy.allCases
            labStrategy = all[min(max(labStrategy.rawValue + delta, 0), all.count - 1)]
            return [.render(.all)]
        case .openScreen: return [.openScreen(labStrategy), .render(.all)]
        case .closeScreen: return [.closeScreen(labStrategy), .render(.all)]
        default: return [.stopLeftBehind(labStrategy), .render(.all)]
        }
    }

    /// `M` enters or leaves the nested run in the custom mode; `C` makes that mode common (C-M5).
    mutating func modalAction(_ command: Command) -> [Effect] {
        guard command == .toggleModal else {
            hint = "\"modal\" is a common mode from now on: CF has no way to take it out (C-M5)"
            return [.makeModalCommon, .render(.all)]
        }
        // Ending the modal run ends a tracking run inside it first.
        if isModalRunning { return endRun(.modal) }
        guard gesture == nil else {
            hint = "end the tracking first (t, or let the scroll settle), then M"
            return []
        }
        return enter(.modal)
    }
}
