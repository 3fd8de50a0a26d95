import RunLoopKit

extension RunLoop.WakeReason {
    /// The reason's name on the phases page and in a trace's `wake-up` lines.
    var label: String {
        switch self {
        case .timer: "timer"
        case .input: "input"
        case .block: "block"
        case .wakeUp: "wake-up"
        case .timeout: "timeout"
        }
    }
}
