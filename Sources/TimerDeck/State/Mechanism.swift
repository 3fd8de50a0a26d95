import RunLoopKit
import Uploads

/// What drives a row: the kind of timer and its settings, from its ``TimerDefinition``. Fixed for the row.
enum Mechanism: Equatable, Sendable {
    /// A run loop timer, dispatch timer or display link as its definition says: a row of the fire
    /// log, or an SMS button (S1) counting down a second a fire.
    case defined(TimerDefinition)
    /// The ripple's display link at `refreshRate` Hz (S3), whose frame interval `[` `]` change.
    case displayLink(refreshRate: Int)
    /// One of the upload pipeline's two jobs, a run loop timer owned by the pipeline (S2).
    case uploadJob(UploadPipeline.Job, interval: Duration)

    /// What drives the row of `timer`.
    init(_ timer: TimerDefinition) {
        if timer.drives == .ripple {
            self = .displayLink(refreshRate: timer.refreshRate)
        } else if let job = timer.drives.uploadJob {
            self = .uploadJob(job, interval: timer.interval)
        } else {
            self = .defined(timer)
        }
    }

    /// Whether the mechanism lives in run loop modes (a dispatch timer does not, G1).
    var hasModes: Bool {
        switch self {
        case .defined(let timer): timer.kind.hasModes
        case .displayLink, .uploadJob: true
        }
    }
}
