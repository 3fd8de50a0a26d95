import RunLoopKit

extension RunLoop.Mode {
    /// The dashboard's custom mode, as a modal panel's run would use (`M`, `C`).
    package static let modal: RunLoop.Mode = "modal"

    /// The modes the dashboard takes input in: the common ones and the custom one, as a modal
    /// panel's run still receives events.
    package static let inputModes: [RunLoop.Mode] = [.common, .modal]

    /// The mode `m` moves a timer to: default → tracking → modal → common → default.
    var nextInCycle: RunLoop.Mode {
        switch self {
        case .default: .tracking
        case .tracking: .modal
        case .modal: .common
        default: .default
        }
    }
}
