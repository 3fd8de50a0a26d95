/// ``Instant`` as a Swift `InstantProtocol`, and conversions to and from the standard library's
/// clocks (rule C-X2).
///
/// The conversions read both clocks now and keep the distance: an uptime instant maps to the
/// `SuspendingClock` (both stand still while the machine sleeps), a continuous one to the
/// `ContinuousClock`. They relate kernel-clock instants; a virtual or controlled clock's instants
/// have no meaning on the standard library's clocks.
extension Instant: InstantProtocol {
    /// The uptime instant at `instant` of the standard library's `SuspendingClock`.
    public init(_ instant: SuspendingClock.Instant) {
        self = SystemClock.now(.uptime) + SuspendingClock.now.duration(to: instant)
    }

    /// The continuous instant at `instant` of the standard library's `ContinuousClock`.
    public init(_ instant: ContinuousClock.Instant) {
        self = SystemClock.now(.continuous) + ContinuousClock.now.duration(to: instant)
    }
}

extension SuspendingClock.Instant {
    /// The `SuspendingClock` instant at `instant` of the uptime clock.
    public init(_ instant: Instant) {
        self = SuspendingClock.now.advanced(by: SystemClock.now(.uptime).duration(to: instant))
    }
}

extension ContinuousClock.Instant {
    /// The `ContinuousClock` instant at `instant` of the continuous clock.
    public init(_ instant: Instant) {
        self = ContinuousClock.now.advanced(by: SystemClock.now(.continuous).duration(to: instant))
    }
}
