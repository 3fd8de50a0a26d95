import RunLoopKit
import Uploads

extension Scene {
    /// The config's timers (by default the standard scene: three SMS buttons, the ripple's display
    /// link and the upload jobs), with the upload jobs only when there is a pipeline to drive
    /// (`uploadsLabel` names its sink).
    static func standard(_ config: Config, uploadsLabel: String?) -> Scene {
        Scene(
            timers: config.animations.adjusting(config.timers.filter { uploadsLabel != nil || !$0.drives.isUploadJob }),
            uploadsLabel: uploadsLabel, gestureQuiet: config.gestureQuiet, logCapacity: config.logCapacity,
            simulatedSleep: config.simulatedSleep, keys: config.keys, animations: config.animations)
    }
}

extension UploadPipeline.Job {
    /// The row kind that stands for the job.
    var drives: TimerDefinition.Drives { self == .sample ? .samples : .uploads }
}

extension TimerDefinition.Drives {
    /// The upload job a row of this kind stands for, if any.
    var uploadJob: UploadPipeline.Job? {
        switch self {
        case .samples: .sample
        case .uploads: .upload
        default: nil
        }
    }

    /// Whether a row of this kind is one of the upload pipeline's jobs.
    var isUploadJob: Bool { uploadJob != nil }
}
