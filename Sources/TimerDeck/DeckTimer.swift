import RunLoopKit

/// What a dashboard timer is doing, as the inspector shows it.
public enum DeckTimerState: Equatable, Sendable, CustomStringConvertible {
    /// Not started.
    case idle
    /// Scheduled and able to fire in the mode the loop runs now.
    case running
    /// Held: it keeps its place but does not fire until resumed.
    case suspended
    /// Scheduled, but not in the mode the loop runs now: it fires when that mode returns.
    case waitingForMode
    /// Invalidated; it never fires again until started anew.
    case invalid

    public var description: String {
        switch self {
        case .idle: "idle"
        case .running: "running"
        case .suspended: "suspended"
        case .waitingForMode: "waiting for mode"
        case .invalid: "invalid"
        }
    }
}

/// A timer on the dashboard, whatever its mechanism: the rows of the inspector and the targets of
/// the keys `s`, `p`, `m`, `f` and `x`.
public protocol DeckTimer: AnyObject {
    /// Short unique name, shown in the fire log.
    var name: String { get }
    /// The mechanism and its settings, e.g. "Timer · 1s".
    var mechanism: String { get }
    /// The modes it is scheduled for; `nil` for a mode-independent timer (a dispatch timer, G1).
    var modes: [RunLoop.Mode]? { get }
    /// Started, suspended, invalid … (``DeckTimerState/waitingForMode`` is derived by the inspector).
    var baseState: DeckTimerState { get }
    /// Its next scheduled fire on the uptime clock, if any.
    var nextFire: Instant? { get }
    /// How late its last fire was.
    var lastLateness: Duration? { get }
    /// Ticks skipped or coalesced so far.
    var missedTicks: Int { get }
    /// `s`: starts it if idle or invalid, stops it otherwise.
    func startOrStop()
    /// `p`: suspends or resumes it.
    func suspendOrResume()
    /// `m`: moves it to the next mode (default → tracking → common → default); `false` if it has no modes.
    func moveToNextMode() -> Bool
    /// `f`: fires it now.
    func fireNow()
    /// `x`: invalidates it.
    func invalidate()
}

extension DeckTimer {
    /// The state to show while the loop runs `currentMode` whose common set is `commonModes`.
    public func state(inMode currentMode: RunLoop.Mode?, commonModes: [RunLoop.Mode]) -> DeckTimerState {
        guard baseState == .running, let modes, let currentMode else { return baseState }
        let active = modes.contains(currentMode) || (modes.contains(.common) && commonModes.contains(currentMode))
        return active ? .running : .waitingForMode
    }
}

extension RunLoop.Mode {
    /// The mode `m` moves a timer to: default → tracking → common → default.
    public var nextInCycle: RunLoop.Mode {
        switch self {
        case .default: .tracking
        case .tracking: .common
        default: .default
        }
    }
}
