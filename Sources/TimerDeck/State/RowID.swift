/// Names one row of the dashboard (one timer): its position in the scene, stable for the session.
struct RowID: Hashable, Sendable, CustomStringConvertible {
    /// The row's index in ``DashboardState/rows``.
    let index: Int

    var description: String { "row \(index)" }
}
