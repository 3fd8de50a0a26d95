import RunLoopKit
import Synchronization

/// A run loop on a fresh virtual clock, bound to the calling thread.
public func makeVirtualLoop() -> (RunLoop, VirtualClock) {
    let clock = VirtualClock()
    return (RunLoop(timeSource: .virtual(clock)), clock)
}

/// Milliseconds on the uptime axis, for readable expectations.
public func ms(_ value: Int64) -> Instant {
    Instant(nanoseconds: value * 1_000_000)
}

extension Instant {
    /// Whole milliseconds since the clock's origin.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }
}

/// Records what happened, in order, with the virtual time it happened at.
public final class Recorder {
    public private(set) var events: [String] = []
    public private(set) var times: [Int64] = []
    public let loop: RunLoop

    public init(_ loop: RunLoop) {
        self.loop = loop
    }

    /// Notes `event` at the loop's time now.
    public func record(_ event: String) {
        events.append(event)
        times.append(loop.now.milliseconds)
    }

    /// The virtual times (ms) of the events named `event`.
    public func times(of event: String) -> [Int64] {
        zip(events, times).filter { $0.0 == event }.map(\.1)
    }
}

/// What tasks did, in order; safe from any thread.
public final class Transcript: Sendable {
    private let storage = Mutex<[String]>([])

    public init() {}

    /// Adds `entry` at the end.
    public func append(_ entry: String) {
        storage.withLock { $0.append(entry) }
    }

    /// Every entry, in order.
    public var entries: [String] { storage.withLock { $0 } }
}
