import RunLoopKit
import Uploads

/// What drives a row: the kind of timer and its settings. Part of the scene, fixed for the row.
enum Mechanism: Equatable, Sendable {
    /// A repeating run loop timer (``TimerSlot``), first fire one interval after the start (M1).
    case runLoopTimer(interval: Duration)
    /// A repeating dispatch timer on `queue` whose events reach the loop, first event at once (G2).
    case dispatchTimer(interval: Duration, clock: ClockKind, queue: DispatchQueueChoice)
    /// A display link at `refreshRate` Hz (S3).
    case displayLink(refreshRate: Int)
    /// One of the upload pipeline's two jobs, a run loop timer owned by the pipeline (S2).
    case uploadJob(UploadPipeline.Job, interval: Duration)
    /// A timer the user defined in the config: a run loop or dispatch timer with its own settings.
    case defined(TimerDefinition)

    /// Whether the mechanism lives in run loop modes (a dispatch timer does not, G1).
    var hasModes: Bool {
        switch self {
        case .dispatchTimer: false
        case .defined(let timer): timer.kind.hasModes
        default: true
        }
    }
}
