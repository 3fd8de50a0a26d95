import RunLoopKit
import Uploads

/// A row driven by one of the upload pipeline's jobs, through the pipeline's job API; the job's
/// runs reach the driver through the pipeline's `onFire`.
final class UploadJobRowTimer: MovableRowTimer, FirableRowTimer {
    private let pipeline: UploadPipeline
    private let job: UploadPipeline.Job

    /// Drives `job` of `pipeline`.
    init(pipeline: UploadPipeline, job: UploadPipeline.Job) {
        self.pipeline = pipeline
        self.job = job
    }

    func start(for row: RowState) { pipeline.start(job, in: row.mode) }

    func stop() { pipeline.stop(job) }

    func suspend() { pipeline.pause(job) }

    func resume() { pipeline.resume(job) }

    func move(to mode: RunLoop.Mode) { pipeline.move(job, to: mode) }

    func fireNow() { pipeline.runNow(job) }

    func invalidate() { pipeline.stop(job) }

    var nextFire: Instant? { pipeline.nextRun(of: job) }
}
