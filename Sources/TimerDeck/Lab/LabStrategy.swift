/// How a lifetime-lab screen owns its repeating timer: the leak the seeds warn about (L1), the five
/// remedies (L2 a–e) and the cycle recreated by a strong capture (L3).
enum LabStrategy: Int, CaseIterable, Sendable {
    case strongTarget, weakBlock, blockInUserInfo, weakTarget, weakProxy, dispatchTimer, strongCapture

    /// The lab's label for the strategy.
    var label: String {
        switch self {
        case .strongTarget: "L1  target-action, strong target"
        case .weakBlock: "L2a block, weak capture"
        case .blockInUserInfo: "L2b block in user info, shared target"
        case .weakTarget: "L2c weak intermediate target"
        case .weakProxy: "L2d weak forwarding proxy"
        case .dispatchTimer: "L2e dispatch timer, cancel in deinit"
        case .strongCapture: "L3  block captures its owner strongly"
        }
    }

    /// What the strategy teaches, in a line.
    var lesson: String {
        switch self {
        case .strongTarget: "L1: the timer holds its target, so deinit (and its invalidate) never runs"
        case .weakBlock: "L2a: the block holds the screen weakly; its deinit invalidates the timer"
        case .blockInUserInfo: "L2b: a long-lived target runs the weak block kept in the user info"
        case .weakTarget: "L2c: the weak target invalidates the timer at its first fire after deinit"
        case .weakProxy: "L2d: the timer holds a proxy that holds the screen weakly"
        case .dispatchTimer: "L2e: the screen's dispatch timer is cancelled when the screen is freed"
        case .strongCapture: "L3: a block capturing the screen strongly is the same cycle: capture weakly"
        }
    }

    /// Whether a closed screen of this strategy is never freed while its timer runs (a retain cycle).
    var leaks: Bool { self == .strongTarget || self == .strongCapture }
}
