/// How long an ``Outbox`` keeps samples a sink acknowledged, so its file stops growing.
///
/// Pending samples are never deleted, whatever the retention: only acknowledged batches older
/// than ``age`` (by acknowledgement time), or beyond the newest ``count`` acknowledged samples,
/// are removed, whole batches at a time, and the freed pages go back to the file system.
///
/// ```swift
/// let outbox = try Outbox(url: url, retention: OutboxRetention(age: .seconds(86_400), count: 100_000))
/// ```
public struct OutboxRetention: Sendable, Equatable {
    /// Acknowledged samples older than this are deleted; `nil` keeps them whatever their age.
    public var age: Duration?
    /// At most this many acknowledged samples are kept; `nil` sets no limit.
    public var count: Int?

    /// The default keeps seven days of acknowledged samples.
    public static let sevenDays = OutboxRetention(age: .seconds(7 * 86_400), count: nil)

    /// A retention by `age`, by `count`, or both (whichever deletes more).
    public init(age: Duration?, count: Int?) {
        self.age = age
        self.count = count
    }

    /// The acknowledgement time (milliseconds since the epoch) before which batches go, or nil.
    func cutoff(acknowledgedAt milliseconds: Int64) -> Int64? {
        guard let age else { return nil }
        let ageMilliseconds = age.components.seconds.multipliedReportingOverflow(by: 1000)
        guard !ageMilliseconds.overflow else { return nil }
        let (cutoff, overflow) = milliseconds.subtractingReportingOverflow(ageMilliseconds.partialValue)
        return overflow ? nil : cutoff
    }
}
