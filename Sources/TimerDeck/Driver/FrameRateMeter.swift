import RunLoopKit

/// Callbacks per second of the ticker's display link, over its last ``window`` callbacks.
struct FrameRateMeter {
    /// How many callbacks the rate is measured over.
    static let window = 30
    private var recent: [Instant] = []

    /// Notes a callback at `instant`.
    mutating func record(_ instant: Instant) {
        recent.append(instant)
        if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
    }

    /// Forgets the callbacks so far (the link was replaced).
    mutating func reset() { recent.removeAll() }

    /// Callbacks per second over the recorded callbacks; 0 until there are two.
    var framesPerSecond: Double {
        guard let first = recent.first, let last = recent.last, last > first else { return 0 }
        return Double(recent.count - 1) / (Double(last.nanoseconds - first.nanoseconds) / 1e9)
    }
}
