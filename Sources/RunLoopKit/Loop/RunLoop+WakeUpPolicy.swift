extension RunLoop {
    /// Whether work handed over from other threads wakes a sleeping run loop.
    ///
    /// Pick ``handedOverWorkWakes`` (the default, decisions.md 5) for new code: a block, an
    /// invalidation or a fire-date change sent from another thread takes effect at once. Pick
    /// ``strictCF`` when porting or teaching Darwin code and the exact CFRunLoop behaviour matters,
    /// including its traps: such work then waits until something else wakes the loop (a timer, input,
    /// ``RunLoop/Handle/wakeUp()``), which may be never.
    public enum WakeUpPolicy: Sendable, Equatable {
        /// Work handed over from another thread wakes the loop, and a pass that ends with a block
        /// pending for its mode does not sleep (decisions.md 5).
        case handedOverWorkWakes
        /// CFRunLoop exactly: a cross-thread ``Handle/perform(inModes:_:)``, timer invalidation or
        /// fire-date change does not wake a sleeping loop (C-B1, C-R6, C-T7), and a block queued
        /// during a pass (by a block, say) does not keep the loop from sleeping (C-B2). A stop still
        /// wakes it (C-R5), and dispatch timers delivered onto the loop still wake it (C-M12).
        ///
        /// A timer invalidated or moved from another thread re-arms the sleep as CF re-arms the
        /// mode's timer port: the loop neither wakes at the timer's old date nor runs a pass (no
        /// observers), and sleeps on to its new deadline — a run whose only timer was invalidated
        /// sleeps to its limit and returns ``RunLoop/RunResult/timedOut`` (C-T7, C-T8).
        case strictCF
    }

    /// How this loop reacts to work handed over from other threads; see ``WakeUpPolicy``.
    public var wakeUpPolicy: WakeUpPolicy {
        get { shared.isStrictCF ? .strictCF : .handedOverWorkWakes }
        set {
            checkThread("wakeUpPolicy")
            shared.setStrictCF(newValue == .strictCF)
        }
    }
}
