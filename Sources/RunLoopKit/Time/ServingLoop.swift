/// The run loop that serves the sleeps of a ``VirtualClock`` or a ``TimeControl`` used as a Swift
/// `Clock`: the first loop made on that clock, until it goes away (rule C-X2).
final class ServingLoop: Sendable {
    private let handle = LockedValue<RunLoop.Handle?>(nil)

    /// Makes `loop`'s handle the server unless another loop already is.
    func claim(_ loop: RunLoop.Handle) {
        handle.withLock { handle in
            if handle == nil { handle = loop }
        }
    }

    /// Lets go of `loop`'s handle if it is the server.
    func release(_ loop: RunLoop.Handle) {
        handle.withLock { handle in
            if handle?.jobs === loop.jobs { handle = nil }
        }
    }

    /// The serving loop's handle; stops the program, naming `clock`, when no loop runs on it.
    func loop(of clock: String) -> RunLoop.Handle {
        guard let loop = handle.withLock({ $0 }) else {
            fatalError(
                "\(clock).sleep: no run loop runs on this clock; make one with RunLoop(timeSource:) to serve its sleeps"
            )
        }
        return loop
    }
}
