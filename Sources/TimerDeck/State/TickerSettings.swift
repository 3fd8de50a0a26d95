/// The display link row's own settings and picture (S3, D3).
struct TickerSettings: Equatable, Sendable {
    /// Callbacks every `frameInterval` vsyncs (1…12).
    var frameInterval = 1
    /// Whether each callback takes ``DashboardState/slowLoad`` extra, so frames skip (D3).
    var isSlow = false
    /// The animation frame shown: the vsync slot of the last callback.
    var frame = 0

    /// The frame intervals `+` and `-` step through.
    static let frameIntervals = 1...12
}
