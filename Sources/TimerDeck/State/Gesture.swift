/// What keeps the loop in the tracking mode (decision 7): the state of a ``NestedRun/tracking(_:)``.
enum Gesture: Equatable, Sendable {
    /// Scrolling: the nested tracking run ends after the quiet period.
    case scrolling
    /// `t`: the nested tracking run lasts until `t` again.
    case held
    /// A mouse button is down: the nested tracking run lasts until it is released (a release
    /// ends no other gesture).
    case dragging
}
