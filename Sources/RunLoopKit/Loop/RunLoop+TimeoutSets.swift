extension RunLoop {
    /// Puts a new timeout set into `mode`, or into every common mode, now and later, for
    /// ``Mode/common`` (C-M4, C-M5).
    func attach(_ set: TimeoutSet, forMode mode: Mode) {
        guard mode == .common else {
            modeState(for: mode).timeoutSets.append(set)
            return
        }
        commonTimeoutSets.append(set)
        for common in commonModes { modeState(for: common).timeoutSets.append(set) }
    }

    /// Takes an invalidated timeout set out of every mode.
    func detach(_ set: TimeoutSet) {
        commonTimeoutSets.removeAll { $0 === set }
        for state in statesByQueueID { state.timeoutSets.removeAll { $0 === set } }
    }
}
