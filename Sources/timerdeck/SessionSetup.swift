import KeptTimers
import RunLoopKit
import TerminalUI
import TimerDeck
import Uploads

/// What an interactive session (``TerminalSession``, ``PlainSession``) starts with, and the parts
/// of its life both share: the driver with the session's files attached, and the way out.
struct SessionSetup {
    let config: Config
    let configPath: String?
    let uploads: UploadsSetup?
    let trace: TraceFile?
    let laps: LapsFile?
    let timers: TimerStateFile
    let startsFresh: Bool
    let recorder: SessionRecorder?

    /// The dashboard's driver on `loop`, drawing to `screen`, with the trace, laps, kept timers and
    /// recording attached, and the upload pipeline it feeds, if uploads are on.
    func makeDriver(
        on loop: RunLoop, screen: any Screen, rendersOnChange: Bool
    ) -> (driver: DashboardDriver, pipeline: UploadPipeline?) {
        let pipeline = uploads?.makePipeline(on: loop)
        let driver = StandardDashboard.make(
            config: config, loop: loop, screen: screen, pipeline: pipeline,
            sinkLabel: uploads?.sinkLabel ?? "", rendersOnChange: rendersOnChange)
        driver.trace = trace
        driver.laps = laps
        driver.stateFile = timers
        driver.startsFresh = startsFresh
        driver.configPath = configPath
        recorder?.begin(size: screen.size, at: driver.startTime)
        driver.recorder = recorder
        return (driver, pipeline)
    }

    /// Launches `driver` and runs `loop` until quit; then stops the hooks, finishes the recording
    /// and gives the uploads their bounded final flush. Returns the samples left in the outbox for
    /// the next start.
    @available(*, noasync)
    func run(
        _ driver: DashboardDriver, on loop: RunLoop, pipeline: UploadPipeline?, input: RunLoop.FileDescriptorSource?
    )
        -> Int
    {
        driver.launch()
        while !driver.quitRequested {
            loop.run(mode: .default, until: .distantFuture)
        }
        input?.invalidate()
        driver.stopHooks()
        driver.recorder?.finish(at: driver.inputTime)
        guard let pipeline else { return 0 }
        driver.show(
            hint:
                "quitting: sending pending uploads (at most \(DurationText.setting(config.uploads.pipeline.flushTimeout)))…"
        )
        return pipeline.flush()
    }
}
