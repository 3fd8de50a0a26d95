import Glibc

/// The time base of a run loop: the kernel's clocks, or a ``VirtualClock`` for deterministic tests.
public enum RunLoopClock: Sendable {
    /// The kernel clocks: `CLOCK_MONOTONIC`, `CLOCK_BOOTTIME`, `CLOCK_REALTIME` (decisions.md 9).
    case system
    /// A clock that moves only when the run loop waits or a callout declares work.
    case virtual(VirtualClock)

    /// The current reading of `kind`.
    @inline(__always)
    public func now(_ kind: ClockKind = .uptime) -> Instant {
        switch self {
        case .system: SystemClock.now(kind)
        case .virtual(let clock): clock.now(kind)
        }
    }

    /// The virtual clock, if this is one.
    public var virtualClock: VirtualClock? {
        if case .virtual(let clock) = self { return clock }
        return nil
    }
}

/// Readings of the kernel clocks.
public enum SystemClock {
    /// The current reading of `kind` from the kernel.
    @inline(__always)
    public static func now(_ kind: ClockKind = .uptime) -> Instant {
        var spec = timespec()
        clock_gettime(clockID(kind), &spec)
        return Instant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    /// The kernel clock id behind `kind`.
    public static func clockID(_ kind: ClockKind) -> clockid_t {
        switch kind {
        case .uptime: CLOCK_MONOTONIC
        case .continuous: CLOCK_BOOTTIME
        case .wall: CLOCK_REALTIME
        }
    }
}
