import RunLoopKit
import Uploads

extension Scene {
    /// The README's scene: three SMS buttons (a run loop timer in the default mode, one in the
    /// common modes, a dispatch timer on the continuous clock: S1, M2, G1, G3), the ripple's display
    /// link (S3, M4) and, with `uploadsLabel`, the upload pipeline's sampler and uploader (S2).
    static func standard(_ config: Config, uploadsLabel: String?) -> Scene {
        let second = Duration.seconds(1)
        let seconds = config.countdownSeconds
        var rows: [Row] = [
            Row(
                name: "sms-default", mechanism: .runLoopTimer(interval: second), mode: .default,
                countdownSeconds: seconds, actions: config.countdownActions),
            Row(
                name: "sms-common", mechanism: .runLoopTimer(interval: second), mode: .common,
                countdownSeconds: seconds,
                actions: config.countdownActions),
            Row(
                name: "sms-gcd",
                mechanism: .dispatchTimer(interval: second, clock: .continuous, queue: config.gcdQueue),
                mode: .default,
                countdownSeconds: seconds, actions: config.countdownActions),
            Row(
                name: "ticker", mechanism: .displayLink(refreshRate: config.tickerFPS), mode: config.tickerMode,
                startsAtLaunch: true),
        ]
        if uploadsLabel != nil {
            let pipeline = config.uploads.pipeline
            rows.append(
                Row(
                    name: UploadPipeline.Job.sample.timerName,
                    mechanism: .uploadJob(.sample, interval: pipeline.sampleInterval), mode: pipeline.mode,
                    startsAtLaunch: true))
            rows.append(
                Row(
                    name: UploadPipeline.Job.upload.timerName,
                    mechanism: .uploadJob(.upload, interval: pipeline.uploadInterval), mode: pipeline.mode,
                    startsAtLaunch: true))
        }
        rows += config.timers.map(Row.init(defined:))
        return Scene(
            rows: rows, uploadsLabel: uploadsLabel, gestureQuiet: config.gestureQuiet,
            logCapacity: config.logCapacity, simulatedSleep: config.simulatedSleep)
    }
}

extension Scene {
    /// The names of the standard scene's own rows, which a defined timer cannot take.
    static let builtInNames = ["sms-default", "sms-common", "sms-gcd", "ticker", "sampler", "uploader"]
}

extension UploadPipeline.Job {
    /// The job's name in the inspector and the fire log.
    var timerName: String { self == .sample ? "sampler" : "uploader" }
}
