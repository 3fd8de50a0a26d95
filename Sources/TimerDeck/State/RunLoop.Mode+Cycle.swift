import RunLoopKit

extension RunLoop.Mode {
    /// The mode `m` moves a timer to: default → tracking → common → default.
    var nextInCycle: RunLoop.Mode {
        switch self {
        case .default: .tracking
        case .tracking: .common
        default: .default
        }
    }
}
