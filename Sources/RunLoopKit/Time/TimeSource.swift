import Glibc
internal import TimeUnits

/// Where a run loop's time comes from: the kernel's clocks, a ``VirtualClock`` for deterministic
/// tests, or a ``TimeControl`` laid over either, which a program can pause, step, slow down and put
/// to sleep.
///
/// The time types, one family: an ``Instant`` is a reading of one of three clocks (``ClockKind``:
/// uptime, continuous, wall); a loop reads them from its time source (``RunLoop/timeSource``); and
/// three Swift `Clock`s sleep on a loop — ``VirtualClock`` and ``TimeControl`` (in the loop made
/// first on them) and ``LoopClock`` (a loop's clock of one kind, in chosen modes).
///
/// ```swift
/// let virtual = VirtualClock()
/// let loop = RunLoop(timeSource: .virtual(virtual))
/// let uptime = loop.timeSource.now(.uptime)   // .zero: virtual time starts at zero
/// ```
public enum TimeSource: Sendable {
    /// The kernel clocks: `CLOCK_MONOTONIC`, `CLOCK_BOOTTIME`, `CLOCK_REALTIME` (decisions.md 9).
    case system
    /// A clock that moves only when the run loop waits or a callout declares work.
    case virtual(VirtualClock)
    /// A controllable clock over ``system`` or ``virtual(_:)``.
    case controlled(TimeControl)

    /// The current reading of `kind`.
    @inline(__always)
    public func now(_ kind: ClockKind = .uptime) -> Instant {
        switch self {
        case .system: SystemClock.now(kind)
        case .virtual(let clock): clock.now(kind)
        case .controlled(let control): control.now(kind)
        }
    }

    /// The virtual clock, if this is one or a controlled clock lies over one.
    public var virtualClock: VirtualClock? {
        switch self {
        case .system: nil
        case .virtual(let clock): clock
        case .controlled(let control): control.base.virtualClock
        }
    }

    /// The time control, if this is a controlled clock.
    package var timeControl: TimeControl? {
        if case .controlled(let control) = self { return control }
        return nil
    }

    /// Where the loops on a virtual or controlled clock register to serve its sleeps (rule C-X2).
    var servingLoop: ServingLoop? {
        switch self {
        case .system: nil
        case .virtual(let clock): clock.servingLoop
        case .controlled(let control): control.servingLoop
        }
    }

    /// Whether the clock's time can jump or stand still (a virtual or controlled clock): timers
    /// delivered onto a loop on it must follow the loop's clock rather than the kernel's.
    var isSteered: Bool {
        if case .system = self { return false }
        return true
    }
}

/// Readings of the kernel clocks.
package enum SystemClock {
    /// The current reading of `kind` from the kernel. Not inlined: its buffer for the kernel would
    /// give every function that reads a loop's time a stack guard, and the system call dwarfs a call.
    @inline(never)
    package static func now(_ kind: ClockKind = .uptime) -> Instant {
        var spec = timespec()
        clock_gettime(clockID(kind), &spec)
        return Instant(nanoseconds: Nanoseconds.of(spec)).read(from: kind)
    }

    /// The kernel clock id behind `kind`.
    static func clockID(_ kind: ClockKind) -> clockid_t {
        switch kind {
        case .uptime: CLOCK_MONOTONIC
        case .continuous: CLOCK_BOOTTIME
        case .wall: CLOCK_REALTIME
        }
    }
}
