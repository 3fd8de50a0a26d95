import RunLoopKit

/// A run of the loop nested in the session's run, as ``DashboardState/runs`` keeps it (C-M11).
///
/// Each kind runs at most once at a time, so its mode names it: ``Effect/endRun(_:)`` ends exactly
/// that run, and the runs inside it first.
enum NestedRun: Equatable, Sendable {
    /// The tracking mode, for as long as the gesture lasts (M2, decision 7).
    case tracking(Gesture)
    /// The custom mode ``RunLoop/Mode/modal`` until `M` again, as a modal panel runs it.
    case modal

    /// The modes nested runs run; the session's own run runs another.
    static let modes: [RunLoop.Mode] = [.tracking, .modal]

    /// The mode the run runs, which names it.
    var mode: RunLoop.Mode {
        switch self {
        case .tracking: .tracking
        case .modal: .modal
        }
    }
}
