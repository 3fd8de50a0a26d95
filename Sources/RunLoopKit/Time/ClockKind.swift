/// The three clocks of the run loop and timer family (decisions.md 9).
public enum ClockKind: Sendable, Hashable, CaseIterable {
    /// `CLOCK_MONOTONIC`: stops while the machine sleeps. Run loop timers and display links use it;
    /// it is libdispatch's default clock.
    case uptime
    /// `CLOCK_BOOTTIME`: keeps counting through sleep. Countdowns that must be right after a sleep use it.
    case continuous
    /// `CLOCK_REALTIME`: wall time; deadlines given as dates (libdispatch's walltime).
    case wall
}
