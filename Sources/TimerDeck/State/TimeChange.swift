/// A change to the dashboard's clock from the time-control keys: pause, step, slow motion,
/// simulated sleep, wall-clock jumps (seed G3). The state decides each (``DashboardState/time``
/// holds where the keys left the clock); the driver applies it to the RunLoopKit `TimeControl`.
enum TimeChange: Equatable, Sendable {
    /// `space`: pause every timer, display link and dispatch timer / let them go on.
    case pause, resume
    /// `.`: pause if running, then jump to the next fire date so that fire happens.
    case step
    /// `<` / `>`: run at this rate (the next slower / faster in ``TimeRate``).
    case rate(TimeRate)
    /// `z`: a machine sleep of this length: continuous and wall clocks move on, uptime does not.
    case sleep(Duration)
    /// `w` / `e`: the wall clock alone jumps by this much.
    case jumpWall(Duration)
}

/// The rates slow motion offers, fastest first.
enum TimeRate: CaseIterable, Sendable {
    case normal, quarter, tenth

    /// Controlled time per real time, as `(numerator, denominator)`.
    var fraction: (numerator: Int64, denominator: Int64) {
        switch self {
        case .normal: (1, 1)
        case .quarter: (1, 4)
        case .tenth: (1, 10)
        }
    }

    /// How the title bar names it.
    var label: String {
        switch self {
        case .normal: "1×"
        case .quarter: "¼×"
        case .tenth: "⅒×"
        }
    }

    /// The preset running at `numerator / denominator`, if any.
    init?(numerator: Int64, denominator: Int64) {
        guard let rate = Self.allCases.first(where: { $0.fraction == (numerator, denominator) }) else { return nil }
        self = rate
    }

    /// `duration` on the dashboard's clock in real terms: in slow motion the clock measures a
    /// fraction of the real delay (a lateness, say).
    func inRealTerms(_ duration: Duration) -> Duration {
        let (numerator, denominator) = fraction
        let (scaled, overflow) = duration.nanoseconds.multipliedReportingOverflow(by: denominator)
        return overflow ? duration : .nanoseconds(scaled / numerator)
    }

    /// The next slower (`slower`) or faster preset, staying at the ends.
    func next(slower: Bool) -> TimeRate {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[min(max(index + (slower ? 1 : -1), 0), all.count - 1)]
    }
}
