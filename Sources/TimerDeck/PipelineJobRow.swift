import RunLoopKit
import Uploads

/// The sampler or the uploader of the upload pipeline as a dashboard timer: `s` starts or stops
/// it, `p`, `m` and `x` as for every timer, `f` samples or uploads now (S2).
final class PipelineJobRow: SlotTimer {
    let name: String
    let slot: TimerSlot
    private let changed: () -> Void

    init(_ job: UploadPipeline.Job, of pipeline: UploadPipeline, changed: @escaping () -> Void) {
        name = job.timerName
        slot = pipeline.slot(job)
        self.changed = changed
    }

    var mechanism: String { "RunLoop Timer " + DurationText.setting(slot.interval) }

    func startOrStop() {
        if slot.isRunning { slot.stop() } else { slot.start() }
        changed()
    }

    func slotChanged() {
        changed()
    }
}

extension UploadPipeline.Job {
    /// The job's name in the inspector and the fire log.
    var timerName: String { self == .sample ? "sampler" : "uploader" }
}
