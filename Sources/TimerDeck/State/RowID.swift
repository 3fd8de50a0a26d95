/// Names one row of the dashboard (one timer) for the whole session: rows are numbered in the order
/// they are made and a number is never reused, so deleting a row never retargets another's state,
/// timer or fires.
struct RowID: Hashable, Sendable, CustomStringConvertible {
    /// The row's number: the scene's rows from 0, rows added at run time after them.
    let number: Int

    var description: String { "row \(number)" }
}
